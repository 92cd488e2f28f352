/* echo.c: copies its argument blob into device memory, for tests of how
 * the runtime lays arguments out. Block 0 writes the blob size (uint64)
 * at out[0] and the blob from out + 8 (out: device pointer, the first
 * argument); when the blob holds a third argument it is taken as a
 * pointer (a placeholder slot) and the 8 bytes it points to are written
 * at out + 1024.
 */
#include "npuemu/kernel.h"

static void echo_args(const npuemu_kernel_ctx *ctx) {
    if (ctx->block_idx != 0) return;
    unsigned char *out = NPUEMU_ARG(ctx, unsigned char *, 0);
    uint64_t size = ctx->args_size;
    memcpy(out, &size, 8);
    memcpy(out + 8, ctx->args, size);
    if (size >= 24) {
        const unsigned char *ph = NPUEMU_ARG(ctx, const unsigned char *, 16);
        memcpy(out + 1024, ph, 8);
    }
}

NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(echo_args, NPUEMU_AICORE, .ns_per_block = 100),
)
