// Counts the viewer module's heap allocations, for tests/web/wasm/viewer-frame-alloc.mjs: the
// test link wraps libc's allocators (wasm-ld --wrap) with these, which count and pass on.
// Never shipped: only `make web-frame-alloc` links it.
#include <stddef.h>

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
int __real_posix_memalign(void **, size_t, size_t);
void *__real_aligned_alloc(size_t, size_t);

static unsigned allocations;

__attribute__((export_name("test_allocations"))) unsigned test_allocations(void) { return allocations; }

void *__wrap_malloc(size_t n) { allocations++; return __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { allocations++; return __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { allocations++; return __real_realloc(p, n); }
int __wrap_posix_memalign(void **p, size_t a, size_t n) { allocations++; return __real_posix_memalign(p, a, n); }
void *__wrap_aligned_alloc(size_t a, size_t n) { allocations++; return __real_aligned_alloc(a, n); }
