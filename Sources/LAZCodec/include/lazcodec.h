// LAZ point compression (the LASzip format, as published with LASzip 2/3 and read by laspy/lazrs,
// PDAL and LAStools): one chunk of points at a time, decoded into or encoded from uncompressed LAS
// point records. Framing (the LASzip VLR, the chunk table, files, threads) is PointPaint's Swift
// code (Sources/PointPaint/LAZ); this target is the entropy coder and the per-field compressors,
// in C because they run once a field of every point.
//
// Described in docs/laz.md. Supported items: POINT10, GPSTIME11, RGB12 and BYTE at version 2
// (point formats 0–3, LASzip's point-wise compressors 1 and 2), and POINT14, RGB14, RGBNIR14 and
// BYTE14 at version 3 (point formats 6–8, the layered compressor 3).
#ifndef POINTPAINT_LAZCODEC_H
#define POINTPAINT_LAZCODEC_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Item types of the LASzip VLR.
enum {
    LAZ_ITEM_BYTE = 0,
    LAZ_ITEM_POINT10 = 6,
    LAZ_ITEM_GPSTIME11 = 7,
    LAZ_ITEM_RGB12 = 8,
    LAZ_ITEM_POINT14 = 10,
    LAZ_ITEM_RGB14 = 11,
    LAZ_ITEM_RGBNIR14 = 12,
    LAZ_ITEM_BYTE14 = 14,
};

/// One item of a point record: its type, bytes and compressor version.
typedef struct {
    uint16_t type, size, version;
} laz_item;

/// What the chunk functions return.
enum {
    LAZ_OK = 0,
    /// The item list names an item, size or version this codec does not have.
    LAZ_UNSUPPORTED = 1,
    /// The chunk's bytes end before its points do (a truncated chunk, or an arithmetic-coded
    /// stream that runs out).
    LAZ_TRUNCATED = 2,
    /// The bytes decode to something no encoder writes (a raw value out of its range).
    LAZ_CORRUPT = 3,
    /// Memory could not be allocated.
    LAZ_NO_MEMORY = 4,
};

/// Where decoding stopped: the point (0-based within the chunk) and the chunk byte it had reached.
typedef struct {
    size_t point;
    size_t byte;
} laz_position;

/// A chunk decoder for one item list; reusable across chunks, one thread at a time.
typedef struct laz_chunk_decoder laz_chunk_decoder;

/// Creates a decoder for `items` (`count` of them), or NULL with *status set (LAZ_UNSUPPORTED,
/// LAZ_NO_MEMORY).
laz_chunk_decoder *laz_chunk_decoder_create(const laz_item *items, int count, int *status);
void laz_chunk_decoder_free(laz_chunk_decoder *decoder);

/// Starts the chunk of `size` bytes at `input` (as LASzip's compressor writes it) and decodes
/// its first `points` records into `output` (`points` · record length bytes). Returns LAZ_OK or
/// an error, with `where` telling the point (within the chunk) and byte reached. Never reads
/// outside `input`, which must stay valid while the chunk is decoded.
int laz_chunk_decode(laz_chunk_decoder *decoder, const uint8_t *input, size_t size, uint8_t *output, size_t points,
                     laz_position *where);

/// Decodes the next `points` records of the chunk `laz_chunk_decode` started, so a chunk of
/// many points needs no buffer for all of them.
int laz_chunk_decode_more(laz_chunk_decoder *decoder, uint8_t *output, size_t points, laz_position *where);

/// A growable byte buffer the encoder writes into (malloc'd; free with laz_bytes_free).
typedef struct {
    uint8_t *data;
    size_t size, capacity;
    /// Set when an allocation failed; later writes are dropped.
    int failed;
} laz_bytes;
void laz_bytes_free(laz_bytes *bytes);

/// A chunk encoder for one item list; reusable across chunks, one thread at a time.
typedef struct laz_chunk_encoder laz_chunk_encoder;
laz_chunk_encoder *laz_chunk_encoder_create(const laz_item *items, int count, int *status);
void laz_chunk_encoder_free(laz_chunk_encoder *encoder);

/// Appends the compressed chunk of `points` records at `input` to `output`. Returns LAZ_OK or
/// LAZ_NO_MEMORY.
int laz_chunk_encode(laz_chunk_encoder *encoder, const uint8_t *input, size_t points, laz_bytes *output);

/// Decodes a chunk table's arithmetic-coded body (after its version and count): `chunks` entries
/// of byte sizes, and of point counts when `counts` is not NULL (variable-size chunks), each the
/// difference from the previous entry as LASzip predicts it. Returns LAZ_OK, LAZ_TRUNCATED or
/// LAZ_NO_MEMORY.
int laz_chunk_table_decode(const uint8_t *input, size_t size, uint32_t chunks, uint32_t *counts, uint32_t *sizes);

/// Appends the arithmetic-coded body of a chunk table to `output`.
int laz_chunk_table_encode(const uint32_t *counts, const uint32_t *sizes, uint32_t chunks, laz_bytes *output);

#ifdef __cplusplus
}
#endif
#endif
