// lanes.swift's blend (the renderer's) written with AVX2 gathers, eight pixels at a time, as
// ffmpeg's v360 remap does: what the portable Swift renderer would gain from gathers. Same
// access pattern, same rounding: it must print the same hash. Run by bench/blend-probe.sh.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
enum { W = 8192, H = 4096, OW = 1920, OH = 1080 };
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

__attribute__((target("avx2"))) static void seg_avx2(const uint32_t *src, uint32_t *out, int n, uint32_t u0, uint32_t du, uint32_t v0, uint32_t dv) {
  const __m256i lane = _mm256_setr_epi32(0,1,2,3,4,5,6,7);
  const __m256i mask = _mm256_set1_epi32(0x00FF00FF), w = _mm256_set1_epi32(W);
  for (int k = 0; k < n; k += 8) {
    __m256i kk = _mm256_add_epi32(_mm256_set1_epi32(k), lane);
    __m256i u = _mm256_add_epi32(_mm256_set1_epi32(u0), _mm256_mullo_epi32(_mm256_set1_epi32(du), kk));
    __m256i v = _mm256_add_epi32(_mm256_set1_epi32(v0), _mm256_mullo_epi32(_mm256_set1_epi32(dv), kk));
    __m256i idx = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srli_epi32(v, 16), w), _mm256_srli_epi32(u, 16));
    __m256i t00 = _mm256_i32gather_epi32((const int *)src, idx, 4);
    __m256i t01 = _mm256_i32gather_epi32((const int *)src + 1, idx, 4);
    __m256i t10 = _mm256_i32gather_epi32((const int *)src + W, idx, 4);
    __m256i t11 = _mm256_i32gather_epi32((const int *)src + W + 1, idx, 4);
    __m256i fx = _mm256_and_si256(_mm256_srli_epi32(u, 8), _mm256_set1_epi32(255));
    __m256i fy = _mm256_and_si256(_mm256_srli_epi32(v, 8), _mm256_set1_epi32(255));
    fx = _mm256_or_si256(fx, _mm256_slli_epi32(fx, 16)); fy = _mm256_or_si256(fy, _mm256_slli_epi32(fy, 16));
    __m256i w11 = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(fx, fy), _mm256_set1_epi16(128)), 8);
    __m256i w01 = _mm256_sub_epi16(fx, w11), w10 = _mm256_sub_epi16(fy, w11);
    __m256i w00 = _mm256_add_epi16(_mm256_sub_epi16(_mm256_sub_epi16(_mm256_set1_epi16(256), fx), fy), w11);
#define WSUM(a,b,c,d) _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(a, w00), _mm256_mullo_epi16(b, w01)), _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(c, w10), _mm256_mullo_epi16(d, w11)), _mm256_set1_epi16(128)))
    __m256i rb = _mm256_and_si256(_mm256_srli_epi16(WSUM(_mm256_and_si256(t00,mask),_mm256_and_si256(t01,mask),_mm256_and_si256(t10,mask),_mm256_and_si256(t11,mask)), 8), mask);
    __m256i ga = _mm256_andnot_si256(mask, WSUM(_mm256_srli_epi16(t00,8),_mm256_srli_epi16(t01,8),_mm256_srli_epi16(t10,8),_mm256_srli_epi16(t11,8)));
    _mm256_storeu_si256((__m256i *)(out + k), _mm256_or_si256(rb, ga));
  }
}
int main(void) {
  uint32_t *src = malloc(sizeof(uint32_t) * W * H), *out = malloc(sizeof(uint32_t) * OW * OH);
  uint32_t s = 1; for (long i = 0; i < (long)W * H; i++) { s = s * 1664525u + 1013904223u; src[i] = s; }
  double best = 1e9;
  for (int r = 0; r < 10; r++) {
    double t = now();
    for (int y = 0; y < OH; y++) for (int bx = 0; bx < OW; bx += 64) {
      uint32_t u0 = (uint32_t)((3000.0 + bx * 1.07 + y * 0.02) * 65536), v0 = (uint32_t)((1200.0 + y * 1.05 + bx * 0.01) * 65536);
      seg_avx2(src, out + y * OW + bx, 64, u0, (uint32_t)(1.07 * 65536), v0, (uint32_t)(0.01 * 65536));
    }
    double e = now() - t; if (e < best) best = e;
  }
  uint32_t h = 0; for (long i = 0; i < OW * OH; i++) h = h * 31 + out[i];
  printf("ms %.3f hash %u\n", best * 1000, h);
}
