#ifndef POINTPAINT_EXRCODEC_H
#define POINTPAINT_EXRCODEC_H
#include <stddef.h>
#include <stdint.h>

/// Reads one channel of a scanline OpenEXR file as 32-bit floats, row by row from the top of
/// its data window. The channel is the one named `Z`, `depth`, `Y` or `R` (in that order of
/// preference), or the only channel when there is one. Half and unsigned-int samples are
/// converted to float. Refuses images with more than maxPixels pixels before allocating, tiled
/// and deep files, and subsampled channels. On success returns 0, sets *out to a malloc'ed
/// buffer of width*height floats (free it with pexr_free) and copies the channel's name into
/// channel; otherwise writes a message into err and returns -1.
int pexr_read_channel(const char *path, uint64_t maxPixels, float **out, int32_t *width, int32_t *height,
                      char *channel, size_t channelLength, char *err, size_t errlen);

/// Writes width*height floats (row by row from the top) as a single-part scanline OpenEXR file
/// with one 32-bit float channel named `channel`, ZIP-compressed (16 lines a chunk), the data and
/// display windows (0, 0)-(width-1, height-1). On success returns 0; otherwise writes a message
/// into err, removes what was written and returns -1.
int pexr_write_channel(const char *path, int32_t width, int32_t height, const float *values, const char *channel,
                       char *err, size_t errlen);

/// Frees a buffer pexr_read_channel returned.
void pexr_free(void *p);
#endif
