// LASzip's integer compressor: a value is coded as its difference from a prediction, by the
// number k of the difference's significant bits (one symbol model per context) and then the
// k bits (a model per k for the top `bits_high` bits, raw bits below).
#ifndef LAZCODEC_INTEGER_H
#define LAZCODEC_INTEGER_H
#include "arithmetic.h"

typedef struct {
    uint32_t bits, contexts, bits_high, corr_bits, corr_range;
    int32_t corr_min, corr_max;
    /// `contexts` models of k (corr_bits + 1 symbols).
    laz_symbol_model *m_bits;
    /// The models of the corrector, by k (index 0 unused: k = 0 is a bit model).
    laz_symbol_model *m_corrector;
    laz_bit_model corrector0;
    /// k of the last value coded.
    uint32_t k;
    int decoder;
} laz_integer;

/// Sets up `ic` for values of `bits` bits (32: any), `contexts` contexts, `bits_high` modelled
/// bits, `range` (0: 2^bits). Returns 0 or -1 (memory).
int laz_integer_create(laz_integer *ic, uint32_t bits, uint32_t contexts, uint32_t bits_high, uint32_t range, int decoder);
/// Resets every model (a chunk's start). Returns 0 or -1 (memory).
int laz_integer_init(laz_integer *ic);
void laz_integer_free(laz_integer *ic);

static inline int32_t laz_integer_read_corrector(laz_integer *ic, laz_decoder *d, laz_symbol_model *m_bits) {
    int32_t c;
    uint32_t k = ic->k = laz_decode_symbol(d, m_bits);
    if (k) {
        if (k < 32) {
            if (k <= ic->bits_high) {
                c = (int32_t)laz_decode_symbol(d, &ic->m_corrector[k]);
            } else {
                uint32_t k1 = k - ic->bits_high;
                c = (int32_t)laz_decode_symbol(d, &ic->m_corrector[k]);
                uint32_t c1 = laz_decode_bits(d, k1);
                c = (int32_t)(((uint32_t)c << k1) | c1);
            }
            if (c >= (int32_t)(1u << (k - 1))) c += 1;
            else c -= (int32_t)((1u << k) - 1);
        } else {
            c = ic->corr_min;
        }
    } else {
        c = (int32_t)laz_decode_bit(d, &ic->corrector0);
    }
    return c;
}

static inline int32_t laz_integer_decompress(laz_integer *ic, laz_decoder *d, int32_t pred, uint32_t context) {
    int32_t real = (int32_t)((uint32_t)pred + (uint32_t)laz_integer_read_corrector(ic, d, &ic->m_bits[context]));
    if (real < 0) real = (int32_t)((uint32_t)real + ic->corr_range);
    else if ((uint32_t)real >= ic->corr_range) real = (int32_t)((uint32_t)real - ic->corr_range);
    return real;
}

static inline void laz_integer_write_corrector(laz_integer *ic, laz_encoder *e, int32_t c, laz_symbol_model *m_bits) {
    uint32_t c1 = c <= 0 ? (uint32_t)0 - (uint32_t)c : (uint32_t)c - 1;
    uint32_t k = 0;
    while (c1) {
        c1 >>= 1;
        k++;
    }
    ic->k = k;
    laz_encode_symbol(e, m_bits, k);
    if (k) {
        if (k < 32) {
            uint32_t v = c < 0 ? (uint32_t)c + ((1u << k) - 1) : (uint32_t)c - 1;
            if (k <= ic->bits_high) {
                laz_encode_symbol(e, &ic->m_corrector[k], v);
            } else {
                uint32_t k1 = k - ic->bits_high;
                uint32_t low = v & ((1u << k1) - 1);
                laz_encode_symbol(e, &ic->m_corrector[k], v >> k1);
                laz_encode_bits(e, k1, low);
            }
        }
    } else {
        laz_encode_bit(e, &ic->corrector0, (uint32_t)c);
    }
}

static inline void laz_integer_compress(laz_integer *ic, laz_encoder *e, int32_t pred, int32_t real, uint32_t context) {
    int32_t corr = (int32_t)((uint32_t)real - (uint32_t)pred);
    if (corr < ic->corr_min) corr = (int32_t)((uint32_t)corr + ic->corr_range);
    else if (corr > ic->corr_max) corr = (int32_t)((uint32_t)corr - ic->corr_range);
    laz_integer_write_corrector(ic, e, corr, &ic->m_bits[context]);
}
#endif
