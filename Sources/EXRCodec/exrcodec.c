// One channel of a scanline OpenEXR file, read and written through OpenEXR's C core library (OpenEXRCore).
#include "exrcodec.h"

#include <OpenEXR/openexr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// OpenEXRCore prints errors to stderr unless given a handler: keep them for our message instead.
typedef struct {
    char *err;
    size_t errlen;
} pexr_errors;

static void pexr_error_handler(exr_const_context_t ctxt, exr_result_t code, const char *message) {
    pexr_errors *errors = NULL;
    if (exr_get_user_data(ctxt, (void **)&errors) == EXR_ERR_SUCCESS && errors && errors->err && errors->errlen) {
        snprintf(errors->err, errors->errlen, "%s", message ? message : exr_get_error_code_as_string(code));
    }
}

static int fail(char *err, size_t errlen, const char *message) {
    if (err && errlen) snprintf(err, errlen, "%s", message);
    return -1;
}

static int pick_channel(const exr_attr_chlist_t *channels) {
    static const char *preferred[] = {"Z", "depth", "Y", "R"};
    for (size_t p = 0; p < sizeof preferred / sizeof preferred[0]; p++) {
        for (int i = 0; i < channels->num_channels; i++) {
            if (strcmp(channels->entries[i].name.str, preferred[p]) == 0) return i;
        }
    }
    return channels->num_channels == 1 ? 0 : -1;
}

int pexr_read_channel(const char *path, uint64_t maxPixels, float **out, int32_t *width, int32_t *height,
                      char *channel, size_t channelLength, char *err, size_t errlen) {
    *out = NULL;
    pexr_errors errors = {err, errlen};
    if (err && errlen) err[0] = 0;
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = pexr_error_handler;
    init.user_data = &errors;
    exr_context_t ctxt = NULL;
    if (exr_start_read(&ctxt, path, &init) != EXR_ERR_SUCCESS) {
        exr_finish(&ctxt);
        return (err && errlen && err[0]) ? -1 : fail(err, errlen, "not an OpenEXR file");
    }
    int result = -1;
    float *pixels = NULL;
    exr_decode_pipeline_t decoder = EXR_DECODE_PIPELINE_INITIALIZER;
    int decoderReady = 0;
    do {
        int parts = 0;
        exr_storage_t storage;
        if (exr_get_count(ctxt, &parts) != EXR_ERR_SUCCESS || parts < 1) { fail(err, errlen, "expected an image part, found none"); break; }
        if (exr_get_storage(ctxt, 0, &storage) != EXR_ERR_SUCCESS) break;
        if (storage != EXR_STORAGE_SCANLINE) { fail(err, errlen, "expected a scanline image, found a tiled or deep one"); break; }
        exr_attr_box2i_t window;
        if (exr_get_data_window(ctxt, 0, &window) != EXR_ERR_SUCCESS) break;
        int64_t w = (int64_t)window.max.x - window.min.x + 1, h = (int64_t)window.max.y - window.min.y + 1;
        if (w <= 0 || h <= 0) { fail(err, errlen, "expected a data window with pixels, found an empty one"); break; }
        if ((uint64_t)w > maxPixels / (uint64_t)h) {
            char text[160];
            snprintf(text, sizeof text, "expected at most %llu pixels, found a %lldx%lld data window",
                     (unsigned long long)maxPixels, (long long)w, (long long)h);
            fail(err, errlen, text);
            break;
        }
        const exr_attr_chlist_t *channels = NULL;
        if (exr_get_channels(ctxt, 0, &channels) != EXR_ERR_SUCCESS || !channels) break;
        int picked = pick_channel(channels);
        if (picked < 0) {
            char text[256] = "expected a channel named Z, depth, Y or R, or a single channel; found";
            for (int i = 0; i < channels->num_channels && strlen(text) < sizeof text - 40; i++) {
                strncat(text, i ? ", " : " ", sizeof text - strlen(text) - 1);
                strncat(text, channels->entries[i].name.str, 24);
            }
            fail(err, errlen, text);
            break;
        }
        const exr_attr_chlist_entry_t *entry = &channels->entries[picked];
        if (entry->x_sampling != 1 || entry->y_sampling != 1) { fail(err, errlen, "expected a channel sampled at every pixel, found a subsampled one"); break; }
        snprintf(channel, channelLength, "%s", entry->name.str);
        pixels = malloc((size_t)w * (size_t)h * sizeof(float));
        if (!pixels) { fail(err, errlen, "out of memory"); break; }
        int32_t lines = 0;
        if (exr_get_scanlines_per_chunk(ctxt, 0, &lines) != EXR_ERR_SUCCESS || lines < 1) break;
        int ok = 1;
        for (int64_t y = window.min.y; y <= window.max.y && ok; y += lines) {
            exr_chunk_info_t chunk;
            if (exr_read_scanline_chunk_info(ctxt, 0, (int)y, &chunk) != EXR_ERR_SUCCESS) { ok = 0; break; }
            exr_result_t status = decoderReady ? exr_decoding_update(ctxt, 0, &chunk, &decoder)
                                               : exr_decoding_initialize(ctxt, 0, &chunk, &decoder);
            if (status != EXR_ERR_SUCCESS) { ok = 0; break; }
            decoderReady = 1;
            // The chunk's first row, clipped to the window (chunks start on multiples of `lines`).
            int64_t first = chunk.start_y;
            if (first < window.min.y || first + chunk.height - 1 > window.max.y) {
                fail(err, errlen, "expected chunks inside the data window, found one outside it");
                ok = 0;
                break;
            }
            for (int c = 0; c < decoder.channel_count; c++) {
                exr_coding_channel_info_t *info = &decoder.channels[c];
                if (strcmp(info->channel_name, entry->name.str) == 0) {
                    info->decode_to_ptr = (uint8_t *)(pixels + (size_t)(first - window.min.y) * (size_t)w);
                    info->user_pixel_stride = (int32_t)sizeof(float);
                    info->user_line_stride = (int32_t)(w * (int64_t)sizeof(float));
                    info->user_data_type = EXR_PIXEL_FLOAT;
                    info->user_bytes_per_element = (int16_t)sizeof(float);
                } else {
                    info->decode_to_ptr = NULL;
                }
            }
            if (exr_decoding_choose_default_routines(ctxt, 0, &decoder) != EXR_ERR_SUCCESS
                || exr_decoding_run(ctxt, 0, &decoder) != EXR_ERR_SUCCESS) { ok = 0; break; }
        }
        if (!ok) {
            if (err && errlen && !err[0]) fail(err, errlen, "the pixel data cannot be decoded");
            break;
        }
        *width = (int32_t)w;
        *height = (int32_t)h;
        *out = pixels;
        pixels = NULL;
        result = 0;
    } while (0);
    if (decoderReady) exr_decoding_destroy(ctxt, &decoder);
    free(pixels);
    exr_finish(&ctxt);
    if (result != 0 && err && errlen && !err[0]) fail(err, errlen, "cannot read the header");
    return result;
}

int pexr_write_channel(const char *path, int32_t width, int32_t height, const float *values, const char *channel,
                       char *err, size_t errlen) {
    pexr_errors errors = {err, errlen};
    if (err && errlen) err[0] = 0;
    if (width < 1 || height < 1 || !values || !channel || !channel[0]) return fail(err, errlen, "expected pixels and a channel name");
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = pexr_error_handler;
    init.user_data = &errors;
    exr_context_t ctxt = NULL;
    if (exr_start_write(&ctxt, path, EXR_WRITE_FILE_DIRECTLY, &init) != EXR_ERR_SUCCESS) {
        exr_finish(&ctxt);
        return (err && errlen && err[0]) ? -1 : fail(err, errlen, "cannot create the file");
    }
    int result = -1;
    exr_encode_pipeline_t encoder = EXR_ENCODE_PIPELINE_INITIALIZER;
    int encoderReady = 0;
    do {
        int part = 0;
        if (exr_add_part(ctxt, "", EXR_STORAGE_SCANLINE, &part) != EXR_ERR_SUCCESS
            || exr_initialize_required_attr_simple(ctxt, part, width, height, EXR_COMPRESSION_ZIP) != EXR_ERR_SUCCESS
            || exr_add_channel(ctxt, part, channel, EXR_PIXEL_FLOAT, EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1) != EXR_ERR_SUCCESS
            || exr_write_header(ctxt) != EXR_ERR_SUCCESS) break;
        int32_t lines = 0;
        if (exr_get_scanlines_per_chunk(ctxt, part, &lines) != EXR_ERR_SUCCESS || lines < 1) break;
        int ok = 1;
        for (int32_t y = 0; y < height && ok; y += lines) {
            exr_chunk_info_t chunk;
            if (exr_write_scanline_chunk_info(ctxt, part, y, &chunk) != EXR_ERR_SUCCESS) { ok = 0; break; }
            exr_result_t status = encoderReady ? exr_encoding_update(ctxt, part, &chunk, &encoder)
                                               : exr_encoding_initialize(ctxt, part, &chunk, &encoder);
            if (status != EXR_ERR_SUCCESS) { ok = 0; break; }
            encoderReady = 1;
            exr_coding_channel_info_t *info = &encoder.channels[0];
            info->encode_from_ptr = (const uint8_t *)(values + (size_t)chunk.start_y * (size_t)width);
            info->user_pixel_stride = (int32_t)sizeof(float);
            info->user_line_stride = (int32_t)((int64_t)width * (int64_t)sizeof(float));
            info->user_data_type = EXR_PIXEL_FLOAT;
            info->user_bytes_per_element = (int16_t)sizeof(float);
            if (exr_encoding_choose_default_routines(ctxt, part, &encoder) != EXR_ERR_SUCCESS
                || exr_encoding_run(ctxt, part, &encoder) != EXR_ERR_SUCCESS) { ok = 0; break; }
        }
        if (!ok) break;
        result = 0;
    } while (0);
    if (encoderReady) exr_encoding_destroy(ctxt, &encoder);
    // exr_finish writes the chunk offset table; with EXR_WRITE_FILE_DIRECTLY it removes the file on failure.
    if (exr_finish(&ctxt) != EXR_ERR_SUCCESS) result = -1;
    if (result != 0 && err && errlen && !err[0]) fail(err, errlen, "cannot write the image");
    return result;
}

void pexr_free(void *p) { free(p); }
