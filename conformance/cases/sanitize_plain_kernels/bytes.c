/* Plain npuemu/kernel.h kernels of the sanitize_plain_kernel case: they
 * touch device memory with ordinary loads and stores, and record nothing
 * for the sanitizer themselves. Each block takes an even share of the
 * bytes. */
#include <stdint.h>

#include "npuemu/kernel.h"

static void share(const npuemu_kernel_ctx *ctx, uint64_t n, uint64_t *lo, uint64_t *hi) {
    uint64_t per = (n + ctx->block_dim - 1) / ctx->block_dim;
    *lo = ctx->block_idx * per;
    *hi = *lo + per;
    if (*lo > n) *lo = n;
    if (*hi > n) *hi = n;
}

/* fill(p, off, len, val): p[off .. off+len) = val. */
static void fill(const npuemu_kernel_ctx *ctx) {
    volatile uint8_t *p = NPUEMU_ARG(ctx, uint8_t *, 0);
    uint64_t off = NPUEMU_ARG(ctx, uint64_t, 8), len = NPUEMU_ARG(ctx, uint64_t, 16);
    uint8_t val = (uint8_t)NPUEMU_ARG(ctx, uint64_t, 24);
    uint64_t lo, hi;
    share(ctx, len, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) p[off + i] = val;
}

/* copy(dst, src, n): dst[i] = src[i] + 1. */
static void copy(const npuemu_kernel_ctx *ctx) {
    volatile uint8_t *dst = NPUEMU_ARG(ctx, uint8_t *, 0);
    const volatile uint8_t *src = NPUEMU_ARG(ctx, const uint8_t *, 8);
    uint64_t lo, hi;
    share(ctx, NPUEMU_ARG(ctx, uint64_t, 16), &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) dst[i] = (uint8_t)(src[i] + 1);
}

NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(fill, NPUEMU_VECTOR, .ns_per_block = 1000),
    NPUEMU_KERNEL(copy, NPUEMU_VECTOR, .ns_per_block = 1000),
)
