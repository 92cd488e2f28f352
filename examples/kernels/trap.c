/* trap.c: a kernel that raises an AI Core exception on purpose. Block
 * `bad` (uint32 argument at offset 0) calls npuemu_trap with code 42; every
 * other block writes its index to out[block] (device pointer at offset 8).
 * The launch succeeds; the next synchronisation of the stream returns
 * ACL_ERROR_RT_AICORE_EXCEPTION.
 */
#include "npuemu/kernel.h"

static void trap_block(const npuemu_kernel_ctx *ctx) {
    uint32_t bad = NPUEMU_ARG(ctx, uint32_t, 0);
    uint32_t *out = NPUEMU_ARG(ctx, uint32_t *, 8);
    if (ctx->block_idx == bad) npuemu_trap(ctx, 42);
    out[ctx->block_idx] = ctx->block_idx;
}

/* A bug rather than a deliberate trap: the hardware faults the same way. */
static void null_write(const npuemu_kernel_ctx *ctx) {
    volatile uint32_t *p = NPUEMU_ARG(ctx, uint32_t *, 0);
    *p = ctx->block_idx;
}

NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(trap_block, NPUEMU_VECTOR, .ns_per_block = 1000, .num_params = 2),
    NPUEMU_KERNEL(null_write, NPUEMU_VECTOR, .ns_per_block = 1000, .num_params = 1),
)
