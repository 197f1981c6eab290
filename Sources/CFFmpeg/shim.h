#ifndef POINTPAINT_CFFMPEG_SHIM_H
#define POINTPAINT_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>

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
#endif
