// The point-wise item compressors of LASzip 2 (item version 2): POINT10, GPSTIME11, RGB12 and
// BYTE. Each keeps the previous point of its chunk and codes the next one from it; the same
// state drives the decoder and the encoder, which must stay in step.
#ifndef LAZCODEC_ITEMS_V2_H
#define LAZCODEC_ITEMS_V2_H
#include "integer.h"
#include "median5.h"
#include "gps.h"


typedef struct {
    uint8_t last_item[20];
    uint16_t last_intensity[16];
    int32_t last_height[8];
    laz_median5 last_x_diff[16], last_y_diff[16];
    laz_symbol_model changed_values, scan_angle_rank[2];
    laz_integer intensity, point_source_id, dx, dy, z;
    /// Models created on first use in a chunk, keyed by the previous value.
    laz_symbol_model bit_byte[256], classification[256], user_data[256];
    uint8_t bit_byte_ready[256], classification_ready[256], user_data_ready[256];
    int decoder;
} laz_point10_v2;

typedef struct {
    laz_gps gps;
} laz_gpstime11_v2;

typedef struct {
    uint16_t last_item[3];
    laz_symbol_model byte_used, diff[6];
    int decoder;
} laz_rgb12_v2;

typedef struct {
    uint32_t count;
    uint8_t *last_item;
    laz_symbol_model *byte;
    int decoder;
} laz_byte_v2;

int laz_point10_v2_create(laz_point10_v2 *s, int decoder);
int laz_point10_v2_init(laz_point10_v2 *s, const uint8_t *item);
int laz_point10_v2_decode(laz_point10_v2 *s, laz_decoder *d, uint8_t *item);
int laz_point10_v2_encode(laz_point10_v2 *s, laz_encoder *e, const uint8_t *item);
void laz_point10_v2_free(laz_point10_v2 *s);

int laz_gpstime11_v2_create(laz_gpstime11_v2 *s, int decoder);
int laz_gpstime11_v2_init(laz_gpstime11_v2 *s, const uint8_t *item);
void laz_gpstime11_v2_decode(laz_gpstime11_v2 *s, laz_decoder *d, uint8_t *item);
void laz_gpstime11_v2_encode(laz_gpstime11_v2 *s, laz_encoder *e, const uint8_t *item);
void laz_gpstime11_v2_free(laz_gpstime11_v2 *s);

int laz_rgb12_v2_create(laz_rgb12_v2 *s, int decoder);
int laz_rgb12_v2_init(laz_rgb12_v2 *s, const uint8_t *item);
void laz_rgb12_v2_decode(laz_rgb12_v2 *s, laz_decoder *d, uint8_t *item);
void laz_rgb12_v2_encode(laz_rgb12_v2 *s, laz_encoder *e, const uint8_t *item);
void laz_rgb12_v2_free(laz_rgb12_v2 *s);

int laz_byte_v2_create(laz_byte_v2 *s, uint32_t count, int decoder);
int laz_byte_v2_init(laz_byte_v2 *s, const uint8_t *item);
void laz_byte_v2_decode(laz_byte_v2 *s, laz_decoder *d, uint8_t *item);
void laz_byte_v2_encode(laz_byte_v2 *s, laz_encoder *e, const uint8_t *item);
void laz_byte_v2_free(laz_byte_v2 *s);
#endif
