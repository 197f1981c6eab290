// GPSTIME11 version 2: the GPS time of point formats 1, 3, 4 and 5 (see gps.h).
#include "items_v2.h"

int laz_gpstime11_v2_create(laz_gpstime11_v2 *s, int decoder) { return laz_gps_create(&s->gps, 1, decoder); }

int laz_gpstime11_v2_init(laz_gpstime11_v2 *s, const uint8_t *item) {
    int64_t first;
    memcpy(&first, item, 8);
    return laz_gps_init(&s->gps, first);
}

void laz_gpstime11_v2_decode(laz_gpstime11_v2 *s, laz_decoder *d, uint8_t *item) {
    laz_gps_decode(&s->gps, d);
    memcpy(item, &s->gps.last_gpstime[s->gps.last], 8);
}

void laz_gpstime11_v2_encode(laz_gpstime11_v2 *s, laz_encoder *e, const uint8_t *item) {
    int64_t now;
    memcpy(&now, item, 8);
    laz_gps_encode(&s->gps, e, now);
}

void laz_gpstime11_v2_free(laz_gpstime11_v2 *s) { laz_gps_free(&s->gps); }
