#include <zlib.h>

/// inflateInit2 is a macro Swift cannot call; this wraps it. windowBits 15 + 32 detects gzip or zlib.
static inline int vclint_inflate_init(z_stream *stream) {
    return inflateInit2(stream, 15 + 32);
}
