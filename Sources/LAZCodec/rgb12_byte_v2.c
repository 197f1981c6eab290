// RGB12 and BYTE version 2: colour as byte-wise differences (green and blue predicted from red's
// change), and extra bytes as differences from the previous point's.
#include "items_v2.h"
#include "rgb.h"

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
    uint16_t c[3];
    laz_rgb_decode(d, &s->byte_used, s->diff, s->last_item, c);
    memcpy(s->last_item, c, 6);
    memcpy(item, c, 6);
}

void laz_rgb12_v2_encode(laz_rgb12_v2 *s, laz_encoder *e, const uint8_t *item) {
    uint16_t c[3];
    memcpy(c, item, 6);
    laz_rgb_encode(e, &s->byte_used, s->diff, s->last_item, c);
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
