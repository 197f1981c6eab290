// libav's log callback takes a va_list, which Swift cannot format; this file formats it and
// keeps the last error of each file's contexts so PointPaint can put it in its own error line.
#include "ffmpeg_support.h"
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Distinguishes a sink from anything else a context's opaque field might hold.
#define PPAV_SINK_MAGIC 0x70706176u /* "ppav" */

struct ppav_log_sink {
    unsigned magic;
    pthread_mutex_t lock;
    char last[256];
};

/// The sink of the context `avcl`, if it is a codec or format context that points at one.
static ppav_log_sink *sink_of(void *avcl) {
    if (!avcl) return NULL;
    const AVClass *cls = *(const AVClass **)avcl;
    void *opaque = NULL;
    if (cls == avcodec_get_class()) opaque = ((AVCodecContext *)avcl)->opaque;
    else if (cls == avformat_get_class()) opaque = ((AVFormatContext *)avcl)->opaque;
    ppav_log_sink *sink = opaque;
    return sink && sink->magic == PPAV_SINK_MAGIC ? sink : NULL;
}

static void log_callback(void *avcl, int level, const char *format, va_list arguments) {
    if (level > AV_LOG_ERROR) return;
    ppav_log_sink *sink = sink_of(avcl);
    if (!sink) return;
    char line[sizeof sink->last];
    vsnprintf(line, sizeof line, format, arguments);
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' ' || line[n - 1] == '.')) line[--n] = 0;
    if (n == 0) return;
    pthread_mutex_lock(&sink->lock);
    memcpy(sink->last, line, n + 1);
    pthread_mutex_unlock(&sink->lock);
}

static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void install(void) {
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(log_callback);
}

void ppav_install_log(void) { pthread_once(&install_once, install); }

ppav_log_sink *ppav_log_sink_create(void) {
    ppav_log_sink *sink = calloc(1, sizeof *sink);
    if (!sink) return NULL;
    sink->magic = PPAV_SINK_MAGIC;
    pthread_mutex_init(&sink->lock, NULL);
    return sink;
}

void ppav_log_sink_free(ppav_log_sink *sink) {
    if (!sink) return;
    pthread_mutex_destroy(&sink->lock);
    sink->magic = 0;
    free(sink);
}

size_t ppav_log_sink_take(ppav_log_sink *sink, char *out, size_t length) {
    if (!sink || !out || length == 0) return 0;
    pthread_mutex_lock(&sink->lock);
    size_t n = strnlen(sink->last, sizeof sink->last);
    if (n >= length) n = length - 1;
    memcpy(out, sink->last, n);
    out[n] = 0;
    sink->last[0] = 0;
    pthread_mutex_unlock(&sink->lock);
    return n;
}
