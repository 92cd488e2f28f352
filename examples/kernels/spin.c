/* spin.c: a long-running kernel. Each block busy-waits for the number of
 * microseconds given as its first argument (uint64, offset 0), then sets
 * flags[block] = 1 (second argument, a device pointer to uint32s, offset 8;
 * may be NULL). It models a kernel that keeps its cores busy, for
 * concurrency, timeout and synchronisation tests.
 */
#include <time.h>

#include "npuemu/kernel.h"

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void spin(const npuemu_kernel_ctx *ctx) {
    uint64_t us = NPUEMU_ARG(ctx, uint64_t, 0);
    uint32_t *flags = NPUEMU_ARG(ctx, uint32_t *, 8);
    uint64_t end = now_us() + us;
    while (now_us() < end) {
    }
    if (flags) flags[ctx->block_idx] = 1;
}

/* The virtual cost follows the requested time: 1000 ns per microsecond. */
NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(spin, NPUEMU_AICORE, .ns_per_unit = 1000, .size_offset = 0, .num_params = 2),
)
