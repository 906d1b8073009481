#pragma once
// zlib, for the deflate streams inside .xlsx workbooks: its inflate stops at
// the stream's end or reports that the input ran out, whatever the bytes.
#include <zlib.h>

// `inflateInit2` is a macro; Swift imports only functions.
static inline int czlib_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

// The same for the tests' writer of hostile archives.
static inline int czlib_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}
