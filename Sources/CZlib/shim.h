#include <zlib.h>

// deflateInit2 is a macro (it passes the library's version and z_stream's size): Swift
// cannot call macros, so this wraps it for a raw deflate stream (no zlib header or trailer).
static inline int imagestage_deflate_init_raw(z_stream *stream, int level, int strategy) {
  return deflateInit2(stream, level, Z_DEFLATED, -15, 8, strategy);
}
