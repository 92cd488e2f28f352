/* npuemu_cpu_trampoline: the device binary behind ICPU_RUN_KF
 * (tikicpulib.h). The kernels of a RUN_MODE=cpu program are plain host
 * functions of the program; each entry here calls back into the program:
 * argument 0 is the function to call, argument 1 its closure (the kernel
 * and its arguments). One entry per kernel kind, each also cooperative
 * (every block at once, for SyncAll). Built by `make lib` into
 * emu/lib/libnpuemu_cpu_trampoline.so. */
#include "npuemu/kernel.h"

typedef void (*npuemu_tik_call)(const npuemu_kernel_ctx *ctx, void *closure);

static void call(const npuemu_kernel_ctx *ctx) {
    npuemu_tik_call fn = NPUEMU_ARG(ctx, npuemu_tik_call, 0);
    void *closure = NPUEMU_ARG(ctx, void *, 8);
    fn(ctx, closure);
}

static void npuemu_tik_vector(const npuemu_kernel_ctx *ctx) { call(ctx); }
static void npuemu_tik_cube(const npuemu_kernel_ctx *ctx) { call(ctx); }
static void npuemu_tik_mix(const npuemu_kernel_ctx *ctx) { call(ctx); }
static void npuemu_tik_vector_coop(const npuemu_kernel_ctx *ctx) { call(ctx); }
static void npuemu_tik_cube_coop(const npuemu_kernel_ctx *ctx) { call(ctx); }
static void npuemu_tik_mix_coop(const npuemu_kernel_ctx *ctx) { call(ctx); }

NPUEMU_KERNEL_TABLE(
    NPUEMU_KERNEL(npuemu_tik_vector, NPUEMU_VECTOR, .num_params = 2),
    NPUEMU_KERNEL(npuemu_tik_cube, NPUEMU_CUBE, .num_params = 2),
    NPUEMU_KERNEL(npuemu_tik_mix, NPUEMU_MIX, .num_params = 2),
    NPUEMU_KERNEL(npuemu_tik_vector_coop, NPUEMU_VECTOR, .num_params = 2, .flags = NPUEMU_KERNEL_COOPERATIVE),
    NPUEMU_KERNEL(npuemu_tik_cube_coop, NPUEMU_CUBE, .num_params = 2, .flags = NPUEMU_KERNEL_COOPERATIVE),
    NPUEMU_KERNEL(npuemu_tik_mix_coop, NPUEMU_MIX, .num_params = 2, .flags = NPUEMU_KERNEL_COOPERATIVE),
)
