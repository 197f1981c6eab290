// RGB14, RGBNIR14 and BYTE14 version 3: colour (and near infrared) as RGB12 codes it, extra
// bytes as differences, each a layer of its own, a context a scanner channel (see items_v3.h).
#include "items_v3.h"
#include "rgb.h"

int laz_rgb14_v3_create(laz_rgb14_v3 *s, int nir, int decoder) {
    memset(s, 0, sizeof *s);
    s->nir = nir;
    s->decoder = decoder;
    return 0;
}

/// Resets channel `k`'s models and starts it from the colour `from`.
static int rgb_context_init(laz_rgb14_v3 *s, uint32_t k, const uint16_t *from) {
    laz_rgb14_context *c = &s->contexts[k];
    if (laz_symbol_model_init(&c->byte_used, 128, s->decoder)) return -1;
    for (int i = 0; i < 6; i++)
        if (laz_symbol_model_init(&c->diff[i], 256, s->decoder)) return -1;
    if (s->nir && (laz_symbol_model_init(&c->nir_used, 4, s->decoder) || laz_symbol_model_init(&c->nir_diff[0], 256, s->decoder)
                   || laz_symbol_model_init(&c->nir_diff[1], 256, s->decoder)))
        return -1;
    memcpy(c->last, from, sizeof c->last);
    c->unused = 0;
    return 0;
}

int laz_rgb14_v3_init(laz_rgb14_v3 *s, const uint8_t *item, uint32_t context) {
    uint16_t first[4] = {0, 0, 0, 0};
    memcpy(first, item, s->nir ? 8 : 6);
    for (int k = 0; k < 4; k++) s->contexts[k].unused = 1;
    s->current = context;
    return rgb_context_init(s, context, first);
}

/// Follows POINT14 to the channel `context`: its models, and in `*last` the colour the next one
/// is coded against. As LASzip does (and every file depends on), that colour is the new
/// channel's only when the channel is new this chunk (started from the current one's); on a
/// switch back to a channel already used it stays the previous channel's, and is updated there.
static laz_rgb14_context *rgb_switch(laz_rgb14_v3 *s, uint32_t context, uint16_t **last) {
    *last = s->contexts[s->current].last;
    if (context != s->current) {
        s->current = context;
        if (s->contexts[context].unused) {
            if (rgb_context_init(s, context, *last)) return NULL;
            *last = s->contexts[context].last;
        }
    }
    return &s->contexts[s->current];
}

int laz_rgb14_v3_decode(laz_rgb14_v3 *s, laz_decoder *layers, uint8_t *item, uint32_t context) {
    uint16_t *previous;
    laz_rgb14_context *c = rgb_switch(s, context, &previous);
    if (c == NULL) return -1;
    uint16_t out[4];
    memcpy(out, previous, sizeof out);
    if (s->changed[0]) laz_rgb_decode(&layers[0], &c->byte_used, c->diff, previous, out);
    if (s->nir && s->changed[1]) {
        uint16_t last = previous[3];
        uint32_t sym = laz_decode_symbol(&layers[1], &c->nir_used);
        out[3] = (sym & 1) ? (uint8_t)(laz_decode_symbol(&layers[1], &c->nir_diff[0]) + (last & 255)) : (last & 0xFF);
        out[3] |= (sym & 2) ? (uint16_t)((uint8_t)(laz_decode_symbol(&layers[1], &c->nir_diff[1]) + (last >> 8)) << 8) : (last & 0xFF00);
    }
    memcpy(previous, out, sizeof out);
    memcpy(item, out, s->nir ? 8 : 6);
    return 0;
}

int laz_rgb14_v3_encode(laz_rgb14_v3 *s, laz_encoder *layers, const uint8_t *item, uint32_t context) {
    uint16_t *previous;
    laz_rgb14_context *c = rgb_switch(s, context, &previous);
    if (c == NULL) return -1;
    uint16_t now[4] = {0, 0, 0, 0};
    memcpy(now, item, s->nir ? 8 : 6);
    if (laz_rgb_encode(&layers[0], &c->byte_used, c->diff, previous, now)) s->changed[0] = 1;
    if (s->nir) {
        uint16_t last = previous[3];
        uint32_t sym = (uint32_t)((last & 0x00FF) != (now[3] & 0x00FF)) | (uint32_t)((last & 0xFF00) != (now[3] & 0xFF00)) << 1;
        laz_encode_symbol(&layers[1], &c->nir_used, sym);
        if (sym & 1) laz_encode_symbol(&layers[1], &c->nir_diff[0], (uint8_t)((int32_t)(now[3] & 255) - (int32_t)(last & 255)));
        if (sym & 2) laz_encode_symbol(&layers[1], &c->nir_diff[1], (uint8_t)((int32_t)(now[3] >> 8) - (int32_t)(last >> 8)));
        if (sym) s->changed[1] = 1;
    }
    memcpy(previous, now, sizeof now);
    return 0;
}

void laz_rgb14_v3_free(laz_rgb14_v3 *s) {
    for (int k = 0; k < 4; k++) {
        laz_rgb14_context *c = &s->contexts[k];
        laz_symbol_model_free(&c->byte_used);
        for (int i = 0; i < 6; i++) laz_symbol_model_free(&c->diff[i]);
        laz_symbol_model_free(&c->nir_used);
        laz_symbol_model_free(&c->nir_diff[0]);
        laz_symbol_model_free(&c->nir_diff[1]);
    }
}

int laz_byte14_v3_create(laz_byte14_v3 *s, uint32_t count, int decoder) {
    memset(s, 0, sizeof *s);
    s->count = count;
    s->decoder = decoder;
    s->changed = calloc(count, sizeof(int));
    if (s->changed == NULL) return -1;
    for (int k = 0; k < 4; k++) {
        s->contexts[k].last = calloc(count, 1);
        s->contexts[k].models = calloc(count, sizeof(laz_symbol_model));
        if (s->contexts[k].last == NULL || s->contexts[k].models == NULL) return -1;
    }
    return 0;
}

static int byte_context_init(laz_byte14_v3 *s, uint32_t k, const uint8_t *from) {
    laz_byte14_context *c = &s->contexts[k];
    for (uint32_t i = 0; i < s->count; i++)
        if (laz_symbol_model_init(&c->models[i], 256, s->decoder)) return -1;
    memmove(c->last, from, s->count);
    c->unused = 0;
    return 0;
}

int laz_byte14_v3_init(laz_byte14_v3 *s, const uint8_t *item, uint32_t context) {
    for (int k = 0; k < 4; k++) s->contexts[k].unused = 1;
    s->current = context;
    return byte_context_init(s, context, item);
}

/// Follows POINT14 to the channel `context`, as `rgb_switch` does (the same quirk included).
static laz_byte14_context *byte_switch(laz_byte14_v3 *s, uint32_t context, uint8_t **last) {
    *last = s->contexts[s->current].last;
    if (context != s->current) {
        s->current = context;
        if (s->contexts[context].unused) {
            if (byte_context_init(s, context, *last)) return NULL;
            *last = s->contexts[context].last;
        }
    }
    return &s->contexts[s->current];
}

int laz_byte14_v3_decode(laz_byte14_v3 *s, laz_decoder *layers, uint8_t *item, uint32_t context) {
    uint8_t *last;
    laz_byte14_context *c = byte_switch(s, context, &last);
    if (c == NULL) return -1;
    for (uint32_t i = 0; i < s->count; i++) {
        if (s->changed[i]) last[i] = (uint8_t)(last[i] + laz_decode_symbol(&layers[i], &c->models[i]));
        item[i] = last[i];
    }
    return 0;
}

int laz_byte14_v3_encode(laz_byte14_v3 *s, laz_encoder *layers, const uint8_t *item, uint32_t context) {
    uint8_t *last;
    laz_byte14_context *c = byte_switch(s, context, &last);
    if (c == NULL) return -1;
    for (uint32_t i = 0; i < s->count; i++) {
        uint8_t diff = (uint8_t)(item[i] - last[i]);
        laz_encode_symbol(&layers[i], &c->models[i], diff);
        if (diff) {
            s->changed[i] = 1;
            last[i] = item[i];
        }
    }
    return 0;
}

void laz_byte14_v3_free(laz_byte14_v3 *s) {
    for (int k = 0; k < 4; k++) {
        if (s->contexts[k].models)
            for (uint32_t i = 0; i < s->count; i++) laz_symbol_model_free(&s->contexts[k].models[i]);
        free(s->contexts[k].models);
        free(s->contexts[k].last);
    }
    free(s->changed);
}
