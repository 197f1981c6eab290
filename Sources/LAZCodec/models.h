// Adaptive models of LASzip's arithmetic coder (after Amir Said's FastAC): a multi-symbol model
// whose cumulative distribution is rebuilt at growing intervals, and a binary model. Encoder and
// decoder must update them identically; the decoder's lookup table only speeds up the search.
#ifndef LAZCODEC_MODELS_H
#define LAZCODEC_MODELS_H
#include <stdint.h>

enum {
    /// Interval length bits a symbol model's probabilities keep (DM__LengthShift).
    LAZ_SYMBOL_SHIFT = 15,
    LAZ_SYMBOL_MAX_COUNT = 1 << LAZ_SYMBOL_SHIFT,
    /// Interval length bits a bit model's probability keeps (BM__LengthShift).
    LAZ_BIT_SHIFT = 13,
    LAZ_BIT_MAX_COUNT = 1 << LAZ_BIT_SHIFT,
};

typedef struct {
    /// `symbols` cumulative probabilities, `symbols` counts, then (decoders of more than 16
    /// symbols) `table_size + 2` table entries, in one allocation.
    uint32_t *distribution, *symbol_count, *decoder_table;
    uint32_t total_count, update_cycle, symbols_until_update;
    uint32_t symbols, last_symbol, table_size, table_shift;
    /// Reset but not yet equiprobable: the first symbol coded with the model makes it so. A chunk
    /// sets up hundreds of models (an integer compressor has one per corrector width) and uses a
    /// few, so the reset's cost is paid only for those.
    uint32_t pending;
} laz_symbol_model;

typedef struct {
    uint32_t update_cycle, bits_until_update;
    uint32_t bit_0_prob, bit_0_count, bit_count;
} laz_bit_model;

/// Allocates (first call) and resets `m` to `symbols` equiprobable symbols (2…2048), which takes
/// effect when the model is first used (`laz_symbol_model_ready`). `decoder` builds the lookup
/// table. Returns 0, or -1 when memory runs out.
int laz_symbol_model_init(laz_symbol_model *m, uint32_t symbols, int decoder);
/// Makes a reset model equiprobable: its counts, distribution and lookup table.
void laz_symbol_model_start(laz_symbol_model *m);
/// Called before every symbol coded with `m`: the model's first use after a reset starts it.
static inline void laz_symbol_model_ready(laz_symbol_model *m) {
    if (__builtin_expect(m->pending != 0, 0)) laz_symbol_model_start(m);
}
/// Rebuilds the distribution from the counts (halving them past the maximum).
void laz_symbol_model_update(laz_symbol_model *m);
void laz_symbol_model_free(laz_symbol_model *m);

/// Resets `m` to equiprobable.
static inline void laz_bit_model_init(laz_bit_model *m) {
    m->bit_0_count = 1;
    m->bit_count = 2;
    m->bit_0_prob = 1u << (LAZ_BIT_SHIFT - 1);
    m->update_cycle = m->bits_until_update = 4;
}

/// Recomputes the probability of a 0 from the counts.
static inline void laz_bit_model_update(laz_bit_model *m) {
    if ((m->bit_count += m->update_cycle) > LAZ_BIT_MAX_COUNT) {
        m->bit_count = (m->bit_count + 1) >> 1;
        m->bit_0_count = (m->bit_0_count + 1) >> 1;
        if (m->bit_0_count == m->bit_count) ++m->bit_count;
    }
    uint32_t scale = 0x80000000u / m->bit_count;
    m->bit_0_prob = (m->bit_0_count * scale) >> (31 - LAZ_BIT_SHIFT);
    m->update_cycle = (5 * m->update_cycle) >> 2;
    if (m->update_cycle > 64) m->update_cycle = 64;
    m->bits_until_update = m->update_cycle;
}
#endif
