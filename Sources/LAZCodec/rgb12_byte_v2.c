// RGB12 and BYTE version 2: colour as byte-wise differences (green and blue predicted from red's
// change), and extra bytes as differences from the previous point's.
#include "items_v2.h"

static inline uint32_t clamp8(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v; }

int laz_rgb12_v2_create(laz_rgb12_v2 *s, int decoder) {
    memset(s, 0, sizeof *s);
    s->decoder = decoder;
    return 0;
}

int laz_rgb12_v2_init(laz_rgb12_v2 *s, const uint8_t *item) {
    if (laz_symbol_model_init(&s->byte_used, 128, s->decoder)) return -1;
    for (int i = 0; i < 6; i++)
        if (laz_symbol_model_init(&s->diff[i], 256, s->decoder)) return -1;
    memcpy(s->last_item, item, 6);
    return 0;
}

void laz_rgb12_v2_decode(laz_rgb12_v2 *s, laz_decoder *d, uint8_t *item) {
    const uint16_t *last = s->last_item;
    uint16_t c[3];
    uint32_t sym = laz_decode_symbol(d, &s->byte_used);
    c[0] = (sym & 1) ? (uint8_t)(laz_decode_symbol(d, &s->diff[0]) + (last[0] & 255)) : (last[0] & 0xFF);
    c[0] |= (sym & 2) ? (uint16_t)((uint8_t)(laz_decode_symbol(d, &s->diff[1]) + (last[0] >> 8)) << 8) : (last[0] & 0xFF00);
    if (sym & 64) {
        int32_t diff = (int32_t)(c[0] & 0xFF) - (int32_t)(last[0] & 0xFF);
        c[1] = (sym & 4) ? (uint8_t)(laz_decode_symbol(d, &s->diff[2]) + clamp8(diff + (last[1] & 255))) : (last[1] & 0xFF);
        if (sym & 16) {
            uint32_t corr = laz_decode_symbol(d, &s->diff[4]);
            diff = (diff + ((int32_t)(c[1] & 0xFF) - (int32_t)(last[1] & 0xFF))) / 2;
            c[2] = (uint8_t)(corr + clamp8(diff + (last[2] & 255)));
        } else {
            c[2] = last[2] & 0xFF;
        }
        diff = (int32_t)(c[0] >> 8) - (int32_t)(last[0] >> 8);
        c[1] |= (sym & 8) ? (uint16_t)((uint8_t)(laz_decode_symbol(d, &s->diff[3]) + clamp8(diff + (last[1] >> 8))) << 8)
                          : (last[1] & 0xFF00);
        if (sym & 32) {
            uint32_t corr = laz_decode_symbol(d, &s->diff[5]);
            diff = (diff + ((int32_t)(c[1] >> 8) - (int32_t)(last[1] >> 8))) / 2;
            c[2] |= (uint16_t)((uint8_t)(corr + clamp8(diff + (last[2] >> 8))) << 8);
        } else {
            c[2] |= last[2] & 0xFF00;
        }
    } else {
        c[1] = c[2] = c[0];
    }
    memcpy(s->last_item, c, 6);
    memcpy(item, c, 6);
}

void laz_rgb12_v2_encode(laz_rgb12_v2 *s, laz_encoder *e, const uint8_t *item) {
    const uint16_t *last = s->last_item;
    uint16_t c[3];
    memcpy(c, item, 6);
    int32_t diff_l = 0, diff_h = 0;
    uint32_t sym = (uint32_t)((last[0] & 0x00FF) != (c[0] & 0x00FF)) | (uint32_t)((last[0] & 0xFF00) != (c[0] & 0xFF00)) << 1
                 | (uint32_t)((last[1] & 0x00FF) != (c[1] & 0x00FF)) << 2 | (uint32_t)((last[1] & 0xFF00) != (c[1] & 0xFF00)) << 3
                 | (uint32_t)((last[2] & 0x00FF) != (c[2] & 0x00FF)) << 4 | (uint32_t)((last[2] & 0xFF00) != (c[2] & 0xFF00)) << 5
                 | (uint32_t)(c[0] != c[1] || c[0] != c[2]) << 6;
    laz_encode_symbol(e, &s->byte_used, sym);
    if (sym & 1) {
        diff_l = (int32_t)(c[0] & 255) - (int32_t)(last[0] & 255);
        laz_encode_symbol(e, &s->diff[0], (uint8_t)diff_l);
    }
    if (sym & 2) {
        diff_h = (int32_t)(c[0] >> 8) - (int32_t)(last[0] >> 8);
        laz_encode_symbol(e, &s->diff[1], (uint8_t)diff_h);
    }
    if (sym & 64) {
        if (sym & 4) laz_encode_symbol(e, &s->diff[2], (uint8_t)((int32_t)(c[1] & 255) - (int32_t)clamp8(diff_l + (last[1] & 255))));
        if (sym & 16) {
            diff_l = (diff_l + (int32_t)(c[1] & 255) - (int32_t)(last[1] & 255)) / 2;
            laz_encode_symbol(e, &s->diff[4], (uint8_t)((int32_t)(c[2] & 255) - (int32_t)clamp8(diff_l + (last[2] & 255))));
        }
        if (sym & 8) laz_encode_symbol(e, &s->diff[3], (uint8_t)((int32_t)(c[1] >> 8) - (int32_t)clamp8(diff_h + (last[1] >> 8))));
        if (sym & 32) {
            diff_h = (diff_h + (int32_t)(c[1] >> 8) - (int32_t)(last[1] >> 8)) / 2;
            laz_encode_symbol(e, &s->diff[5], (uint8_t)((int32_t)(c[2] >> 8) - (int32_t)clamp8(diff_h + (last[2] >> 8))));
        }
    }
    memcpy(s->last_item, c, 6);
}

void laz_rgb12_v2_free(laz_rgb12_v2 *s) {
    laz_symbol_model_free(&s->byte_used);
    for (int i = 0; i < 6; i++) laz_symbol_model_free(&s->diff[i]);
}

int laz_byte_v2_create(laz_byte_v2 *s, uint32_t count, int decoder) {
    memset(s, 0, sizeof *s);
    s->count = count;
    s->decoder = decoder;
    s->last_item = calloc(count ? count : 1, 1);
    s->byte = calloc(count ? count : 1, sizeof(laz_symbol_model));
    return s->last_item && s->byte ? 0 : -1;
}

int laz_byte_v2_init(laz_byte_v2 *s, const uint8_t *item) {
    for (uint32_t i = 0; i < s->count; i++)
        if (laz_symbol_model_init(&s->byte[i], 256, s->decoder)) return -1;
    memcpy(s->last_item, item, s->count);
    return 0;
}

void laz_byte_v2_decode(laz_byte_v2 *s, laz_decoder *d, uint8_t *item) {
    for (uint32_t i = 0; i < s->count; i++) item[i] = s->last_item[i] = (uint8_t)(s->last_item[i] + laz_decode_symbol(d, &s->byte[i]));
}

void laz_byte_v2_encode(laz_byte_v2 *s, laz_encoder *e, const uint8_t *item) {
    for (uint32_t i = 0; i < s->count; i++) {
        laz_encode_symbol(e, &s->byte[i], (uint8_t)(item[i] - s->last_item[i]));
        s->last_item[i] = item[i];
    }
}

void laz_byte_v2_free(laz_byte_v2 *s) {
    if (s->byte)
        for (uint32_t i = 0; i < s->count; i++) laz_symbol_model_free(&s->byte[i]);
    free(s->byte);
    free(s->last_item);
    s->byte = NULL;
    s->last_item = NULL;
}
