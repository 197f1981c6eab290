// GPS time coding, shared by GPSTIME11 (v2) and POINT14 (v3): the double's 64-bit pattern, up to
// four interleaved sequences, a difference predicted as a multiple (−10…500) of the sequence's
// last one, or coded in full. Version 2 also codes "unchanged"; version 3 leaves that to the
// POINT14 item, and its symbols are those of version 2 less one.
#ifndef LAZCODEC_GPS_H
#define LAZCODEC_GPS_H
#include "integer.h"

typedef struct {
    uint32_t last, next;
    int64_t last_gpstime[4];
    int32_t last_gpstime_diff[4];
    int32_t multi_extreme_counter[4];
    laz_symbol_model multi, zero_diff;
    laz_integer gpstime;
    /// 1 for version 2 (its symbols shifted by the "unchanged" code), 0 for version 3.
    uint32_t shift;
    int decoder;
} laz_gps;

int laz_gps_create(laz_gps *g, int version2, int decoder);
/// Resets the models and starts sequence 0 at `first`.
int laz_gps_init(laz_gps *g, int64_t first);
/// Decodes the next value into the current sequence (`last_gpstime[last]`).
void laz_gps_decode(laz_gps *g, laz_decoder *d);
void laz_gps_encode(laz_gps *g, laz_encoder *e, int64_t now);
void laz_gps_free(laz_gps *g);
#endif
