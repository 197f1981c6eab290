#ifndef POINTPAINT_PNGCODEC_H
#define POINTPAINT_PNGCODEC_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// What a PNG holds once palettes are expanded and sub-byte depths widened, and what its
/// header (IHDR) said before that.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA (after expansion).
    int channels;
    /// 8 or 16 (after expansion). 16-bit samples are delivered in host byte order.
    int bitDepth;
    /// The header's own bit depth: 1, 2, 4, 8 or 16.
    int sourceBitDepth;
    /// The header's own colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    int sourceColorType;
    /// 1 when the file has a tRNS chunk (expanded to an alpha channel), else 0.
    int sourceHasTransparency;
} ppng_info;

/// What the functions below return: 0 on success; a negative errno when a system call failed
/// (open, read, write, close); otherwise one of these, with a message in err.
enum {
    /// Not a PNG file, or a damaged one (libpng's message says how).
    PPNG_MALFORMED = 1,
    /// The file ends before its image data does.
    PPNG_TRUNCATED = 2,
    /// The image has more pixels than the caller allows.
    PPNG_TOO_LARGE = 3,
    /// Encoder parameters it does not handle (channels, bit depth).
    PPNG_UNSUPPORTED = 4,
};

/// Reads only the header from the start of fp, which the caller opened and closes. Returns 0 on
/// success; otherwise writes a message into err.
int ppng_read_info(FILE *fp, ppng_info *info, char *err, size_t errlen);

/// Decodes a whole PNG from the start of fp (which the caller opened and closes) into a newly malloc'ed buffer of height rows of
/// width*channels*(bitDepth/8) bytes (free it with ppng_free). Refuses images with more than
/// maxPixels pixels, and (when fp is a regular file) headers that claim more image data than the
/// rest of the file could hold compressed, before allocating anything. No gamma or colour conversion is applied:
/// samples are the file's own values. Returns 0 on success.
int ppng_read(FILE *fp, uint64_t maxPixels, ppng_info *info, uint8_t **out, char *err, size_t errlen);

/// Encodes rows of width*channels*(bitDepth/8) bytes, rowBytes apart, 16-bit samples in
/// host byte order. Returns 0 on success.
int ppng_write(const char *path, uint32_t width, uint32_t height, int channels, int bitDepth,
               const uint8_t *data, size_t rowBytes, int compressionLevel,
               char *err, size_t errlen);

void ppng_free(void *p);
#endif
