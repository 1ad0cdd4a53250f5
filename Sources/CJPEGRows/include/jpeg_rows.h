// A JPEG decoded a band of rows at a time (libjpeg's scanline API), so a tiler holds only
// the rows it needs. libjpeg reports errors by longjmp, which Swift cannot catch: this
// file is the setjmp boundary, and every failure comes back as a message.
#ifndef IMAGESTAGE_JPEG_ROWS_H
#define IMAGESTAGE_JPEG_ROWS_H
#include <stddef.h>
#include <stdint.h>

typedef struct jpeg_rows jpeg_rows;

/// Opens `path` and reads its header (nothing the image's size decides is allocated yet).
/// NULL on failure, with the reason in `error`. `max_scans` (0: no limit) ends a decode
/// whose input has more scans than that, with a message.
jpeg_rows *jpeg_rows_open(const char *path, int max_scans, char *error, size_t error_size);
/// The same for a JPEG in memory: `bytes` must outlive the reader.
jpeg_rows *jpeg_rows_open_memory(const uint8_t *bytes, size_t size, int max_scans, char *error, size_t error_size);
/// About what libjpeg will hold while decoding this image, from its header: a progressive
/// JPEG's coefficients of the whole image (2 bytes a sample) and a few rows of samples.
uint64_t jpeg_rows_decoder_bytes(const jpeg_rows *reader);
/// Decodes at 1/`denominator` of the size (1, 2, 4 or 8), as TurboJPEG's scaling does; call
/// before `jpeg_rows_start`. The width and height then answer the reduced size.
void jpeg_rows_scale(jpeg_rows *reader, int denominator);
int jpeg_rows_is_progressive(const jpeg_rows *reader);
/// Starts decoding (a progressive JPEG's scans are all read here), with libjpeg's own
/// allocations bounded by `max_memory` bytes (0: none). 0, or -1 with the reason in `error`.
int jpeg_rows_start(jpeg_rows *reader, uint64_t max_memory, char *error, size_t error_size);
int jpeg_rows_width(const jpeg_rows *reader);
int jpeg_rows_height(const jpeg_rows *reader);
/// Decodes the next `count` rows as RGBA (R, G, B, 255 in memory order), `stride` bytes
/// apart. Returns 0, or -1 with the reason in `error` (corrupt or truncated data: libjpeg's
/// warnings count as errors, as TJFLAG_STOPONWARNING does).
int jpeg_rows_read(jpeg_rows *reader, uint8_t *rows, int count, size_t stride, char *error, size_t error_size);
void jpeg_rows_close(jpeg_rows *reader);
#endif
