// Paint's per-frame kernels: the projection of a run of cloud points into a frame, and the splat
// of a z-buffer's footprints. Each has a plain C reference and an AVX2 variant that equals it
// bit for bit: the same IEEE operations in the same order on every lane (no fused multiply-add,
// no reciprocal in place of a division), only four or eight points at a time, so the divisions'
// latencies overlap instead of queueing. See include/PointPaintKernels.h for the arithmetic,
// which is FrameProjection's and SplatDepthBuffer's in Swift.
#include "PointPaintKernels.h"

#pragma clang fp contract(off)

// MARK: Projection, reference

/// One point: 0 behind the camera plane, 1 outside the image, 2 a candidate (with its outputs).
static inline int project_one(const float *p, const PointPaintProjection *k, float *s, float *t, float *depth) {
    double x = p[0], y = p[1], z = p[2];
    double cx = ((k->m[0] * x + k->m[3] * y) + k->m[6] * z) + k->m[9];
    double cy = ((k->m[1] * x + k->m[4] * y) + k->m[7] * z) + k->m[10];
    double cz = ((k->m[2] * x + k->m[5] * y) + k->m[8] * z) + k->m[11];
    if (!(cz < 0)) return 0;
    double d = -cz;
    double u = k->fx * cx / d + k->cx;
    double v = k->fy * -cy / d + k->cy;
    double su = u / k->width, tv = v / k->height;
    if (!(su >= 0 && su < 1 && tv >= 0 && tv < 1)) return 1;
    *s = (float)su;
    *t = (float)tv;
    *depth = (float)d;
    return 2;
}

ptrdiff_t pointpaint_project_points_c(const float *positions, ptrdiff_t first, ptrdiff_t end,
                                      const PointPaintProjection *k, uint32_t *index, float *st, float *depth,
                                      ptrdiff_t *behind, ptrdiff_t *outside) {
    ptrdiff_t found = 0;
    for (ptrdiff_t i = first; i < end; i++) {
        float s, t, d;
        switch (project_one(positions + 4 * i, k, &s, &t, &d)) {
        case 0: (*behind)++; break;
        case 1: (*outside)++; break;
        default:
            index[found] = (uint32_t)i;
            st[2 * found] = s;
            st[2 * found + 1] = t;
            depth[found] = d;
            found++;
        }
    }
    return found;
}

// MARK: Splat, reference

/// ⌊v⌋ for |v| well below 2³¹, by truncation and a compare (as the Swift kernel takes it).
static inline int floor_small(float v) {
    int t = (int)v;
    return (float)t > v ? t - 1 : t;
}

static inline float max_f(float x, float y) { return y >= x ? y : x; }  // Swift.max
static inline float min_f(float x, float y) { return y < x ? y : x; }   // Swift.min

/// The bins one point's footprint covers (inclusive; x0 > x1 or y0 > y1 when none) and its own bin.
typedef struct { int x0, x1, y0, y1, bin; } Footprint;

static inline Footprint footprint(float s, float t, float z, const PointPaintSplat *k) {
    float u = s * k->width, v = t * k->height;
    float r = k->focalLength * k->spacing / z;
    int cx = (int)(u / k->binSize), cy = (int)(v / k->binSize);
    Footprint f;
    f.bin = (cy < k->rows - 1 ? cy : k->rows - 1) * k->columns + (cx < k->columns - 1 ? cx : k->columns - 1);
    int x0 = floor_small(max_f((u + -r) / k->binSize, (float)(cx - k->reach)));
    int x1 = floor_small(min_f((u + r) / k->binSize, (float)(cx + k->reach)));
    int y0 = floor_small(max_f((v + -r) / k->binSize, (float)(cy - k->reach)));
    int y1 = floor_small(min_f((v + r) / k->binSize, (float)(cy + k->reach)));
    f.x0 = x0 > 0 ? x0 : 0;
    f.x1 = x1 < k->columns - 1 ? x1 : k->columns - 1;
    f.y0 = y0 > 0 ? y0 : 0;
    f.y1 = y1 < k->rows - 1 ? y1 : k->rows - 1;
    return f;
}

/// Lowers the bins of `f` to `z`: each bin stored unconditionally (its own depth where that is
/// nearer), so no branch waits on a comparison.
static inline void cover(float *nearest, ptrdiff_t columns, Footprint f, float z) {
    for (int y = f.y0; y <= f.y1; y++) {
        float *row = nearest + (ptrdiff_t)y * columns;
        for (int x = f.x0; x <= f.x1; x++) {
            float d = row[x];
            row[x] = z < d ? z : d;
        }
    }
}

void pointpaint_splat_c(float *nearest, const float *st, const float *depth, ptrdiff_t count,
                        const PointPaintSplat *k, int32_t *bins) {
    for (ptrdiff_t n = 0; n < count; n++) {
        Footprint f = footprint(st[2 * n], st[2 * n + 1], depth[n], k);
        if (bins) bins[n] = f.bin;
        cover(nearest, k->columns, f, depth[n]);
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

// MARK: Projection, AVX2

#define AVX2_FN __attribute__((target("avx2")))

AVX2_FN ptrdiff_t pointpaint_project_points_avx2(const float *positions, ptrdiff_t first, ptrdiff_t end,
                                                 const PointPaintProjection *k, uint32_t *index, float *st,
                                                 float *depth, ptrdiff_t *behind, ptrdiff_t *outside) {
    ptrdiff_t found = 0, i = first;
    const __m256d m0 = _mm256_set1_pd(k->m[0]), m1 = _mm256_set1_pd(k->m[1]), m2 = _mm256_set1_pd(k->m[2]);
    const __m256d m3 = _mm256_set1_pd(k->m[3]), m4 = _mm256_set1_pd(k->m[4]), m5 = _mm256_set1_pd(k->m[5]);
    const __m256d m6 = _mm256_set1_pd(k->m[6]), m7 = _mm256_set1_pd(k->m[7]), m8 = _mm256_set1_pd(k->m[8]);
    const __m256d m9 = _mm256_set1_pd(k->m[9]), m10 = _mm256_set1_pd(k->m[10]), m11 = _mm256_set1_pd(k->m[11]);
    const __m256d fx = _mm256_set1_pd(k->fx), fy = _mm256_set1_pd(k->fy);
    const __m256d ccx = _mm256_set1_pd(k->cx), ccy = _mm256_set1_pd(k->cy);
    const __m256d width = _mm256_set1_pd(k->width), height = _mm256_set1_pd(k->height);
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1), sign = _mm256_set1_pd(-0.0);
    for (; i + 4 <= end; i += 4) {
        // Four points of four floats (the fourth is padding): transposed to x, y, z lanes.
        __m128 p0 = _mm_loadu_ps(positions + 4 * i), p1 = _mm_loadu_ps(positions + 4 * i + 4);
        __m128 p2 = _mm_loadu_ps(positions + 4 * i + 8), p3 = _mm_loadu_ps(positions + 4 * i + 12);
        _MM_TRANSPOSE4_PS(p0, p1, p2, p3);
        __m256d x = _mm256_cvtps_pd(p0), y = _mm256_cvtps_pd(p1), z = _mm256_cvtps_pd(p2);
        __m256d cx = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(m0, x), _mm256_mul_pd(m3, y)), _mm256_mul_pd(m6, z)), m9);
        __m256d cy = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(m1, x), _mm256_mul_pd(m4, y)), _mm256_mul_pd(m7, z)), m10);
        __m256d cz = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(m2, x), _mm256_mul_pd(m5, y)), _mm256_mul_pd(m8, z)), m11);
        int front = _mm256_movemask_pd(_mm256_cmp_pd(cz, zero, _CMP_LT_OQ));
        if (front == 0) { *behind += 4; continue; }
        __m256d d = _mm256_xor_pd(cz, sign);
        __m256d u = _mm256_add_pd(_mm256_div_pd(_mm256_mul_pd(fx, cx), d), ccx);
        __m256d v = _mm256_add_pd(_mm256_div_pd(_mm256_mul_pd(fy, _mm256_xor_pd(cy, sign)), d), ccy);
        __m256d s = _mm256_div_pd(u, width), t = _mm256_div_pd(v, height);
        __m256d in = _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(s, zero, _CMP_GE_OQ), _mm256_cmp_pd(s, one, _CMP_LT_OQ)),
                                   _mm256_and_pd(_mm256_cmp_pd(t, zero, _CMP_GE_OQ), _mm256_cmp_pd(t, one, _CMP_LT_OQ)));
        int inside = _mm256_movemask_pd(in) & front;
        *behind += 4 - __builtin_popcount((unsigned)front);
        *outside += __builtin_popcount((unsigned)(front & ~inside));
        if (inside == 0) continue;
        float fs[4], ft[4], fd[4];
        _mm_storeu_ps(fs, _mm256_cvtpd_ps(s));
        _mm_storeu_ps(ft, _mm256_cvtpd_ps(t));
        _mm_storeu_ps(fd, _mm256_cvtpd_ps(d));
        for (int lane = 0; lane < 4; lane++) {
            if (!(inside >> lane & 1)) continue;
            index[found] = (uint32_t)(i + lane);
            st[2 * found] = fs[lane];
            st[2 * found + 1] = ft[lane];
            depth[found] = fd[lane];
            found++;
        }
    }
    return found + pointpaint_project_points_c(positions, i, end, k, index + found, st + 2 * found, depth + found,
                                               behind, outside);
}

// MARK: Splat, AVX2

AVX2_FN static inline __m256i floor_small8(__m256 v) {
    __m256i t = _mm256_cvttps_epi32(v);
    __m256 above = _mm256_cmp_ps(_mm256_cvtepi32_ps(t), v, _CMP_GT_OQ);
    return _mm256_add_epi32(t, _mm256_castps_si256(above));  // −1 where the truncation rose
}

/// Swift.max(x, y) = y >= x ? y : x, lane by lane.
AVX2_FN static inline __m256 max8(__m256 x, __m256 y) { return _mm256_blendv_ps(x, y, _mm256_cmp_ps(y, x, _CMP_GE_OQ)); }
/// Swift.min(x, y) = y < x ? y : x, lane by lane.
AVX2_FN static inline __m256 min8(__m256 x, __m256 y) { return _mm256_blendv_ps(x, y, _mm256_cmp_ps(y, x, _CMP_LT_OQ)); }

AVX2_FN void pointpaint_splat_avx2(float *nearest, const float *st, const float *depth, ptrdiff_t count,
                                   const PointPaintSplat *k, int32_t *bins) {
    const __m256 width = _mm256_set1_ps(k->width), height = _mm256_set1_ps(k->height);
    const __m256 fs = _mm256_set1_ps(k->focalLength * k->spacing), bin = _mm256_set1_ps(k->binSize);
    const __m256i reach = _mm256_set1_epi32(k->reach), zero = _mm256_setzero_si256();
    const __m256i lastColumn = _mm256_set1_epi32(k->columns - 1), lastRow = _mm256_set1_epi32(k->rows - 1);
    const __m256i columns = _mm256_set1_epi32(k->columns);
    ptrdiff_t n = 0;
    for (; n + 8 <= count; n += 8) {
        // Eight (s, t) pairs de-interleaved (the permute undoes the in-lane shuffle's order).
        __m256 a = _mm256_loadu_ps(st + 2 * n), b = _mm256_loadu_ps(st + 2 * n + 8);
        const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
        __m256 s = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)), order);
        __m256 t = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)), order);
        __m256 z = _mm256_loadu_ps(depth + n);
        __m256 u = _mm256_mul_ps(s, width), v = _mm256_mul_ps(t, height);
        __m256 r = _mm256_div_ps(fs, z), nr = _mm256_xor_ps(r, _mm256_set1_ps(-0.0f));
        __m256i cx = _mm256_cvttps_epi32(_mm256_div_ps(u, bin)), cy = _mm256_cvttps_epi32(_mm256_div_ps(v, bin));
        __m256i own = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_min_epi32(cy, lastRow), columns), _mm256_min_epi32(cx, lastColumn));
        __m256i x0 = floor_small8(max8(_mm256_div_ps(_mm256_add_ps(u, nr), bin), _mm256_cvtepi32_ps(_mm256_sub_epi32(cx, reach))));
        __m256i x1 = floor_small8(min8(_mm256_div_ps(_mm256_add_ps(u, r), bin), _mm256_cvtepi32_ps(_mm256_add_epi32(cx, reach))));
        __m256i y0 = floor_small8(max8(_mm256_div_ps(_mm256_add_ps(v, nr), bin), _mm256_cvtepi32_ps(_mm256_sub_epi32(cy, reach))));
        __m256i y1 = floor_small8(min8(_mm256_div_ps(_mm256_add_ps(v, r), bin), _mm256_cvtepi32_ps(_mm256_add_epi32(cy, reach))));
        x0 = _mm256_max_epi32(x0, zero);
        x1 = _mm256_min_epi32(x1, lastColumn);
        y0 = _mm256_max_epi32(y0, zero);
        y1 = _mm256_min_epi32(y1, lastRow);
        if (bins) _mm256_storeu_si256((__m256i *)(bins + n), own);
        int32_t ax0[8], ax1[8], ay0[8], ay1[8];
        _mm256_storeu_si256((__m256i *)ax0, x0);
        _mm256_storeu_si256((__m256i *)ax1, x1);
        _mm256_storeu_si256((__m256i *)ay0, y0);
        _mm256_storeu_si256((__m256i *)ay1, y1);
        for (int lane = 0; lane < 8; lane++) {
            Footprint f = {ax0[lane], ax1[lane], ay0[lane], ay1[lane], 0};
            cover(nearest, k->columns, f, depth[n + lane]);
        }
    }
    pointpaint_splat_c(nearest, st + 2 * n, depth + n, count - n, k, bins ? bins + n : 0);
}
#endif
