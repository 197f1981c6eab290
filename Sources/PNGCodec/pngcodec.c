// libpng reports errors by longjmp, which Swift cannot catch; this file keeps every libpng
// call behind setjmp and turns failures into a return code and a message.
#include "pngcodec.h"
#include <png.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *err;
    size_t errlen;
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

static int is_little_endian(void) {
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

// Opens the file, checks the signature and reads the info; leaves png/info ready for rows.
static int ppng_decode(const char *path, uint64_t maxPixels, int wantPixels, ppng_info *out,
                       uint8_t **pixels, char *err, size_t errlen) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        set_err(err, errlen, strerror(errno));
        return 1;
    }
    uint8_t sig[8];
    if (fread(sig, 1, 8, fp) != 8 || png_sig_cmp(sig, 0, 8) != 0) {
        fclose(fp);
        set_err(err, errlen, "not a PNG file (bad signature)");
        return 1;
    }
    ppng_errctx ctx = {err, errlen};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, ppng_error, ppng_warning);
    if (!png) {
        fclose(fp);
        set_err(err, errlen, "libpng could not start");
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    uint8_t *volatile buffer = NULL;
    png_bytep *volatile rows = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        free(buffer);
        free(rows);
        fclose(fp);
        if (err && errlen && err[0] == 0) set_err(err, errlen, "corrupt PNG");
        return 1;
    }
    png_init_io(png, fp);
    png_set_sig_bytes(png, 8);
    // Headers that claim absurd sizes are refused by libpng itself before any allocation.
    png_set_user_limits(png, 1u << 20, 1u << 20);
    png_set_chunk_malloc_max(png, 64u << 20);
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
        fclose(fp);
        return 0;
    }
    if ((uint64_t)width * (uint64_t)height > maxPixels) {
        char msg[160];
        snprintf(msg, sizeof msg, "image of %ux%u pixels is larger than the %llu allowed",
                 (unsigned)width, (unsigned)height, (unsigned long long)maxPixels);
        set_err(err, errlen, msg);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(fp);
        return 1;
    }
    size_t rowBytes = png_get_rowbytes(png, info);
    buffer = (uint8_t *)malloc(rowBytes * (size_t)height);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (size_t)height);
    if (!buffer || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = buffer + (size_t)y * rowBytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    fclose(fp);
    *pixels = buffer;
    return 0;
}

int ppng_read_info(const char *path, ppng_info *info, char *err, size_t errlen) {
    if (err && errlen) err[0] = 0;
    return ppng_decode(path, 0, 0, info, NULL, err, errlen);
}

int ppng_read(const char *path, uint64_t maxPixels, ppng_info *info, uint8_t **out,
              char *err, size_t errlen) {
    if (err && errlen) err[0] = 0;
    *out = NULL;
    return ppng_decode(path, maxPixels, 1, info, out, err, errlen);
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
    default: set_err(err, errlen, "channels must be 1 to 4"); return 1;
    }
    if (bitDepth != 8 && bitDepth != 16) {
        set_err(err, errlen, "bit depth must be 8 or 16");
        return 1;
    }
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        set_err(err, errlen, strerror(errno));
        return 1;
    }
    ppng_errctx ctx = {err, errlen};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, ppng_error, ppng_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        fclose(fp);
        if (err && errlen && err[0] == 0) set_err(err, errlen, "libpng could not write");
        return 1;
    }
    png_init_io(png, fp);
    png_set_compression_level(png, compressionLevel);
    png_set_IHDR(png, info, width, height, bitDepth, colorType, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (bitDepth == 16 && is_little_endian()) png_set_swap(png);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(data + (size_t)y * rowBytes));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (fclose(fp) != 0) {
        set_err(err, errlen, strerror(errno));
        return 1;
    }
    return 0;
}

void ppng_free(void *p) { free(p); }
