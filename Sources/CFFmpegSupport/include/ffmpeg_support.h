#ifndef POINTPAINT_FFMPEG_SUPPORT_H
#define POINTPAINT_FFMPEG_SUPPORT_H
#include <stddef.h>

/// Where libav's messages about one file go instead of stderr: the last error-level message
/// logged by a format or codec context whose `opaque` field points at this sink (codec contexts
/// that libavcodec copies for its frame threads inherit the pointer). Safe to write from
/// libavcodec's threads while the owner reads.
typedef struct ppav_log_sink ppav_log_sink;

/// Routes libav's logging through PointPaint once per process: nothing reaches stderr, and
/// error-level messages are kept in the sink of the context that logged them. Idempotent and
/// thread-safe.
void ppav_install_log(void);

/// A new, empty sink (NULL when out of memory). Free it with `ppav_log_sink_free` only after
/// every context pointing at it has been freed.
ppav_log_sink *ppav_log_sink_create(void);

void ppav_log_sink_free(ppav_log_sink *sink);

/// Copies the last message (at most `length - 1` bytes, NUL-terminated) into `out` and empties
/// the sink. Returns the number of bytes copied; 0 when nothing was logged since the last take.
size_t ppav_log_sink_take(ppav_log_sink *sink, char *out, size_t length);
#endif
