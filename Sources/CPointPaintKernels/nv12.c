// NV12 → RGBA, nearest chroma: the plain C reference and its AVX2 and AVX-512BW variants, one
// signature for all (see include/PointPaintKernels.h for the arithmetic, which is
// FrameConverterConstants.nearestPixel's in Swift exactly).
//
// Lane order. With in-lane (128-bit) byte/word interleaves, a vector of 16-bit pixels whose
// 128-bit lane L holds pixels 4L…4L+3 and N+4L…N+4L+3 (N = 4 · lanes) comes out of
// pack → unpack-bytes → unpack-words as RGBA in natural order: the low word interleave gives
// pixels 0…N−1, the high one N…2N−1. One in-lane `vpshufb` a vector both puts the bytes in that
// order and widens them to words, placing each byte in the high half (`Y << 8`), so that a high
// multiply (`vpmulhuw`) by a coefficient with 8 more fraction bits is the whole
// product-and-shift; chroma is widened twice, for the two pixels it covers, by the same shuffle.
// AVX2 feeds it 16 bytes broadcast to both lanes (a load, no shuffle: each lane picks its own
// bytes); AVX-512 one cross-lane dword permute (`vpermd`) of 64 bytes (a dword is 4 luma pixels,
// or 2 chroma pairs covering 4 pixels). `vpackuswb` then clamps to 0…255 for nothing.
#include "PointPaintKernels.h"

// MARK: Reference

/// One pixel: the arithmetic every variant computes, as an RGBA word.
static inline uint32_t pixel(uint8_t y, uint8_t cb, uint8_t cr, const PointPaintNV12Constants *k) {
    int yv = (y * k->luma) >> 8;
    int r = ((cr * k->red) >> 8) + k->redBias;
    int g = k->greenBias - ((cb * k->greenCb) >> 8) - ((cr * k->greenCr) >> 8);
    int b = ((cb * k->blue) >> 8) + k->blueBias;
    int v[3] = {(yv + r) >> 6, (yv + g) >> 6, (yv + b) >> 6};
    uint32_t out = 0xFF000000u;
    for (int i = 0; i < 3; i++) out |= (uint32_t)(v[i] < 0 ? 0 : v[i] > 255 ? 255 : v[i]) << (8 * i);
    return out;
}

void pointpaint_nv12_nearest_rgba_c(const uint8_t *luma, ptrdiff_t lumaStride, const uint8_t *chroma,
                                    ptrdiff_t chromaStride, uint8_t *output, ptrdiff_t outputStride,
                                    ptrdiff_t width, ptrdiff_t rowPairs, const PointPaintNV12Constants *k) {
    for (ptrdiff_t i = 0; i < rowPairs; i++) {
        const uint8_t *y0 = luma + 2 * i * lumaStride, *y1 = y0 + lumaStride, *c = chroma + i * chromaStride;
        uint8_t *o0 = output + 2 * i * outputStride, *o1 = o0 + outputStride;
        for (ptrdiff_t x = 0; x < width; x++) {
            uint8_t cb = c[x & ~(ptrdiff_t)1], cr = c[x | 1];
            uint32_t p0 = pixel(y0[x], cb, cr, k), p1 = pixel(y1[x], cb, cr, k);
            __builtin_memcpy(o0 + 4 * x, &p0, 4);
            __builtin_memcpy(o1 + 4 * x, &p1, 4);
        }
    }
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int pointpaint_cpu_kernels(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (osxsave | avx)) != (osxsave | avx)) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    if ((lo & 0x6) != 0x6) return 0;                        // XMM and YMM state
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    int kernels = 0;
    if (b & (1u << 5)) kernels |= POINTPAINT_KERNELS_AVX2;
    const unsigned f = 1u << 16, bw = 1u << 30, vl = 1u << 31;
    if ((kernels & POINTPAINT_KERNELS_AVX2) && (b & (f | bw | vl)) == (f | bw | vl) && (lo & 0xE6) == 0xE6)
        kernels |= POINTPAINT_KERNELS_AVX512BW;            // + opmask, ZMM0–15 high halves, ZMM16–31
    return kernels;
}

/// The per-pixel constants of `k` broadcast to every 16-bit lane of `v`'s vectors, with
/// `set1` the width's `_mm256_set1_epi16` or `_mm512_set1_epi16`.
#define SET_COEFFICIENTS(v, k, set1)                 \
    do {                                             \
        (v).luma = set1((short)(k)->luma);           \
        (v).red = set1((short)(k)->red);             \
        (v).greenCb = set1((short)(k)->greenCb);     \
        (v).greenCr = set1((short)(k)->greenCr);     \
        (v).blue = set1((short)(k)->blue);           \
        (v).redBias = set1((k)->redBias);            \
        (v).greenBias = set1((k)->greenBias);        \
        (v).blueBias = set1((k)->blueBias);          \
        (v).alpha = set1(255);                       \
    } while (0)

// MARK: AVX2

#define AVX2 __attribute__((target("avx2"), always_inline)) static inline

typedef struct {
    __m256i luma16, cb16, cr16;
    __m256i luma, red, greenCb, greenCr, blue, redBias, greenBias, blueBias, alpha;
} Avx2Constants;

/// The AVX2 `vpshufb` mask for 16 bytes broadcast to both lanes (`part`: 0 luma, 1 Cb, 2 Cr):
/// word i of lane L takes pixel p = 4L + (i mod 4) + 8 · (i div 4) of the 16 (luma byte p, or
/// chroma pair p div 2) into its high byte.
__attribute__((target("avx2"))) static __m256i avx2_mask(int part) {
    char m[32];
    for (int lane = 0; lane < 2; lane++) {
        for (int i = 0; i < 8; i++) {
            int p = 4 * lane + (i & 3) + 8 * (i >> 2);
            m[16 * lane + 2 * i] = (char)0x80;
            m[16 * lane + 2 * i + 1] = (char)(part == 0 ? p : (p & ~1) + part - 1);
        }
    }
    return _mm256_loadu_si256((const __m256i *)m);
}

__attribute__((target("avx2"))) static Avx2Constants avx2_constants(const PointPaintNV12Constants *k) {
    Avx2Constants v;
    v.luma16 = avx2_mask(0);
    v.cb16 = avx2_mask(1);
    v.cr16 = avx2_mask(2);
    SET_COEFFICIENTS(v, k, _mm256_set1_epi16);
    return v;
}

/// 16 pixels of one row: `y` luma words (`Y << 8`), chroma terms in F6; stores 64 bytes.
AVX2 void avx2_store16(__m256i y, __m256i r, __m256i g, __m256i b, uint8_t *o, const Avx2Constants *v) {
    __m256i yv = _mm256_mulhi_epu16(y, v->luma);
    r = _mm256_srai_epi16(_mm256_adds_epi16(yv, r), 6);
    g = _mm256_srai_epi16(_mm256_adds_epi16(yv, g), 6);
    b = _mm256_srai_epi16(_mm256_adds_epi16(yv, b), 6);
    __m256i rb = _mm256_packus_epi16(r, b), ga = _mm256_packus_epi16(g, v->alpha);
    __m256i rg = _mm256_unpacklo_epi8(rb, ga), ba = _mm256_unpackhi_epi8(rb, ga);
    _mm256_storeu_si256((__m256i *)o, _mm256_unpacklo_epi16(rg, ba));
    _mm256_storeu_si256((__m256i *)(o + 32), _mm256_unpackhi_epi16(rg, ba));
}

/// Chroma terms of 16 pixels from chroma words (`C << 8`).
AVX2 void avx2_terms(__m256i cb, __m256i cr, const Avx2Constants *v, __m256i *r, __m256i *g, __m256i *b) {
    *r = _mm256_add_epi16(_mm256_mulhi_epu16(cr, v->red), v->redBias);
    *g = _mm256_sub_epi16(_mm256_sub_epi16(v->greenBias, _mm256_mulhi_epu16(cb, v->greenCb)),
                          _mm256_mulhi_epu16(cr, v->greenCr));
    *b = _mm256_add_epi16(_mm256_mulhi_epu16(cb, v->blue), v->blueBias);
}

/// 16 bytes in both lanes.
AVX2 __m256i avx2_broadcast16(const uint8_t *p) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}

/// 32 pixels × 2 rows.
AVX2 void avx2_step(const uint8_t *y0, const uint8_t *y1, const uint8_t *c, uint8_t *o0, uint8_t *o1,
                    const Avx2Constants *v) {
    __m256i ca = avx2_broadcast16(c), cb = avx2_broadcast16(c + 16);
    __m256i r0, g0, b0, r1, g1, b1;
    avx2_terms(_mm256_shuffle_epi8(ca, v->cb16), _mm256_shuffle_epi8(ca, v->cr16), v, &r0, &g0, &b0);
    avx2_terms(_mm256_shuffle_epi8(cb, v->cb16), _mm256_shuffle_epi8(cb, v->cr16), v, &r1, &g1, &b1);
    avx2_store16(_mm256_shuffle_epi8(avx2_broadcast16(y0), v->luma16), r0, g0, b0, o0, v);
    avx2_store16(_mm256_shuffle_epi8(avx2_broadcast16(y0 + 16), v->luma16), r1, g1, b1, o0 + 64, v);
    avx2_store16(_mm256_shuffle_epi8(avx2_broadcast16(y1), v->luma16), r0, g0, b0, o1, v);
    avx2_store16(_mm256_shuffle_epi8(avx2_broadcast16(y1 + 16), v->luma16), r1, g1, b1, o1 + 64, v);
}

/// Output bytes ahead of the stores to prefetch: whole frames (11 MB of RGBA at 1920×1440)
/// outgrow L2, so every output line is a read for ownership from L3 or memory; asking for it
/// half a kilobyte early overlaps those misses with the arithmetic, down to what the same loads
/// and stores take with no arithmetic at all (512 bytes measured best among 256…2048; figures in
/// Benchmarks/README.md, "Sampling"). Non-temporal stores avoid the read but leave the frame out
/// of cache for whoever reads it next: not used.
enum { PREFETCH_AHEAD = 512 };

/// Prefetches the output lines `PREFETCH_AHEAD` bytes past `o … o + bytes` (prefetches never fault).
static inline void prefetch_output(const uint8_t *o, int bytes) {
    for (int line = 0; line < bytes; line += 64) __builtin_prefetch(o + PREFETCH_AHEAD + line, 1, 3);
}

/// One row pair (`width ≥ 32`), 32 pixels a step.
AVX2 void avx2_pair(const uint8_t *y0, const uint8_t *y1, const uint8_t *c, uint8_t *o0, uint8_t *o1,
                    ptrdiff_t width, const Avx2Constants *v) {
    ptrdiff_t x = 0;
    for (;;) {
        prefetch_output(o0 + 4 * x, 128);
        prefetch_output(o1 + 4 * x, 128);
        avx2_step(y0 + x, y1 + x, c + x, o0 + 4 * x, o1 + 4 * x, v);
        if (x == width - 32) break;
        // The last step overlaps the previous one and writes the same values again.
        x = x + 32 <= width - 32 ? x + 32 : width - 32;
    }
}

__attribute__((target("avx2")))
void pointpaint_nv12_nearest_rgba_avx2(const uint8_t *luma, ptrdiff_t lumaStride, const uint8_t *chroma,
                                       ptrdiff_t chromaStride, uint8_t *output, ptrdiff_t outputStride,
                                       ptrdiff_t width, ptrdiff_t rowPairs, const PointPaintNV12Constants *k) {
    const Avx2Constants v = avx2_constants(k);
    if (width < 32) {
        pointpaint_nv12_nearest_rgba_c(luma, lumaStride, chroma, chromaStride, output, outputStride, width, rowPairs, k);
        return;
    }
    for (ptrdiff_t i = 0; i < rowPairs; i++) {
        const uint8_t *y0 = luma + 2 * i * lumaStride, *c = chroma + i * chromaStride;
        uint8_t *o0 = output + 2 * i * outputStride;
        avx2_pair(y0, y0 + lumaStride, c, o0, o0 + outputStride, width, &v);
    }
}

// MARK: AVX-512BW

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx2"), always_inline)) static inline

typedef struct {
    __m512i order, lumaLo, lumaHi, cbLo, cbHi, crLo, crHi;
    __m512i luma, red, greenCb, greenCr, blue, redBias, greenBias, blueBias, alpha;
} Avx512Constants;

/// A 16-byte `vpshufb` mask for every lane: word i takes lane byte `first + step · (i div
/// repeat)` into its high byte.
__attribute__((target("avx512f,avx512bw,avx512vl,avx2"))) static __m512i avx512_mask(int first, int repeat,
                                                                                      int step) {
    char m[16];
    for (int i = 0; i < 8; i++) {
        m[2 * i] = (char)0x80;
        m[2 * i + 1] = (char)(first + step * (i / repeat));
    }
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)m));
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx2"))) static Avx512Constants
avx512_constants(const PointPaintNV12Constants *k) {
    Avx512Constants v;
    // Lane L: dwords L, 4 + L, 8 + L, 12 + L (pixels 4L…, 16 + 4L…, 32 + 4L…, 48 + 4L…).
    v.order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    v.lumaLo = avx512_mask(0, 1, 1);
    v.lumaHi = avx512_mask(8, 1, 1);
    // Chroma pair j of a lane: Cb at byte 2j, Cr at 2j + 1; pixels 2j, 2j + 1 share it.
    v.cbLo = avx512_mask(0, 2, 2);
    v.crLo = avx512_mask(1, 2, 2);
    v.cbHi = avx512_mask(8, 2, 2);
    v.crHi = avx512_mask(9, 2, 2);
    SET_COEFFICIENTS(v, k, _mm512_set1_epi16);
    return v;
}

AVX512 void avx512_store32(__m512i y, __m512i r, __m512i g, __m512i b, uint8_t *o, const Avx512Constants *v) {
    __m512i yv = _mm512_mulhi_epu16(y, v->luma);
    r = _mm512_srai_epi16(_mm512_adds_epi16(yv, r), 6);
    g = _mm512_srai_epi16(_mm512_adds_epi16(yv, g), 6);
    b = _mm512_srai_epi16(_mm512_adds_epi16(yv, b), 6);
    __m512i rb = _mm512_packus_epi16(r, b), ga = _mm512_packus_epi16(g, v->alpha);
    __m512i rg = _mm512_unpacklo_epi8(rb, ga), ba = _mm512_unpackhi_epi8(rb, ga);
    _mm512_storeu_si512(o, _mm512_unpacklo_epi16(rg, ba));
    _mm512_storeu_si512(o + 64, _mm512_unpackhi_epi16(rg, ba));
}

AVX512 void avx512_terms(__m512i cb, __m512i cr, const Avx512Constants *v, __m512i *r, __m512i *g, __m512i *b) {
    *r = _mm512_add_epi16(_mm512_mulhi_epu16(cr, v->red), v->redBias);
    *g = _mm512_sub_epi16(_mm512_sub_epi16(v->greenBias, _mm512_mulhi_epu16(cb, v->greenCb)),
                          _mm512_mulhi_epu16(cr, v->greenCr));
    *b = _mm512_add_epi16(_mm512_mulhi_epu16(cb, v->blue), v->blueBias);
}

/// 64 pixels × 2 rows.
AVX512 void avx512_step(const uint8_t *y0, const uint8_t *y1, const uint8_t *c, uint8_t *o0, uint8_t *o1,
                        const Avx512Constants *v) {
    __m512i cc = _mm512_permutexvar_epi32(v->order, _mm512_loadu_si512(c));
    __m512i r0, g0, b0, r1, g1, b1;
    avx512_terms(_mm512_shuffle_epi8(cc, v->cbLo), _mm512_shuffle_epi8(cc, v->crLo), v, &r0, &g0, &b0);
    avx512_terms(_mm512_shuffle_epi8(cc, v->cbHi), _mm512_shuffle_epi8(cc, v->crHi), v, &r1, &g1, &b1);
    __m512i ya = _mm512_permutexvar_epi32(v->order, _mm512_loadu_si512(y0));
    avx512_store32(_mm512_shuffle_epi8(ya, v->lumaLo), r0, g0, b0, o0, v);
    avx512_store32(_mm512_shuffle_epi8(ya, v->lumaHi), r1, g1, b1, o0 + 128, v);
    __m512i yb = _mm512_permutexvar_epi32(v->order, _mm512_loadu_si512(y1));
    avx512_store32(_mm512_shuffle_epi8(yb, v->lumaLo), r0, g0, b0, o1, v);
    avx512_store32(_mm512_shuffle_epi8(yb, v->lumaHi), r1, g1, b1, o1 + 128, v);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx2")))
void pointpaint_nv12_nearest_rgba_avx512bw(const uint8_t *luma, ptrdiff_t lumaStride, const uint8_t *chroma,
                                           ptrdiff_t chromaStride, uint8_t *output, ptrdiff_t outputStride,
                                           ptrdiff_t width, ptrdiff_t rowPairs, const PointPaintNV12Constants *k) {
    if (width < 64) {
        pointpaint_nv12_nearest_rgba_avx2(luma, lumaStride, chroma, chromaStride, output, outputStride, width,
                                          rowPairs, k);
        return;
    }
    const Avx512Constants v = avx512_constants(k);
    for (ptrdiff_t i = 0; i < rowPairs; i++) {
        const uint8_t *y0 = luma + 2 * i * lumaStride, *y1 = y0 + lumaStride, *c = chroma + i * chromaStride;
        uint8_t *o0 = output + 2 * i * outputStride, *o1 = o0 + outputStride;
        ptrdiff_t x = 0;
        for (;;) {
            prefetch_output(o0 + 4 * x, 256);
            prefetch_output(o1 + 4 * x, 256);
            avx512_step(y0 + x, y1 + x, c + x, o0 + 4 * x, o1 + 4 * x, &v);
            if (x == width - 64) break;
            x = x + 64 <= width - 64 ? x + 64 : width - 64;
        }
    }
}

#else

int pointpaint_cpu_kernels(void) { return 0; }

#endif
