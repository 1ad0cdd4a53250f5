// A JPEG decoded a band of rows at a time (libjpeg's scanline API), so a tiler holds only
// the rows it needs. libjpeg reports errors by longjmp, which Swift cannot catch: this
// file is the setjmp boundary, and every failure comes back as a message.
#ifndef IMAGESTAGE_JPEG_ROWS_H
#define IMAGESTAGE_JPEG_ROWS_H
#include <stddef.h>
#include <stdint.h>

typedef struct jpeg_rows jpeg_rows;

/// Opens `path` and reads its header. NULL on failure, with the reason in `error`.
jpeg_rows *jpeg_rows_open(const char *path, char *error, size_t error_size);
int jpeg_rows_width(const jpeg_rows *reader);
int jpeg_rows_height(const jpeg_rows *reader);
/// Decodes the next `count` rows as RGBA (R, G, B, 255 in memory order), `stride` bytes
/// apart. Returns 0, or -1 with the reason in `error` (corrupt or truncated data: libjpeg's
/// warnings count as errors, as TJFLAG_STOPONWARNING does).
int jpeg_rows_read(jpeg_rows *reader, uint8_t *rows, int count, size_t stride, char *error, size_t error_size);
void jpeg_rows_close(jpeg_rows *reader);
#endif
