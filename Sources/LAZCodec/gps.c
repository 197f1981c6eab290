// GPS time coding (see gps.h).
#include "gps.h"

enum {
    MULTI = 500,
    MULTI_MINUS = -10,
    /// Version 3's code for a value coded in full (version 2: one more; its 511 is "unchanged").
    CODE_FULL = MULTI - MULTI_MINUS + 1,
};

int laz_gps_create(laz_gps *g, int version2, int decoder) {
    memset(g, 0, sizeof *g);
    g->shift = version2 ? 1 : 0;
    g->decoder = decoder;
    return laz_integer_create(&g->gpstime, 32, 9, 8, 0, decoder);
}

int laz_gps_init(laz_gps *g, int64_t first) {
    g->last = g->next = 0;
    for (int i = 0; i < 4; i++) {
        g->last_gpstime_diff[i] = 0;
        g->multi_extreme_counter[i] = 0;
        g->last_gpstime[i] = 0;
    }
    g->last_gpstime[0] = first;
    if (laz_symbol_model_init(&g->multi, CODE_FULL + 4 + g->shift, g->decoder) || laz_symbol_model_init(&g->zero_diff, 5 + g->shift, g->decoder)
        || laz_integer_init(&g->gpstime))
        return -1;
    return 0;
}

void laz_gps_free(laz_gps *g) {
    laz_integer_free(&g->gpstime);
    laz_symbol_model_free(&g->multi);
    laz_symbol_model_free(&g->zero_diff);
}

static inline int64_t add64(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int32_t mul32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }

/// A value coded in full starts a new sequence: the high 32 bits predicted from the current
/// sequence's, the low 32 raw.
static inline void decode_full(laz_gps *g, laz_decoder *d) {
    g->next = (g->next + 1) & 3;
    uint64_t high = (uint32_t)laz_integer_decompress(&g->gpstime, d, (int32_t)((uint64_t)g->last_gpstime[g->last] >> 32), 8);
    g->last_gpstime[g->next] = (int64_t)((high << 32) | laz_decode_int(d));
    g->last = g->next;
    g->last_gpstime_diff[g->last] = 0;
    g->multi_extreme_counter[g->last] = 0;
}

/// A difference that, after four in a row, becomes the sequence's prediction.
static inline void count_extreme(laz_gps *g, int32_t diff) {
    if (++g->multi_extreme_counter[g->last] > 3) {
        g->last_gpstime_diff[g->last] = diff;
        g->multi_extreme_counter[g->last] = 0;
    }
}

/// The difference coded against `multi` times the sequence's last one (a symbol below CODE_FULL).
static inline int32_t decode_multiple(laz_gps *g, laz_decoder *d, uint32_t multi) {
    int32_t previous = g->last_gpstime_diff[g->last], diff;
    if (multi == 0) {
        diff = laz_integer_decompress(&g->gpstime, d, 0, 7);
        count_extreme(g, diff);
    } else if (multi < MULTI) {
        diff = laz_integer_decompress(&g->gpstime, d, mul32((int32_t)multi, previous), multi < 10 ? 2 : 3);
    } else if (multi == MULTI) {
        diff = laz_integer_decompress(&g->gpstime, d, mul32(MULTI, previous), 4);
        count_extreme(g, diff);
    } else {
        int32_t negative = MULTI - (int32_t)multi;
        if (negative > MULTI_MINUS) {
            diff = laz_integer_decompress(&g->gpstime, d, mul32(negative, previous), 5);
        } else {
            diff = laz_integer_decompress(&g->gpstime, d, mul32(MULTI_MINUS, previous), 6);
            count_extreme(g, diff);
        }
    }
    return diff;
}

void laz_gps_decode(laz_gps *g, laz_decoder *d) {
    // A switch to another sequence repeats the decision; a damaged stream could ask for more
    // switches than make sense: bounded so it cannot spin.
    for (int round = 0; round < 8; round++) {
        uint32_t last = g->last;
        if (g->last_gpstime_diff[last] == 0) {
            uint32_t sym = laz_decode_symbol(d, &g->zero_diff);
            if (g->shift && sym == 0) return;  // version 2: unchanged
            sym -= g->shift;
            if (sym == 0) {
                g->last_gpstime_diff[last] = laz_integer_decompress(&g->gpstime, d, 0, 0);
                g->last_gpstime[last] = add64(g->last_gpstime[last], g->last_gpstime_diff[last]);
                g->multi_extreme_counter[last] = 0;
            } else if (sym == 1) {
                decode_full(g, d);
            } else {
                g->last = (last + sym - 1) & 3;
                continue;
            }
        } else {
            uint32_t multi = laz_decode_symbol(d, &g->multi);
            if (multi == 1) {
                g->last_gpstime[last] = add64(g->last_gpstime[last], laz_integer_decompress(&g->gpstime, d, g->last_gpstime_diff[last], 1));
                g->multi_extreme_counter[last] = 0;
            } else if (multi < CODE_FULL) {
                g->last_gpstime[last] = add64(g->last_gpstime[last], decode_multiple(g, d, multi));
            } else if (g->shift && multi == CODE_FULL) {
                return;  // version 2: unchanged
            } else if (multi - g->shift == CODE_FULL) {
                decode_full(g, d);
            } else {
                g->last = (last + multi - g->shift - CODE_FULL) & 3;
                continue;
            }
        }
        return;
    }
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
static inline int switch_sequence(laz_gps *g, laz_encoder *e, laz_symbol_model *model, uint32_t full, int64_t now) {
    int32_t other;
    for (uint32_t i = 1; i < 4; i++) {
        if (fits32(now, g->last_gpstime[(g->last + i) & 3], &other)) {
            laz_encode_symbol(e, model, full + i);
            g->last = (g->last + i) & 3;
            return 1;
        }
    }
    return 0;
}

/// Codes `diff` against a multiple of the sequence's last difference.
static inline void encode_multiple(laz_gps *g, laz_encoder *e, int32_t diff) {
    int32_t previous = g->last_gpstime_diff[g->last];
    int32_t multi = quantize((float)diff / (float)previous);
    if (multi == 1) {
        laz_encode_symbol(e, &g->multi, 1);
        laz_integer_compress(&g->gpstime, e, previous, diff, 1);
        g->multi_extreme_counter[g->last] = 0;
    } else if (multi > 0) {
        if (multi < MULTI) {
            laz_encode_symbol(e, &g->multi, (uint32_t)multi);
            laz_integer_compress(&g->gpstime, e, mul32(multi, previous), diff, multi < 10 ? 2 : 3);
        } else {
            laz_encode_symbol(e, &g->multi, MULTI);
            laz_integer_compress(&g->gpstime, e, mul32(MULTI, previous), diff, 4);
            count_extreme(g, diff);
        }
    } else if (multi < 0) {
        if (multi > MULTI_MINUS) {
            laz_encode_symbol(e, &g->multi, (uint32_t)(MULTI - multi));
            laz_integer_compress(&g->gpstime, e, mul32(multi, previous), diff, 5);
        } else {
            laz_encode_symbol(e, &g->multi, MULTI - MULTI_MINUS);
            laz_integer_compress(&g->gpstime, e, mul32(MULTI_MINUS, previous), diff, 6);
            count_extreme(g, diff);
        }
    } else {
        laz_encode_symbol(e, &g->multi, 0);
        laz_integer_compress(&g->gpstime, e, 0, diff, 7);
        count_extreme(g, diff);
    }
}

void laz_gps_encode(laz_gps *g, laz_encoder *e, int64_t now) {
    for (;;) {
        uint32_t last = g->last;
        int32_t diff;
        if (g->last_gpstime_diff[last] == 0) {
            if (g->shift && now == g->last_gpstime[last]) {
                laz_encode_symbol(e, &g->zero_diff, 0);  // version 2: unchanged
                return;
            }
            if (fits32(now, g->last_gpstime[last], &diff)) {
                laz_encode_symbol(e, &g->zero_diff, g->shift);
                laz_integer_compress(&g->gpstime, e, 0, diff, 0);
                g->last_gpstime_diff[last] = diff;
                g->multi_extreme_counter[last] = 0;
                g->last_gpstime[last] = now;
                return;
            }
            if (switch_sequence(g, e, &g->zero_diff, 1 + g->shift, now)) continue;
            laz_encode_symbol(e, &g->zero_diff, 1 + g->shift);
        } else {
            if (g->shift && now == g->last_gpstime[last]) {
                laz_encode_symbol(e, &g->multi, CODE_FULL);  // version 2: unchanged
                return;
            }
            if (fits32(now, g->last_gpstime[last], &diff)) {
                encode_multiple(g, e, diff);
                g->last_gpstime[last] = now;
                return;
            }
            if (switch_sequence(g, e, &g->multi, CODE_FULL + g->shift, now)) continue;
            laz_encode_symbol(e, &g->multi, CODE_FULL + g->shift);
        }
        // In full: a new sequence.
        laz_integer_compress(&g->gpstime, e, (int32_t)((uint64_t)g->last_gpstime[last] >> 32), (int32_t)((uint64_t)now >> 32), 8);
        laz_encode_int(e, (uint32_t)(uint64_t)now);
        g->next = (g->next + 1) & 3;
        g->last = g->next;
        g->last_gpstime_diff[g->last] = 0;
        g->multi_extreme_counter[g->last] = 0;
        g->last_gpstime[g->last] = now;
        return;
    }
}
