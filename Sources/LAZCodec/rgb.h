// The colour coding LASzip's RGB12 (v2) and RGB14/RGBNIR14 (v3) items share: which bytes changed
// (and whether the point is grey), each changed byte of red as its difference from the previous
// point's, green and blue from the previous point's shifted by red's change.
#ifndef LAZCODEC_RGB_H
#define LAZCODEC_RGB_H
#include "arithmetic.h"

static inline uint32_t laz_clamp8(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v; }

/// Decodes a colour into `c` from `last` with `byte_used` (128 symbols) and `diff` (6 × 256).
static inline void laz_rgb_decode(laz_decoder *d, laz_symbol_model *byte_used, laz_symbol_model *diff6, const uint16_t *last, uint16_t *c) {
    uint32_t sym = laz_decode_symbol(d, byte_used);
    c[0] = (sym & 1) ? (uint8_t)(laz_decode_symbol(d, &diff6[0]) + (last[0] & 255)) : (last[0] & 0xFF);
    c[0] |= (sym & 2) ? (uint16_t)((uint8_t)(laz_decode_symbol(d, &diff6[1]) + (last[0] >> 8)) << 8) : (last[0] & 0xFF00);
    if (sym & 64) {
        int32_t diff = (int32_t)(c[0] & 0xFF) - (int32_t)(last[0] & 0xFF);
        c[1] = (sym & 4) ? (uint8_t)(laz_decode_symbol(d, &diff6[2]) + laz_clamp8(diff + (last[1] & 255))) : (last[1] & 0xFF);
        if (sym & 16) {
            uint32_t corr = laz_decode_symbol(d, &diff6[4]);
            diff = (diff + ((int32_t)(c[1] & 0xFF) - (int32_t)(last[1] & 0xFF))) / 2;
            c[2] = (uint8_t)(corr + laz_clamp8(diff + (last[2] & 255)));
        } else {
            c[2] = last[2] & 0xFF;
        }
        diff = (int32_t)(c[0] >> 8) - (int32_t)(last[0] >> 8);
        c[1] |= (sym & 8) ? (uint16_t)((uint8_t)(laz_decode_symbol(d, &diff6[3]) + laz_clamp8(diff + (last[1] >> 8))) << 8)
                          : (last[1] & 0xFF00);
        if (sym & 32) {
            uint32_t corr = laz_decode_symbol(d, &diff6[5]);
            diff = (diff + ((int32_t)(c[1] >> 8) - (int32_t)(last[1] >> 8))) / 2;
            c[2] |= (uint16_t)((uint8_t)(corr + laz_clamp8(diff + (last[2] >> 8))) << 8);
        } else {
            c[2] |= last[2] & 0xFF00;
        }
    } else {
        c[1] = c[2] = c[0];
    }
}

/// Encodes the colour `c` against `last`; returns the symbol of changed bytes it coded.
static inline uint32_t laz_rgb_encode(laz_encoder *e, laz_symbol_model *byte_used, laz_symbol_model *diff6, const uint16_t *last, const uint16_t *c) {
    int32_t diff_l = 0, diff_h = 0;
    uint32_t sym = (uint32_t)((last[0] & 0x00FF) != (c[0] & 0x00FF)) | (uint32_t)((last[0] & 0xFF00) != (c[0] & 0xFF00)) << 1
                 | (uint32_t)((last[1] & 0x00FF) != (c[1] & 0x00FF)) << 2 | (uint32_t)((last[1] & 0xFF00) != (c[1] & 0xFF00)) << 3
                 | (uint32_t)((last[2] & 0x00FF) != (c[2] & 0x00FF)) << 4 | (uint32_t)((last[2] & 0xFF00) != (c[2] & 0xFF00)) << 5
                 | (uint32_t)(c[0] != c[1] || c[0] != c[2]) << 6;
    laz_encode_symbol(e, byte_used, sym);
    if (sym & 1) {
        diff_l = (int32_t)(c[0] & 255) - (int32_t)(last[0] & 255);
        laz_encode_symbol(e, &diff6[0], (uint8_t)diff_l);
    }
    if (sym & 2) {
        diff_h = (int32_t)(c[0] >> 8) - (int32_t)(last[0] >> 8);
        laz_encode_symbol(e, &diff6[1], (uint8_t)diff_h);
    }
    if (sym & 64) {
        if (sym & 4) laz_encode_symbol(e, &diff6[2], (uint8_t)((int32_t)(c[1] & 255) - (int32_t)laz_clamp8(diff_l + (last[1] & 255))));
        if (sym & 16) {
            diff_l = (diff_l + (int32_t)(c[1] & 255) - (int32_t)(last[1] & 255)) / 2;
            laz_encode_symbol(e, &diff6[4], (uint8_t)((int32_t)(c[2] & 255) - (int32_t)laz_clamp8(diff_l + (last[2] & 255))));
        }
        if (sym & 8) laz_encode_symbol(e, &diff6[3], (uint8_t)((int32_t)(c[1] >> 8) - (int32_t)laz_clamp8(diff_h + (last[1] >> 8))));
        if (sym & 32) {
            diff_h = (diff_h + (int32_t)(c[1] >> 8) - (int32_t)(last[1] >> 8)) / 2;
            laz_encode_symbol(e, &diff6[5], (uint8_t)((int32_t)(c[2] >> 8) - (int32_t)laz_clamp8(diff_h + (last[2] >> 8))));
        }
    }
    return sym;
}
#endif
