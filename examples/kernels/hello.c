/* hello.c: a printing kernel. Each block prints one line with
 * npuemu_printf; the runtime writes a launch's lines in block order when
 * the launch ends, so the output is the same on every run:
 *
 *   hello from block 0 of 4 (tag 7)
 *   hello from block 1 of 4 (tag 7)
 *   ...
 * Argument: tag (uint32, offset 0).
 */
#include "npuemu/kernel.h"

static void hello(const npuemu_kernel_ctx *ctx) {
    npuemu_printf(ctx, "hello from block %u of %u (tag %u)\n", ctx->block_idx, ctx->block_dim,
                  NPUEMU_ARG(ctx, uint32_t, 0));
}

NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(hello, NPUEMU_AICORE, .ns_per_block = 500, .num_params = 1),
)
