#include "jpeg_rows.h"

// jpeglib.h uses FILE without including stdio.h.
#include <stdio.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

struct failure {
  struct jpeg_error_mgr base;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

struct jpeg_rows {
  struct jpeg_decompress_struct info;
  struct failure failure;
  FILE *file;
};

static void fail(j_common_ptr info) {
  struct failure *f = (struct failure *)info->err;
  info->err->format_message(info, f->message);
  longjmp(f->jump, 1);
}

// Warnings (level -1: corrupt data, a premature end) stop the decode: a truncated file is an
// error, not a grey-bottomed picture. Trace messages (level >= 0) are ignored.
static void warn(j_common_ptr info, int level) {
  if (level < 0) fail(info);
}

static void copy_message(char *error, size_t size, const char *text) {
  if (size == 0) return;
  snprintf(error, size, "%s", text);
}

jpeg_rows *jpeg_rows_open(const char *path, char *error, size_t error_size) {
  jpeg_rows *r = calloc(1, sizeof *r);
  if (!r) {
    copy_message(error, error_size, "out of memory");
    return NULL;
  }
  r->file = fopen(path, "rb");
  if (!r->file) {
    copy_message(error, error_size, strerror(errno));
    free(r);
    return NULL;
  }
  r->info.err = jpeg_std_error(&r->failure.base);
  r->failure.base.error_exit = fail;
  r->failure.base.emit_message = warn;
  if (setjmp(r->failure.jump)) {
    copy_message(error, error_size, r->failure.message);
    jpeg_destroy_decompress(&r->info);
    fclose(r->file);
    free(r);
    return NULL;
  }
  jpeg_create_decompress(&r->info);
  jpeg_stdio_src(&r->info, r->file);
  jpeg_read_header(&r->info, TRUE);
  if (r->info.jpeg_color_space == JCS_CMYK || r->info.jpeg_color_space == JCS_YCCK) {
    snprintf(r->failure.message, sizeof r->failure.message, "CMYK JPEGs are not supported; save it as RGB");
    longjmp(r->failure.jump, 1);
  }
  r->info.out_color_space = JCS_EXT_RGBA;
  r->info.dct_method = JDCT_ISLOW;  // as the whole-image decoder (TJFLAG_ACCURATEDCT)
  jpeg_start_decompress(&r->info);
  return r;
}

int jpeg_rows_width(const jpeg_rows *r) { return (int)r->info.output_width; }
int jpeg_rows_height(const jpeg_rows *r) { return (int)r->info.output_height; }

int jpeg_rows_read(jpeg_rows *r, uint8_t *rows, int count, size_t stride, char *error, size_t error_size) {
  if (setjmp(r->failure.jump)) {
    copy_message(error, error_size, r->failure.message);
    return -1;
  }
  int done = 0;
  while (done < count) {
    if (r->info.output_scanline >= r->info.output_height) {
      copy_message(error, error_size, "asked for rows past the image's end");
      return -1;
    }
    JSAMPROW row = rows + (size_t)done * stride;
    done += (int)jpeg_read_scanlines(&r->info, &row, 1);
  }
  return 0;
}

void jpeg_rows_close(jpeg_rows *r) {
  if (!r) return;
  // Abort rather than finish: a reader closed early (an error, an interrupt) has rows left.
  jpeg_abort_decompress(&r->info);
  jpeg_destroy_decompress(&r->info);
  fclose(r->file);
  free(r);
}
