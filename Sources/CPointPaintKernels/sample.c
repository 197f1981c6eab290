// Bilinear Y′CbCr samples decoded to R′G′B′: the batch path of CapturedImageSampler for
// `SampleSpace.capture`. A C reference and an AVX2 variant that equals it bit for bit (the same
// float operations in the same order on every lane, no fused multiply-add), eight points a step
// with the texels fetched by gathers. See include/PointPaintKernels.h for the arithmetic, which
// is CapturedImageSampler's in Swift.
#include "PointPaintKernels.h"

#pragma clang fp contract(off)

/// ⌊v⌋ for v ≥ −1 (texel positions): truncation of v + 1, as the Swift sampler takes it.
static inline int floor_texel(float v) { return (int)(v + 1.0f) - 1; }

static inline int clamp_int(int v, int hi) { return v < 0 ? 0 : v > hi ? hi : v; }

/// Admits a coordinate pair as the sampler does: inside [0, 1] as is; outside, clamped when
/// `clamp` is set and neither is NaN; else refused (0).
static inline int admit(float *s, float *t, int clamp) {
    if (*s >= 0 && *s <= 1 && *t >= 0 && *t <= 1) return 1;
    if (!clamp || *s != *s || *t != *t) return 0;
    *s = *s < 0 ? 0 : *s > 1 ? 1 : *s;
    *t = *t < 0 ? 0 : *t > 1 ? 1 : *t;
    return 1;
}

/// One admitted sample into `out` (R′, G′, B′, and 0 in the padding lane, as the vectors write).
static inline void sample_one(float s, float t, const PointPaintBilinear *k, float *out) {
    float x = s * (float)k->width, y = t * (float)k->height;
    float lx = x - 0.5f, ly = y - 0.5f;
    int x0 = floor_texel(lx), y0 = floor_texel(ly);
    float ax = lx - (float)x0, ay = ly - (float)y0;
    int lx0 = clamp_int(x0, k->width - 1), lx1 = clamp_int(x0 + 1, k->width - 1);
    int ly0 = clamp_int(y0, k->height - 1), ly1 = clamp_int(y0 + 1, k->height - 1);
    const uint8_t *r0 = k->luma + (ptrdiff_t)ly0 * k->lumaStride, *r1 = k->luma + (ptrdiff_t)ly1 * k->lumaStride;
    float top = (float)r0[lx0] * (1 - ax) + (float)r0[lx1] * ax;
    float bottom = (float)r1[lx0] * (1 - ax) + (float)r1[lx1] * ax;
    float yv = top + (bottom - top) * ay;
    float qx = x * k->chromaScaleX + k->chromaShiftX, qy = y * k->chromaScaleY + k->chromaShiftY;
    int c0 = floor_texel(qx), d0 = floor_texel(qy);
    float bx = qx - (float)c0, by = qy - (float)d0;
    int cx0 = clamp_int(c0, k->chromaWidth - 1), cx1 = clamp_int(c0 + 1, k->chromaWidth - 1);
    int cy0 = clamp_int(d0, k->chromaHeight - 1), cy1 = clamp_int(d0 + 1, k->chromaHeight - 1);
    const uint8_t *s0 = k->chroma + (ptrdiff_t)cy0 * k->chromaStride, *s1 = k->chroma + (ptrdiff_t)cy1 * k->chromaStride;
    float cbTop = (float)s0[2 * cx0] * (1 - bx) + (float)s0[2 * cx1] * bx;
    float crTop = (float)s0[2 * cx0 + 1] * (1 - bx) + (float)s0[2 * cx1 + 1] * bx;
    float cbBottom = (float)s1[2 * cx0] * (1 - bx) + (float)s1[2 * cx1] * bx;
    float crBottom = (float)s1[2 * cx0 + 1] * (1 - bx) + (float)s1[2 * cx1 + 1] * bx;
    float cb = cbTop + (cbBottom - cbTop) * by, cr = crTop + (crBottom - crTop) * by;
    float yy = (yv - k->yOffset) * k->yScale;
    float u = cb - 128, v = cr - 128;
    out[0] = yy + k->rCr * v;
    out[1] = yy - k->gCb * u - k->gCr * v;
    out[2] = yy + k->bCb * u;
    out[3] = 0;
}

ptrdiff_t pointpaint_sample_bilinear_c(const float *st, ptrdiff_t count, const PointPaintBilinear *k, float *out) {
    ptrdiff_t valid = 0;
    const float nan = __builtin_nanf("");
    for (ptrdiff_t n = 0; n < count; n++) {
        float s = st[2 * n], t = st[2 * n + 1];
        if (admit(&s, &t, k->clamp)) {
            sample_one(s, t, k, out + 4 * n);
            valid++;
        } else {
            out[4 * n] = out[4 * n + 1] = out[4 * n + 2] = nan;
            out[4 * n + 3] = 0;
        }
    }
    return valid;
}

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2_FN __attribute__((target("avx2")))

/// ⌊v⌋ lane by lane, as `floor_texel`.
AVX2_FN static inline __m256i floor_texel8(__m256 v) {
    return _mm256_sub_epi32(_mm256_cvttps_epi32(_mm256_add_ps(v, _mm256_set1_ps(1.0f))), _mm256_set1_epi32(1));
}

AVX2_FN static inline __m256i clamp8(__m256i v, __m256i hi) {
    return _mm256_min_epi32(_mm256_max_epi32(v, _mm256_setzero_si256()), hi);
}

/// Byte `shift` (0…3) of each lane's 32 bits, as a float.
AVX2_FN static inline __m256 byte8(__m256i v, int shift) {
    return _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 8 * shift), _mm256_set1_epi32(0xFF)));
}

/// a · (1 − f) + b · f, then the top/bottom blend: the sampler's interpolation, lane by lane.
AVX2_FN static inline __m256 lerp8(__m256 a, __m256 b, __m256 f) {
    return _mm256_add_ps(_mm256_mul_ps(a, _mm256_sub_ps(_mm256_set1_ps(1.0f), f)), _mm256_mul_ps(b, f));
}

/// Eight samples from `st + 2n` into `out + 4n`, when all eight lie inside [0, 1] and no gather
/// passes a plane's end; else 0, writing nothing.
AVX2_FN __attribute__((always_inline)) static inline int step8(const float *st, ptrdiff_t n, const PointPaintBilinear *k, float *out) {
    const __m256 width = _mm256_set1_ps((float)k->width), height = _mm256_set1_ps((float)k->height);
    const __m256 half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256i lastX = _mm256_set1_epi32(k->width - 1), lastY = _mm256_set1_epi32(k->height - 1);
    const __m256i lastCX = _mm256_set1_epi32(k->chromaWidth - 1), lastCY = _mm256_set1_epi32(k->chromaHeight - 1);
    const __m256i lumaStride = _mm256_set1_epi32(k->lumaStride), chromaStride = _mm256_set1_epi32(k->chromaStride);
    const __m256i lumaEnd = _mm256_set1_epi32((int)(k->lumaBytes - 4)), chromaEnd = _mm256_set1_epi32((int)(k->chromaBytes - 4));
    const __m256 scaleX = _mm256_set1_ps(k->chromaScaleX), scaleY = _mm256_set1_ps(k->chromaScaleY);
    const __m256 shiftX = _mm256_set1_ps(k->chromaShiftX), shiftY = _mm256_set1_ps(k->chromaShiftY);
    const __m256 yOffset = _mm256_set1_ps(k->yOffset), yScale = _mm256_set1_ps(k->yScale), c128 = _mm256_set1_ps(128.0f);
    const __m256 rCr = _mm256_set1_ps(k->rCr), gCb = _mm256_set1_ps(k->gCb), gCr = _mm256_set1_ps(k->gCr), bCb = _mm256_set1_ps(k->bCb);
    const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    __m256 a = _mm256_loadu_ps(st + 2 * n), b = _mm256_loadu_ps(st + 2 * n + 8);
    __m256 s = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)), order);
    __m256 t = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)), order);
    __m256 inside = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(s, zero, _CMP_GE_OQ), _mm256_cmp_ps(s, one, _CMP_LE_OQ)),
                                  _mm256_and_ps(_mm256_cmp_ps(t, zero, _CMP_GE_OQ), _mm256_cmp_ps(t, one, _CMP_LE_OQ)));
    if (_mm256_movemask_ps(inside) != 0xFF) return 0;
    __m256 x = _mm256_mul_ps(s, width), y = _mm256_mul_ps(t, height);
    __m256 lx = _mm256_sub_ps(x, half), ly = _mm256_sub_ps(y, half);
    __m256i x0 = floor_texel8(lx), y0 = floor_texel8(ly);
    __m256 ax = _mm256_sub_ps(lx, _mm256_cvtepi32_ps(x0)), ay = _mm256_sub_ps(ly, _mm256_cvtepi32_ps(y0));
    __m256i lx0 = clamp8(x0, lastX), lx1 = clamp8(_mm256_add_epi32(x0, _mm256_set1_epi32(1)), lastX);
    __m256i ly0 = clamp8(y0, lastY), ly1 = clamp8(_mm256_add_epi32(y0, _mm256_set1_epi32(1)), lastY);
    __m256i o0 = _mm256_add_epi32(_mm256_mullo_epi32(ly0, lumaStride), lx0);
    __m256i o1 = _mm256_add_epi32(_mm256_mullo_epi32(ly1, lumaStride), lx0);
    __m256 qx = _mm256_add_ps(_mm256_mul_ps(x, scaleX), shiftX), qy = _mm256_add_ps(_mm256_mul_ps(y, scaleY), shiftY);
    __m256i c0 = floor_texel8(qx), d0 = floor_texel8(qy);
    __m256 bx = _mm256_sub_ps(qx, _mm256_cvtepi32_ps(c0)), by = _mm256_sub_ps(qy, _mm256_cvtepi32_ps(d0));
    __m256i cx0 = clamp8(c0, lastCX), cx1 = clamp8(_mm256_add_epi32(c0, _mm256_set1_epi32(1)), lastCX);
    __m256i cy0 = clamp8(d0, lastCY), cy1 = clamp8(_mm256_add_epi32(d0, _mm256_set1_epi32(1)), lastCY);
    __m256i p0 = _mm256_add_epi32(_mm256_mullo_epi32(cy0, chromaStride), _mm256_slli_epi32(cx0, 1));
    __m256i p1 = _mm256_add_epi32(_mm256_mullo_epi32(cy1, chromaStride), _mm256_slli_epi32(cx0, 1));
    // A gather reads 4 bytes from each offset: a batch that would pass a plane's end is the reference's.
    __m256i past = _mm256_or_si256(_mm256_or_si256(_mm256_cmpgt_epi32(o0, lumaEnd), _mm256_cmpgt_epi32(o1, lumaEnd)),
                                   _mm256_or_si256(_mm256_cmpgt_epi32(p0, chromaEnd), _mm256_cmpgt_epi32(p1, chromaEnd)));
    if (!_mm256_testz_si256(past, past)) return 0;
    __m256i l0 = _mm256_i32gather_epi32((const int *)k->luma, o0, 1), l1 = _mm256_i32gather_epi32((const int *)k->luma, o1, 1);
    __m256i h0 = _mm256_i32gather_epi32((const int *)k->chroma, p0, 1), h1 = _mm256_i32gather_epi32((const int *)k->chroma, p1, 1);
    // The second texel is the next byte (pair), or the same one where the edge clamped it.
    __m256i lumaNext = _mm256_cmpgt_epi32(lx1, lx0), chromaNext = _mm256_cmpgt_epi32(cx1, cx0);
    __m256 l00 = byte8(l0, 0), l10 = byte8(l1, 0);
    __m256 l01 = _mm256_blendv_ps(l00, byte8(l0, 1), _mm256_castsi256_ps(lumaNext));
    __m256 l11 = _mm256_blendv_ps(l10, byte8(l1, 1), _mm256_castsi256_ps(lumaNext));
    __m256 cb00 = byte8(h0, 0), cr00 = byte8(h0, 1), cb10 = byte8(h1, 0), cr10 = byte8(h1, 1);
    __m256 cb01 = _mm256_blendv_ps(cb00, byte8(h0, 2), _mm256_castsi256_ps(chromaNext));
    __m256 cr01 = _mm256_blendv_ps(cr00, byte8(h0, 3), _mm256_castsi256_ps(chromaNext));
    __m256 cb11 = _mm256_blendv_ps(cb10, byte8(h1, 2), _mm256_castsi256_ps(chromaNext));
    __m256 cr11 = _mm256_blendv_ps(cr10, byte8(h1, 3), _mm256_castsi256_ps(chromaNext));
    __m256 top = lerp8(l00, l01, ax), bottom = lerp8(l10, l11, ax);
    __m256 yv = _mm256_add_ps(top, _mm256_mul_ps(_mm256_sub_ps(bottom, top), ay));
    __m256 cbTop = lerp8(cb00, cb01, bx), cbBottom = lerp8(cb10, cb11, bx);
    __m256 crTop = lerp8(cr00, cr01, bx), crBottom = lerp8(cr10, cr11, bx);
    __m256 cb = _mm256_add_ps(cbTop, _mm256_mul_ps(_mm256_sub_ps(cbBottom, cbTop), by));
    __m256 cr = _mm256_add_ps(crTop, _mm256_mul_ps(_mm256_sub_ps(crBottom, crTop), by));
    __m256 yy = _mm256_mul_ps(_mm256_sub_ps(yv, yOffset), yScale);
    __m256 u = _mm256_sub_ps(cb, c128), v = _mm256_sub_ps(cr, c128);
    __m256 red = _mm256_add_ps(yy, _mm256_mul_ps(rCr, v));
    __m256 green = _mm256_sub_ps(_mm256_sub_ps(yy, _mm256_mul_ps(gCb, u)), _mm256_mul_ps(gCr, v));
    __m256 blue = _mm256_add_ps(yy, _mm256_mul_ps(bCb, u));
    // Eight (R, G, B, padding) quadruples: a 4 × 4 transpose of each half.
    __m256 pad = _mm256_setzero_ps();
    __m256 rg0 = _mm256_unpacklo_ps(red, green), rg1 = _mm256_unpackhi_ps(red, green);
    __m256 bp0 = _mm256_unpacklo_ps(blue, pad), bp1 = _mm256_unpackhi_ps(blue, pad);
    __m256 q0 = _mm256_shuffle_ps(rg0, bp0, _MM_SHUFFLE(1, 0, 1, 0)), q1 = _mm256_shuffle_ps(rg0, bp0, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 q2 = _mm256_shuffle_ps(rg1, bp1, _MM_SHUFFLE(1, 0, 1, 0)), q3 = _mm256_shuffle_ps(rg1, bp1, _MM_SHUFFLE(3, 2, 3, 2));
    float *o = out + 4 * n;
    _mm_storeu_ps(o, _mm256_castps256_ps128(q0));
    _mm_storeu_ps(o + 4, _mm256_castps256_ps128(q1));
    _mm_storeu_ps(o + 8, _mm256_castps256_ps128(q2));
    _mm_storeu_ps(o + 12, _mm256_castps256_ps128(q3));
    _mm_storeu_ps(o + 16, _mm256_extractf128_ps(q0, 1));
    _mm_storeu_ps(o + 20, _mm256_extractf128_ps(q1, 1));
    _mm_storeu_ps(o + 24, _mm256_extractf128_ps(q2, 1));
    _mm_storeu_ps(o + 28, _mm256_extractf128_ps(q3, 1));
    return 1;
}

AVX2_FN ptrdiff_t pointpaint_sample_bilinear_avx2(const float *st, ptrdiff_t count, const PointPaintBilinear *k, float *out) {
    // Offsets must fit a lane, and each gather reads 4 bytes: planes past 2 GB take the reference.
    int fits = k->lumaBytes >= 4 && k->chromaBytes >= 4 && k->lumaBytes < 0x7FFFFFFF && k->chromaBytes < 0x7FFFFFFF;
    ptrdiff_t valid = 0, n = 0;
    while (n < count) {
        if (fits && n + 8 <= count && step8(st, n, k, out)) {
            valid += 8;
            n += 8;
            continue;
        }
        // What a vector step refused (or the last few): eight points one at a time.
        ptrdiff_t end = n + 8 < count ? n + 8 : count;
        valid += pointpaint_sample_bilinear_c(st + 2 * n, end - n, k, out + 4 * n);
        n = end;
    }
    return valid;
}
#endif
