#ifndef ACTIVETASKKIT_CFFMPEG_SHIM_H
#define ACTIVETASKKIT_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <errno.h>

// Function-like macros do not import into Swift; these name their values.
static inline int atk_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int atk_averror_eof(void) { return AVERROR_EOF; }
#endif
