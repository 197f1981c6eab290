// POINT10 version 2: the 20-byte core of point formats 0–5 (see items_v2.h).
#include "items_v2.h"

// Contexts by return number r and number of returns n: a map [n][r] of sixteen classes, and the
// distance |n − r| that picks the previous height.
static const uint8_t return_map[8][8] = {
    {15, 14, 13, 12, 11, 10, 9, 8},  {14, 0, 1, 3, 6, 10, 10, 9},    {13, 1, 2, 4, 7, 11, 11, 10},
    {12, 3, 4, 5, 8, 12, 12, 11},    {11, 6, 7, 8, 9, 13, 13, 12},   {10, 10, 11, 12, 13, 14, 14, 13},
    {9, 10, 11, 12, 13, 14, 15, 14}, {8, 9, 10, 11, 12, 13, 14, 15},
};

static inline uint32_t return_level(uint32_t n, uint32_t r) { return n > r ? n - r : r - n; }

static inline int32_t load_i32(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline uint16_t load_u16(const uint8_t *p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}
static inline void store_i32(uint8_t *p, int32_t v) { memcpy(p, &v, 4); }
static inline void store_u16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }

int laz_point10_v2_create(laz_point10_v2 *s, int decoder) {
    memset(s, 0, sizeof *s);
    s->decoder = decoder;
    if (laz_integer_create(&s->intensity, 16, 4, 8, 0, decoder) || laz_integer_create(&s->point_source_id, 16, 1, 8, 0, decoder)
        || laz_integer_create(&s->dx, 32, 2, 8, 0, decoder) || laz_integer_create(&s->dy, 32, 22, 8, 0, decoder)
        || laz_integer_create(&s->z, 32, 20, 8, 0, decoder))
        return -1;
    return 0;
}

int laz_point10_v2_init(laz_point10_v2 *s, const uint8_t *item) {
    for (int i = 0; i < 16; i++) {
        median5_init(&s->last_x_diff[i]);
        median5_init(&s->last_y_diff[i]);
        s->last_intensity[i] = 0;
        s->last_height[i / 2] = 0;
    }
    if (laz_symbol_model_init(&s->changed_values, 64, s->decoder) || laz_symbol_model_init(&s->scan_angle_rank[0], 256, s->decoder)
        || laz_symbol_model_init(&s->scan_angle_rank[1], 256, s->decoder) || laz_integer_init(&s->intensity)
        || laz_integer_init(&s->point_source_id) || laz_integer_init(&s->dx) || laz_integer_init(&s->dy) || laz_integer_init(&s->z))
        return -1;
    memset(s->bit_byte_ready, 0, sizeof s->bit_byte_ready);
    memset(s->classification_ready, 0, sizeof s->classification_ready);
    memset(s->user_data_ready, 0, sizeof s->user_data_ready);
    memcpy(s->last_item, item, 20);
    s->last_item[12] = 0;
    s->last_item[13] = 0;
    return 0;
}

/// The model keyed by `key` in `models`, reset the first time a chunk uses it (NULL: no memory).
static inline laz_symbol_model *keyed(laz_symbol_model *models, uint8_t *ready, uint8_t key, int decoder) {
    if (!ready[key]) {
        if (laz_symbol_model_init(&models[key], 256, decoder)) return NULL;
        ready[key] = 1;
    }
    return &models[key];
}

static inline uint32_t dy_context(uint32_t n, uint32_t k) { return (n == 1) + (k < 20 ? (k & ~1u) : 20); }
static inline uint32_t z_context(uint32_t n, uint32_t k) { return (n == 1) + (k < 18 ? (k & ~1u) : 18); }

int laz_point10_v2_decode(laz_point10_v2 *s, laz_decoder *d, uint8_t *item) {
    uint8_t *last = s->last_item;
    uint32_t changed = laz_decode_symbol(d, &s->changed_values);
    uint32_t r, n, m, l;
    if (changed) {
        if (changed & 32) {
            laz_symbol_model *model = keyed(s->bit_byte, s->bit_byte_ready, last[14], 1);
            if (model == NULL) return -1;
            last[14] = (uint8_t)laz_decode_symbol(d, model);
        }
        r = last[14] & 7;
        n = (last[14] >> 3) & 7;
        m = return_map[n][r];
        l = return_level(n, r);
        if (changed & 16) {
            uint16_t intensity = (uint16_t)laz_integer_decompress(&s->intensity, d, s->last_intensity[m], m < 3 ? m : 3);
            store_u16(last + 12, intensity);
            s->last_intensity[m] = intensity;
        } else {
            store_u16(last + 12, s->last_intensity[m]);
        }
        if (changed & 8) {
            laz_symbol_model *model = keyed(s->classification, s->classification_ready, last[15], 1);
            if (model == NULL) return -1;
            last[15] = (uint8_t)laz_decode_symbol(d, model);
        }
        if (changed & 4) {
            uint32_t value = laz_decode_symbol(d, &s->scan_angle_rank[(last[14] >> 6) & 1]);
            last[16] = (uint8_t)(value + last[16]);
        }
        if (changed & 2) {
            laz_symbol_model *model = keyed(s->user_data, s->user_data_ready, last[17], 1);
            if (model == NULL) return -1;
            last[17] = (uint8_t)laz_decode_symbol(d, model);
        }
        if (changed & 1) store_u16(last + 18, (uint16_t)laz_integer_decompress(&s->point_source_id, d, load_u16(last + 18), 0));
    } else {
        r = last[14] & 7;
        n = (last[14] >> 3) & 7;
        m = return_map[n][r];
        l = return_level(n, r);
    }
    int32_t diff = laz_integer_decompress(&s->dx, d, median5_get(&s->last_x_diff[m]), n == 1);
    store_i32(last, (int32_t)((uint32_t)load_i32(last) + (uint32_t)diff));
    median5_add(&s->last_x_diff[m], diff);
    diff = laz_integer_decompress(&s->dy, d, median5_get(&s->last_y_diff[m]), dy_context(n, s->dx.k));
    store_i32(last + 4, (int32_t)((uint32_t)load_i32(last + 4) + (uint32_t)diff));
    median5_add(&s->last_y_diff[m], diff);
    int32_t z = laz_integer_decompress(&s->z, d, s->last_height[l], z_context(n, (s->dx.k + s->dy.k) / 2));
    store_i32(last + 8, z);
    s->last_height[l] = z;
    memcpy(item, last, 20);
    return 0;
}

int laz_point10_v2_encode(laz_point10_v2 *s, laz_encoder *e, const uint8_t *item) {
    uint8_t *last = s->last_item;
    uint32_t r = item[14] & 7, n = (item[14] >> 3) & 7;
    uint32_t m = return_map[n][r], l = return_level(n, r);
    uint16_t intensity = load_u16(item + 12);
    uint32_t changed = ((uint32_t)(last[14] != item[14]) << 5) | ((uint32_t)(s->last_intensity[m] != intensity) << 4)
                     | ((uint32_t)(last[15] != item[15]) << 3) | ((uint32_t)(last[16] != item[16]) << 2)
                     | ((uint32_t)(last[17] != item[17]) << 1) | (uint32_t)(load_u16(last + 18) != load_u16(item + 18));
    laz_encode_symbol(e, &s->changed_values, changed);
    if (changed & 32) {
        laz_symbol_model *model = keyed(s->bit_byte, s->bit_byte_ready, last[14], 0);
        if (model == NULL) return -1;
        laz_encode_symbol(e, model, item[14]);
    }
    if (changed & 16) {
        laz_integer_compress(&s->intensity, e, s->last_intensity[m], intensity, m < 3 ? m : 3);
        s->last_intensity[m] = intensity;
    }
    if (changed & 8) {
        laz_symbol_model *model = keyed(s->classification, s->classification_ready, last[15], 0);
        if (model == NULL) return -1;
        laz_encode_symbol(e, model, item[15]);
    }
    if (changed & 4) laz_encode_symbol(e, &s->scan_angle_rank[(item[14] >> 6) & 1], (uint8_t)(item[16] - last[16]));
    if (changed & 2) {
        laz_symbol_model *model = keyed(s->user_data, s->user_data_ready, last[17], 0);
        if (model == NULL) return -1;
        laz_encode_symbol(e, model, item[17]);
    }
    if (changed & 1) laz_integer_compress(&s->point_source_id, e, load_u16(last + 18), load_u16(item + 18), 0);
    int32_t diff = (int32_t)((uint32_t)load_i32(item) - (uint32_t)load_i32(last));
    laz_integer_compress(&s->dx, e, median5_get(&s->last_x_diff[m]), diff, n == 1);
    median5_add(&s->last_x_diff[m], diff);
    diff = (int32_t)((uint32_t)load_i32(item + 4) - (uint32_t)load_i32(last + 4));
    laz_integer_compress(&s->dy, e, median5_get(&s->last_y_diff[m]), diff, dy_context(n, s->dx.k));
    median5_add(&s->last_y_diff[m], diff);
    int32_t z = load_i32(item + 8);
    laz_integer_compress(&s->z, e, s->last_height[l], z, z_context(n, (s->dx.k + s->dy.k) / 2));
    s->last_height[l] = z;
    memcpy(last, item, 20);
    return 0;
}

void laz_point10_v2_free(laz_point10_v2 *s) {
    laz_integer_free(&s->intensity);
    laz_integer_free(&s->point_source_id);
    laz_integer_free(&s->dx);
    laz_integer_free(&s->dy);
    laz_integer_free(&s->z);
    laz_symbol_model_free(&s->changed_values);
    laz_symbol_model_free(&s->scan_angle_rank[0]);
    laz_symbol_model_free(&s->scan_angle_rank[1]);
    for (int i = 0; i < 256; i++) {
        laz_symbol_model_free(&s->bit_byte[i]);
        laz_symbol_model_free(&s->classification[i]);
        laz_symbol_model_free(&s->user_data[i]);
    }
}
