// Chunks of point-wise compressed points (LASzip compressors 1 and 2): the first point raw, the
// rest in one arithmetic-coded stream that codes each item from the previous point's.
#include "items_v2.h"

enum { MAX_ITEMS = 8 };

typedef struct {
    uint16_t type, size;
    union {
        laz_point10_v2 *point10;
        laz_gpstime11_v2 *gpstime11;
        laz_rgb12_v2 *rgb12;
        laz_byte_v2 *byte;
    } state;
} item_codec;

typedef struct {
    item_codec items[MAX_ITEMS];
    int count;
    size_t record_length;
    int decoder;
} item_list;

static void items_free(item_list *list) {
    for (int i = 0; i < list->count; i++) {
        item_codec *c = &list->items[i];
        switch (c->type) {
        case LAZ_ITEM_POINT10:
            if (c->state.point10) laz_point10_v2_free(c->state.point10);
            free(c->state.point10);
            break;
        case LAZ_ITEM_GPSTIME11:
            if (c->state.gpstime11) laz_gpstime11_v2_free(c->state.gpstime11);
            free(c->state.gpstime11);
            break;
        case LAZ_ITEM_RGB12:
            if (c->state.rgb12) laz_rgb12_v2_free(c->state.rgb12);
            free(c->state.rgb12);
            break;
        default:
            if (c->state.byte) laz_byte_v2_free(c->state.byte);
            free(c->state.byte);
            break;
        }
    }
    list->count = 0;
}

/// Sets up the compressors of `items`; LAZ_UNSUPPORTED for anything but the version-2 items at
/// their sizes.
static int items_create(item_list *list, const laz_item *items, int count, int decoder) {
    memset(list, 0, sizeof *list);
    list->decoder = decoder;
    if (count < 1 || count > MAX_ITEMS) return LAZ_UNSUPPORTED;
    for (int i = 0; i < count; i++) {
        laz_item it = items[i];
        if (it.version != 2) return LAZ_UNSUPPORTED;
        int ok = 0;
        switch (it.type) {
        case LAZ_ITEM_POINT10: ok = it.size == 20 && i == 0; break;
        case LAZ_ITEM_GPSTIME11: ok = it.size == 8; break;
        case LAZ_ITEM_RGB12: ok = it.size == 6; break;
        case LAZ_ITEM_BYTE: ok = it.size >= 1; break;
        default: ok = 0;
        }
        if (!ok) return LAZ_UNSUPPORTED;
    }
    for (int i = 0; i < count; i++) {
        item_codec *c = &list->items[i];
        c->type = items[i].type;
        c->size = items[i].size;
        list->count = i + 1;
        int failed;
        switch (c->type) {
        case LAZ_ITEM_POINT10:
            failed = (c->state.point10 = malloc(sizeof(laz_point10_v2))) == NULL || laz_point10_v2_create(c->state.point10, decoder);
            break;
        case LAZ_ITEM_GPSTIME11:
            failed = (c->state.gpstime11 = malloc(sizeof(laz_gpstime11_v2))) == NULL || laz_gpstime11_v2_create(c->state.gpstime11, decoder);
            break;
        case LAZ_ITEM_RGB12:
            failed = (c->state.rgb12 = malloc(sizeof(laz_rgb12_v2))) == NULL || laz_rgb12_v2_create(c->state.rgb12, decoder);
            break;
        default:
            failed = (c->state.byte = malloc(sizeof(laz_byte_v2))) == NULL || laz_byte_v2_create(c->state.byte, c->size, decoder);
            break;
        }
        if (failed) return LAZ_NO_MEMORY;
        list->record_length += c->size;
    }
    return LAZ_OK;
}

/// Starts a chunk from its first (raw) record.
static int items_init(item_list *list, const uint8_t *record) {
    for (int i = 0; i < list->count; i++) {
        item_codec *c = &list->items[i];
        int failed;
        switch (c->type) {
        case LAZ_ITEM_POINT10: failed = laz_point10_v2_init(c->state.point10, record); break;
        case LAZ_ITEM_GPSTIME11: failed = laz_gpstime11_v2_init(c->state.gpstime11, record); break;
        case LAZ_ITEM_RGB12: failed = laz_rgb12_v2_init(c->state.rgb12, record); break;
        default: failed = laz_byte_v2_init(c->state.byte, record); break;
        }
        if (failed) return LAZ_NO_MEMORY;
        record += c->size;
    }
    return LAZ_OK;
}

struct laz_chunk_decoder {
    item_list list;
    /// The chunk being decoded: its bytes, the coder's state and the points decoded so far.
    const uint8_t *input;
    size_t size, decoded;
    laz_decoder coder;
};

struct laz_chunk_encoder {
    item_list list;
};

laz_chunk_decoder *laz_chunk_decoder_create(const laz_item *items, int count, int *status) {
    laz_chunk_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) {
        *status = LAZ_NO_MEMORY;
        return NULL;
    }
    *status = items_create(&decoder->list, items, count, 1);
    if (*status != LAZ_OK) {
        laz_chunk_decoder_free(decoder);
        return NULL;
    }
    return decoder;
}

void laz_chunk_decoder_free(laz_chunk_decoder *decoder) {
    if (decoder == NULL) return;
    items_free(&decoder->list);
    free(decoder);
}

int laz_chunk_decode(laz_chunk_decoder *decoder, const uint8_t *input, size_t size, uint8_t *output, size_t points,
                     laz_position *where) {
    item_list *list = &decoder->list;
    size_t length = list->record_length;
    decoder->input = input;
    decoder->size = size;
    decoder->decoded = 0;
    where->point = 0;
    where->byte = 0;
    if (points == 0) return LAZ_OK;
    if (size < length) {
        where->byte = size;
        return LAZ_TRUNCATED;
    }
    memcpy(output, input, length);
    int status = items_init(list, output);
    if (status != LAZ_OK) return status;
    laz_decoder_start(&decoder->coder, input + length, input + size);
    decoder->decoded = 1;
    return laz_chunk_decode_more(decoder, output + length, points - 1, where);
}

int laz_chunk_decode_more(laz_chunk_decoder *decoder, uint8_t *output, size_t points, laz_position *where) {
    item_list *list = &decoder->list;
    laz_decoder *d = &decoder->coder;
    where->point = decoder->decoded;
    where->byte = (size_t)(d->next - decoder->input);
    if (decoder->decoded == 0) return points == 0 ? LAZ_OK : LAZ_TRUNCATED;
    for (size_t p = 0; p < points; p++) {
        uint8_t *record = output + p * list->record_length;
        for (int i = 0; i < list->count; i++) {
            item_codec *c = &list->items[i];
            switch (c->type) {
            case LAZ_ITEM_POINT10:
                if (laz_point10_v2_decode(c->state.point10, d, record)) return LAZ_NO_MEMORY;
                break;
            case LAZ_ITEM_GPSTIME11: laz_gpstime11_v2_decode(c->state.gpstime11, d, record); break;
            case LAZ_ITEM_RGB12: laz_rgb12_v2_decode(c->state.rgb12, d, record); break;
            default: laz_byte_v2_decode(c->state.byte, d, record); break;
            }
            record += c->size;
        }
        if (d->overrun || d->corrupt) {
            where->point = decoder->decoded;
            where->byte = (size_t)(d->next - decoder->input);
            return d->overrun ? LAZ_TRUNCATED : LAZ_CORRUPT;
        }
        decoder->decoded++;
    }
    where->point = decoder->decoded;
    where->byte = (size_t)(d->next - decoder->input);
    return LAZ_OK;
}

laz_chunk_encoder *laz_chunk_encoder_create(const laz_item *items, int count, int *status) {
    laz_chunk_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) {
        *status = LAZ_NO_MEMORY;
        return NULL;
    }
    *status = items_create(&encoder->list, items, count, 0);
    if (*status != LAZ_OK) {
        laz_chunk_encoder_free(encoder);
        return NULL;
    }
    return encoder;
}

void laz_chunk_encoder_free(laz_chunk_encoder *encoder) {
    if (encoder == NULL) return;
    items_free(&encoder->list);
    free(encoder);
}

int laz_chunk_encode(laz_chunk_encoder *encoder, const uint8_t *input, size_t points, laz_bytes *output) {
    item_list *list = &encoder->list;
    size_t length = list->record_length;
    if (points == 0) return LAZ_OK;
    laz_bytes_append(output, input, length);
    int status = items_init(list, input);
    if (status != LAZ_OK) return status;
    laz_encoder e;
    laz_encoder_start(&e, output);
    for (size_t p = 1; p < points; p++) {
        const uint8_t *record = input + p * length;
        for (int i = 0; i < list->count; i++) {
            item_codec *c = &list->items[i];
            switch (c->type) {
            case LAZ_ITEM_POINT10:
                if (laz_point10_v2_encode(c->state.point10, &e, record)) return LAZ_NO_MEMORY;
                break;
            case LAZ_ITEM_GPSTIME11: laz_gpstime11_v2_encode(c->state.gpstime11, &e, record); break;
            case LAZ_ITEM_RGB12: laz_rgb12_v2_encode(c->state.rgb12, &e, record); break;
            default: laz_byte_v2_encode(c->state.byte, &e, record); break;
            }
            record += c->size;
        }
    }
    laz_encoder_finish(&e);
    return output->failed ? LAZ_NO_MEMORY : LAZ_OK;
}

void laz_bytes_free(laz_bytes *bytes) {
    free(bytes->data);
    bytes->data = NULL;
    bytes->size = bytes->capacity = 0;
}

int laz_chunk_table_decode(const uint8_t *input, size_t size, uint32_t chunks, uint32_t *counts, uint32_t *sizes) {
    laz_integer ic;
    if (laz_integer_create(&ic, 32, 2, 8, 0, 1)) {
        laz_integer_free(&ic);
        return LAZ_NO_MEMORY;
    }
    laz_decoder d;
    laz_decoder_start(&d, input, input + size);
    for (uint32_t i = 0; i < chunks; i++) {
        if (counts) counts[i] = (uint32_t)laz_integer_decompress(&ic, &d, i ? (int32_t)counts[i - 1] : 0, 0);
        sizes[i] = (uint32_t)laz_integer_decompress(&ic, &d, i ? (int32_t)sizes[i - 1] : 0, 1);
        if (d.overrun) break;
    }
    laz_integer_free(&ic);
    return d.overrun ? LAZ_TRUNCATED : d.corrupt ? LAZ_CORRUPT : LAZ_OK;
}

int laz_chunk_table_encode(const uint32_t *counts, const uint32_t *sizes, uint32_t chunks, laz_bytes *output) {
    laz_integer ic;
    if (laz_integer_create(&ic, 32, 2, 8, 0, 0)) {
        laz_integer_free(&ic);
        return LAZ_NO_MEMORY;
    }
    laz_encoder e;
    laz_encoder_start(&e, output);
    for (uint32_t i = 0; i < chunks; i++) {
        if (counts) laz_integer_compress(&ic, &e, i ? (int32_t)counts[i - 1] : 0, (int32_t)counts[i], 0);
        laz_integer_compress(&ic, &e, i ? (int32_t)sizes[i - 1] : 0, (int32_t)sizes[i], 1);
    }
    laz_encoder_finish(&e);
    laz_integer_free(&ic);
    return output->failed ? LAZ_NO_MEMORY : LAZ_OK;
}
