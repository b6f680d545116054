#include "CFFmpeg.h"
#include <libavutil/version.h>
#include <libavcodec/version_major.h>
#include <libavformat/version_major.h>
#include <libswresample/version_major.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define ATK_TEXT(x) #x
#define ATK_SONAME(library, major) "lib" #library ".so." ATK_TEXT(major)

static struct atk_ffmpeg table;
static const struct atk_ffmpeg *loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *open_library(const char *soname) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) snprintf(failure, sizeof failure, "cannot load FFmpeg's %s: %s", soname, dlerror());
    return handle;
}

static void load(void) {
    void *avutil = open_library(ATK_SONAME(avutil, LIBAVUTIL_VERSION_MAJOR));
    if (!avutil) return;
    void *swresample = open_library(ATK_SONAME(swresample, LIBSWRESAMPLE_VERSION_MAJOR));
    if (!swresample) return;
    void *avcodec = open_library(ATK_SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR));
    if (!avcodec) return;
    void *avformat = open_library(ATK_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR));
    if (!avformat) return;
#define ATK_FFMPEG_RESOLVE(library, name) \
    table.name = (__typeof__(table.name))dlsym(library, #name); \
    if (!table.name) { \
        snprintf(failure, sizeof failure, "FFmpeg's lib%s has no %s", #library, #name); \
        return; \
    }
    ATK_FFMPEG_FUNCTIONS(ATK_FFMPEG_RESOLVE)
#undef ATK_FFMPEG_RESOLVE
    loaded = &table;
}

const struct atk_ffmpeg *atk_ffmpeg_load(const char **message) {
    pthread_once(&once, load);
    if (!loaded && message) *message = failure;
    return loaded;
}
