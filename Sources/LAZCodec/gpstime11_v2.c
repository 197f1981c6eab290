// GPSTIME11 version 2: the GPS time double, coded as its 64-bit integer pattern. Up to four
// interleaved sequences; a difference is predicted as a multiple of the sequence's last one.
#include "items_v2.h"

enum {
    MULTI = 500,
    MULTI_MINUS = -10,
    MULTI_UNCHANGED = MULTI - MULTI_MINUS + 1,
    MULTI_CODE_FULL = MULTI - MULTI_MINUS + 2,
    MULTI_TOTAL = MULTI - MULTI_MINUS + 6,
};

int laz_gpstime11_v2_create(laz_gpstime11_v2 *s, int decoder) {
    memset(s, 0, sizeof *s);
    s->decoder = decoder;
    return laz_integer_create(&s->gpstime, 32, 9, 8, 0, decoder);
}

int laz_gpstime11_v2_init(laz_gpstime11_v2 *s, const uint8_t *item) {
    s->last = s->next = 0;
    for (int i = 0; i < 4; i++) {
        s->last_gpstime_diff[i] = 0;
        s->multi_extreme_counter[i] = 0;
        s->last_gpstime[i] = 0;
    }
    memcpy(&s->last_gpstime[0], item, 8);
    if (laz_symbol_model_init(&s->multi, MULTI_TOTAL, s->decoder) || laz_symbol_model_init(&s->zero_diff, 6, s->decoder)
        || laz_integer_init(&s->gpstime))
        return -1;
    return 0;
}

static inline int64_t add64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int32_t mul32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }

/// A value that took the full path: the high 32 bits predicted from the sequence's, the low raw.
static inline void decode_full(laz_gpstime11_v2 *s, laz_decoder *d) {
    s->next = (s->next + 1) & 3;
    uint64_t high = (uint32_t)laz_integer_decompress(&s->gpstime, d, (int32_t)((uint64_t)s->last_gpstime[s->last] >> 32), 8);
    s->last_gpstime[s->next] = (int64_t)((high << 32) | laz_decode_int(d));
    s->last = s->next;
    s->last_gpstime_diff[s->last] = 0;
    s->multi_extreme_counter[s->last] = 0;
}

/// A difference that, after four in a row, becomes the sequence's prediction.
static inline void count_extreme(laz_gpstime11_v2 *s, int32_t diff) {
    if (++s->multi_extreme_counter[s->last] > 3) {
        s->last_gpstime_diff[s->last] = diff;
        s->multi_extreme_counter[s->last] = 0;
    }
}

void laz_gpstime11_v2_decode(laz_gpstime11_v2 *s, laz_decoder *d, uint8_t *item) {
    // A switch to another sequence repeats the decision; at most three switches are meaningful,
    // and a damaged stream could ask for more: bounded so it cannot spin.
    for (int round = 0; round < 8; round++) {
        uint32_t last = s->last;
        if (s->last_gpstime_diff[last] == 0) {
            uint32_t multi = laz_decode_symbol(d, &s->zero_diff);
            if (multi == 1) {
                s->last_gpstime_diff[last] = laz_integer_decompress(&s->gpstime, d, 0, 0);
                s->last_gpstime[last] = add64(s->last_gpstime[last], s->last_gpstime_diff[last]);
                s->multi_extreme_counter[last] = 0;
            } else if (multi == 2) {
                decode_full(s, d);
            } else if (multi > 2) {
                s->last = (last + multi - 2) & 3;
                continue;
            }
        } else {
            uint32_t multi = laz_decode_symbol(d, &s->multi);
            if (multi == 1) {
                s->last_gpstime[last] = add64(s->last_gpstime[last], laz_integer_decompress(&s->gpstime, d, s->last_gpstime_diff[last], 1));
                s->multi_extreme_counter[last] = 0;
            } else if (multi < MULTI_UNCHANGED) {
                int32_t diff;
                if (multi == 0) {
                    diff = laz_integer_decompress(&s->gpstime, d, 0, 7);
                    count_extreme(s, diff);
                } else if (multi < MULTI) {
                    diff = laz_integer_decompress(&s->gpstime, d, mul32((int32_t)multi, s->last_gpstime_diff[last]), multi < 10 ? 2 : 3);
                } else if (multi == MULTI) {
                    diff = laz_integer_decompress(&s->gpstime, d, mul32(MULTI, s->last_gpstime_diff[last]), 4);
                    count_extreme(s, diff);
                } else {
                    int32_t negative = MULTI - (int32_t)multi;
                    if (negative > MULTI_MINUS) {
                        diff = laz_integer_decompress(&s->gpstime, d, mul32(negative, s->last_gpstime_diff[last]), 5);
                    } else {
                        diff = laz_integer_decompress(&s->gpstime, d, mul32(MULTI_MINUS, s->last_gpstime_diff[last]), 6);
                        count_extreme(s, diff);
                    }
                }
                s->last_gpstime[last] = add64(s->last_gpstime[last], diff);
            } else if (multi == MULTI_CODE_FULL) {
                decode_full(s, d);
            } else if (multi > MULTI_CODE_FULL) {
                s->last = (last + multi - MULTI_CODE_FULL) & 3;
                continue;
            }
        }
        break;
    }
    memcpy(item, &s->last_gpstime[s->last], 8);
}

/// Whether `a − b` fits 32 bits, and the difference.
static inline int fits32(int64_t a, int64_t b, int32_t *diff) {
    int64_t d = (int64_t)((uint64_t)a - (uint64_t)b);
    *diff = (int32_t)d;
    return d == (int64_t)*diff;
}

/// LASzip's rounding of the multiplier: to nearest, halves away from zero, in single precision;
/// saturated where an integer cannot hold it.
static inline int32_t quantize(float f) {
    float r = f >= 0 ? f + 0.5f : f - 0.5f;
    if (!(r < 2147483648.0f)) return INT32_MAX;
    if (!(r > -2147483648.0f)) return INT32_MIN;
    return (int32_t)r;
}

/// Codes a switch to the first other sequence `now` is within 32 bits of (symbol `full` + i for
/// the i-th one after the current), if any.
static inline int switch_sequence(laz_gpstime11_v2 *s, laz_encoder *e, laz_symbol_model *model, uint32_t full, int64_t now) {
    int32_t other;
    for (uint32_t i = 1; i < 4; i++) {
        if (fits32(now, s->last_gpstime[(s->last + i) & 3], &other)) {
            laz_encode_symbol(e, model, full + i);
            s->last = (s->last + i) & 3;
            return 1;
        }
    }
    return 0;
}

void laz_gpstime11_v2_encode(laz_gpstime11_v2 *s, laz_encoder *e, const uint8_t *item) {
    int64_t now;
    memcpy(&now, item, 8);
    for (;;) {
        uint32_t last = s->last;
        int32_t diff;
        if (s->last_gpstime_diff[last] == 0) {
            if (now == s->last_gpstime[last]) {
                laz_encode_symbol(e, &s->zero_diff, 0);
                return;
            }
            if (fits32(now, s->last_gpstime[last], &diff)) {
                laz_encode_symbol(e, &s->zero_diff, 1);
                laz_integer_compress(&s->gpstime, e, 0, diff, 0);
                s->last_gpstime_diff[last] = diff;
                s->multi_extreme_counter[last] = 0;
                s->last_gpstime[last] = now;
                return;
            }
            if (switch_sequence(s, e, &s->zero_diff, 2, now)) continue;
            laz_encode_symbol(e, &s->zero_diff, 2);
        } else {
            if (now == s->last_gpstime[last]) {
                laz_encode_symbol(e, &s->multi, MULTI_UNCHANGED);
                return;
            }
            if (fits32(now, s->last_gpstime[last], &diff)) {
                int32_t previous = s->last_gpstime_diff[last];
                int32_t multi = quantize((float)diff / (float)previous);
                if (multi == 1) {
                    laz_encode_symbol(e, &s->multi, 1);
                    laz_integer_compress(&s->gpstime, e, previous, diff, 1);
                    s->multi_extreme_counter[last] = 0;
                } else if (multi > 0) {
                    if (multi < MULTI) {
                        laz_encode_symbol(e, &s->multi, (uint32_t)multi);
                        laz_integer_compress(&s->gpstime, e, mul32(multi, previous), diff, multi < 10 ? 2 : 3);
                    } else {
                        laz_encode_symbol(e, &s->multi, MULTI);
                        laz_integer_compress(&s->gpstime, e, mul32(MULTI, previous), diff, 4);
                        count_extreme(s, diff);
                    }
                } else if (multi < 0) {
                    if (multi > MULTI_MINUS) {
                        laz_encode_symbol(e, &s->multi, (uint32_t)(MULTI - multi));
                        laz_integer_compress(&s->gpstime, e, mul32(multi, previous), diff, 5);
                    } else {
                        laz_encode_symbol(e, &s->multi, MULTI - MULTI_MINUS);
                        laz_integer_compress(&s->gpstime, e, mul32(MULTI_MINUS, previous), diff, 6);
                        count_extreme(s, diff);
                    }
                } else {
                    laz_encode_symbol(e, &s->multi, 0);
                    laz_integer_compress(&s->gpstime, e, 0, diff, 7);
                    count_extreme(s, diff);
                }
                s->last_gpstime[last] = now;
                return;
            }
            if (switch_sequence(s, e, &s->multi, MULTI_CODE_FULL, now)) continue;
            laz_encode_symbol(e, &s->multi, MULTI_CODE_FULL);
        }
        // The full path: a new sequence.
        laz_integer_compress(&s->gpstime, e, (int32_t)((uint64_t)s->last_gpstime[last] >> 32), (int32_t)((uint64_t)now >> 32), 8);
        laz_encode_int(e, (uint32_t)(uint64_t)now);
        s->next = (s->next + 1) & 3;
        s->last = s->next;
        s->last_gpstime_diff[s->last] = 0;
        s->multi_extreme_counter[s->last] = 0;
        s->last_gpstime[s->last] = now;
        return;
    }
}

void laz_gpstime11_v2_free(laz_gpstime11_v2 *s) {
    laz_integer_free(&s->gpstime);
    laz_symbol_model_free(&s->multi);
    laz_symbol_model_free(&s->zero_diff);
}
