// ISA-specific versions of the panorama renderer's inner loop (Sources/Panorama/
// PanoramaRenderer+Blend.swift `draw`, BilinearFour.swift): same integer arithmetic, same
// pixels. The Raster adapter picks one at run time and hands it to the renderer.
#ifndef IMAGESTAGE_CKERNELS_H
#define IMAGESTAGE_CKERNELS_H
#include <stdint.h>

/// Draws `groups` groups of four pixels of one row into `out`: lane coordinates `us`/`vs`
/// (16.16, four lanes), stepped by `u_step`/`v_step` after each group, which themselves grow
/// by `u_bend`/`v_bend`. `mixing` 0 stores; otherwise blends into `out` by mixing / 256.
/// Every sample and its right and lower neighbours lie inside `src` (`width` pixels a row).
void imagestage_groups_avx2(const uint32_t *src, int64_t width, uint32_t *out, int64_t groups,
                            const uint32_t us[4], const uint32_t vs[4], const uint32_t u_step[4],
                            const uint32_t v_step[4], const uint32_t u_bend[4], const uint32_t v_bend[4],
                            uint32_t mixing);

/// The same with SSE4.1 lane loads and software prefetches of the texels eight groups on.
void imagestage_groups_prefetch(const uint32_t *src, int64_t width, uint32_t *out, int64_t groups,
                                const uint32_t us[4], const uint32_t vs[4], const uint32_t u_step[4],
                                const uint32_t v_step[4], const uint32_t u_bend[4], const uint32_t v_bend[4],
                                uint32_t mixing);
int imagestage_cpu_has_sse41(void);

/// A whole block of `rows` rows of `groups` four-pixel groups (`out_stride` pixels between
/// rows), its rows' lanes stepped in C as the Swift BlockStepper steps them: `steppers` holds
/// u's quadratics a, b, c (32.32 value, difference, second difference), then v's. SSE4.1.
void imagestage_block_sse41(const uint32_t *src, int64_t width, uint32_t *out, int64_t out_stride, int64_t rows,
                            int64_t groups, const int64_t steppers[18], uint32_t mixing);
/// The same eight lanes to an AVX2 register, texels by scalar loads (no gathers).
void imagestage_block_avx2(const uint32_t *src, int64_t width, uint32_t *out, int64_t out_stride, int64_t rows,
                           int64_t groups, const int64_t steppers[18], uint32_t mixing);

/// Whether this CPU runs `imagestage_groups_avx2` (AVX2), and whether it is an Intel one
/// (where gathers pay; on AMD Zen they were measured slower).
int imagestage_cpu_has_avx2(void);
int imagestage_cpu_is_intel(void);
/// Two output rows of a block of the video renderer (Sources/Panorama/YUVRenderer+Bands.swift
/// `interiorPair`): luma of rows A and B into `luma_a`/`luma_b` (`count` pixels), chroma of
/// the pair into `chroma_u`/`chroma_v` (count / 2). `steppers`: 32.32 value, difference and
/// second difference of u then v of row A, then of row B. Every tap lies at least 8 luma
/// pixels inside the planes (4 at the top and bottom): the caller checks.
void imagestage_yuv_pair_avx2(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                              const uint8_t *v, int64_t v_stride, const int64_t steppers[12], int64_t chroma_shift_x,
                              int64_t count, uint8_t *luma_a, uint8_t *luma_b, uint8_t *chroma_u, uint8_t *chroma_v);
/// The same one pixel at a time, in C (for the tests: the vector loop's tail).
void imagestage_yuv_pair_scalar(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                                const uint8_t *v, int64_t v_stride, const int64_t steppers[12],
                                int64_t chroma_shift_x, int64_t count, uint8_t *luma_a, uint8_t *luma_b,
                                uint8_t *chroma_u, uint8_t *chroma_v);
/// The machine's floor for a frame (pano-bench --floor). `imagestage_groups_record`: a group
/// kernel that writes each pixel's top-left tap index (stepped as the kernels step) instead
/// of its colour. `imagestage_gather_floor`: a band of `rows` rows of a `frame_width`-pixel
/// frame, in the renderer's order (blocks `block` wide, each row by row), each pixel the OR
/// of the four texels at `taps[i]`, `+1`, `+width`, `+width+1`; `ahead` > 0 prefetches that
/// many pixels on. `imagestage_write_floor`: `count` pixels set.
void imagestage_groups_record(const uint32_t *src, int64_t width, uint32_t *out, int64_t groups,
                              const uint32_t us[4], const uint32_t vs[4], const uint32_t u_step[4],
                              const uint32_t v_step[4], const uint32_t u_bend[4], const uint32_t v_bend[4],
                              uint32_t mixing);
void imagestage_gather_floor(const uint32_t *src, int64_t width, const uint32_t *taps, uint32_t *out,
                             int64_t frame_width, int64_t rows, int64_t block, int64_t ahead);
void imagestage_write_floor(uint32_t *out, int64_t count, uint32_t value);
/// The floor of a renderer whose taps lie in several sources (cube faces, mip levels, tiles):
/// `imagestage_record_into` names the frame and a table of one tap a pixel, which
/// `imagestage_groups_record_pointers`, as a GroupKernel, fills with each pixel's top-left tap
/// address (low 48 bits) and its source's row width (high 16 bits);
/// `imagestage_gather_floor_pointers` gathers `count` pixels' four texels from them.
void imagestage_record_into(const uint32_t *frame, uint64_t *taps);
void imagestage_groups_record_pointers(const uint32_t *src, int64_t width, uint32_t *out, int64_t groups,
                                       const uint32_t us[4], const uint32_t vs[4], const uint32_t u_step[4],
                                       const uint32_t v_step[4], const uint32_t u_bend[4], const uint32_t v_bend[4],
                                       uint32_t mixing);
void imagestage_gather_floor_pointers(const uint64_t *taps, uint32_t *out, int64_t count);
/// The video frame's floor (pano-bench --yuv-floor): `imagestage_yuv_record_into` names the
/// output's Y and U planes, its width and the tap tables (an index a luma pixel into Y, a
/// chroma pixel into U and V), which `imagestage_yuv_pair_record`, as a YUVKernel, fills;
/// `imagestage_yuv_gather_floor` gathers `rows` (even) rows in blocks `block` wide;
/// `imagestage_write_floor_bytes` sets `count` bytes.
void imagestage_yuv_record_into(const uint8_t *out_y, const uint8_t *out_u, int64_t width, uint32_t *luma_taps,
                                uint32_t *chroma_taps);
void imagestage_yuv_pair_record(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                                const uint8_t *v, int64_t v_stride, const int64_t steppers[12],
                                int64_t chroma_shift_x, int64_t count, uint8_t *luma_a, uint8_t *luma_b,
                                uint8_t *chroma_u, uint8_t *chroma_v);
void imagestage_yuv_gather_floor(const uint8_t *y, int64_t y_stride, const uint8_t *u, const uint8_t *v,
                                 int64_t c_stride, const uint32_t *luma_taps, const uint32_t *chroma_taps,
                                 uint8_t *out_y, uint8_t *out_u, uint8_t *out_v, int64_t width, int64_t rows,
                                 int64_t block);
void imagestage_write_floor_bytes(uint8_t *out, int64_t count, uint8_t value);
#endif
