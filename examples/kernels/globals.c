/* globals.c: a kernel binary with a device variable. `scale` (four
 * uint32, exported) is the variable aclrtBinaryGetGlobal and the symbol
 * calls (aclrtGetSymbolAddress, aclrtMemcpyToSymbol, ...) reach. Block i of
 * `apply` writes scale[i % 4] * (i + 1) to out[i] (device pointer, offset
 * 0); `bump` adds 1 to every scale[i] (one block).
 */
#include "npuemu/kernel.h"

/* Exported (default visibility): a device variable of the binary. */
uint32_t scale[4] = {1, 2, 3, 4};

static void apply(const npuemu_kernel_ctx *ctx) {
    uint32_t *out = NPUEMU_ARG(ctx, uint32_t *, 0);
    out[ctx->block_idx] = scale[ctx->block_idx % 4] * (ctx->block_idx + 1);
}

static void bump(const npuemu_kernel_ctx *ctx) {
    (void)ctx;
    for (int i = 0; i < 4; i++) scale[i] += 1;
}

NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(apply, NPUEMU_VECTOR, .ns_per_block = 1000, .num_params = 1),
    NPUEMU_KERNEL(bump, NPUEMU_VECTOR, .ns_per_block = 1000, .num_params = 0),
)
