/* bench_kernels.c: the host kernels of npuemu_bench's kernel workloads,
 * built by npuemu_bench at run time (docs/kernels.md):
 *
 *   cc -shared -fPIC -O3 -march=native -I emu/include bench_kernels.c -o k.so
 *
 * empty: the peer's empty kernel (one pointer argument, no work).
 * vadd:  c = a + b on n floats; arguments a, b, c (device pointers) and n
 *        (uint64) at offsets 0, 8, 16, 24. Block i of numBlocks adds the
 *        i-th contiguous slice, so the blocks of one launch run in parallel
 *        on the host's cores, as the peer's work-groups do.
 */
#include "npuemu/kernel.h"

static void empty(const npuemu_kernel_ctx *ctx) { (void)ctx; }

static void vadd(const npuemu_kernel_ctx *ctx) {
    const float *restrict a = NPUEMU_ARG(ctx, const float *, 0);
    const float *restrict b = NPUEMU_ARG(ctx, const float *, 8);
    float *restrict c = NPUEMU_ARG(ctx, float *, 16);
    uint64_t n = NPUEMU_ARG(ctx, uint64_t, 24);
    /* Slices are multiples of 16 floats (64 bytes), so no two blocks share
     * a cache line of c. */
    uint64_t per = ((n + ctx->block_dim - 1) / ctx->block_dim + 15) & ~(uint64_t)15;
    uint64_t lo = per * ctx->block_idx, hi = lo + per;
    if (lo > n) lo = n;
    if (hi > n) hi = n;
    for (uint64_t i = lo; i < hi; i++) c[i] = a[i] + b[i];
}

/* Costs as examples/kernels/vadd.c: the modelled device, not the host. */
NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(empty, NPUEMU_VECTOR, .ns_per_block = 1000, .num_params = 1),
    NPUEMU_KERNEL(vadd, NPUEMU_VECTOR, .ns_per_block = 2000, .ns_per_unit = 0.3, .size_offset = 24, .num_params = 4),
)
