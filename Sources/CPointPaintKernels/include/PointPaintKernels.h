// Row kernels that need instruction sets beyond the x86-64 baseline, chosen at run time.
//
// Swift on x86-64 Linux compiles for the baseline (SSE2) unless told otherwise, and flags that
// would change that (`unsafeFlags`) make a package unusable as a dependency. These kernels are
// plain C with per-function `__attribute__((target(...)))`, so the package builds with its
// default flags everywhere, and callers pick a kernel with `pointpaint_cpu_kernels()`.
// Every variant of a conversion shares one name stem and signature, as libyuv's row functions
// do: `…_c` is the plain reference, built everywhere; `…_avx2` and `…_avx512bw` exist on x86-64
// only (elsewhere `pointpaint_cpu_kernels` returns 0).
#ifndef POINTPAINT_KERNELS_H
#define POINTPAINT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bits of `pointpaint_cpu_kernels()`.
enum {
    /// AVX2 (with the operating system saving YMM state).
    POINTPAINT_KERNELS_AVX2 = 1,
    /// AVX-512 F, BW and VL, with AVX2 (and the operating system saving ZMM and mask state).
    POINTPAINT_KERNELS_AVX512BW = 2,
};

/// The kernels this CPU can run: a combination of `POINTPAINT_KERNELS_*` (CPUID and XGETBV; a
/// few hundred cycles, more in a virtual machine: callers cache it).
int pointpaint_cpu_kernels(void);

/// Fixed-point constants of nearest NV12 → RGBA (see FrameConverterConstants in Swift). All
/// per-pixel arithmetic is 16-bit in F6 (1/64 level):
///   yv = (Y · luma) >> 8
///   red = ((Cr · red) >> 8) + redBias
///   green = greenBias − ((Cb · greenCb) >> 8) − ((Cr · greenCr) >> 8)
///   blue = ((Cb · blue) >> 8) + blueBias
///   channel = clamp((yv + term) >> 6, 0, 255)   (arithmetic shift)
/// Coefficients are unsigned with 14 fraction bits. Every term fits Int16, and so does yv; their
/// sum may exceed 32,767 only where the channel clamps to 255 anyway (a saturating add keeps it).
typedef struct {
    uint16_t luma;
    uint16_t red, greenCb, greenCr, blue;
    int16_t redBias, greenBias, blueBias;
} PointPaintNV12Constants;

/// Converts `rowPairs` pairs of rows (any even width ≥ 2) to RGBA: row 2i from `luma + 2i ·
/// lumaStride` and `chroma + i · chromaStride` into `output + 2i · outputStride`. One pixel at a
/// time: the reference the vector variants equal bit for bit, on every architecture.
void pointpaint_nv12_nearest_rgba_c(const uint8_t *luma, ptrdiff_t lumaStride, const uint8_t *chroma,
                                    ptrdiff_t chromaStride, uint8_t *output, ptrdiff_t outputStride,
                                    ptrdiff_t width, ptrdiff_t rowPairs, const PointPaintNV12Constants *k);

#if defined(__x86_64__)
/// The same with 256-bit vectors, 32 pixels × 2 rows a step; the last step overlaps the previous
/// one when the width is not a multiple of 32; widths below 32 go to the reference.
/// Requires POINTPAINT_KERNELS_AVX2.
void pointpaint_nv12_nearest_rgba_avx2(const uint8_t *luma, ptrdiff_t lumaStride, const uint8_t *chroma,
                                       ptrdiff_t chromaStride, uint8_t *output, ptrdiff_t outputStride,
                                       ptrdiff_t width, ptrdiff_t rowPairs, const PointPaintNV12Constants *k);

/// The same with 512-bit vectors, 64 pixels × 2 rows a step (narrower images: the AVX2 kernel's
/// steps). Requires POINTPAINT_KERNELS_AVX512BW.
void pointpaint_nv12_nearest_rgba_avx512bw(const uint8_t *luma, ptrdiff_t lumaStride, const uint8_t *chroma,
                                           ptrdiff_t chromaStride, uint8_t *output, ptrdiff_t outputStride,
                                           ptrdiff_t width, ptrdiff_t rowPairs, const PointPaintNV12Constants *k);
#endif

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, as iSCSI, ext4 and LevelDB use) of
/// `length` bytes, continuing from `crc` (0 to start): `crc(crc(0, a), b)` is the CRC of a
/// followed by b, and the CRC of "123456789" is 0xE3069283. Slicing-by-8 tables: the reference,
/// built everywhere.
uint32_t pointpaint_crc32c_c(uint32_t crc, const void *data, size_t length);

#if defined(__x86_64__)
/// Whether the CPU has SSE4.2's `crc32` instruction (CPUID).
int pointpaint_cpu_has_sse42(void);

/// `pointpaint_crc32c_c` with SSE4.2's `crc32` instruction, 8 bytes a step. Requires
/// `pointpaint_cpu_has_sse42()`.
uint32_t pointpaint_crc32c_sse42(uint32_t crc, const void *data, size_t length);
#endif

/// A frame's projection for `pointpaint_project_points_*`: the world-to-camera matrix's first
/// three rows by column (`m[3c + r]` is row r of column c), the intrinsics (pixels) and the image
/// size. Per point p (floats widened to double), in this order, no fused operations:
///   c = ((col0·p.x + col1·p.y) + col2·p.z) + col3      (rows x, y, z)
///   behind unless c.z < 0; d = −c.z
///   u = (fx · c.x) / d + cx,  v = (fy · −c.y) / d + cy,  s = u / width,  t = v / height
///   outside unless 0 ≤ s < 1 and 0 ≤ t < 1; else a candidate: (float)s, (float)t, (float)d.
typedef struct {
    double m[12];
    double fx, fy, cx, cy;
    double width, height;
} PointPaintProjection;

/// Projects points `first ..< end` of `positions` (four floats a point: x, y, z, padding),
/// writing each candidate's index, (s, t) pair and depth from the start of `index`, `st` and
/// `depth` in increasing index order, and adding the points behind the camera and outside the
/// image to `*behind` and `*outside`. Returns the candidates written. The reference.
ptrdiff_t pointpaint_project_points_c(const float *positions, ptrdiff_t first, ptrdiff_t end,
                                      const PointPaintProjection *k, uint32_t *index, float *st, float *depth,
                                      ptrdiff_t *behind, ptrdiff_t *outside);

/// A z-buffer splat for `pointpaint_splat_*`: image and bin sizes (pixels), focal length
/// (pixels), point spacing (metres), the grid and the most bins a footprint reaches past its
/// own. Per point (s, t, z), in float, no fused operations:
///   u = s · width, v = t · height, r = (focalLength · spacing) / z
///   cx = trunc(u / binSize), cy = trunc(v / binSize); bin = min(cy, rows−1) · columns + min(cx, columns−1)
///   x0 = max(0, ⌊max((u + −r) / binSize, cx − reach)⌋),  x1 = min(columns−1, ⌊min((u + r) / binSize, cx + reach)⌋)
///   y0, y1 the same in v and rows (max and min as Swift's: y ≥ x ? y : x, y < x ? y : x)
///   every bin of columns x0…x1 and rows y0…y1 whose depth is above z takes z.
typedef struct {
    float width, height, focalLength, spacing, binSize;
    int32_t columns, rows, reach;
} PointPaintSplat;

/// Splats `count` points (`st` pairs, `depth`) into `nearest` (columns × rows, row by row),
/// storing each point's own bin in `bins` when it is not null. The reference.
void pointpaint_splat_c(float *nearest, const float *st, const float *depth, ptrdiff_t count,
                        const PointPaintSplat *k, int32_t *bins);

#if defined(__x86_64__)
/// `pointpaint_project_points_c` four points a step in 256-bit vectors. Requires
/// POINTPAINT_KERNELS_AVX2.
ptrdiff_t pointpaint_project_points_avx2(const float *positions, ptrdiff_t first, ptrdiff_t end,
                                         const PointPaintProjection *k, uint32_t *index, float *st, float *depth,
                                         ptrdiff_t *behind, ptrdiff_t *outside);

/// `pointpaint_splat_c` with each footprint found eight points a step in 256-bit vectors (the
/// bins are then lowered one point at a time, in order). Requires POINTPAINT_KERNELS_AVX2.
void pointpaint_splat_avx2(float *nearest, const float *st, const float *depth, ptrdiff_t count,
                           const PointPaintSplat *k, int32_t *bins);
#endif

/// A bilinear Y′CbCr sampler for `pointpaint_sample_bilinear_*`: the planes (first row of each;
/// `lumaBytes` and `chromaBytes` readable from there), their sizes and strides, chroma pairs
/// interleaved (Cb, Cr), the chroma texel position of luma position (x, y) as
/// (x · chromaScaleX + chromaShiftX, y · chromaScaleY + chromaShiftY), the decode constants, and
/// whether coordinates outside 0…1 are clamped (else refused). Per point (s, t), in float:
///   admitted: inside [0, 1] as is; else clamped (not NaN, `clamp` set) or refused: NaN written
///   x = s · width, y = t · height; lx = x − 0.5, x0 = (int)(lx + 1) − 1, ax = lx − x0
///   texels x0, x0 + 1 clamped to the plane; a · (1 − ax) + b · ax along rows, then
///   top + (bottom − top) · ay; the same for Cb and Cr at the chroma position
///   yy = (Y − yOffset) · yScale, u = Cb − 128, v = Cr − 128
///   R′ = yy + rCr · v,  G′ = (yy − gCb · u) − gCr · v,  B′ = yy + bCb · u
typedef struct {
    const uint8_t *luma, *chroma;
    ptrdiff_t lumaBytes, chromaBytes;
    int32_t width, height, chromaWidth, chromaHeight, lumaStride, chromaStride;
    float chromaScaleX, chromaScaleY, chromaShiftX, chromaShiftY;
    float yOffset, yScale, rCr, gCb, gCr, bCb;
    int32_t clamp;
} PointPaintBilinear;

/// Samples `count` points (`st` pairs) into `out`, four floats a point (R′, G′, B′, padding).
/// Returns the points admitted. The reference.
ptrdiff_t pointpaint_sample_bilinear_c(const float *st, ptrdiff_t count, const PointPaintBilinear *k, float *out);

#if defined(__x86_64__)
/// `pointpaint_sample_bilinear_c` eight points a step, the texels fetched by gathers of four
/// bytes; a step whose points are not all inside 0…1, or whose gathers would read past a
/// plane's end, goes to the reference. Requires POINTPAINT_KERNELS_AVX2.
ptrdiff_t pointpaint_sample_bilinear_avx2(const float *st, ptrdiff_t count, const PointPaintBilinear *k, float *out);
#endif

#ifdef __cplusplus
}
#endif

#endif
