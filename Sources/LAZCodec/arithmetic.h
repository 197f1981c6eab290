// LASzip's arithmetic coder: 32-bit interval, byte-wise renormalisation, carries propagated into
// bytes already written. Decoding reads only inside its buffer: a read past the end yields 0 and
// counts an overrun, which the chunk decoder reports as a stream that ran out.
#ifndef LAZCODEC_ARITHMETIC_H
#define LAZCODEC_ARITHMETIC_H
#include "lazcodec.h"
#include "models.h"
#include <stdlib.h>
#include <string.h>

enum {
    LAZ_MIN_LENGTH = 0x01000000u,
};
#define LAZ_MAX_LENGTH 0xFFFFFFFFu

typedef struct {
    const uint8_t *next, *end;
    uint32_t value, length;
    /// Bytes asked for past `end`.
    size_t overrun;
    /// Set when a raw value decoded out of its range (a damaged stream).
    int corrupt;
} laz_decoder;

static inline uint8_t laz_decoder_byte(laz_decoder *d) {
    if (d->next < d->end) return *d->next++;
    d->overrun++;
    return 0;
}

/// Starts decoding the stream `[start, end)`: reads its first four bytes.
static inline void laz_decoder_start(laz_decoder *d, const uint8_t *start, const uint8_t *end) {
    d->next = start;
    d->end = end;
    d->overrun = 0;
    d->corrupt = 0;
    d->length = LAZ_MAX_LENGTH;
    d->value = (uint32_t)laz_decoder_byte(d) << 24;
    d->value |= (uint32_t)laz_decoder_byte(d) << 16;
    d->value |= (uint32_t)laz_decoder_byte(d) << 8;
    d->value |= (uint32_t)laz_decoder_byte(d);
}

static inline void laz_decoder_renormalize(laz_decoder *d) {
    do {
        d->value = (d->value << 8) | laz_decoder_byte(d);
    } while ((d->length <<= 8) < LAZ_MIN_LENGTH);
}

static inline uint32_t laz_decode_bit(laz_decoder *d, laz_bit_model *m) {
    uint32_t x = m->bit_0_prob * (d->length >> LAZ_BIT_SHIFT);
    uint32_t sym = d->value >= x;
    if (sym == 0) {
        d->length = x;
        ++m->bit_0_count;
    } else {
        d->value -= x;
        d->length -= x;
    }
    if (d->length < LAZ_MIN_LENGTH) laz_decoder_renormalize(d);
    if (--m->bits_until_update == 0) laz_bit_model_update(m);
    return sym;
}

static inline uint32_t laz_decode_symbol(laz_decoder *d, laz_symbol_model *m) {
    laz_symbol_model_ready(m);
    uint32_t n, sym, x, y = d->length;
    if (m->decoder_table) {
        uint32_t dv = d->value / (d->length >>= LAZ_SYMBOL_SHIFT);
        uint32_t t = dv >> m->table_shift;
        // A damaged stream can put the value past the interval; the table then ends the search.
        if (t > m->table_size) t = m->table_size;
        sym = m->decoder_table[t];
        n = m->decoder_table[t + 1] + 1;
        while (n > sym + 1) {
            uint32_t k = (sym + n) >> 1;
            if (m->distribution[k] > dv) n = k; else sym = k;
        }
        x = m->distribution[sym] * d->length;
        if (sym != m->last_symbol) y = m->distribution[sym + 1] * d->length;
    } else {
        x = sym = 0;
        d->length >>= LAZ_SYMBOL_SHIFT;
        uint32_t k = (n = m->symbols) >> 1;
        do {
            uint32_t z = d->length * m->distribution[k];
            if (z > d->value) {
                n = k;
                y = z;
            } else {
                sym = k;
                x = z;
            }
        } while ((k = (sym + n) >> 1) != sym);
    }
    d->value -= x;
    d->length = y - x;
    if (d->length < LAZ_MIN_LENGTH) laz_decoder_renormalize(d);
    ++m->symbol_count[sym];
    if (--m->symbols_until_update == 0) laz_symbol_model_update(m);
    return sym;
}

/// `bits` (1…19) raw bits.
static inline uint32_t laz_decode_raw(laz_decoder *d, uint32_t bits) {
    uint32_t sym = d->value / (d->length >>= bits);
    d->value -= d->length * sym;
    if (d->length < LAZ_MIN_LENGTH) laz_decoder_renormalize(d);
    if (sym >= (1u << bits)) {
        d->corrupt = 1;
        sym &= (1u << bits) - 1;
    }
    return sym;
}

/// `bits` (1…32) raw bits; above 19, the low 16 first.
static inline uint32_t laz_decode_bits(laz_decoder *d, uint32_t bits) {
    if (bits > 19) {
        uint32_t low = laz_decode_raw(d, 16);
        return (laz_decode_bits(d, bits - 16) << 16) | low;
    }
    return laz_decode_raw(d, bits);
}

static inline uint32_t laz_decode_int(laz_decoder *d) {
    uint32_t low = laz_decode_raw(d, 16);
    uint32_t high = laz_decode_raw(d, 16);
    return (high << 16) | low;
}

// ---- Encoder ----

static inline int laz_bytes_reserve(laz_bytes *b, size_t more) {
    if (b->failed) return 0;
    if (b->size + more <= b->capacity) return 1;
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < b->size + more) capacity *= 2;
    uint8_t *data = realloc(b->data, capacity);
    if (data == NULL) {
        b->failed = 1;
        return 0;
    }
    b->data = data;
    b->capacity = capacity;
    return 1;
}

static inline void laz_bytes_append(laz_bytes *b, const void *bytes, size_t count) {
    if (!laz_bytes_reserve(b, count)) return;
    memcpy(b->data + b->size, bytes, count);
    b->size += count;
}

typedef struct {
    laz_bytes *out;
    /// Where this stream's bytes begin in `out` (a carry never reaches before it).
    size_t start;
    uint32_t base, length;
} laz_encoder;

static inline void laz_encoder_start(laz_encoder *e, laz_bytes *out) {
    e->out = out;
    e->start = out->size;
    e->base = 0;
    e->length = LAZ_MAX_LENGTH;
}

static inline void laz_encoder_carry(laz_encoder *e) {
    size_t p = e->out->size;
    while (p > e->start) {
        --p;
        if (e->out->data[p] != 0xFF) {
            ++e->out->data[p];
            return;
        }
        e->out->data[p] = 0;
    }
}

static inline void laz_encoder_renormalize(laz_encoder *e) {
    do {
        if (laz_bytes_reserve(e->out, 1)) e->out->data[e->out->size++] = (uint8_t)(e->base >> 24);
        e->base <<= 8;
    } while ((e->length <<= 8) < LAZ_MIN_LENGTH);
}

static inline void laz_encode_bit(laz_encoder *e, laz_bit_model *m, uint32_t sym) {
    uint32_t x = m->bit_0_prob * (e->length >> LAZ_BIT_SHIFT);
    if (sym == 0) {
        e->length = x;
        ++m->bit_0_count;
    } else {
        uint32_t init_base = e->base;
        e->base += x;
        e->length -= x;
        if (init_base > e->base) laz_encoder_carry(e);
    }
    if (e->length < LAZ_MIN_LENGTH) laz_encoder_renormalize(e);
    if (--m->bits_until_update == 0) laz_bit_model_update(m);
}

static inline void laz_encode_symbol(laz_encoder *e, laz_symbol_model *m, uint32_t sym) {
    laz_symbol_model_ready(m);
    uint32_t x, init_base = e->base;
    if (sym == m->last_symbol) {
        x = m->distribution[sym] * (e->length >> LAZ_SYMBOL_SHIFT);
        e->base += x;
        e->length -= x;
    } else {
        x = m->distribution[sym] * (e->length >>= LAZ_SYMBOL_SHIFT);
        e->base += x;
        e->length = m->distribution[sym + 1] * e->length - x;
    }
    if (init_base > e->base) laz_encoder_carry(e);
    if (e->length < LAZ_MIN_LENGTH) laz_encoder_renormalize(e);
    ++m->symbol_count[sym];
    if (--m->symbols_until_update == 0) laz_symbol_model_update(m);
}

/// `bits` (1…19) raw bits of `sym`.
static inline void laz_encode_raw(laz_encoder *e, uint32_t bits, uint32_t sym) {
    uint32_t init_base = e->base;
    e->base += sym * (e->length >>= bits);
    if (init_base > e->base) laz_encoder_carry(e);
    if (e->length < LAZ_MIN_LENGTH) laz_encoder_renormalize(e);
}

static inline void laz_encode_bits(laz_encoder *e, uint32_t bits, uint32_t sym) {
    if (bits > 19) {
        laz_encode_raw(e, 16, sym & 0xFFFF);
        sym >>= 16;
        bits -= 16;
    }
    laz_encode_raw(e, bits, sym);
}

static inline void laz_encode_int(laz_encoder *e, uint32_t sym) {
    laz_encode_raw(e, 16, sym & 0xFFFF);
    laz_encode_raw(e, 16, sym >> 16);
}

/// Ends the stream: the bytes that pin the interval down, then the padding LASzip writes.
static inline void laz_encoder_finish(laz_encoder *e) {
    uint32_t init_base = e->base;
    int another_byte = 1;
    if (e->length > 2 * LAZ_MIN_LENGTH) {
        e->base += LAZ_MIN_LENGTH;
        e->length = LAZ_MIN_LENGTH >> 1;
    } else {
        e->base += LAZ_MIN_LENGTH >> 1;
        e->length = LAZ_MIN_LENGTH >> 9;
        another_byte = 0;
    }
    if (init_base > e->base) laz_encoder_carry(e);
    laz_encoder_renormalize(e);
    static const uint8_t zeros[3] = {0, 0, 0};
    laz_bytes_append(e->out, zeros, another_byte ? 3 : 2);
}
#endif
