#include "cpeers.h"
#include <math.h>

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

void pointpaint_peer_sample_bilinear(const uint8_t *luma, size_t lumaStride, const uint8_t *chroma, size_t chromaStride,
                                     int width, int height, const float *xy, size_t n, float *out) {
    const int cw = width / 2, ch = height / 2;
    for (size_t i = 0; i < n; i++) {
        const float x = xy[2 * i] * (float)width, y = xy[2 * i + 1] * (float)height;
        /* luma texel centres at half-integers */
        const float lx = x - 0.5f, ly = y - 0.5f;
        const float fx = floorf(lx), fy = floorf(ly);
        const float ax = lx - fx, ay = ly - fy;
        const int x0 = (int)fx, y0 = (int)fy;
        const int lx0 = clampi(x0, 0, width - 1), lx1 = clampi(x0 + 1, 0, width - 1);
        const int ly0 = clampi(y0, 0, height - 1), ly1 = clampi(y0 + 1, 0, height - 1);
        const uint8_t *r0 = luma + (size_t)ly0 * lumaStride, *r1 = luma + (size_t)ly1 * lumaStride;
        const float top = r0[lx0] * (1 - ax) + r0[lx1] * ax, bottom = r1[lx0] * (1 - ax) + r1[lx1] * ax;
        const float yv = top + (bottom - top) * ay;
        /* chroma: half resolution, centre siting */
        const float qx = x * 0.5f - 0.5f, qy = y * 0.5f - 0.5f;
        const float gx = floorf(qx), gy = floorf(qy);
        const float bx = qx - gx, by = qy - gy;
        const int c0 = (int)gx, d0 = (int)gy;
        const int cx0 = clampi(c0, 0, cw - 1), cx1 = clampi(c0 + 1, 0, cw - 1);
        const int cy0 = clampi(d0, 0, ch - 1), cy1 = clampi(d0 + 1, 0, ch - 1);
        const uint8_t *s0 = chroma + (size_t)cy0 * chromaStride, *s1 = chroma + (size_t)cy1 * chromaStride;
        const float cbTop = s0[2 * cx0] * (1 - bx) + s0[2 * cx1] * bx, crTop = s0[2 * cx0 + 1] * (1 - bx) + s0[2 * cx1 + 1] * bx;
        const float cbBottom = s1[2 * cx0] * (1 - bx) + s1[2 * cx1] * bx, crBottom = s1[2 * cx0 + 1] * (1 - bx) + s1[2 * cx1 + 1] * bx;
        const float cb = cbTop + (cbBottom - cbTop) * by - 128, cr = crTop + (crBottom - crTop) * by - 128;
        /* full-range BT.601 */
        out[3 * i] = (yv + 1.402f * cr) / 255;
        out[3 * i + 1] = (yv - 0.344136f * cb - 0.714136f * cr) / 255;
        out[3 * i + 2] = (yv + 1.772f * cb) / 255;
    }
}
