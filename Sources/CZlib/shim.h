#ifndef ACTIVETASKKIT_CZLIB_SHIM_H
#define ACTIVETASKKIT_CZLIB_SHIM_H
#include <zlib.h>
// inflateInit2 is a macro; this is it as a function Swift can call (raw deflate: windowBits < 0).
static inline int activetask_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
#endif
