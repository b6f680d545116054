#ifndef ACTIVETASKKIT_CFFMPEG_H
#define ACTIVETASKKIT_CFFMPEG_H
// FFmpeg's declarations, and its functions loaded on first use (dlopen) instead of linked: the
// ~100 libraries FFmpeg depends on cost every command ~40 ms of dynamic linking at start-up, and
// only reading a .m4a needs them. Call FFmpeg only through atk_ffmpeg_load()'s table.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <errno.h>
#include <stddef.h>

// Every function the decoder calls, with the library that defines it.
#define ATK_FFMPEG_FUNCTIONS(X) \
    X(avutil, av_log_set_level) \
    X(avutil, av_malloc) \
    X(avutil, av_freep) \
    X(avutil, av_strerror) \
    X(avutil, av_channel_layout_default) \
    X(avutil, av_channel_layout_uninit) \
    X(avutil, av_frame_alloc) \
    X(avutil, av_frame_free) \
    X(avutil, av_frame_unref) \
    X(avcodec, av_packet_alloc) \
    X(avcodec, av_packet_free) \
    X(avcodec, av_packet_unref) \
    X(avcodec, avcodec_alloc_context3) \
    X(avcodec, avcodec_free_context) \
    X(avcodec, avcodec_parameters_to_context) \
    X(avcodec, avcodec_open2) \
    X(avcodec, avcodec_get_name) \
    X(avcodec, avcodec_send_packet) \
    X(avcodec, avcodec_receive_frame) \
    X(avformat, avformat_alloc_context) \
    X(avformat, avformat_open_input) \
    X(avformat, avformat_find_stream_info) \
    X(avformat, avformat_close_input) \
    X(avformat, av_find_best_stream) \
    X(avformat, av_read_frame) \
    X(avformat, avio_alloc_context) \
    X(avformat, avio_context_free) \
    X(swresample, swr_alloc_set_opts2) \
    X(swresample, swr_init) \
    X(swresample, swr_free) \
    X(swresample, swr_get_out_samples) \
    X(swresample, swr_convert)

/// FFmpeg's functions, each with its own type.
struct atk_ffmpeg {
#define ATK_FFMPEG_FIELD(library, name) __typeof__(name) *name;
    ATK_FFMPEG_FUNCTIONS(ATK_FFMPEG_FIELD)
#undef ATK_FFMPEG_FIELD
};

/// The table, every entry set, after loading the libraries of the major versions these headers
/// declare (once per process); NULL when they cannot be loaded, `*message` then says why.
const struct atk_ffmpeg *atk_ffmpeg_load(const char **message);

// Function-like macros do not import into Swift; these name their values.
static inline int atk_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int atk_averror_eof(void) { return AVERROR_EOF; }
#endif
