// POINT14 version 3: the 30-byte core of point formats 6–10, in nine layers (see items_v3.h).
#include "items_v3.h"

// Contexts by number of returns n and return number r (each 0–15): six classes for the x and y
// differences, and the distance |n − r| (at most 7) that picks the previous z.
static const uint8_t return_map[16][16] = {
    {0, 1, 2, 3, 4, 5, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5}, {1, 0, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3},
    {2, 1, 2, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3}, {3, 3, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4},
    {4, 3, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, {5, 3, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4},
    {3, 3, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4}, {4, 3, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4},
    {4, 3, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4}, {5, 3, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4},
    {5, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4}, {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 4, 4, 4},
    {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4, 4}, {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4},
    {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5}, {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5},
};

static inline uint32_t return_level(uint32_t n, uint32_t r) {
    uint32_t d = n > r ? n - r : r - n;
    return d < 7 ? d : 7;
}

void laz_point14_load(laz_point14 *p, const uint8_t *b) {
    memcpy(&p->x, b, 4);
    memcpy(&p->y, b + 4, 4);
    memcpy(&p->z, b + 8, 4);
    memcpy(&p->intensity, b + 12, 2);
    p->return_number = b[14] & 15;
    p->number_of_returns = b[14] >> 4;
    p->classification_flags = b[15] & 15;
    p->scanner_channel = (b[15] >> 4) & 3;
    p->scan_direction = (b[15] >> 6) & 1;
    p->edge = b[15] >> 7;
    p->classification = b[16];
    p->user_data = b[17];
    memcpy(&p->scan_angle, b + 18, 2);
    memcpy(&p->point_source_id, b + 20, 2);
    memcpy(&p->gps_time, b + 22, 8);
}

void laz_point14_store(const laz_point14 *p, uint8_t *b) {
    memcpy(b, &p->x, 4);
    memcpy(b + 4, &p->y, 4);
    memcpy(b + 8, &p->z, 4);
    memcpy(b + 12, &p->intensity, 2);
    b[14] = (uint8_t)(p->return_number | p->number_of_returns << 4);
    b[15] = (uint8_t)(p->classification_flags | p->scanner_channel << 4 | p->scan_direction << 6 | p->edge << 7);
    b[16] = p->classification;
    b[17] = p->user_data;
    memcpy(b + 18, &p->scan_angle, 2);
    memcpy(b + 20, &p->point_source_id, 2);
    memcpy(b + 22, &p->gps_time, 8);
}

int laz_point14_v3_create(laz_point14_v3 *s, int decoder) {
    memset(s, 0, sizeof *s);
    s->decoder = decoder;
    return 0;
}

/// Makes channel `k` current-ready: its models created (once) and reset, its state taken from
/// `from` (the chunk's first point, or the previous channel's last).
static int context_init(laz_point14_v3 *s, uint32_t k, const laz_point14 *from) {
    laz_point14_context *c = &s->contexts[k];
    int d = s->decoder;
    if (!c->created) {
        if (laz_integer_create(&c->dx, 32, 2, 8, 0, d) || laz_integer_create(&c->dy, 32, 22, 8, 0, d) || laz_integer_create(&c->z, 32, 20, 8, 0, d)
            || laz_integer_create(&c->intensity, 16, 4, 8, 0, d) || laz_integer_create(&c->scan_angle, 16, 2, 8, 0, d)
            || laz_integer_create(&c->point_source_id, 16, 1, 8, 0, d) || laz_gps_create(&c->gps, 0, d))
            return -1;
        c->created = 1;
    }
    for (int i = 0; i < 8; i++)
        if (laz_symbol_model_init(&c->changed_values[i], 128, d)) return -1;
    if (laz_symbol_model_init(&c->scanner_channel, 3, d) || laz_symbol_model_init(&c->return_number_gps_same, 13, d)) return -1;
    memset(c->number_of_returns_ready, 0, sizeof c->number_of_returns_ready);
    memset(c->return_number_ready, 0, sizeof c->return_number_ready);
    memset(c->classification_ready, 0, sizeof c->classification_ready);
    memset(c->flags_ready, 0, sizeof c->flags_ready);
    memset(c->user_data_ready, 0, sizeof c->user_data_ready);
    if (laz_integer_init(&c->dx) || laz_integer_init(&c->dy) || laz_integer_init(&c->z) || laz_integer_init(&c->intensity)
        || laz_integer_init(&c->scan_angle) || laz_integer_init(&c->point_source_id) || laz_gps_init(&c->gps, from->gps_time))
        return -1;
    for (int i = 0; i < 12; i++) {
        median5_init(&c->last_x_diff[i]);
        median5_init(&c->last_y_diff[i]);
    }
    for (int i = 0; i < 8; i++) {
        c->last_z[i] = from->z;
        c->last_intensity[i] = from->intensity;
    }
    c->last = *from;
    c->last.gps_time_change = 0;
    c->unused = 0;
    return 0;
}

int laz_point14_v3_init(laz_point14_v3 *s, const uint8_t *record, uint32_t *context) {
    laz_point14 first;
    laz_point14_load(&first, record);
    for (int k = 0; k < 4; k++) s->contexts[k].unused = 1;
    s->current = first.scanner_channel;
    *context = s->current;
    return context_init(s, s->current, &first);
}

/// The model keyed by `key` of `count`-symbol models, reset the first time a chunk uses it.
static inline laz_symbol_model *keyed(laz_symbol_model *models, uint8_t *ready, uint32_t key, uint32_t symbols, int decoder) {
    if (!ready[key]) {
        if (laz_symbol_model_init(&models[key], symbols, decoder)) return NULL;
        ready[key] = 1;
    }
    return &models[key];
}

static inline uint32_t dy_context(uint32_t n, uint32_t k) { return (n == 1) + (k < 20 ? (k & ~1u) : 20); }
static inline uint32_t z_context(uint32_t n, uint32_t k) { return (n == 1) + (k < 18 ? (k & ~1u) : 18); }

int laz_point14_v3_decode(laz_point14_v3 *s, laz_decoder *layers, uint8_t *record, uint32_t *context) {
    laz_point14_context *c = &s->contexts[s->current];
    laz_decoder *xy = &layers[LAZ_P14_XY];
    laz_point14 *last = &c->last;
    uint32_t lpr = (last->return_number == 1) + (last->return_number >= last->number_of_returns ? 2u : 0u) + (last->gps_time_change ? 4u : 0u);
    uint32_t changed = laz_decode_symbol(xy, &c->changed_values[lpr]);
    if (changed & (1 << 6)) {
        uint32_t channel = (s->current + laz_decode_symbol(xy, &c->scanner_channel) + 1) % 4;
        if (s->contexts[channel].unused && context_init(s, channel, last)) return -1;
        s->current = channel;
        *context = channel;
        c = &s->contexts[channel];
        last = &c->last;
        last->scanner_channel = (uint8_t)channel;
    }
    int point_source_change = (changed >> 5) & 1, gps_time_change = (changed >> 4) & 1, scan_angle_change = (changed >> 3) & 1;
    uint32_t last_n = last->number_of_returns, last_r = last->return_number, n = last_n, r = last_r;
    if (changed & (1 << 2)) {
        laz_symbol_model *m = keyed(c->number_of_returns, c->number_of_returns_ready, last_n, 16, 1);
        if (m == NULL) return -1;
        n = laz_decode_symbol(xy, m);
        last->number_of_returns = (uint8_t)n;
    }
    switch (changed & 3) {
    case 0: break;
    case 1: r = (last_r + 1) % 16; break;
    case 2: r = (last_r + 15) % 16; break;
    default:
        if (gps_time_change) {
            laz_symbol_model *m = keyed(c->return_number, c->return_number_ready, last_r, 16, 1);
            if (m == NULL) return -1;
            r = laz_decode_symbol(xy, m);
        } else {
            r = (last_r + laz_decode_symbol(xy, &c->return_number_gps_same) + 2) % 16;
        }
        break;
    }
    last->return_number = (uint8_t)r;
    uint32_t m = return_map[n][r], l = return_level(n, r);
    uint32_t cpr = (r == 1 ? 2u : 0u) + (r >= n ? 1u : 0u);
    uint32_t slot = (m << 1) | (uint32_t)gps_time_change;
    int32_t diff = laz_integer_decompress(&c->dx, xy, median5_get(&c->last_x_diff[slot]), n == 1);
    last->x = (int32_t)((uint32_t)last->x + (uint32_t)diff);
    median5_add(&c->last_x_diff[slot], diff);
    diff = laz_integer_decompress(&c->dy, xy, median5_get(&c->last_y_diff[slot]), dy_context(n, c->dx.k));
    last->y = (int32_t)((uint32_t)last->y + (uint32_t)diff);
    median5_add(&c->last_y_diff[slot], diff);
    if (s->changed[LAZ_P14_Z]) {
        last->z = laz_integer_decompress(&c->z, &layers[LAZ_P14_Z], c->last_z[l], z_context(n, (c->dx.k + c->dy.k) / 2));
        c->last_z[l] = last->z;
    }
    if (s->changed[LAZ_P14_CLASSIFICATION]) {
        uint32_t key = ((last->classification & 0x1Fu) << 1) + (cpr == 3);
        laz_symbol_model *mc = keyed(c->classification, c->classification_ready, key, 256, 1);
        if (mc == NULL) return -1;
        last->classification = (uint8_t)laz_decode_symbol(&layers[LAZ_P14_CLASSIFICATION], mc);
    }
    if (s->changed[LAZ_P14_FLAGS]) {
        uint32_t key = (uint32_t)last->edge << 5 | (uint32_t)last->scan_direction << 4 | last->classification_flags;
        laz_symbol_model *mf = keyed(c->flags, c->flags_ready, key, 64, 1);
        if (mf == NULL) return -1;
        uint32_t flags = laz_decode_symbol(&layers[LAZ_P14_FLAGS], mf);
        last->edge = (flags >> 5) & 1;
        last->scan_direction = (flags >> 4) & 1;
        last->classification_flags = flags & 15;
    }
    if (s->changed[LAZ_P14_INTENSITY]) {
        uint32_t k = (cpr << 1) | (uint32_t)gps_time_change;
        uint16_t intensity = (uint16_t)laz_integer_decompress(&c->intensity, &layers[LAZ_P14_INTENSITY], c->last_intensity[k], cpr);
        c->last_intensity[k] = intensity;
        last->intensity = intensity;
    }
    if (s->changed[LAZ_P14_SCAN_ANGLE] && scan_angle_change)
        last->scan_angle = (int16_t)(uint16_t)laz_integer_decompress(&c->scan_angle, &layers[LAZ_P14_SCAN_ANGLE], last->scan_angle, (uint32_t)gps_time_change);
    if (s->changed[LAZ_P14_USER_DATA]) {
        laz_symbol_model *mu = keyed(c->user_data, c->user_data_ready, last->user_data / 4u, 256, 1);
        if (mu == NULL) return -1;
        last->user_data = (uint8_t)laz_decode_symbol(&layers[LAZ_P14_USER_DATA], mu);
    }
    if (s->changed[LAZ_P14_POINT_SOURCE] && point_source_change)
        last->point_source_id = (uint16_t)laz_integer_decompress(&c->point_source_id, &layers[LAZ_P14_POINT_SOURCE], last->point_source_id, 0);
    if (s->changed[LAZ_P14_GPS_TIME] && gps_time_change) {
        laz_gps_decode(&c->gps, &layers[LAZ_P14_GPS_TIME]);
        last->gps_time = c->gps.last_gpstime[c->gps.last];
    }
    laz_point14_store(last, record);
    last->gps_time_change = gps_time_change;
    return 0;
}

int laz_point14_v3_encode(laz_point14_v3 *s, laz_encoder *layers, const uint8_t *record, uint32_t *context) {
    laz_point14 p;
    laz_point14_load(&p, record);
    laz_point14_context *c = &s->contexts[s->current];
    laz_encoder *xy = &layers[LAZ_P14_XY];
    const laz_point14 *current_last = &c->last;
    uint32_t lpr = (current_last->return_number == 1) + (current_last->return_number >= current_last->number_of_returns ? 2u : 0u)
                 + (current_last->gps_time_change ? 4u : 0u);
    uint32_t channel = p.scanner_channel;
    // Compared with the last point of the point's own channel (the current one's, for a channel
    // not yet used this chunk: it starts from there).
    const laz_point14 *ref = channel != s->current && !s->contexts[channel].unused ? &s->contexts[channel].last : current_last;
    int point_source_change = p.point_source_id != ref->point_source_id;
    int gps_time_change = p.gps_time != ref->gps_time;  // the bit patterns: exact for -0.0 and NaN
    int scan_angle_change = p.scan_angle != ref->scan_angle;
    uint32_t last_n = ref->number_of_returns, last_r = ref->return_number, n = p.number_of_returns, r = p.return_number;
    uint32_t changed = (uint32_t)(channel != s->current) << 6 | (uint32_t)point_source_change << 5 | (uint32_t)gps_time_change << 4
                     | (uint32_t)scan_angle_change << 3 | (uint32_t)(n != last_n) << 2;
    if (r != last_r) changed |= r == (last_r + 1) % 16 ? 1u : r == (last_r + 15) % 16 ? 2u : 3u;
    laz_encode_symbol(xy, &c->changed_values[lpr], changed);
    if (changed & (1 << 6)) {
        int32_t diff = (int32_t)channel - (int32_t)s->current;
        laz_encode_symbol(xy, &c->scanner_channel, (uint32_t)(diff > 0 ? diff - 1 : diff + 4 - 1));
        if (s->contexts[channel].unused && context_init(s, channel, current_last)) return -1;
        s->current = channel;
        *context = channel;
        c = &s->contexts[channel];
    }
    laz_point14 *last = &c->last;
    if (changed & (1 << 2)) {
        laz_symbol_model *m = keyed(c->number_of_returns, c->number_of_returns_ready, last_n, 16, 0);
        if (m == NULL) return -1;
        laz_encode_symbol(xy, m, n);
    }
    if ((changed & 3) == 3) {
        if (gps_time_change) {
            laz_symbol_model *m = keyed(c->return_number, c->return_number_ready, last_r, 16, 0);
            if (m == NULL) return -1;
            laz_encode_symbol(xy, m, r);
        } else {
            int32_t diff = (int32_t)r - (int32_t)last_r;
            laz_encode_symbol(xy, &c->return_number_gps_same, (uint32_t)(diff > 1 ? diff - 2 : diff + 16 - 2));
        }
    }
    uint32_t m = return_map[n][r], l = return_level(n, r);
    uint32_t cpr = (r == 1 ? 2u : 0u) + (r >= n ? 1u : 0u);
    uint32_t slot = (m << 1) | (uint32_t)gps_time_change;
    int32_t diff = (int32_t)((uint32_t)p.x - (uint32_t)last->x);
    laz_integer_compress(&c->dx, xy, median5_get(&c->last_x_diff[slot]), diff, n == 1);
    median5_add(&c->last_x_diff[slot], diff);
    diff = (int32_t)((uint32_t)p.y - (uint32_t)last->y);
    laz_integer_compress(&c->dy, xy, median5_get(&c->last_y_diff[slot]), diff, dy_context(n, c->dx.k));
    median5_add(&c->last_y_diff[slot], diff);
    laz_integer_compress(&c->z, &layers[LAZ_P14_Z], c->last_z[l], p.z, z_context(n, (c->dx.k + c->dy.k) / 2));
    c->last_z[l] = p.z;
    if (p.classification != last->classification) s->changed[LAZ_P14_CLASSIFICATION] = 1;
    laz_symbol_model *mc = keyed(c->classification, c->classification_ready, ((last->classification & 0x1Fu) << 1) + (cpr == 3), 256, 0);
    if (mc == NULL) return -1;
    laz_encode_symbol(&layers[LAZ_P14_CLASSIFICATION], mc, p.classification);
    uint32_t last_flags = (uint32_t)last->edge << 5 | (uint32_t)last->scan_direction << 4 | last->classification_flags;
    uint32_t flags = (uint32_t)p.edge << 5 | (uint32_t)p.scan_direction << 4 | p.classification_flags;
    if (flags != last_flags) s->changed[LAZ_P14_FLAGS] = 1;
    laz_symbol_model *mf = keyed(c->flags, c->flags_ready, last_flags, 64, 0);
    if (mf == NULL) return -1;
    laz_encode_symbol(&layers[LAZ_P14_FLAGS], mf, flags);
    if (p.intensity != last->intensity) s->changed[LAZ_P14_INTENSITY] = 1;
    uint32_t k = (cpr << 1) | (uint32_t)gps_time_change;
    laz_integer_compress(&c->intensity, &layers[LAZ_P14_INTENSITY], c->last_intensity[k], p.intensity, cpr);
    c->last_intensity[k] = p.intensity;
    if (scan_angle_change) {
        s->changed[LAZ_P14_SCAN_ANGLE] = 1;
        laz_integer_compress(&c->scan_angle, &layers[LAZ_P14_SCAN_ANGLE], last->scan_angle, p.scan_angle, (uint32_t)gps_time_change);
    }
    if (p.user_data != last->user_data) s->changed[LAZ_P14_USER_DATA] = 1;
    laz_symbol_model *mu = keyed(c->user_data, c->user_data_ready, last->user_data / 4u, 256, 0);
    if (mu == NULL) return -1;
    laz_encode_symbol(&layers[LAZ_P14_USER_DATA], mu, p.user_data);
    if (point_source_change) {
        s->changed[LAZ_P14_POINT_SOURCE] = 1;
        laz_integer_compress(&c->point_source_id, &layers[LAZ_P14_POINT_SOURCE], last->point_source_id, p.point_source_id, 0);
    }
    if (gps_time_change) {
        s->changed[LAZ_P14_GPS_TIME] = 1;
        laz_gps_encode(&c->gps, &layers[LAZ_P14_GPS_TIME], p.gps_time);
    }
    *last = p;
    last->gps_time_change = gps_time_change;
    return 0;
}

void laz_point14_v3_free(laz_point14_v3 *s) {
    for (int k = 0; k < 4; k++) {
        laz_point14_context *c = &s->contexts[k];
        for (int i = 0; i < 8; i++) laz_symbol_model_free(&c->changed_values[i]);
        laz_symbol_model_free(&c->scanner_channel);
        laz_symbol_model_free(&c->return_number_gps_same);
        for (int i = 0; i < 16; i++) {
            laz_symbol_model_free(&c->number_of_returns[i]);
            laz_symbol_model_free(&c->return_number[i]);
        }
        for (int i = 0; i < 64; i++) {
            laz_symbol_model_free(&c->classification[i]);
            laz_symbol_model_free(&c->flags[i]);
            laz_symbol_model_free(&c->user_data[i]);
        }
        laz_integer_free(&c->dx);
        laz_integer_free(&c->dy);
        laz_integer_free(&c->z);
        laz_integer_free(&c->intensity);
        laz_integer_free(&c->scan_angle);
        laz_integer_free(&c->point_source_id);
        laz_gps_free(&c->gps);
    }
}
