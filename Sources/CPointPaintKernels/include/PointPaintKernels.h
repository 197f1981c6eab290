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

#ifdef __cplusplus
}
#endif

#endif
