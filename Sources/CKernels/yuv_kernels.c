// The video renderer's inner loop (Sources/Panorama/YUVRenderer+Bands.swift, `interiorPair`)
// in AVX2: two output rows of a block from a decoder's 4:2:0 planes, luma per pixel and
// chroma per 2 × 2 pixels, with exactly the Swift loop's integer arithmetic (32.32 source
// positions stepped by first and second differences, 8-bit bilinear weights).
#include "ckernels.h"

// One bilinear tap of a plane at 32.32 (u, v), as the Swift `interiorTap`.
static inline int32_t yuv_tap(const uint8_t *plane, int64_t stride, int64_t u, int64_t v) {
  int64_t x0 = u >> 32, y0 = v >> 32;
  int32_t fx = (int32_t)((u >> 24) & 255), fy = (int32_t)((v >> 24) & 255);
  const uint8_t *r0 = plane + y0 * stride + x0, *r1 = r0 + stride;
  int32_t a = r0[0], b = r0[1], c = r1[0], d = r1[1];
  int32_t top = a * 256 + (b - a) * fx, bottom = c * 256 + (d - c) * fx;
  return (top * 256 + (bottom - top) * fy + 32768) >> 16;
}

// The pair's walk one pixel at a time: for pixels `from` to `count`, rows A's and B's luma
// positions and, at even pixels, the pair's chroma position, handed to `visit` (a constant
// at every call, so it is inlined: the scalar kernel's taps, or the floor's recorder).
typedef struct {
  const uint8_t *y, *u, *v;
  int64_t y_stride, u_stride, v_stride;
  uint8_t *luma_a, *luma_b, *chroma_u, *chroma_v;
} yuv_pair_out;
typedef void (*yuv_visit)(const yuv_pair_out *o, int64_t x, int64_t ua, int64_t va, int64_t ub, int64_t vb, int64_t cu,
                          int64_t cv);

static inline __attribute__((always_inline)) void yuv_walk(const yuv_pair_out *o, int64_t s[12],
                                                           int64_t chroma_shift_x, int64_t from, int64_t count,
                                                           yuv_visit visit) {
  for (int64_t x = from; x < count; x++) {
    int64_t ua = s[0], va = s[3], ub = s[6], vb = s[9];
    int64_t cu = (((ua >> 1) + (ub >> 1)) >> 1) - chroma_shift_x;
    int64_t cv = (((va >> 1) + (vb >> 1)) >> 1) - ((int64_t)1 << 30);
    visit(o, x, ua, va, ub, vb, cu, cv);
    for (int k = 0; k < 12; k += 3) {
      s[k] += s[k + 1];
      s[k + 1] += s[k + 2];
    }
  }
}

static inline __attribute__((always_inline)) void yuv_visit_taps(const yuv_pair_out *o, int64_t x, int64_t ua,
                                                                 int64_t va, int64_t ub, int64_t vb, int64_t cu,
                                                                 int64_t cv) {
  o->luma_a[x] = (uint8_t)yuv_tap(o->y, o->y_stride, ua, va);
  o->luma_b[x] = (uint8_t)yuv_tap(o->y, o->y_stride, ub, vb);
  if ((x & 1) == 0) {
    o->chroma_u[x >> 1] = (uint8_t)yuv_tap(o->u, o->u_stride, cu, cv);
    o->chroma_v[x >> 1] = (uint8_t)yuv_tap(o->v, o->v_stride, cu, cv);
  }
}

// Pixels `from` to `count` of the pair, one at a time (the vector loop's tail, and the
// whole pair without AVX2).
static void yuv_pair_scalar(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                            const uint8_t *v, int64_t v_stride, int64_t s[12], int64_t chroma_shift_x,
                            int64_t from, int64_t count, uint8_t *luma_a, uint8_t *luma_b, uint8_t *chroma_u,
                            uint8_t *chroma_v) {
  const yuv_pair_out o = {y, u, v, y_stride, u_stride, v_stride, luma_a, luma_b, chroma_u, chroma_v};
  yuv_walk(&o, s, chroma_shift_x, from, count, yuv_visit_taps);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

// Eight 32-bit lanes from two vectors of four 64-bit positions: the high halves (whole
// pixels) and bits 24–31 (the 8-bit fraction).
AVX2 static inline void yuv_split8(__m256i lo, __m256i hi, __m256i *whole, __m256i *fraction) {
  __m256 a = _mm256_castsi256_ps(lo), b = _mm256_castsi256_ps(hi);
  __m256i w = _mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
  __m256i f = _mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
  *whole = _mm256_permute4x64_epi64(w, _MM_SHUFFLE(3, 1, 2, 0));
  *fraction = _mm256_srli_epi32(_mm256_permute4x64_epi64(f, _MM_SHUFFLE(3, 1, 2, 0)), 24);
}

// Bilinear taps of eight lanes: `top` and `bottom` hold the texel pairs in bytes 2 and 3
// (gathered two bytes early, so a pair's second texel is never read past a plane's end).
AVX2 static inline __m256i yuv_blend8(__m256i top, __m256i bottom, __m256i fx, __m256i fy) {
  const __m256i byte = _mm256_set1_epi32(255);
  __m256i a = _mm256_and_si256(_mm256_srli_epi32(top, 16), byte), b = _mm256_srli_epi32(top, 24);
  __m256i c = _mm256_and_si256(_mm256_srli_epi32(bottom, 16), byte), d = _mm256_srli_epi32(bottom, 24);
  __m256i t = _mm256_add_epi32(_mm256_slli_epi32(a, 8), _mm256_mullo_epi32(_mm256_sub_epi32(b, a), fx));
  __m256i s = _mm256_add_epi32(_mm256_slli_epi32(c, 8), _mm256_mullo_epi32(_mm256_sub_epi32(d, c), fx));
  __m256i r = _mm256_add_epi32(_mm256_slli_epi32(t, 8), _mm256_mullo_epi32(_mm256_sub_epi32(s, t), fy));
  return _mm256_srli_epi32(_mm256_add_epi32(r, _mm256_set1_epi32(32768)), 16);
}

AVX2 static inline __m128i yuv_blend4(__m128i top, __m128i bottom, __m128i fx, __m128i fy) {
  const __m128i byte = _mm_set1_epi32(255);
  __m128i a = _mm_and_si128(_mm_srli_epi32(top, 16), byte), b = _mm_srli_epi32(top, 24);
  __m128i c = _mm_and_si128(_mm_srli_epi32(bottom, 16), byte), d = _mm_srli_epi32(bottom, 24);
  __m128i t = _mm_add_epi32(_mm_slli_epi32(a, 8), _mm_mullo_epi32(_mm_sub_epi32(b, a), fx));
  __m128i s = _mm_add_epi32(_mm_slli_epi32(c, 8), _mm_mullo_epi32(_mm_sub_epi32(d, c), fx));
  __m128i r = _mm_add_epi32(_mm_slli_epi32(t, 8), _mm_mullo_epi32(_mm_sub_epi32(s, t), fy));
  return _mm_srli_epi32(_mm_add_epi32(r, _mm_set1_epi32(32768)), 16);
}

// Bilinear taps from texel pairs as 16-bit words (a | b << 16, the left texel low) by
// `vpmaddwd`: a·(256 − fx) + b·fx is the Swift loop's a·256 + (b − a)·fx, exactly, and so is
// the vertical step written the same way.
AVX2 static inline __m256i yuv_blend8_words(__m256i top, __m256i bottom, __m256i fx, __m256i fy) {
  __m256i w = _mm256_or_si256(_mm256_slli_epi32(fx, 16), _mm256_sub_epi32(_mm256_set1_epi32(256), fx));
  __m256i t = _mm256_madd_epi16(top, w), s = _mm256_madd_epi16(bottom, w);
  __m256i r = _mm256_add_epi32(_mm256_slli_epi32(t, 8), _mm256_mullo_epi32(_mm256_sub_epi32(s, t), fy));
  return _mm256_srli_epi32(_mm256_add_epi32(r, _mm256_set1_epi32(32768)), 16);
}

// Texel pairs of eight lanes from 16-byte windows of three rows, `vpshufb` picking each
// lane's pair (columns dx, dx + 1) and `dy` (0 or 1) its rows: `rows[0..2]` hold rows y, y + 1,
// y + 2 from column x, the same in both 128-bit halves or one plane in each.
AVX2 static inline void yuv_window_pairs(const __m256i rows[3], __m256i dx, __m256i dy, __m256i *top, __m256i *bottom) {
  // Bytes dx, 0x80, dx + 1, 0x80: a | b << 16 (0x80 makes a zero byte).
  __m256i control = _mm256_add_epi32(_mm256_add_epi32(dx, _mm256_slli_epi32(dx, 16)), _mm256_set1_epi32((int)0x80018000));
  __m256i s0 = _mm256_shuffle_epi8(rows[0], control), s1 = _mm256_shuffle_epi8(rows[1], control);
  __m256i s2 = _mm256_shuffle_epi8(rows[2], control);
  __m256 lower = _mm256_castsi256_ps(_mm256_slli_epi32(dy, 31));
  *top = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(s0), _mm256_castsi256_ps(s1), lower));
  *bottom = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(s1), _mm256_castsi256_ps(s2), lower));
}

// Whether every lane's offsets fit a window: 0 ≤ dx ≤ 14 (its pair in 16 bytes), 0 ≤ dy ≤ 1.
AVX2 static inline int yuv_fits(__m256i dx, __m256i dy) {
  const __m256i c14 = _mm256_set1_epi32(14), c1 = _mm256_set1_epi32(1);
  __m256i ok = _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(dx, c14), c14),
                                _mm256_cmpeq_epi32(_mm256_max_epu32(dy, c1), c1));
  return _mm256_movemask_epi8(ok) == -1;
}

// Eight taps of a plane at 32.32 positions (four 64-bit lanes in each of ulo/uhi, vlo/vhi).
// Where the eight lie within 15 columns and two rows of the lower of the first and last
// lane's (a magnified or mildly reduced view: most groups), three 16-byte loads and shuffles
// fetch their texels; otherwise two gathers (slow on AMD Zen: 2.5× the whole kernel there).
AVX2 static inline __m256i yuv_luma8(const uint8_t *plane, int64_t stride, __m256i ulo, __m256i uhi, __m256i vlo,
                                     __m256i vhi) {
  __m256i x, fx, y, fy;
  yuv_split8(ulo, uhi, &x, &fx);
  yuv_split8(vlo, vhi, &y, &fy);
  const __m256i first = _mm256_setzero_si256(), last = _mm256_set1_epi32(7);
  __m256i xb = _mm256_min_epi32(_mm256_permutevar8x32_epi32(x, first), _mm256_permutevar8x32_epi32(x, last));
  __m256i yb = _mm256_min_epi32(_mm256_permutevar8x32_epi32(y, first), _mm256_permutevar8x32_epi32(y, last));
  __m256i dx = _mm256_sub_epi32(x, xb), dy = _mm256_sub_epi32(y, yb);
  int64_t x0 = _mm256_cvtsi256_si32(xb), y0 = _mm256_cvtsi256_si32(yb);
  // A window's 16 bytes stay inside its row's stride (the plane's last row ends there).
  if (x0 <= stride - 16 && yuv_fits(dx, dy)) {
    const uint8_t *row = plane + y0 * stride + x0;
    __m256i rows[3], top, bottom;
    for (int k = 0; k < 3; k++)
      rows[k] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(row + k * stride)));
    yuv_window_pairs(rows, dx, dy, &top, &bottom);
    return yuv_blend8_words(top, bottom, fx, fy);
  }
  __m256i index = _mm256_add_epi32(_mm256_mullo_epi32(y, _mm256_set1_epi32((int)stride)), x);
  const int *base = (const int *)(const void *)(plane - 2);
  __m256i top = _mm256_i32gather_epi32(base, index, 1);
  __m256i bottom = _mm256_i32gather_epi32((const int *)(const void *)(plane - 2 + stride), index, 1);
  return yuv_blend8(top, bottom, fx, fy);
}

// Four chroma taps of both planes at whole positions `cx`, `cy` with fractions `cfx`, `cfy`:
// U in lanes 0–3, V in 4–7. By windows as `yuv_luma8` (U's rows in the low halves, V's in the
// high), else by gathers.
AVX2 static inline __m256i yuv_chroma4(const uint8_t *u, int64_t u_stride, const uint8_t *v, int64_t v_stride,
                                       __m128i cx, __m128i cfx, __m128i cy, __m128i cfy) {
  __m128i xb = _mm_min_epi32(_mm_shuffle_epi32(cx, 0x00), _mm_shuffle_epi32(cx, 0xFF));
  __m128i yb = _mm_min_epi32(_mm_shuffle_epi32(cy, 0x00), _mm_shuffle_epi32(cy, 0xFF));
  __m256i dx = _mm256_broadcastsi128_si256(_mm_sub_epi32(cx, xb)), dy = _mm256_broadcastsi128_si256(_mm_sub_epi32(cy, yb));
  __m256i fx = _mm256_broadcastsi128_si256(cfx), fy = _mm256_broadcastsi128_si256(cfy);
  int64_t x0 = _mm_cvtsi128_si32(xb), y0 = _mm_cvtsi128_si32(yb);
  if (x0 <= u_stride - 16 && x0 <= v_stride - 16 && yuv_fits(dx, dy)) {
    const uint8_t *ru = u + y0 * u_stride + x0, *rv = v + y0 * v_stride + x0;
    __m256i rows[3], top, bottom;
    for (int k = 0; k < 3; k++)
      rows[k] = _mm256_inserti128_si256(
          _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(ru + k * u_stride))),
          _mm_loadu_si128((const __m128i *)(const void *)(rv + k * v_stride)), 1);
    yuv_window_pairs(rows, dx, dy, &top, &bottom);
    return yuv_blend8_words(top, bottom, fx, fy);
  }
  __m128i iu = _mm_add_epi32(_mm_mullo_epi32(cy, _mm_set1_epi32((int)u_stride)), cx);
  __m128i iv = _mm_add_epi32(_mm_mullo_epi32(cy, _mm_set1_epi32((int)v_stride)), cx);
  __m128i bu = yuv_blend4(_mm_i32gather_epi32((const int *)(const void *)(u - 2), iu, 1),
                          _mm_i32gather_epi32((const int *)(const void *)(u - 2 + u_stride), iu, 1), cfx, cfy);
  __m128i bv = yuv_blend4(_mm_i32gather_epi32((const int *)(const void *)(v - 2), iv, 1),
                          _mm_i32gather_epi32((const int *)(const void *)(v - 2 + v_stride), iv, 1), cfx, cfy);
  return _mm256_inserti128_si256(_mm256_castsi128_si256(bu), bv, 1);
}

// Bytes 0, 4, 8, … of eight 32-bit lanes (each 0…255) stored as eight bytes.
AVX2 static inline void yuv_store8(uint8_t *out, __m256i lanes) {
  __m128i lo = _mm256_castsi256_si128(lanes), hi = _mm256_extracti128_si256(lanes, 1);
  __m128i words = _mm_packus_epi32(lo, hi);
  _mm_storel_epi64((__m128i *)(void *)out, _mm_packus_epi16(words, words));
}

// Four 64-bit positions: the lanes at `start` + 0…3 stepped `s` times from `value` with
// difference `d` and second difference `s2` (scalar, exactly), and `d8`: each lane's step
// to the lane eight on (8·d + 28·s2 at that lane).
AVX2 static inline void yuv_lanes(int64_t value, int64_t d, int64_t s2, __m256i *lo, __m256i *hi, __m256i *step) {
  int64_t values[8], diffs[8];
  for (int k = 0; k < 8; k++) {
    values[k] = value;
    diffs[k] = d;
    value += d;
    d += s2;
  }
  *lo = _mm256_loadu_si256((const __m256i *)(const void *)values);
  *hi = _mm256_loadu_si256((const __m256i *)(const void *)(values + 4));
  // Lane k moves from x + k to x + k + 8: the sum of the eight differences from its own.
  int64_t steps[8];
  for (int k = 0; k < 8; k++) steps[k] = 8 * diffs[k] + 28 * s2;
  step[0] = _mm256_loadu_si256((const __m256i *)(const void *)steps);
  step[1] = _mm256_loadu_si256((const __m256i *)(const void *)(steps + 4));
}

AVX2 static void yuv_pair_avx2(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                               const uint8_t *v, int64_t v_stride, const int64_t steppers[12], int64_t chroma_shift_x,
                               int64_t count, uint8_t *luma_a, uint8_t *luma_b, uint8_t *chroma_u, uint8_t *chroma_v) {
  int64_t s[12];
  for (int k = 0; k < 12; k++) s[k] = steppers[k];
  int64_t groups = count / 8;
  if (groups > 0) {
    // p[c][0], p[c][1]: coordinate c's lanes 0–3 and 4–7; d[c][…]: their steps; bend: 64·s2.
    __m256i p[4][2], d[4][2], bend[4];
    for (int c = 0; c < 4; c++) {
      yuv_lanes(s[3 * c], s[3 * c + 1], s[3 * c + 2], &p[c][0], &p[c][1], d[c]);
      bend[c] = _mm256_set1_epi64x(64 * s[3 * c + 2]);
    }
    const __m256i shift_x = _mm256_set1_epi64x(chroma_shift_x), shift_y = _mm256_set1_epi64x((int64_t)1 << 30);
    const __m256i even = _mm256_setr_epi32(1, 5, 0, 4, 1, 5, 0, 4);
    for (int64_t g = 0; g < groups; g++) {
      yuv_store8(luma_a + 8 * g, yuv_luma8(y, y_stride, p[0][0], p[0][1], p[1][0], p[1][1]));
      yuv_store8(luma_b + 8 * g, yuv_luma8(y, y_stride, p[2][0], p[2][1], p[3][0], p[3][1]));
      // Chroma at the even lanes: ((ua >> 1) + (ub >> 1)) >> 1, less the siting's shift
      // (positions inside the plane are positive: logical shifts are arithmetic ones).
      __m256i cu[2], cv[2];
      for (int h = 0; h < 2; h++) {
        cu[h] = _mm256_sub_epi64(
            _mm256_srli_epi64(_mm256_add_epi64(_mm256_srli_epi64(p[0][h], 1), _mm256_srli_epi64(p[2][h], 1)), 1),
            shift_x);
        cv[h] = _mm256_sub_epi64(
            _mm256_srli_epi64(_mm256_add_epi64(_mm256_srli_epi64(p[1][h], 1), _mm256_srli_epi64(p[3][h], 1)), 1),
            shift_y);
        // Lanes 0 and 2: whole parts then fractions, in the low 128 bits.
        cu[h] = _mm256_permutevar8x32_epi32(cu[h], even);
        cv[h] = _mm256_permutevar8x32_epi32(cv[h], even);
      }
      __m128i u0 = _mm256_castsi256_si128(cu[0]), u1 = _mm256_castsi256_si128(cu[1]);
      __m128i v0 = _mm256_castsi256_si128(cv[0]), v1 = _mm256_castsi256_si128(cv[1]);
      __m128i cx = _mm_unpacklo_epi64(u0, u1), cfx = _mm_srli_epi32(_mm_unpackhi_epi64(u0, u1), 24);
      __m128i cy = _mm_unpacklo_epi64(v0, v1), cfy = _mm_srli_epi32(_mm_unpackhi_epi64(v0, v1), 24);
      __m256i both = yuv_chroma4(u, u_stride, v, v_stride, cx, cfx, cy, cfy);
      __m128i wu = _mm_packus_epi32(_mm256_castsi256_si128(both), _mm256_extracti128_si256(both, 1));
      __m128i bytes = _mm_packus_epi16(wu, wu);
      int32_t lo = _mm_cvtsi128_si32(bytes), hi = _mm_extract_epi32(bytes, 1);
      __builtin_memcpy(chroma_u + 4 * g, &lo, 4);
      __builtin_memcpy(chroma_v + 4 * g, &hi, 4);
      for (int c = 0; c < 4; c++) {
        for (int h = 0; h < 2; h++) {
          p[c][h] = _mm256_add_epi64(p[c][h], d[c][h]);
          d[c][h] = _mm256_add_epi64(d[c][h], bend[c]);
        }
      }
    }
    // The scalar steppers at pixel n = 8·groups, for the tail, in closed form (n steps add
    // n·d + n(n−1)/2·s2 to the value and n·s2 to d; unsigned, so it wraps as the adds do).
    // Only when there is a tail: stepping them one by one cost a block as much as a group.
    if (8 * groups < count) {
      uint64_t n = (uint64_t)(8 * groups), triangle = n * (n - 1) / 2;
      for (int c = 0; c < 4; c++) {
        uint64_t value = (uint64_t)s[3 * c], diff = (uint64_t)s[3 * c + 1], bend = (uint64_t)s[3 * c + 2];
        s[3 * c] = (int64_t)(value + n * diff + triangle * bend);
        s[3 * c + 1] = (int64_t)(diff + n * bend);
      }
    }
  }
  yuv_pair_scalar(y, y_stride, u, u_stride, v, v_stride, s, chroma_shift_x, 8 * groups, count, luma_a, luma_b,
                  chroma_u, chroma_v);
}

void imagestage_yuv_pair_avx2(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                              const uint8_t *v, int64_t v_stride, const int64_t steppers[12], int64_t chroma_shift_x,
                              int64_t count, uint8_t *luma_a, uint8_t *luma_b, uint8_t *chroma_u, uint8_t *chroma_v) {
  yuv_pair_avx2(y, y_stride, u, u_stride, v, v_stride, steppers, chroma_shift_x, count, luma_a, luma_b, chroma_u,
                chroma_v);
}
#else
void imagestage_yuv_pair_avx2(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                              const uint8_t *v, int64_t v_stride, const int64_t steppers[12], int64_t chroma_shift_x,
                              int64_t count, uint8_t *luma_a, uint8_t *luma_b, uint8_t *chroma_u, uint8_t *chroma_v) {
  int64_t s[12];
  for (int k = 0; k < 12; k++) s[k] = steppers[k];
  yuv_pair_scalar(y, y_stride, u, u_stride, v, v_stride, s, chroma_shift_x, 0, count, luma_a, luma_b, chroma_u,
                  chroma_v);
}
#endif

void imagestage_yuv_pair_scalar(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                                const uint8_t *v, int64_t v_stride, const int64_t steppers[12],
                                int64_t chroma_shift_x, int64_t count, uint8_t *luma_a, uint8_t *luma_b,
                                uint8_t *chroma_u, uint8_t *chroma_v) {
  int64_t s[12];
  for (int k = 0; k < 12; k++) s[k] = steppers[k];
  yuv_pair_scalar(y, y_stride, u, u_stride, v, v_stride, s, chroma_shift_x, 0, count, luma_a, luma_b, chroma_u,
                  chroma_v);
}

// The machine's floor for a video frame (pano-bench --yuv-floor, bench/reframe.sh), as
// kernels.c's for RGBA: `imagestage_yuv_record_into` names the output frame's Y and U planes,
// its width, and side tables of one tap index a luma pixel (y0 · y_stride + x0) and a chroma
// pixel (in the U plane; V's at the same index); `imagestage_yuv_pair_record`, as a
// YUVKernel, fills them, stepped as the kernels step. Run once on one thread.
static const uint8_t *yuv_recorded_y, *yuv_recorded_u;
static int64_t yuv_recorded_width;
static uint32_t *yuv_recorded_luma, *yuv_recorded_chroma;

void imagestage_yuv_record_into(const uint8_t *out_y, const uint8_t *out_u, int64_t width, uint32_t *luma_taps,
                                uint32_t *chroma_taps) {
  yuv_recorded_y = out_y;
  yuv_recorded_u = out_u;
  yuv_recorded_width = width;
  yuv_recorded_luma = luma_taps;
  yuv_recorded_chroma = chroma_taps;
}

static inline __attribute__((always_inline)) void yuv_visit_record(const yuv_pair_out *o, int64_t x, int64_t ua,
                                                                   int64_t va, int64_t ub, int64_t vb, int64_t cu,
                                                                   int64_t cv) {
  yuv_recorded_luma[o->luma_a - yuv_recorded_y + x] = (uint32_t)((va >> 32) * o->y_stride + (ua >> 32));
  yuv_recorded_luma[o->luma_b - yuv_recorded_y + x] = (uint32_t)((vb >> 32) * o->y_stride + (ub >> 32));
  if ((x & 1) == 0)
    yuv_recorded_chroma[o->chroma_u - yuv_recorded_u + (x >> 1)] = (uint32_t)((cv >> 32) * o->u_stride + (cu >> 32));
}

void imagestage_yuv_pair_record(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                                const uint8_t *v, int64_t v_stride, const int64_t steppers[12],
                                int64_t chroma_shift_x, int64_t count, uint8_t *luma_a, uint8_t *luma_b,
                                uint8_t *chroma_u, uint8_t *chroma_v) {
  int64_t s[12];
  for (int k = 0; k < 12; k++) s[k] = steppers[k];
  const yuv_pair_out o = {y, u, v, y_stride, u_stride, v_stride, luma_a, luma_b, chroma_u, chroma_v};
  yuv_walk(&o, s, chroma_shift_x, 0, count, yuv_visit_record);
}

// The gather floor of `rows` output rows (even) of a `width`-pixel frame: each luma pixel
// the OR of its four texels at the recorded index, each chroma pixel the same in U and in V
// (`c_stride` both planes' stride), in the renderer's order: blocks `block` pixels wide,
// each by row pairs, rows A and B then the pair's chroma. No weights, no stepping.
void imagestage_yuv_gather_floor(const uint8_t *y, int64_t y_stride, const uint8_t *u, const uint8_t *v,
                                 int64_t c_stride, const uint32_t *luma_taps, const uint32_t *chroma_taps,
                                 uint8_t *out_y, uint8_t *out_u, uint8_t *out_v, int64_t width, int64_t rows,
                                 int64_t block) {
  for (int64_t x0 = 0; x0 < width; x0 += block) {
    int64_t n = width - x0 < block ? width - x0 : block;
    for (int64_t r = 0; r + 1 < rows; r += 2) {
      for (int64_t k = 0; k < 2; k++) {
        const uint32_t *t = luma_taps + (r + k) * width + x0;
        uint8_t *o = out_y + (r + k) * width + x0;
        for (int64_t i = 0; i < n; i++) {
          const uint8_t *p = y + t[i];
          o[i] = p[0] | p[1] | p[y_stride] | p[y_stride + 1];
        }
      }
      int64_t c = (r >> 1) * (width >> 1) + (x0 >> 1);
      for (int64_t i = 0; i < n >> 1; i++) {
        const uint8_t *pu = u + chroma_taps[c + i], *pv = v + chroma_taps[c + i];
        out_u[c + i] = pu[0] | pu[1] | pu[c_stride] | pu[c_stride + 1];
        out_v[c + i] = pv[0] | pv[1] | pv[c_stride] | pv[c_stride + 1];
      }
    }
  }
}

// The write floor of a video frame: `count` bytes set, as the renderer stores them.
void imagestage_write_floor_bytes(uint8_t *out, int64_t count, uint8_t value) {
  for (int64_t i = 0; i < count; i++) out[i] = value;
}
