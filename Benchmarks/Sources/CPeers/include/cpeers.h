#ifndef POINTPAINT_CPEERS_H
#define POINTPAINT_CPEERS_H
#include <stddef.h>
#include <stdint.h>

/* Plain C peers of PointPaint's benchmarks, compiled with the package's release flags. */

/* Bilinear NV12 sampling at n scalar coordinates (x, y pairs in 0…1), full-range BT.601,
 * centre-sited chroma, edges clamped: Y and CbCr interpolated separately, then the matrix.
 * Writes n RGB triples (0…1, unclamped) to out. The plain-C figure PointPaint's sampler is
 * measured against. */
void pointpaint_peer_sample_bilinear(const uint8_t *luma, size_t lumaStride, const uint8_t *chroma, size_t chromaStride,
                                     int width, int height, const float *xy, size_t n, float *out);

#endif
