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

// Pixels `from` to `count` of the pair, one at a time (the vector loop's tail, and the
// whole pair without AVX2).
static void yuv_pair_scalar(const uint8_t *y, int64_t y_stride, const uint8_t *u, int64_t u_stride,
                            const uint8_t *v, int64_t v_stride, int64_t s[12], int64_t chroma_shift_x,
                            int64_t from, int64_t count, uint8_t *luma_a, uint8_t *luma_b, uint8_t *chroma_u,
                            uint8_t *chroma_v) {
  for (int64_t x = from; x < count; x++) {
    int64_t ua = s[0], va = s[3], ub = s[6], vb = s[9];
    luma_a[x] = (uint8_t)yuv_tap(y, y_stride, ua, va);
    luma_b[x] = (uint8_t)yuv_tap(y, y_stride, ub, vb);
    if ((x & 1) == 0) {
      int64_t cu = (((ua >> 1) + (ub >> 1)) >> 1) - chroma_shift_x;
      int64_t cv = (((va >> 1) + (vb >> 1)) >> 1) - ((int64_t)1 << 30);
      chroma_u[x >> 1] = (uint8_t)yuv_tap(u, u_stride, cu, cv);
      chroma_v[x >> 1] = (uint8_t)yuv_tap(v, v_stride, cu, cv);
    }
    for (int k = 0; k < 12; k += 3) {
      s[k] += s[k + 1];
      s[k + 1] += s[k + 2];
    }
  }
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

// Eight taps of a plane at 32.32 positions (four 64-bit lanes in each of ulo/uhi, vlo/vhi).
AVX2 static inline __m256i yuv_luma8(const uint8_t *plane, int64_t stride, __m256i ulo, __m256i uhi, __m256i vlo,
                                     __m256i vhi) {
  __m256i x, fx, y, fy;
  yuv_split8(ulo, uhi, &x, &fx);
  yuv_split8(vlo, vhi, &y, &fy);
  __m256i index = _mm256_add_epi32(_mm256_mullo_epi32(y, _mm256_set1_epi32((int)stride)), x);
  const int *base = (const int *)(const void *)(plane - 2);
  __m256i top = _mm256_i32gather_epi32(base, index, 1);
  __m256i bottom = _mm256_i32gather_epi32((const int *)(const void *)(plane - 2 + stride), index, 1);
  return yuv_blend8(top, bottom, fx, fy);
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
      __m128i iu = _mm_add_epi32(_mm_mullo_epi32(cy, _mm_set1_epi32((int)u_stride)), cx);
      __m128i iv = _mm_add_epi32(_mm_mullo_epi32(cy, _mm_set1_epi32((int)v_stride)), cx);
      __m128i bu = yuv_blend4(_mm_i32gather_epi32((const int *)(const void *)(u - 2), iu, 1),
                              _mm_i32gather_epi32((const int *)(const void *)(u - 2 + u_stride), iu, 1), cfx, cfy);
      __m128i bv = yuv_blend4(_mm_i32gather_epi32((const int *)(const void *)(v - 2), iv, 1),
                              _mm_i32gather_epi32((const int *)(const void *)(v - 2 + v_stride), iv, 1), cfx, cfy);
      __m128i wu = _mm_packus_epi32(bu, bv);
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
    // The scalar steppers at pixel 8·groups, for the tail.
    for (int c = 0; c < 4; c++) {
      int64_t value = s[3 * c], diff = s[3 * c + 1];
      for (int64_t k = 0; k < 8 * groups; k++) {
        value += diff;
        diff += s[3 * c + 2];
      }
      s[3 * c] = value;
      s[3 * c + 1] = diff;
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
