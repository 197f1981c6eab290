// libyuv, the peer for whole-frame NV12 → RGBA conversion (Debian: libyuv-dev; no pkg-config file).
#include <libyuv.h>

// The address of libyuv's full-range BT.601 constants. Swift would copy the `const` global to an
// unaligned temporary, and libyuv's AVX2 rows load it with aligned moves.
static inline const struct YuvConstants *pointpaint_yuv_jpeg_constants(void) {
    return &kYuvJPEGConstants;
}
