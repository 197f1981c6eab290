// The streaming median of the last five values, which predicts x and y differences in POINT10
// and POINT14.
#ifndef LAZCODEC_MEDIAN5_H
#define LAZCODEC_MEDIAN5_H
#include <stdint.h>
#include <string.h>

typedef struct {
    int32_t values[5];
    int high;
} laz_median5;

static inline void median5_init(laz_median5 *m) {
    memset(m->values, 0, sizeof m->values);
    m->high = 1;
}

static inline int32_t median5_get(const laz_median5 *m) { return m->values[2]; }

static inline void median5_add(laz_median5 *m, int32_t v) {
    int32_t *a = m->values;
    if (m->high) {
        if (v < a[2]) {
            a[4] = a[3];
            a[3] = a[2];
            if (v < a[0]) {
                a[2] = a[1];
                a[1] = a[0];
                a[0] = v;
            } else if (v < a[1]) {
                a[2] = a[1];
                a[1] = v;
            } else {
                a[2] = v;
            }
        } else {
            if (v < a[3]) {
                a[4] = a[3];
                a[3] = v;
            } else {
                a[4] = v;
            }
            m->high = 0;
        }
    } else {
        if (a[2] < v) {
            a[0] = a[1];
            a[1] = a[2];
            if (a[4] < v) {
                a[2] = a[3];
                a[3] = a[4];
                a[4] = v;
            } else if (a[3] < v) {
                a[2] = a[3];
                a[3] = v;
            } else {
                a[2] = v;
            }
        } else {
            if (a[1] < v) {
                a[0] = a[1];
                a[1] = v;
            } else {
                a[0] = v;
            }
            m->high = 1;
        }
    }
}

#endif
