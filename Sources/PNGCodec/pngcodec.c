// libpng reports errors by longjmp, which Swift cannot catch; this file keeps every libpng
// call behind setjmp and turns failures into a return code and a message.
#include "pngcodec.h"
#include <png.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// The most that deflate can expand: 258 bytes from two bits of a dynamic Huffman code, so at
/// most 1032 bytes of image data from a byte of the file.
enum { DEFLATE_MAX_RATIO = 1032 };

typedef struct {
    char *err;
    size_t errlen;
    FILE *fp;
    /// What a failure returns when it is more than a damaged file: a negative errno, or
    /// PPNG_TRUNCATED. 0 means PPNG_MALFORMED.
    int status;
} ppng_errctx;

static void ppng_error(png_structp png, png_const_charp msg) {
    ppng_errctx *ctx = (ppng_errctx *)png_get_error_ptr(png);
    if (ctx && ctx->err && ctx->errlen) snprintf(ctx->err, ctx->errlen, "%s", msg);
    png_longjmp(png, 1);
}

static void ppng_warning(png_structp png, png_const_charp msg) {
    (void)png;
    (void)msg; // Warnings (for example a bad iCCP profile) do not stop decoding.
}

static void set_err(char *err, size_t errlen, const char *msg) {
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

/// Reads through stdio, telling a file that ends early (PPNG_TRUNCATED) from one the system
/// could not read (its errno); libpng's own reader says "Read Error" for both.
static void ppng_read_data(png_structp png, png_bytep data, size_t length) {
    ppng_errctx *ctx = (ppng_errctx *)png_get_io_ptr(png);
    if (fread(data, 1, length, ctx->fp) == length) return;
    if (ferror(ctx->fp)) {
        ctx->status = -(errno ? errno : EIO);
        png_error(png, "read failed");
    }
    ctx->status = PPNG_TRUNCATED;
    png_error(png, "the file ends before its image data does");
}

/// Writes through stdio, keeping the errno of a failed write (a full disk, say).
static void ppng_write_data(png_structp png, png_bytep data, size_t length) {
    ppng_errctx *ctx = (ppng_errctx *)png_get_io_ptr(png);
    if (fwrite(data, 1, length, ctx->fp) == length) return;
    ctx->status = -(errno ? errno : EIO);
    png_error(png, "write failed");
}

static void ppng_flush(png_structp png) {
    ppng_errctx *ctx = (ppng_errctx *)png_get_io_ptr(png);
    fflush(ctx->fp);
}

static int is_little_endian(void) {
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

// Checks the signature of the open `fp`, reads the info and, when wantPixels, the pixels; the
// caller closes fp. `ctx` belongs to the caller's frame: what the callbacks store in it is still
// there after libpng's longjmp back to the setjmp here (a local object changed in between would
// not be).
static int ppng_decode(FILE *fp, uint64_t maxPixels, int wantPixels, ppng_info *out,
                       uint8_t **pixels, ppng_errctx *ctx) {
    char *err = ctx->err;
    size_t errlen = ctx->errlen;
    uint8_t sig[8];
    size_t got = fread(sig, 1, 8, fp);
    if (got != 8 && ferror(fp)) {
        int code = errno ? errno : EIO;
        set_err(err, errlen, strerror(code));
        return -code;
    }
    if (got != 8 || png_sig_cmp(sig, 0, 8) != 0) {
        set_err(err, errlen, "not a PNG file (bad signature)");
        return PPNG_MALFORMED;
    }
    ctx->fp = fp;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, ctx, ppng_error, ppng_warning);
    if (!png) {
        set_err(err, errlen, "libpng could not start");
        return -ENOMEM;
    }
    png_infop info = png_create_info_struct(png);
    uint8_t *volatile buffer = NULL;
    png_bytep *volatile rows = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        free(buffer);
        free(rows);
        if (err && errlen && err[0] == 0) set_err(err, errlen, "corrupt PNG");
        return ctx->status ? ctx->status : PPNG_MALFORMED;
    }
    png_set_read_fn(png, ctx, ppng_read_data);
    png_set_sig_bytes(png, 8);
    // Headers that claim absurd sizes are refused by libpng itself before any allocation.
    png_set_user_limits(png, 1u << 20, 1u << 20);
    png_set_chunk_malloc_max(png, 64u << 20);
    // Ancillary chunks that decoding does not use (no gamma or colour management is applied)
    // are skipped unread, as unknown chunks are: libpng would otherwise allocate a text or
    // profile chunk's whole declared length before reading it.
    static const png_byte unused[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0"
                                     "sBIT\0sCAL\0sPLT\0sRGB\0sTER\0tEXt\0tIME\0zTXt";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, unused, (int)(sizeof unused / 5));
    png_read_info(png, info);

    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    int colorType = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);

    int hasTransparency = png_get_valid(png, info, PNG_INFO_tRNS) ? 1 : 0;

    if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colorType == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (hasTransparency) png_set_tRNS_to_alpha(png);
    if (depth == 16 && is_little_endian()) png_set_swap(png);
    // The header's size against the bytes left: deflate cannot expand them past
    // DEFLATE_MAX_RATIO, so a header that claims more lies, and nothing is allocated for it.
    // (Measured in the file's own bits a pixel, before palettes and sub-byte depths expand.)
    uint64_t pixelBytes = (uint64_t)width * height * png_get_channels(png, info) * (uint64_t)depth / 8;
    long position = ftell(fp);
    struct stat st;
    if (wantPixels && position >= 0 && fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode)) {
        uint64_t left = (uint64_t)st.st_size > (uint64_t)position ? (uint64_t)st.st_size - (uint64_t)position : 0;
        if (pixelBytes > (left + 64) * DEFLATE_MAX_RATIO) {
            char msg[200];
            snprintf(msg, sizeof msg, "the header's %ux%u pixels need %llu bytes of image data, more than the %llu bytes after it could hold compressed",
                     (unsigned)width, (unsigned)height, (unsigned long long)pixelBytes, (unsigned long long)left);
            set_err(err, errlen, msg);
            png_destroy_read_struct(&png, &info, NULL);
            return PPNG_TOO_LARGE;
        }
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    out->width = width;
    out->height = height;
    out->channels = png_get_channels(png, info);
    out->bitDepth = png_get_bit_depth(png, info);
    out->sourceBitDepth = depth;
    out->sourceColorType = colorType;
    out->sourceHasTransparency = hasTransparency;

    if (!wantPixels) {
        png_destroy_read_struct(&png, &info, NULL);
        return 0;
    }
    if ((uint64_t)width * (uint64_t)height > maxPixels) {
        char msg[160];
        snprintf(msg, sizeof msg, "expected an image of at most %llu pixels, found %ux%u = %llu",
                 (unsigned long long)maxPixels, (unsigned)width, (unsigned)height,
                 (unsigned long long)width * (unsigned long long)height);
        set_err(err, errlen, msg);
        png_destroy_read_struct(&png, &info, NULL);
        return PPNG_TOO_LARGE;
    }
    size_t rowBytes = png_get_rowbytes(png, info);
    buffer = (uint8_t *)malloc(rowBytes * (size_t)height);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (size_t)height);
    if (!buffer || !rows) {
        ctx->status = -ENOMEM;
        png_error(png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = buffer + (size_t)y * rowBytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    *pixels = buffer;
    return 0;
}

int ppng_read_info(FILE *fp, ppng_info *info, char *err, size_t errlen) {
    if (err && errlen) err[0] = 0;
    ppng_errctx ctx = {err, errlen, NULL, 0};
    return ppng_decode(fp, 0, 0, info, NULL, &ctx);
}

int ppng_read(FILE *fp, uint64_t maxPixels, ppng_info *info, uint8_t **out, char *err, size_t errlen) {
    if (err && errlen) err[0] = 0;
    *out = NULL;
    ppng_errctx ctx = {err, errlen, NULL, 0};
    return ppng_decode(fp, maxPixels, 1, info, out, &ctx);
}

// Encodes into the open ctx->fp (closed by the caller); `ctx` is the caller's, as in ppng_decode.
static int ppng_encode(ppng_errctx *ctx, uint32_t width, uint32_t height, int colorType, int bitDepth,
                       const uint8_t *data, size_t rowBytes, int compressionLevel) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, ctx, ppng_error, ppng_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        if (ctx->err && ctx->errlen && ctx->err[0] == 0) set_err(ctx->err, ctx->errlen, "libpng could not write");
        return ctx->status ? ctx->status : -EIO;
    }
    png_set_write_fn(png, ctx, ppng_write_data, ppng_flush);
    png_set_compression_level(png, compressionLevel);
    png_set_IHDR(png, info, width, height, bitDepth, colorType, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (bitDepth == 16 && is_little_endian()) png_set_swap(png);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(data + (size_t)y * rowBytes));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}

int ppng_write(const char *path, uint32_t width, uint32_t height, int channels, int bitDepth,
               const uint8_t *data, size_t rowBytes, int compressionLevel,
               char *err, size_t errlen) {
    if (err && errlen) err[0] = 0;
    int colorType;
    switch (channels) {
    case 1: colorType = PNG_COLOR_TYPE_GRAY; break;
    case 2: colorType = PNG_COLOR_TYPE_GRAY_ALPHA; break;
    case 3: colorType = PNG_COLOR_TYPE_RGB; break;
    case 4: colorType = PNG_COLOR_TYPE_RGB_ALPHA; break;
    default: set_err(err, errlen, "channels must be 1 to 4"); return PPNG_UNSUPPORTED;
    }
    if (bitDepth != 8 && bitDepth != 16) {
        set_err(err, errlen, "bit depth must be 8 or 16");
        return PPNG_UNSUPPORTED;
    }
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        int code = errno;
        set_err(err, errlen, strerror(code));
        return -code;
    }
    ppng_errctx ctx = {err, errlen, fp, 0};
    int status = ppng_encode(&ctx, width, height, colorType, bitDepth, data, rowBytes, compressionLevel);
    if (status != 0) {
        fclose(fp);
        return status;
    }
    if (fclose(fp) != 0) {
        int code = errno ? errno : EIO;
        set_err(err, errlen, strerror(code));
        return -code;
    }
    return 0;
}

void ppng_free(void *p) { free(p); }
