/* oob.c: an out-of-bounds writer. Block 0 writes one uint32 at
 * buf + offset bytes (buf: device pointer at offset 0; offset: int64 at
 * offset 8). Device memory that no allocation covers is inaccessible
 * (docs/hardening.md §7): a write past the page holding the buffer's last
 * byte, into freed memory or outside every mapping (e.g. 1 << 52) faults,
 * and the launch fails with ACL_ERROR_RT_AICORE_EXCEPTION at the next
 * synchronisation; a write into the rest of that page does not (as on the
 * real device, whose MMU works in pages too).
 */
#include "npuemu/kernel.h"

static void oob_write(const npuemu_kernel_ctx *ctx) {
    char *buf = NPUEMU_ARG(ctx, char *, 0);
    int64_t off = NPUEMU_ARG(ctx, int64_t, 8);
    if (ctx->block_idx == 0) *(volatile uint32_t *)(buf + off) = 0xdeadbeef;
}

NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(oob_write, NPUEMU_VECTOR, .ns_per_block = 1000, .num_params = 2),
)
