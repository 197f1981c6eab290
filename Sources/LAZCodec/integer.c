// The integer compressor's set-up (see integer.h).
#include "integer.h"

int laz_integer_create(laz_integer *ic, uint32_t bits, uint32_t contexts, uint32_t bits_high, uint32_t range, int decoder) {
    memset(ic, 0, sizeof *ic);
    ic->bits = bits;
    ic->contexts = contexts;
    ic->bits_high = bits_high;
    ic->decoder = decoder;
    if (range) {
        ic->corr_bits = 0;
        ic->corr_range = range;
        while (range) {
            range >>= 1;
            ic->corr_bits++;
        }
        if (ic->corr_range == (1u << (ic->corr_bits - 1))) ic->corr_bits--;
        ic->corr_min = -(int32_t)(ic->corr_range / 2);
        ic->corr_max = (int32_t)((uint32_t)ic->corr_min + ic->corr_range - 1);
    } else if (bits && bits < 32) {
        ic->corr_bits = bits;
        ic->corr_range = 1u << bits;
        ic->corr_min = -(int32_t)(ic->corr_range / 2);
        ic->corr_max = (int32_t)((uint32_t)ic->corr_min + ic->corr_range - 1);
    } else {
        ic->corr_bits = 32;
        ic->corr_range = 0;
        ic->corr_min = INT32_MIN;
        ic->corr_max = INT32_MAX;
    }
    ic->m_bits = calloc(contexts, sizeof(laz_symbol_model));
    ic->m_corrector = calloc(ic->corr_bits + 1, sizeof(laz_symbol_model));
    if (ic->m_bits == NULL || ic->m_corrector == NULL) return -1;
    return laz_integer_init(ic);
}

int laz_integer_init(laz_integer *ic) {
    for (uint32_t i = 0; i < ic->contexts; i++)
        if (laz_symbol_model_init(&ic->m_bits[i], ic->corr_bits + 1, ic->decoder)) return -1;
    laz_bit_model_init(&ic->corrector0);
    for (uint32_t i = 1; i <= ic->corr_bits; i++) {
        uint32_t symbols = i <= ic->bits_high ? 1u << i : 1u << ic->bits_high;
        if (laz_symbol_model_init(&ic->m_corrector[i], symbols, ic->decoder)) return -1;
    }
    ic->k = 0;
    return 0;
}

void laz_integer_free(laz_integer *ic) {
    if (ic->m_bits)
        for (uint32_t i = 0; i < ic->contexts; i++) laz_symbol_model_free(&ic->m_bits[i]);
    if (ic->m_corrector)
        for (uint32_t i = 0; i <= ic->corr_bits; i++) laz_symbol_model_free(&ic->m_corrector[i]);
    free(ic->m_bits);
    free(ic->m_corrector);
    ic->m_bits = ic->m_corrector = NULL;
}
