#include "jpeg_rows.h"

// jpeglib.h uses FILE without including stdio.h.
#include <stdio.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>

struct failure {
  struct jpeg_error_mgr base;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

struct jpeg_rows {
  struct jpeg_decompress_struct info;  // first: the progress monitor casts info back to its reader
  struct failure failure;
  struct jpeg_progress_mgr progress;
  FILE *file;                // the source: a file, or bytes the caller keeps until close
  const uint8_t *bytes;
  size_t size;
  int max_scans;
  uint64_t decoder_bytes;
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

// Ends the decode once the input has more scans than asked (as TurboJPEG 3's
// TJPARAM_SCANLIMIT does): each scan of a progressive JPEG is a pass over the whole image,
// so a small file of thousands of scans takes minutes.
static void watch_scans(j_common_ptr info) {
  jpeg_rows *r = (jpeg_rows *)info;
  if (r->max_scans > 0 && r->info.input_scan_number > r->max_scans) {
    snprintf(r->failure.message, sizeof r->failure.message,
             "the JPEG has over %d scans (a progressive JPEG has about 10): refused, as decoding it would take minutes",
             r->max_scans);
    longjmp(r->failure.jump, 1);
  }
}

// What libjpeg itself holds for this image, from the header: a progressive or
// multiple-scan JPEG keeps every coefficient of the image (a JCOEF per sample, per
// component, padded to whole MCUs) until its last scan; any JPEG keeps a few MCU rows of
// samples per component.
static uint64_t decoder_bytes(const struct jpeg_decompress_struct *info) {
  uint64_t total = 0;
  int whole_image = info->progressive_mode || info->comps_in_scan < info->num_components;
  for (int c = 0; c < info->num_components; c++) {
    const jpeg_component_info *comp = &info->comp_info[c];
    uint64_t h = (uint64_t)comp->h_samp_factor, v = (uint64_t)comp->v_samp_factor;
    uint64_t wide = ((uint64_t)comp->width_in_blocks + h - 1) / h * h;
    uint64_t high = ((uint64_t)comp->height_in_blocks + v - 1) / v * v;
    if (whole_image) total += wide * high * DCTSIZE2 * sizeof(JCOEF);
    total += wide * DCTSIZE * v * 4;  // sample rows, upsampling and colour conversion
  }
  return total;
}

static jpeg_rows *start(jpeg_rows *r, int max_scans, char *error, size_t error_size) {
  r->max_scans = max_scans;
  r->info.err = jpeg_std_error(&r->failure.base);
  r->failure.base.error_exit = fail;
  r->failure.base.emit_message = warn;
  if (setjmp(r->failure.jump)) {
    copy_message(error, error_size, r->failure.message);
    jpeg_destroy_decompress(&r->info);
    if (r->file) fclose(r->file);
    free(r);
    return NULL;
  }
  jpeg_create_decompress(&r->info);
  if (r->file) {
    jpeg_stdio_src(&r->info, r->file);
  } else {
    jpeg_mem_src(&r->info, r->bytes, (unsigned long)r->size);
  }
  r->progress.progress_monitor = watch_scans;
  r->info.progress = &r->progress;
  jpeg_read_header(&r->info, TRUE);
  if (r->info.jpeg_color_space == JCS_CMYK || r->info.jpeg_color_space == JCS_YCCK) {
    snprintf(r->failure.message, sizeof r->failure.message, "CMYK JPEGs are not supported; save it as RGB");
    longjmp(r->failure.jump, 1);
  }
  r->info.out_color_space = JCS_EXT_RGBA;
  r->info.dct_method = JDCT_ISLOW;  // as the whole-image decoder (TJFLAG_ACCURATEDCT)
  jpeg_calc_output_dimensions(&r->info);  // the output size, before anything is allocated
  r->decoder_bytes = decoder_bytes(&r->info);
  return r;
}

void jpeg_rows_scale(jpeg_rows *r, int denominator) {
  r->info.scale_num = 1;
  r->info.scale_denom = (unsigned int)denominator;
  if (setjmp(r->failure.jump)) return;  // only a bad state fails here: the size stays
  jpeg_calc_output_dimensions(&r->info);
}

jpeg_rows *jpeg_rows_open(const char *path, int max_scans, char *error, size_t error_size) {
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
  return start(r, max_scans, error, error_size);
}

jpeg_rows *jpeg_rows_open_memory(const uint8_t *bytes, size_t size, int max_scans, char *error, size_t error_size) {
  jpeg_rows *r = calloc(1, sizeof *r);
  if (!r) {
    copy_message(error, error_size, "out of memory");
    return NULL;
  }
  r->bytes = bytes;
  r->size = size;
  return start(r, max_scans, error, error_size);
}

uint64_t jpeg_rows_decoder_bytes(const jpeg_rows *r) { return r->decoder_bytes; }
int jpeg_rows_is_progressive(const jpeg_rows *r) { return r->info.progressive_mode ? 1 : 0; }

int jpeg_rows_start(jpeg_rows *r, uint64_t max_memory, char *error, size_t error_size) {
  if (setjmp(r->failure.jump)) {
    copy_message(error, error_size, r->failure.message);
    return -1;
  }
  // libjpeg's own bound on what it allocates, beside the estimate checked before this call:
  // over it, libjpeg fails ("Backing store not supported") rather than allocating.
  if (max_memory > 0) r->info.mem->max_memory_to_use = (long)(max_memory > (uint64_t)LONG_MAX ? LONG_MAX : max_memory);
  jpeg_start_decompress(&r->info);
  return 0;
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
  if (r->file) fclose(r->file);
  free(r);
}
