#include "ckernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

int imagestage_cpu_has_avx2(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

int imagestage_cpu_is_intel(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
  return b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e;  // "GenuineIntel"
}

// The Swift blend's arithmetic once, for both vector widths (W: empty or 256, BITS: 128 or
// 256): two channels a 32-bit lane, 16-bit weights that sum to 256. `NAME_weigh` blends the
// four texels of each lane; `NAME_mix` moves `a` towards `b` by f / 256 (the Swift `mix`).
#define IMAGESTAGE_ARITHMETIC(NAME, TARGET, V, W, BITS)                                                     \
  __attribute__((target(TARGET))) static inline V NAME##_weigh(V t00, V t01, V t10, V t11, V u, V v) {      \
    const V mask = _mm##W##_set1_epi32(0x00FF00FF), byte = _mm##W##_set1_epi32(255);                       \
    V fx = _mm##W##_and_si##BITS(_mm##W##_srli_epi32(u, 8), byte);                                         \
    V fy = _mm##W##_and_si##BITS(_mm##W##_srli_epi32(v, 8), byte);                                         \
    fx = _mm##W##_or_si##BITS(fx, _mm##W##_slli_epi32(fx, 16));                                             \
    fy = _mm##W##_or_si##BITS(fy, _mm##W##_slli_epi32(fy, 16));                                             \
    V w11 = _mm##W##_srli_epi16(_mm##W##_add_epi16(_mm##W##_mullo_epi16(fx, fy), _mm##W##_set1_epi16(128)), 8); \
    V w01 = _mm##W##_sub_epi16(fx, w11), w10 = _mm##W##_sub_epi16(fy, w11);                                  \
    V w00 = _mm##W##_add_epi16(_mm##W##_sub_epi16(_mm##W##_sub_epi16(_mm##W##_set1_epi16(256), fx), fy), w11); \
    V lo[4] = {t00, t01, t10, t11}, sums[2];                                                                 \
    for (int half = 0; half < 2; half++) {                                                                    \
      V c[4];                                                                                                 \
      for (int k = 0; k < 4; k++) c[k] = _mm##W##_and_si##BITS(half ? _mm##W##_srli_epi32(lo[k], 8) : lo[k], mask); \
      sums[half] = _mm##W##_add_epi16(                                                                        \
          _mm##W##_add_epi16(_mm##W##_mullo_epi16(c[0], w00), _mm##W##_mullo_epi16(c[1], w01)),               \
          _mm##W##_add_epi16(_mm##W##_add_epi16(_mm##W##_mullo_epi16(c[2], w10), _mm##W##_mullo_epi16(c[3], w11)), \
                             _mm##W##_set1_epi16(128)));                                                      \
    }                                                                                                         \
    V rb = _mm##W##_srli_epi16(sums[0], 8);                                                                   \
    V ga = _mm##W##_and_si##BITS(sums[1], _mm##W##_set1_epi32((int)0xFF00FF00));                              \
    return _mm##W##_or_si##BITS(rb, ga);                                                                      \
  }                                                                                                           \
  __attribute__((target(TARGET))) static inline V NAME##_mix(V a, V b, uint32_t f) {                         \
    const V mask = _mm##W##_set1_epi32(0x00FF00FF);                                                           \
    V g = _mm##W##_set1_epi32((int)(256 - f)), h = _mm##W##_set1_epi32((int)f);                               \
    V rb = _mm##W##_and_si##BITS(                                                                             \
        _mm##W##_srli_epi32(_mm##W##_add_epi32(_mm##W##_mullo_epi32(_mm##W##_and_si##BITS(a, mask), g),        \
                                               _mm##W##_mullo_epi32(_mm##W##_and_si##BITS(b, mask), h)),       \
                            8),                                                                               \
        mask);                                                                                                \
    V ga = _mm##W##_andnot_si##BITS(                                                                          \
        mask, _mm##W##_add_epi32(                                                                             \
                  _mm##W##_mullo_epi32(_mm##W##_and_si##BITS(_mm##W##_srli_epi32(a, 8), mask), g),            \
                  _mm##W##_mullo_epi32(_mm##W##_and_si##BITS(_mm##W##_srli_epi32(b, 8), mask), h)));          \
    return _mm##W##_or_si##BITS(rb, ga);                                                                      \
  }
IMAGESTAGE_ARITHMETIC(lanes8, "avx2", __m256i, 256, 256)
IMAGESTAGE_ARITHMETIC(lanes4, "sse4.1", __m128i, , 128)

// Four bilinear samples per 128-bit half, eight per call, the texels fetched by AVX2 gathers.
__attribute__((target("avx2"))) static inline __m256i blend8(const uint32_t *src, int64_t width, __m256i u,
                                                              __m256i v) {
  __m256i idx = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srli_epi32(v, 16), _mm256_set1_epi32((int)width)),
                                 _mm256_srli_epi32(u, 16));
  const int *base = (const int *)src;
  int w = (int)width;
  return lanes8_weigh(_mm256_i32gather_epi32(base, idx, 4), _mm256_i32gather_epi32(base + 1, idx, 4),
                      _mm256_i32gather_epi32(base + w, idx, 4), _mm256_i32gather_epi32(base + w + 1, idx, 4), u, v);
}

// One row of `groups` four-pixel groups eight lanes to an AVX2 register: groups g and g + 1
// side by side, stepped exactly as the Swift loop steps them (wrapping 32-bit adds: a half
// moves by its step plus the next group's, 2·step + bend, which grows by 4·bend every two
// groups). `blend` fetches and weighs eight lanes' texels: by gathers (`blend8`) or by
// scalar loads (`blend8_loads`); a constant at each caller, so it is inlined.
typedef __m256i (*imagestage_blend8)(const uint32_t *src, int64_t width, __m256i u, __m256i v);

__attribute__((target("avx2"), always_inline)) static inline void row8(const uint32_t *src, int64_t width, uint32_t *out,
                                                                       int64_t groups, __m128i u, __m128i v, __m128i du,
                                                                       __m128i dv, __m128i bu, __m128i bv,
                                                                       uint32_t mixing, imagestage_blend8 blend) {
  __m256i u8 = _mm256_set_m128i(_mm_add_epi32(u, du), u), v8 = _mm256_set_m128i(_mm_add_epi32(v, dv), v);
  __m128i du1 = _mm_add_epi32(du, bu), dv1 = _mm_add_epi32(dv, bv);
  __m256i d8u = _mm256_set_m128i(_mm_add_epi32(du1, _mm_add_epi32(du1, bu)), _mm_add_epi32(du, du1));
  __m256i d8v = _mm256_set_m128i(_mm_add_epi32(dv1, _mm_add_epi32(dv1, bv)), _mm_add_epi32(dv, dv1));
  __m128i b4u = _mm_slli_epi32(bu, 2), b4v = _mm_slli_epi32(bv, 2);
  const __m256i b8u = _mm256_set_m128i(b4u, b4u), b8v = _mm256_set_m128i(b4v, b4v);
  int64_t g = 0;
  for (; g + 2 <= groups; g += 2) {
    __m256i eight = blend(src, width, u8, v8);
    if (mixing) eight = lanes8_mix(_mm256_loadu_si256((const __m256i *)out), eight, mixing);
    _mm256_storeu_si256((__m256i *)out, eight);
    out += 8;
    u8 = _mm256_add_epi32(u8, d8u);
    v8 = _mm256_add_epi32(v8, d8v);
    d8u = _mm256_add_epi32(d8u, b8u);
    d8v = _mm256_add_epi32(d8v, b8v);
  }
  if (g < groups) {
    // The last odd group: the lower half holds it; the upper half repeats it (the next
    // group's texels may lie outside the source), and only four pixels are stored.
    __m256i lu = _mm256_permute2x128_si256(u8, u8, 0x00), lv = _mm256_permute2x128_si256(v8, v8, 0x00);
    __m128i four = _mm256_castsi256_si128(blend(src, width, lu, lv));
    if (mixing) four = lanes4_mix(_mm_loadu_si128((const __m128i *)out), four, mixing);
    _mm_storeu_si128((__m128i *)out, four);
  }
}

// A group kernel (`GroupKernel.Function`): ROW (`row4` or `row8`, with its last argument)
// over the lanes the Swift walk hands it.
#define IMAGESTAGE_GROUPS(NAME, TARGET, ROW, LAST)                                                                  \
  __attribute__((target(TARGET))) void NAME(const uint32_t *src, int64_t width, uint32_t *out, int64_t groups,     \
                                            const uint32_t us[4], const uint32_t vs[4], const uint32_t u_step[4],   \
                                            const uint32_t v_step[4], const uint32_t u_bend[4],                     \
                                            const uint32_t v_bend[4], uint32_t mixing) {                            \
    ROW(src, width, out, groups, _mm_loadu_si128((const __m128i *)us), _mm_loadu_si128((const __m128i *)vs),        \
        _mm_loadu_si128((const __m128i *)u_step), _mm_loadu_si128((const __m128i *)v_step),                         \
        _mm_loadu_si128((const __m128i *)u_bend), _mm_loadu_si128((const __m128i *)v_bend), mixing, LAST);          \
  }
IMAGESTAGE_GROUPS(imagestage_groups_avx2, "avx2", row8, blend8)

// The Swift blend four pixels at a time with SSE4.1 (as our x86-64 Swift builds compile
// it), plus software prefetches of the texels eight groups (32 pixels) ahead, which the
// stepper knows. Where a row crosses the source on a slant, or skips texels, the byte
// strides between samples are irregular and the hardware prefetchers do not follow:
// bench/walk-probe measured bilinear reads at 45° cost 3× a level row's, 1.3× with these
// prefetches. The renderer hands this kernel only such rows (`scatteredRowsOnly`).
__attribute__((target("sse4.1"))) static inline __m128i blend4(const uint32_t *src, int64_t width, __m128i u,
                                                                __m128i v) {
  __m128i idx = _mm_add_epi32(_mm_mullo_epi32(_mm_srli_epi32(v, 16), _mm_set1_epi32((int)width)), _mm_srli_epi32(u, 16));
  const uint32_t *p0 = src + (uint32_t)_mm_extract_epi32(idx, 0), *p1 = src + (uint32_t)_mm_extract_epi32(idx, 1);
  const uint32_t *p2 = src + (uint32_t)_mm_extract_epi32(idx, 2), *p3 = src + (uint32_t)_mm_extract_epi32(idx, 3);
  return lanes4_weigh(_mm_set_epi32((int)p3[0], (int)p2[0], (int)p1[0], (int)p0[0]),
                      _mm_set_epi32((int)p3[1], (int)p2[1], (int)p1[1], (int)p0[1]),
                      _mm_set_epi32((int)p3[width], (int)p2[width], (int)p1[width], (int)p0[width]),
                      _mm_set_epi32((int)p3[width + 1], (int)p2[width + 1], (int)p1[width + 1], (int)p0[width + 1]),
                      u, v);
}

#define IMAGESTAGE_AHEAD 8  // groups: 4 and 16 pixels ahead were measured no better

int imagestage_cpu_has_sse41(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.1");
}

// One row of `groups` four-pixel groups with SSE4.1, prefetching (when `prefetch`, a
// constant at each caller) where the group AHEAD steps on reads, its bend left out: a
// prefetch need not be exact (nor inside the source: it never faults), so it runs on past
// the row's last group too, warming the lines the block's next row starts on. Lanes 0 and 3,
// both rows: the group's texels lie within their lines.
__attribute__((target("sse4.1"), always_inline)) static inline void row4(const uint32_t *src, int64_t width,
                                                                         uint32_t *out, int64_t groups, __m128i u,
                                                                         __m128i v, __m128i du, __m128i dv, __m128i bu,
                                                                         __m128i bv, uint32_t mixing, int prefetch) {
  const __m128i ahead = _mm_set1_epi32(IMAGESTAGE_AHEAD);
  __m128i pu = _mm_add_epi32(u, _mm_mullo_epi32(du, ahead)), pv = _mm_add_epi32(v, _mm_mullo_epi32(dv, ahead));
  const __m128i w = _mm_set1_epi32((int)width);
  for (int64_t g = 0; g < groups; g++) {
    if (prefetch) {
      __m128i idx = _mm_add_epi32(_mm_mullo_epi32(_mm_srli_epi32(pv, 16), w), _mm_srli_epi32(pu, 16));
      const uint32_t *a = src + (uint32_t)_mm_extract_epi32(idx, 0), *b = src + (uint32_t)_mm_extract_epi32(idx, 3);
      __builtin_prefetch(a);
      __builtin_prefetch(a + width);
      __builtin_prefetch(b);
      __builtin_prefetch(b + width);
      pu = _mm_add_epi32(pu, du);
      pv = _mm_add_epi32(pv, dv);
    }
    __m128i four = blend4(src, width, u, v);
    if (mixing) four = lanes4_mix(_mm_loadu_si128((const __m128i *)out), four, mixing);
    _mm_storeu_si128((__m128i *)out, four);
    out += 4;
    u = _mm_add_epi32(u, du);
    v = _mm_add_epi32(v, dv);
    du = _mm_add_epi32(du, bu);
    dv = _mm_add_epi32(dv, bv);
  }
}

IMAGESTAGE_GROUPS(imagestage_groups_prefetch, "sse4.1", row4, 1)

// A whole block in one call: the rows' lane coordinates stepped here, with the Swift
// BlockStepper's integer arithmetic (PanoramaRenderer+Stepper.swift: `lanes`, `laneSteps`,
// `laneBend`, `nextRow`), instead of by the Swift block walk row by row. `steppers`: u's
// quadratics a, b, c (32.32 value, difference, second difference each), then v's.
typedef struct {
  uint64_t value, difference, second;
} imagestage_quadratic;

static inline void imagestage_quadratic_step(imagestage_quadratic *q) {
  q->value += q->difference;
  q->difference += q->second;
}

// The 16.16 lanes at columns 0–3, their steps over four columns and the steps' bend, as the
// Swift stepper gives them (wrapping 64-bit arithmetic, an arithmetic shift, truncation).
static inline void imagestage_row_lanes(const imagestage_quadratic q[3], uint32_t at[4], uint32_t step[4],
                                        uint32_t *bend) {
  for (int k = 0; k < 4; k++) {
    uint64_t x = (uint64_t)k;
    at[k] = (uint32_t)((int64_t)(q[0].value + q[1].value * x + q[2].value * x * x) >> 16);
    step[k] = (uint32_t)((int64_t)(4 * q[1].value + q[2].value * (uint64_t)(8 * k + 16)) >> 16);
  }
  *bend = (uint32_t)((int64_t)(32 * q[2].value) >> 16);
}

// Eight lanes' texels fetched by scalar loads, not gathers (gathers were 2× slower than
// scalar loads on AMD Zen): `imagestage_block_avx2`'s blend.
__attribute__((target("avx2"))) static inline __m256i blend8_loads(const uint32_t *src, int64_t width, __m256i u,
                                                                    __m256i v) {
  __m256i idx = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srli_epi32(v, 16), _mm256_set1_epi32((int)width)),
                                 _mm256_srli_epi32(u, 16));
  uint32_t at[8];
  _mm256_storeu_si256((__m256i *)at, idx);
  const uint32_t *p[8];
  for (int k = 0; k < 8; k++) p[k] = src + at[k];
#define IMAGESTAGE_TAPS(o) \
  _mm256_set_epi32((int)p[7][o], (int)p[6][o], (int)p[5][o], (int)p[4][o], (int)p[3][o], (int)p[2][o], (int)p[1][o], \
                   (int)p[0][o])
  __m256i t00 = IMAGESTAGE_TAPS(0), t01 = IMAGESTAGE_TAPS(1), t10 = IMAGESTAGE_TAPS(width),
          t11 = IMAGESTAGE_TAPS(width + 1);
#undef IMAGESTAGE_TAPS
  return lanes8_weigh(t00, t01, t10, t11, u, v);
}

// A whole block: each row's lanes set up from the quadratics (`imagestage_row_lanes`), drawn by
// ROW (`row4` or `row8`, with its last argument), then the quadratics stepped to the next row.
#define IMAGESTAGE_BLOCK(NAME, TARGET, ROW, LAST)                                                                  \
  __attribute__((target(TARGET))) void NAME(const uint32_t *src, int64_t width, uint32_t *out, int64_t out_stride,   \
                                            int64_t rows, int64_t groups, const int64_t steppers[18], uint32_t mixing) { \
    imagestage_quadratic qu[3], qv[3];                                                                               \
    for (int k = 0; k < 3; k++) {                                                                                    \
      qu[k] = (imagestage_quadratic){(uint64_t)steppers[3 * k], (uint64_t)steppers[3 * k + 1],                       \
                                     (uint64_t)steppers[3 * k + 2]};                                                 \
      qv[k] = (imagestage_quadratic){(uint64_t)steppers[9 + 3 * k], (uint64_t)steppers[10 + 3 * k],                  \
                                     (uint64_t)steppers[11 + 3 * k]};                                                \
    }                                                                                                                \
    for (int64_t row = 0; row < rows; row++, out += out_stride) {                                                    \
      uint32_t au[4], av[4], su[4], sv[4], bu, bv;                                                                   \
      imagestage_row_lanes(qu, au, su, &bu);                                                                         \
      imagestage_row_lanes(qv, av, sv, &bv);                                                                         \
      ROW(src, width, out, groups, _mm_loadu_si128((const __m128i *)au), _mm_loadu_si128((const __m128i *)av),       \
          _mm_loadu_si128((const __m128i *)su), _mm_loadu_si128((const __m128i *)sv), _mm_set1_epi32((int)bu),       \
          _mm_set1_epi32((int)bv), mixing, LAST);                                                                    \
      for (int k = 0; k < 3; k++) {                                                                                  \
        imagestage_quadratic_step(&qu[k]);                                                                           \
        imagestage_quadratic_step(&qv[k]);                                                                           \
      }                                                                                                              \
    }                                                                                                                \
  }
IMAGESTAGE_BLOCK(imagestage_block_sse41, "sse4.1", row4, 0)
IMAGESTAGE_BLOCK(imagestage_block_avx2, "avx2", row8, blend8_loads)

#else
int imagestage_cpu_has_sse41(void) { return 0; }
void imagestage_block_sse41(const uint32_t *src, int64_t width, uint32_t *out, int64_t out_stride, int64_t rows,
                            int64_t groups, const int64_t steppers[18], uint32_t mixing) {
  (void)src; (void)width; (void)out; (void)out_stride; (void)rows; (void)groups; (void)steppers; (void)mixing;
}
void imagestage_block_avx2(const uint32_t *src, int64_t width, uint32_t *out, int64_t out_stride, int64_t rows,
                           int64_t groups, const int64_t steppers[18], uint32_t mixing) {
  imagestage_block_sse41(src, width, out, out_stride, rows, groups, steppers, mixing);
}
void imagestage_groups_prefetch(const uint32_t *src, int64_t width, uint32_t *out, int64_t groups,
                                const uint32_t us[4], const uint32_t vs[4], const uint32_t u_step[4],
                                const uint32_t v_step[4], const uint32_t u_bend[4], const uint32_t v_bend[4],
                                uint32_t mixing) {
  (void)src; (void)width; (void)out; (void)groups; (void)us; (void)vs; (void)u_step; (void)v_step;
  (void)u_bend; (void)v_bend; (void)mixing;
}
int imagestage_cpu_has_avx2(void) { return 0; }
int imagestage_cpu_is_intel(void) { return 0; }
void imagestage_groups_avx2(const uint32_t *src, int64_t width, uint32_t *out, int64_t groups, const uint32_t us[4],
                            const uint32_t vs[4], const uint32_t u_step[4], const uint32_t v_step[4],
                            const uint32_t u_bend[4], const uint32_t v_bend[4], uint32_t mixing) {
  (void)src; (void)width; (void)out; (void)groups; (void)us; (void)vs; (void)u_step; (void)v_step;
  (void)u_bend; (void)v_bend; (void)mixing;
}
#endif

// The machine's floor for a frame (bench/pano.sh, pano-bench --floor): what any renderer of
// the same frame pays at least, so the renderer's time reads as a ratio to it.

// Records, in place of each pixel, the source index of its top-left bilinear tap, stepped
// exactly as `imagestage_groups_avx2` steps them: a GroupKernel whose frame is the renderer's
// tap addresses. Portable C: it runs once, outside any timing.
// Steps four lanes' 16.16 positions exactly as `imagestage_groups_avx2` steps them, and runs
// RECORD(i, row, column) for pixel i of the run with its top-left tap: the walk both recorders
// share (they differ only in what they write).
#define IMAGESTAGE_RECORD_TAPS(RECORD)                                     \
  do {                                                                     \
    uint32_t u[4], v[4], du[4], dv[4];                                     \
    for (int k = 0; k < 4; k++) {                                          \
      u[k] = us[k];                                                        \
      v[k] = vs[k];                                                        \
      du[k] = u_step[k];                                                   \
      dv[k] = v_step[k];                                                   \
    }                                                                      \
    for (int64_t g = 0; g < groups; g++) {                                 \
      for (int k = 0; k < 4; k++) {                                        \
        RECORD(4 * g + k, v[k] >> 16, u[k] >> 16);                        \
        u[k] += du[k];                                                     \
        v[k] += dv[k];                                                     \
        du[k] += u_bend[k];                                                \
        dv[k] += v_bend[k];                                                \
      }                                                                    \
    }                                                                      \
  } while (0)

void imagestage_groups_record(const uint32_t *src, int64_t width, uint32_t *out, int64_t groups,
                              const uint32_t us[4], const uint32_t vs[4], const uint32_t u_step[4],
                              const uint32_t v_step[4], const uint32_t u_bend[4], const uint32_t v_bend[4],
                              uint32_t mixing) {
  (void)src;
  (void)mixing;
#define IMAGESTAGE_RECORD_INDEX(i, row, column) out[i] = (row) * (uint32_t)width + (column)
  IMAGESTAGE_RECORD_TAPS(IMAGESTAGE_RECORD_INDEX);
#undef IMAGESTAGE_RECORD_INDEX
}

// The gather floor: each output pixel reads the four texels the renderer reads, at the same
// addresses (`taps`: top-left indices) and in the renderer's order (blocks `block` pixels
// wide, a band of `rows` rows, each block row by row), and keeps them with one OR so no load
// is dropped; no weights, no stepping. `ahead` > 0 prefetches the texels that many pixels
// on (both rows), as a renderer that knows its addresses in advance can. The taps are a
// stream of their own (4 bytes a pixel, read in order), which the renderer does not read.
void imagestage_gather_floor(const uint32_t *src, int64_t width, const uint32_t *taps, uint32_t *out,
                             int64_t frame_width, int64_t rows, int64_t block, int64_t ahead) {
  for (int64_t x0 = 0; x0 < frame_width; x0 += block) {
    int64_t n = frame_width - x0 < block ? frame_width - x0 : block;
    for (int64_t y = 0; y < rows; y++) {
      const uint32_t *t = taps + y * frame_width + x0;
      uint32_t *o = out + y * frame_width + x0;
      if (ahead > 0) {
        // The pixel `ahead` on in this block's walk: later in the row, else the next row's.
        for (int64_t i = 0; i < n; i++) {
          int64_t j = i + ahead, row = y;
          while (j >= n) {  // once at most while ahead < block: no division per pixel
            j -= n;
            row++;
          }
          if (row < rows) {
            const uint32_t *next = src + taps[row * frame_width + x0 + j];
            __builtin_prefetch(next);
            __builtin_prefetch(next + width);
          }
          const uint32_t *p = src + t[i];
          o[i] = p[0] | p[1] | p[width] | p[width + 1];
        }
      } else {
        for (int64_t i = 0; i < n; i++) {
          const uint32_t *p = src + t[i];
          o[i] = p[0] | p[1] | p[width] | p[width + 1];
        }
      }
    }
  }
}

// The write floor: the frame's pixels stored once, as the renderer stores them (ordinary
// stores, not streaming ones).
void imagestage_write_floor(uint32_t *out, int64_t count, uint32_t value) {
  for (int64_t i = 0; i < count; i++) out[i] = value;
}

// The floor of a renderer whose taps lie in several sources (the cube's faces and their mip
// levels, a pyramid's tiles): `imagestage_record_into` names the frame and a side table of
// one tap a pixel, then `imagestage_groups_record_pointers`, as a GroupKernel, writes each
// pixel's top-left tap there as its address (low 48 bits) and its source's row width in
// pixels (high 16 bits). Portable C, run once on one thread, outside any timing.
static const uint32_t *imagestage_recorded_frame;
static uint64_t *imagestage_recorded_taps;

void imagestage_record_into(const uint32_t *frame, uint64_t *taps) {
  imagestage_recorded_frame = frame;
  imagestage_recorded_taps = taps;
}

void imagestage_groups_record_pointers(const uint32_t *src, int64_t width, uint32_t *out, int64_t groups,
                                       const uint32_t us[4], const uint32_t vs[4], const uint32_t u_step[4],
                                       const uint32_t v_step[4], const uint32_t u_bend[4], const uint32_t v_bend[4],
                                       uint32_t mixing) {
  (void)mixing;
  int64_t at = out - imagestage_recorded_frame;
#define IMAGESTAGE_RECORD_POINTER(i, row, column)                                          \
  imagestage_recorded_taps[at + (i)] =                                                     \
      ((uint64_t)(uintptr_t)(src + (uint64_t)(row) * (uint64_t)width + (column)) & 0xFFFFFFFFFFFFull) | \
      (uint64_t)width << 48
  IMAGESTAGE_RECORD_TAPS(IMAGESTAGE_RECORD_POINTER);
#undef IMAGESTAGE_RECORD_POINTER
}

// `imagestage_gather_floor` over recorded addresses: `count` pixels, each the OR of its four
// texels. The table is 8 bytes a pixel read in order, a stream the renderer does not read.
void imagestage_gather_floor_pointers(const uint64_t *taps, uint32_t *out, int64_t count) {
  for (int64_t i = 0; i < count; i++) {
    const uint32_t *p = (const uint32_t *)(uintptr_t)(taps[i] & 0xFFFFFFFFFFFFull);
    int64_t w = (int64_t)(taps[i] >> 48);
    out[i] = p[0] | p[1] | p[w] | p[w + 1];
  }
}
