// How the direction in which output rows cross an image changes the cost of bilinear
// reads: a 1920 × 1080 "view" in the renderer's 64 × 32 blocks steps STEP image pixels per
// output pixel along a direction at 0°, 30°, 45° and 90°, each pixel reading its 2 × 2
// texels, from the image stored row by row and in 4 × 4 tiles (one 64-byte cache line each,
// as GPUs swizzle textures). One thread; ms per frame for each layout and angle.
// Usage: walk SIDE STEP ROUNDS. Environment: AHEAD=N prefetches the texels N pixels ahead
// (as the renderer's prefetch kernel does); BW, BH the block size; HUGE=1 asks for
// transparent huge pages before the image is touched (and prints how much it got).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int side, bw = 64, bh = 32, ahead = 0;
static uint32_t *linear, *tiled;

#define at_linear_ADDR(x, y) linear[(size_t)(y) * side + (x)]
#define at_tiled_ADDR(x, y) tiled[((size_t)((y) >> 2) * (side >> 2) + ((x) >> 2)) * 16 + ((y) & 3) * 4 + ((x) & 3)]
static inline uint32_t at_linear(int x, int y) { return linear[(size_t)y * side + x]; }
static inline uint32_t at_tiled(int x, int y) {
  size_t tile = (size_t)(y >> 2) * (side >> 2) + (x >> 2);
  return tiled[tile * 16 + (y & 3) * 4 + (x & 3)];
}

// Sum of 2 × 2 texels (a stand-in for the blend: the loads are what differ).
#define WALK(NAME, AT)                                                                       \
  static uint64_t NAME(double angle, double step) {                                            \
    double ax = cos(angle) * step, ay = sin(angle) * step, bx = -ay, by = ax;                   \
    double cx = side / 2.0, cy = side / 2.0;                                                   \
    uint64_t sum = 0;                                                                          \
    for (int by0 = 0; by0 < 1080; by0 += bh)                                                   \
      for (int bx0 = 0; bx0 < 1920; bx0 += bw)                                                 \
        for (int y = by0; y < by0 + bh && y < 1080; y++)                                       \
          for (int x = bx0; x < bx0 + bw && x < 1920; x++) {                                   \
            double u = cx + (x - 960) * ax + (y - 540) * bx, v = cy + (x - 960) * ay + (y - 540) * by; \
            int xi = (int)u, yi = (int)v;                                                      \
            if (xi < 0 || yi < 0 || xi >= side - 1 || yi >= side - 1) continue;                \
            if (ahead) {                                                                       \
              int px = (int)(u + ahead * ax), py = (int)(v + ahead * ay);                      \
              if (px >= 0 && py >= 0 && px < side - 1 && py < side - 1) {                      \
                __builtin_prefetch(&AT##_ADDR(px, py));                                        \
                __builtin_prefetch(&AT##_ADDR(px, py + 1));                                    \
              }                                                                                \
            }                                                                                  \
            sum += AT(xi, yi) + AT(xi + 1, yi) + AT(xi, yi + 1) + AT(xi + 1, yi + 1);           \
          }                                                                                    \
    return sum;                                                                                \
  }
WALK(walk_linear, at_linear)
WALK(walk_tiled, at_tiled)

int main(int argc, char **argv) {
  side = argc > 1 ? atoi(argv[1]) : 2752;
  double step = argc > 2 ? atof(argv[2]) : 1.4;
  int rounds = argc > 3 ? atoi(argv[3]) : 3;
  side &= ~3;
  if (getenv("BW")) bw = atoi(getenv("BW"));
  if (getenv("BH")) bh = atoi(getenv("BH"));
  if (getenv("AHEAD")) ahead = atoi(getenv("AHEAD"));
  size_t bytes = ((size_t)side * side * 4 + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
  linear = aligned_alloc(2u << 20, bytes);
  tiled = aligned_alloc(2u << 20, bytes);
  // HUGE=1: ask for 2 MB pages (transparent huge pages, "madvise" mode) before first touch.
  if (getenv("HUGE") && atoi(getenv("HUGE"))) {
    madvise(linear, bytes, MADV_HUGEPAGE);
    madvise(tiled, bytes, MADV_HUGEPAGE);
  }
  for (int y = 0; y < side; y++)
    for (int x = 0; x < side; x++) {
      uint32_t p = (uint32_t)(x * 2654435761u ^ y * 40503u);
      linear[(size_t)y * side + x] = p;
      tiled[((size_t)(y >> 2) * (side >> 2) + (x >> 2)) * 16 + (y & 3) * 4 + (x & 3)] = p;
    }
  const double angles[] = {0, 30, 45, 90};
  for (int r = 0; r < rounds; r++)
    for (int a = 0; a < 4; a++) {
      double t0 = now();
      uint64_t s1 = walk_linear(angles[a] * M_PI / 180, step);
      double t1 = now();
      uint64_t s2 = walk_tiled(angles[a] * M_PI / 180, step);
      double t2 = now();
      printf("angle %3.0f  rows %6.2f ms  tiles %6.2f ms  %s\n", angles[a], (t1 - t0) * 1e3, (t2 - t1) * 1e3,
             s1 == s2 ? "same" : "DIFFERENT");
    }
  if (getenv("HUGE")) {  // how much of the process huge pages back
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
      if (line[0] == 'A' && line[4] == 'H') fputs(line, stdout);
    if (f) fclose(f);
  }
  return 0;
}
