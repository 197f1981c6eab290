// The layered item compressors of LASzip 3 (item version 3) for LAS 1.4 point formats 6–10:
// POINT14, RGB14, RGBNIR14 and BYTE14. Each field group is its own arithmetic-coded layer, so a
// layer whose values never change in a chunk is stored as 0 bytes; and every item keeps one
// context a scanner channel (0–3), which the POINT14 item switches for all items.
#ifndef LAZCODEC_ITEMS_V3_H
#define LAZCODEC_ITEMS_V3_H
#include "integer.h"
#include "median5.h"
#include "gps.h"

/// The fields of a point format 6 record the POINT14 item codes.
typedef struct {
    int32_t x, y, z;
    uint16_t intensity;
    uint8_t return_number, number_of_returns;
    uint8_t classification_flags, scanner_channel, scan_direction, edge;
    uint8_t classification, user_data;
    int16_t scan_angle;
    uint16_t point_source_id;
    int64_t gps_time;
    /// Whether the GPS time changed at this point (a context of the next).
    int gps_time_change;
} laz_point14;

/// One scanner channel's state.
typedef struct {
    int created, unused;
    laz_point14 last;
    uint16_t last_intensity[8];
    laz_median5 last_x_diff[12], last_y_diff[12];
    int32_t last_z[8];
    laz_symbol_model changed_values[8], scanner_channel, return_number_gps_same;
    laz_symbol_model number_of_returns[16], return_number[16];
    uint8_t number_of_returns_ready[16], return_number_ready[16];
    laz_integer dx, dy, z, intensity, scan_angle, point_source_id;
    laz_symbol_model classification[64], flags[64], user_data[64];
    uint8_t classification_ready[64], flags_ready[64], user_data_ready[64];
    laz_gps gps;
} laz_point14_context;

/// POINT14's layers, in the order their sizes and bytes are stored.
enum {
    LAZ_P14_XY, LAZ_P14_Z, LAZ_P14_CLASSIFICATION, LAZ_P14_FLAGS, LAZ_P14_INTENSITY,
    LAZ_P14_SCAN_ANGLE, LAZ_P14_USER_DATA, LAZ_P14_POINT_SOURCE, LAZ_P14_GPS_TIME, LAZ_P14_LAYERS,
};

typedef struct {
    laz_point14_context contexts[4];
    uint32_t current;
    /// Decoding: whether each layer has bytes this chunk. Encoding: whether its value changed.
    int changed[LAZ_P14_LAYERS];
    int decoder;
} laz_point14_v3;

/// RGB14 (and RGBNIR14 with `nir`): one scanner channel's state.
typedef struct {
    int created, unused;
    uint16_t last[4];
    laz_symbol_model byte_used, diff[6];
    laz_symbol_model nir_used, nir_diff[2];
} laz_rgb14_context;

typedef struct {
    laz_rgb14_context contexts[4];
    uint32_t current;
    int nir, decoder;
    /// Layers: colour, and near infrared.
    int changed[2];
} laz_rgb14_v3;

/// BYTE14: one scanner channel's state, a model a byte.
typedef struct {
    int created, unused;
    uint8_t *last;
    laz_symbol_model *models;
} laz_byte14_context;

typedef struct {
    uint32_t count;
    laz_byte14_context contexts[4];
    uint32_t current;
    /// A layer a byte.
    int *changed;
    int decoder;
} laz_byte14_v3;

/// Reads a format 6 record's POINT14 fields, and writes them back.
void laz_point14_load(laz_point14 *p, const uint8_t *record);
void laz_point14_store(const laz_point14 *p, uint8_t *record);

int laz_point14_v3_create(laz_point14_v3 *s, int decoder);
/// Starts a chunk from its first record; the scanner channel is the context of the others.
int laz_point14_v3_init(laz_point14_v3 *s, const uint8_t *record, uint32_t *context);
/// `layers[i]` is the decoder of layer i (unused when `changed[i]` is 0).
int laz_point14_v3_decode(laz_point14_v3 *s, laz_decoder *layers, uint8_t *record, uint32_t *context);
int laz_point14_v3_encode(laz_point14_v3 *s, laz_encoder *layers, const uint8_t *record, uint32_t *context);
void laz_point14_v3_free(laz_point14_v3 *s);

int laz_rgb14_v3_create(laz_rgb14_v3 *s, int nir, int decoder);
int laz_rgb14_v3_init(laz_rgb14_v3 *s, const uint8_t *item, uint32_t context);
int laz_rgb14_v3_decode(laz_rgb14_v3 *s, laz_decoder *layers, uint8_t *item, uint32_t context);
int laz_rgb14_v3_encode(laz_rgb14_v3 *s, laz_encoder *layers, const uint8_t *item, uint32_t context);
void laz_rgb14_v3_free(laz_rgb14_v3 *s);

int laz_byte14_v3_create(laz_byte14_v3 *s, uint32_t count, int decoder);
int laz_byte14_v3_init(laz_byte14_v3 *s, const uint8_t *item, uint32_t context);
int laz_byte14_v3_decode(laz_byte14_v3 *s, laz_decoder *layers, uint8_t *item, uint32_t context);
int laz_byte14_v3_encode(laz_byte14_v3 *s, laz_encoder *layers, const uint8_t *item, uint32_t context);
void laz_byte14_v3_free(laz_byte14_v3 *s);
#endif
