// Adaptive symbol models (see models.h).
#include "models.h"
#include <stdlib.h>

int laz_symbol_model_init(laz_symbol_model *m, uint32_t symbols, int decoder) {
    if (m->distribution == NULL) {
        if (symbols < 2 || symbols > (1u << 11)) return -1;
        uint32_t table_size = 0, table_shift = 0;
        if (decoder && symbols > 16) {
            uint32_t table_bits = 3;
            while (symbols > (1u << (table_bits + 2))) ++table_bits;
            table_size = 1u << table_bits;
            table_shift = LAZ_SYMBOL_SHIFT - table_bits;
        }
        uint32_t *storage = malloc(sizeof(uint32_t) * (2 * symbols + (table_size ? table_size + 2 : 0)));
        if (storage == NULL) return -1;
        m->distribution = storage;
        m->symbol_count = storage + symbols;
        m->decoder_table = table_size ? storage + 2 * symbols : NULL;
        m->symbols = symbols;
        m->last_symbol = symbols - 1;
        m->table_size = table_size;
        m->table_shift = table_shift;
    }
    m->pending = 1;
    return 0;
}

void laz_symbol_model_start(laz_symbol_model *m) {
    m->pending = 0;
    m->total_count = 0;
    m->update_cycle = m->symbols;
    for (uint32_t k = 0; k < m->symbols; k++) m->symbol_count[k] = 1;
    laz_symbol_model_update(m);
    m->symbols_until_update = m->update_cycle = (m->symbols + 6) >> 1;
}

void laz_symbol_model_update(laz_symbol_model *m) {
    if ((m->total_count += m->update_cycle) > LAZ_SYMBOL_MAX_COUNT) {
        m->total_count = 0;
        for (uint32_t n = 0; n < m->symbols; n++) m->total_count += (m->symbol_count[n] = (m->symbol_count[n] + 1) >> 1);
    }
    uint32_t sum = 0, s = 0;
    uint32_t scale = 0x80000000u / m->total_count;
    if (m->decoder_table == NULL) {
        for (uint32_t k = 0; k < m->symbols; k++) {
            m->distribution[k] = (scale * sum) >> (31 - LAZ_SYMBOL_SHIFT);
            sum += m->symbol_count[k];
        }
    } else {
        for (uint32_t k = 0; k < m->symbols; k++) {
            m->distribution[k] = (scale * sum) >> (31 - LAZ_SYMBOL_SHIFT);
            sum += m->symbol_count[k];
            uint32_t w = m->distribution[k] >> m->table_shift;
            while (s < w) m->decoder_table[++s] = k - 1;
        }
        m->decoder_table[0] = 0;
        while (s <= m->table_size) m->decoder_table[++s] = m->symbols - 1;
    }
    m->update_cycle = (5 * m->update_cycle) >> 2;
    uint32_t max_cycle = (m->symbols + 6) << 3;
    if (m->update_cycle > max_cycle) m->update_cycle = max_cycle;
    m->symbols_until_update = m->update_cycle;
}

void laz_symbol_model_free(laz_symbol_model *m) {
    free(m->distribution);
    m->distribution = m->symbol_count = m->decoder_table = NULL;
}
