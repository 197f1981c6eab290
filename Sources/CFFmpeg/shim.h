#ifndef POINTPAINT_CFFMPEG_SHIM_H
#define POINTPAINT_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>
#include <libavutil/display.h>

// Values FFmpeg spells as function-like macros, which Swift does not import.

/// AVERROR_EOF: the end of the input, or of the decoder's output once drained.
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
/// AVERROR(EAGAIN): the decoder wants input before it can give output (or the reverse).
static inline int cffmpeg_error_again(void) { return AVERROR(EAGAIN); }
/// AVERROR_INVALIDDATA: the bytes are not what the format says.
static inline int cffmpeg_error_invalid_data(void) { return AVERROR_INVALIDDATA; }
/// AVERROR_STREAM_NOT_FOUND: av_find_best_stream found no stream of the type asked for.
static inline int cffmpeg_error_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
/// AVERROR_DECODER_NOT_FOUND: this FFmpeg build has no decoder for the codec.
static inline int cffmpeg_error_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/// AVERROR_PATCHWELCOME: a feature of the format FFmpeg does not implement.
static inline int cffmpeg_error_patch_welcome(void) { return AVERROR_PATCHWELCOME; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t cffmpeg_no_pts(void) { return AV_NOPTS_VALUE; }

/// The rotation, in degrees counter-clockwise, of `stream`'s display matrix (the container's
/// instruction to turn the pictures when showing them), into `degrees`. Returns 0 when the
/// stream has no display matrix, 1 when it has one (`degrees` NaN when the matrix is no pure
/// rotation, such as a mirror).
static inline int cffmpeg_display_rotation(const AVStream *stream, double *degrees) {
    const int32_t *matrix = NULL;
#if LIBAVFORMAT_VERSION_MAJOR >= 61
    const AVPacketSideData *data = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                           stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    if (data && data->size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)data->data;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data && size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)data;
#endif
    if (!matrix) return 0;
    *degrees = av_display_rotation_get(matrix);
    return 1;
}
#endif
