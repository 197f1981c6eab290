// Chunks of compressed points: the first point raw, then either one arithmetic-coded stream
// that codes every item from the previous point's (LASzip compressors 1 and 2, item version 2),
// or the point count, each layer's byte count and the layers (compressor 3, item version 3).
#include "items_v2.h"
#include "items_v3.h"

enum { MAX_ITEMS = 8 };

typedef struct {
    uint16_t type, size;
    /// Where this item's layers start in the chunk's list of layers, and how many it has.
    uint32_t first_layer, layers;
    union {
        laz_point10_v2 *point10;
        laz_gpstime11_v2 *gpstime11;
        laz_rgb12_v2 *rgb12;
        laz_byte_v2 *byte;
        laz_point14_v3 *point14;
        laz_rgb14_v3 *rgb14;
        laz_byte14_v3 *byte14;
    } state;
} item_codec;

typedef struct {
    item_codec items[MAX_ITEMS];
    int count;
    size_t record_length;
    /// Version 3 items in layers (else version 2, one stream).
    int layered;
    uint32_t layers;
    int decoder;
} item_list;

static void items_free(item_list *list) {
    for (int i = 0; i < list->count; i++) {
        item_codec *c = &list->items[i];
        void *state = c->state.point10;
        if (state != NULL) {
            switch (c->type) {
            case LAZ_ITEM_POINT10: laz_point10_v2_free(c->state.point10); break;
            case LAZ_ITEM_GPSTIME11: laz_gpstime11_v2_free(c->state.gpstime11); break;
            case LAZ_ITEM_RGB12: laz_rgb12_v2_free(c->state.rgb12); break;
            case LAZ_ITEM_BYTE: laz_byte_v2_free(c->state.byte); break;
            case LAZ_ITEM_POINT14: laz_point14_v3_free(c->state.point14); break;
            case LAZ_ITEM_RGB14:
            case LAZ_ITEM_RGBNIR14: laz_rgb14_v3_free(c->state.rgb14); break;
            default: laz_byte14_v3_free(c->state.byte14); break;
            }
        }
        free(state);
    }
    list->count = 0;
}

/// Whether `items` is a list this codec has: POINT10 then GPSTIME11, RGB12 and BYTE, all
/// version 2; or POINT14 then RGB14 or RGBNIR14 and BYTE14, all version 3.
static int items_supported(const laz_item *items, int count) {
    if (count < 1 || count > MAX_ITEMS) return 0;
    int layered = items[0].type == LAZ_ITEM_POINT14;
    for (int i = 0; i < count; i++) {
        laz_item it = items[i];
        if (it.version != (layered ? 3 : 2)) return 0;
        int ok;
        switch (it.type) {
        case LAZ_ITEM_POINT10: ok = !layered && it.size == 20 && i == 0; break;
        case LAZ_ITEM_GPSTIME11: ok = !layered && it.size == 8; break;
        case LAZ_ITEM_RGB12: ok = !layered && it.size == 6; break;
        case LAZ_ITEM_BYTE: ok = !layered && it.size >= 1; break;
        case LAZ_ITEM_POINT14: ok = layered && it.size == 30 && i == 0; break;
        case LAZ_ITEM_RGB14: ok = layered && it.size == 6; break;
        case LAZ_ITEM_RGBNIR14: ok = layered && it.size == 8; break;
        case LAZ_ITEM_BYTE14: ok = layered && it.size >= 1; break;
        default: ok = 0;
        }
        if (!ok) return 0;
    }
    return 1;
}

static int items_create(item_list *list, const laz_item *items, int count, int decoder) {
    memset(list, 0, sizeof *list);
    list->decoder = decoder;
    if (!items_supported(items, count)) return LAZ_UNSUPPORTED;
    list->layered = items[0].type == LAZ_ITEM_POINT14;
    for (int i = 0; i < count; i++) {
        item_codec *c = &list->items[i];
        c->type = items[i].type;
        c->size = items[i].size;
        c->first_layer = list->layers;
        list->count = i + 1;
        int failed;
        switch (c->type) {
        case LAZ_ITEM_POINT10:
            failed = (c->state.point10 = calloc(1, sizeof(laz_point10_v2))) == NULL || laz_point10_v2_create(c->state.point10, decoder);
            break;
        case LAZ_ITEM_GPSTIME11:
            failed = (c->state.gpstime11 = calloc(1, sizeof(laz_gpstime11_v2))) == NULL || laz_gpstime11_v2_create(c->state.gpstime11, decoder);
            break;
        case LAZ_ITEM_RGB12:
            failed = (c->state.rgb12 = calloc(1, sizeof(laz_rgb12_v2))) == NULL || laz_rgb12_v2_create(c->state.rgb12, decoder);
            break;
        case LAZ_ITEM_BYTE:
            failed = (c->state.byte = calloc(1, sizeof(laz_byte_v2))) == NULL || laz_byte_v2_create(c->state.byte, c->size, decoder);
            break;
        case LAZ_ITEM_POINT14:
            c->layers = LAZ_P14_LAYERS;
            failed = (c->state.point14 = calloc(1, sizeof(laz_point14_v3))) == NULL || laz_point14_v3_create(c->state.point14, decoder);
            break;
        case LAZ_ITEM_RGB14:
        case LAZ_ITEM_RGBNIR14:
            c->layers = c->type == LAZ_ITEM_RGBNIR14 ? 2 : 1;
            failed = (c->state.rgb14 = calloc(1, sizeof(laz_rgb14_v3))) == NULL
                  || laz_rgb14_v3_create(c->state.rgb14, c->type == LAZ_ITEM_RGBNIR14, decoder);
            break;
        default:
            c->layers = c->size;
            failed = (c->state.byte14 = calloc(1, sizeof(laz_byte14_v3))) == NULL || laz_byte14_v3_create(c->state.byte14, c->size, decoder);
            break;
        }
        if (failed) return LAZ_NO_MEMORY;
        list->layers += c->layers;
        list->record_length += c->size;
    }
    return LAZ_OK;
}

/// Starts a chunk from its first (raw) record.
static int items_init(item_list *list, const uint8_t *record) {
    uint32_t context = 0;
    for (int i = 0; i < list->count; i++) {
        item_codec *c = &list->items[i];
        int failed;
        switch (c->type) {
        case LAZ_ITEM_POINT10: failed = laz_point10_v2_init(c->state.point10, record); break;
        case LAZ_ITEM_GPSTIME11: failed = laz_gpstime11_v2_init(c->state.gpstime11, record); break;
        case LAZ_ITEM_RGB12: failed = laz_rgb12_v2_init(c->state.rgb12, record); break;
        case LAZ_ITEM_BYTE: failed = laz_byte_v2_init(c->state.byte, record); break;
        case LAZ_ITEM_POINT14: failed = laz_point14_v3_init(c->state.point14, record, &context); break;
        case LAZ_ITEM_RGB14:
        case LAZ_ITEM_RGBNIR14: failed = laz_rgb14_v3_init(c->state.rgb14, record, context); break;
        default: failed = laz_byte14_v3_init(c->state.byte14, record, context); break;
        }
        if (failed) return LAZ_NO_MEMORY;
        record += c->size;
    }
    return LAZ_OK;
}

/// The "changed" flags of item `c`'s layers (version 3).
static int *layer_flags(item_codec *c) {
    switch (c->type) {
    case LAZ_ITEM_POINT14: return c->state.point14->changed;
    case LAZ_ITEM_RGB14:
    case LAZ_ITEM_RGBNIR14: return c->state.rgb14->changed;
    default: return c->state.byte14->changed;
    }
}

struct laz_chunk_decoder {
    item_list list;
    /// The chunk being decoded: its bytes, the coders' state and the points decoded so far.
    const uint8_t *input;
    size_t size, decoded;
    /// One coder (version 2), or one a layer (version 3).
    laz_decoder *coders;
};

struct laz_chunk_encoder {
    item_list list;
    laz_encoder *coders;
    laz_bytes *layers;
};

laz_chunk_decoder *laz_chunk_decoder_create(const laz_item *items, int count, int *status) {
    laz_chunk_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) {
        *status = LAZ_NO_MEMORY;
        return NULL;
    }
    *status = items_create(&decoder->list, items, count, 1);
    if (*status == LAZ_OK && (decoder->coders = calloc(decoder->list.layers + 1, sizeof(laz_decoder))) == NULL) *status = LAZ_NO_MEMORY;
    if (*status != LAZ_OK) {
        laz_chunk_decoder_free(decoder);
        return NULL;
    }
    return decoder;
}

void laz_chunk_decoder_free(laz_chunk_decoder *decoder) {
    if (decoder == NULL) return;
    items_free(&decoder->list);
    free(decoder->coders);
    free(decoder);
}

/// Reads the point count and layer sizes after the first record and starts every layer's
/// coder (layers of 0 bytes keep their value through the chunk); LAZ_TRUNCATED when the sizes
/// or the layers run past the chunk.
static int start_layers(laz_chunk_decoder *decoder, size_t *at) {
    item_list *list = &decoder->list;
    size_t offset = *at + 4;  // the point count, which the chunk table already gives
    if (decoder->size < offset || decoder->size - offset < 4 * (size_t)list->layers) return LAZ_TRUNCATED;
    const uint8_t *sizes = decoder->input + offset;
    offset += 4 * (size_t)list->layers;
    for (int i = 0; i < list->count; i++) {
        item_codec *c = &list->items[i];
        int *changed = layer_flags(c);
        for (uint32_t j = 0; j < c->layers; j++) {
            uint32_t bytes;
            memcpy(&bytes, sizes + 4 * (c->first_layer + j), 4);
            if (decoder->size - offset < bytes) {
                *at = decoder->size;
                return LAZ_TRUNCATED;
            }
            changed[j] = bytes > 0;
            // POINT14's first layer (return numbers and x, y) is read whatever its size.
            if (bytes > 0 || (c->type == LAZ_ITEM_POINT14 && j == 0))
                laz_decoder_start(&decoder->coders[c->first_layer + j], decoder->input + offset, decoder->input + offset + bytes);
            offset += bytes;
        }
    }
    *at = offset;
    return LAZ_OK;
}

int laz_chunk_decode(laz_chunk_decoder *decoder, const uint8_t *input, size_t size, uint8_t *output, size_t points,
                     laz_position *where) {
    item_list *list = &decoder->list;
    size_t length = list->record_length;
    decoder->input = input;
    decoder->size = size;
    decoder->decoded = 0;
    memset(decoder->coders, 0, sizeof(laz_decoder) * (list->layers + 1));
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
    if (list->layered) {
        size_t at = length;
        status = start_layers(decoder, &at);
        where->byte = at;
        if (status != LAZ_OK) return status;
    } else {
        laz_decoder_start(&decoder->coders[0], input + length, input + size);
    }
    decoder->decoded = 1;
    return laz_chunk_decode_more(decoder, output + length, points - 1, where);
}

/// Whether any coder ran out of bytes (1) or decoded a value out of range (2), with the
/// furthest byte reached.
static int coders_failed(laz_chunk_decoder *decoder, size_t *byte) {
    int failed = 0;
    uint32_t count = decoder->list.layered ? decoder->list.layers : 1;
    for (uint32_t i = 0; i < count; i++) {
        laz_decoder *d = &decoder->coders[i];
        if (d->next == NULL) continue;
        if (d->overrun) failed = 1;
        else if (d->corrupt && !failed) failed = 2;
        size_t reached = (size_t)(d->next - decoder->input);
        if (reached > *byte) *byte = reached;
    }
    return failed;
}

int laz_chunk_decode_more(laz_chunk_decoder *decoder, uint8_t *output, size_t points, laz_position *where) {
    item_list *list = &decoder->list;
    laz_decoder *coders = decoder->coders;
    where->point = decoder->decoded;
    if (decoder->decoded == 0) return points == 0 ? LAZ_OK : LAZ_TRUNCATED;
    for (size_t p = 0; p < points; p++) {
        uint8_t *record = output + p * list->record_length;
        // The context of the version 3 items after POINT14: as in LASzip (and so in every file),
        // 0 unless POINT14 switched scanner channel at this very point, then the new channel.
        uint32_t context = 0;
        for (int i = 0; i < list->count; i++) {
            item_codec *c = &list->items[i];
            laz_decoder *layers = coders + c->first_layer;
            int failed = 0;
            switch (c->type) {
            case LAZ_ITEM_POINT10: failed = laz_point10_v2_decode(c->state.point10, coders, record); break;
            case LAZ_ITEM_GPSTIME11: laz_gpstime11_v2_decode(c->state.gpstime11, coders, record); break;
            case LAZ_ITEM_RGB12: laz_rgb12_v2_decode(c->state.rgb12, coders, record); break;
            case LAZ_ITEM_BYTE: laz_byte_v2_decode(c->state.byte, coders, record); break;
            case LAZ_ITEM_POINT14: failed = laz_point14_v3_decode(c->state.point14, layers, record, &context); break;
            case LAZ_ITEM_RGB14:
            case LAZ_ITEM_RGBNIR14: failed = laz_rgb14_v3_decode(c->state.rgb14, layers, record, context); break;
            default: failed = laz_byte14_v3_decode(c->state.byte14, layers, record, context); break;
            }
            if (failed) return LAZ_NO_MEMORY;
            record += c->size;
        }
        size_t byte = 0;
        int failed = coders_failed(decoder, &byte);
        if (failed) {
            where->point = decoder->decoded;
            where->byte = byte;
            return failed == 1 ? LAZ_TRUNCATED : LAZ_CORRUPT;
        }
        decoder->decoded++;
    }
    where->point = decoder->decoded;
    coders_failed(decoder, &where->byte);
    return LAZ_OK;
}

laz_chunk_encoder *laz_chunk_encoder_create(const laz_item *items, int count, int *status) {
    laz_chunk_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) {
        *status = LAZ_NO_MEMORY;
        return NULL;
    }
    *status = items_create(&encoder->list, items, count, 0);
    if (*status == LAZ_OK) {
        encoder->coders = calloc(encoder->list.layers + 1, sizeof(laz_encoder));
        encoder->layers = calloc(encoder->list.layers + 1, sizeof(laz_bytes));
        if (encoder->coders == NULL || encoder->layers == NULL) *status = LAZ_NO_MEMORY;
    }
    if (*status != LAZ_OK) {
        laz_chunk_encoder_free(encoder);
        return NULL;
    }
    return encoder;
}

void laz_chunk_encoder_free(laz_chunk_encoder *encoder) {
    if (encoder == NULL) return;
    if (encoder->layers)
        for (uint32_t i = 0; i <= encoder->list.layers; i++) laz_bytes_free(&encoder->layers[i]);
    items_free(&encoder->list);
    free(encoder->coders);
    free(encoder->layers);
    free(encoder);
}

/// Ends a layered chunk: the point count, each layer's size (0 for a layer whose values never
/// changed: POINT14's first two layers are always kept), then the layers' bytes.
static void finish_layers(laz_chunk_encoder *encoder, size_t points, laz_bytes *output) {
    item_list *list = &encoder->list;
    uint32_t count = (uint32_t)points;
    laz_bytes_append(output, &count, 4);
    for (int i = 0; i < list->count; i++) {
        item_codec *c = &list->items[i];
        int *changed = layer_flags(c);
        for (uint32_t j = 0; j < c->layers; j++) {
            uint32_t k = c->first_layer + j;
            int kept = changed[j] || (c->type == LAZ_ITEM_POINT14 && j <= LAZ_P14_Z);
            if (kept) laz_encoder_finish(&encoder->coders[k]);
            uint32_t bytes = kept ? (uint32_t)encoder->layers[k].size : 0;
            if (!kept) encoder->layers[k].size = 0;
            if (encoder->layers[k].failed) output->failed = 1;
            laz_bytes_append(output, &bytes, 4);
        }
    }
    for (uint32_t k = 0; k < list->layers; k++) laz_bytes_append(output, encoder->layers[k].data, encoder->layers[k].size);
}

int laz_chunk_encode(laz_chunk_encoder *encoder, const uint8_t *input, size_t points, laz_bytes *output) {
    item_list *list = &encoder->list;
    size_t length = list->record_length;
    if (points == 0) return LAZ_OK;
    laz_bytes_append(output, input, length);
    int status = items_init(list, input);
    if (status != LAZ_OK) return status;
    if (list->layered) {
        for (uint32_t k = 0; k < list->layers; k++) {
            encoder->layers[k].size = 0;
            laz_encoder_start(&encoder->coders[k], &encoder->layers[k]);
        }
        for (int i = 0; i < list->count; i++) memset(layer_flags(&list->items[i]), 0, sizeof(int) * list->items[i].layers);
    } else {
        laz_encoder_start(&encoder->coders[0], output);
    }
    for (size_t p = 1; p < points; p++) {
        const uint8_t *record = input + p * length;
        uint32_t context = 0;  // as in decoding: POINT14 sets it only when it switches channel
        for (int i = 0; i < list->count; i++) {
            item_codec *c = &list->items[i];
            laz_encoder *layers = encoder->coders + c->first_layer;
            int failed = 0;
            switch (c->type) {
            case LAZ_ITEM_POINT10: failed = laz_point10_v2_encode(c->state.point10, encoder->coders, record); break;
            case LAZ_ITEM_GPSTIME11: laz_gpstime11_v2_encode(c->state.gpstime11, encoder->coders, record); break;
            case LAZ_ITEM_RGB12: laz_rgb12_v2_encode(c->state.rgb12, encoder->coders, record); break;
            case LAZ_ITEM_BYTE: laz_byte_v2_encode(c->state.byte, encoder->coders, record); break;
            case LAZ_ITEM_POINT14: failed = laz_point14_v3_encode(c->state.point14, layers, record, &context); break;
            case LAZ_ITEM_RGB14:
            case LAZ_ITEM_RGBNIR14: failed = laz_rgb14_v3_encode(c->state.rgb14, layers, record, context); break;
            default: failed = laz_byte14_v3_encode(c->state.byte14, layers, record, context); break;
            }
            if (failed) return LAZ_NO_MEMORY;
            record += c->size;
        }
    }
    if (list->layered) finish_layers(encoder, points, output);
    else laz_encoder_finish(&encoder->coders[0]);
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
