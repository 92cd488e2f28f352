/* kernel_reslimit: resource limits cap the cores a kernel uses at once.
 * A kernel of more blocks than the limit runs in more waves, which its
 * virtual duration shows (1 ms per wave here). Stream limits apply in the
 * threads that use the stream and override the device's;
 * aclrtGetResInCurrentThread reports the limit in force. The device's
 * utilisation counts the cores running blocks.
 *
 * needs: emulator
 */
#include <stdint.h>

#include "check.h"
#include "case_kernel.h"

/* tick and tickc: no work, 1 ms of virtual time per block; hold: every
 * block waits until the host sets the flag its argument points to. */
static const char *kernel_src =
    "#include \"%s/emu/include/npuemu/kernel.h\"\n"
    "static void tick(const npuemu_kernel_ctx *ctx) { (void)ctx; }\n"
    "static void tickc(const npuemu_kernel_ctx *ctx) { (void)ctx; }\n"
    "static void hold(const npuemu_kernel_ctx *ctx) {\n"
    "    const int *flag = NPUEMU_ARG(ctx, const int *, 0);\n"
    "    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {}\n"
    "}\n"
    "NPUEMU_KERNEL_TABLE(\n"
    "    NPUEMU_KERNEL(tick, NPUEMU_VECTOR, .ns_per_block = 1000000),\n"
    "    NPUEMU_KERNEL(tickc, NPUEMU_AICORE, .ns_per_block = 1000000),\n"
    "    NPUEMU_KERNEL(hold, NPUEMU_VECTOR, .num_params = 1),\n"
    ")\n";

static aclrtStream stream;

/* kernel_ms launches f with blocks blocks between two events and returns
 * the virtual time between them in ms. */
static float kernel_ms(aclrtFuncHandle f, uint32_t blocks) {
    aclrtEvent e0, e1;
    aclrtArgsHandle a;
    CHECK_OK(aclrtCreateEvent(&e0));
    CHECK_OK(aclrtCreateEvent(&e1));
    CHECK_OK(aclrtKernelArgsInit(f, &a));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    CHECK_OK(aclrtRecordEvent(e0, stream));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, blocks, stream, NULL, a, NULL));
    CHECK_OK(aclrtRecordEvent(e1, stream));
    CHECK_OK(aclrtSynchronizeStream(stream));
    float ms = -1;
    CHECK_OK(aclrtEventElapsedTime(&ms, e0, e1));
    CHECK_OK(aclrtDestroyEvent(e0));
    CHECK_OK(aclrtDestroyEvent(e1));
    return ms;
}

static uint32_t waves(uint32_t blocks, uint32_t width) { return (blocks + width - 1) / width; }

#define CHECK_MS(got, want)                                                        \
    do {                                                                           \
        float got_ = (got), want_ = (float)(want);                                 \
        if (got_ < want_ - 0.01f || got_ > want_ + 0.01f)                          \
            FAIL("%s: %.4f ms, want %.4f ms", #got, (double)got_, (double)want_); \
    } while (0)

int main(void) {
    char so[4096];
    build_case_kernel(__FILE__, kernel_src, so, sizeof so);

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtCreateStream(&stream));
    aclrtBinHandle bin;
    aclrtFuncHandle tick, tickc, hold;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK_OK(aclrtBinaryGetFunction(bin, "tick", &tick));
    CHECK_OK(aclrtBinaryGetFunction(bin, "tickc", &tickc));
    CHECK_OK(aclrtBinaryGetFunction(bin, "hold", &hold));

    uint32_t vec = 0, cube = 0, v = 0;
    CHECK_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &vec));
    CHECK_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &cube));
    if (vec == 0) SKIP("the SoC has no separate vector cores");
    uint32_t blocks = vec + 1;

    /* Device limit: later launches use at most 4 vector cores. */
    float free_ms = kernel_ms(tick, blocks);
    CHECK_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 4));
    CHECK_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v));
    CHECK_EQ(v, 4);
    float dev_ms = kernel_ms(tick, blocks);
    CHECK_MS(dev_ms - free_ms, waves(blocks, 4) - waves(blocks, vec));
    /* The cube limit does not touch vector kernels, and caps AI Core ones. */
    float cube_free = kernel_ms(tickc, cube);
    CHECK_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 3));
    CHECK_MS(kernel_ms(tick, blocks), dev_ms);
    CHECK_MS(kernel_ms(tickc, cube) - cube_free, waves(cube, 3) - 1);

    /* Stream limit: in force once the thread uses the stream. */
    CHECK_OK(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, 2));
    CHECK_OK(aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, &v));
    CHECK_EQ(v, 2);
    CHECK_OK(aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, &v));
    CHECK_EQ(v, 3); /* unset on the stream: the device's */
    CHECK_MS(kernel_ms(tick, blocks), dev_ms);
    CHECK_OK(aclrtUseStreamResInCurrentThread(stream));
    CHECK_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v));
    CHECK_EQ(v, 2);
    CHECK_MS(kernel_ms(tick, blocks) - dev_ms, waves(blocks, 2) - waves(blocks, 4));
    CHECK_OK(aclrtUnuseStreamResInCurrentThread(stream));
    CHECK_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v));
    CHECK_EQ(v, 4);
    CHECK_OK(aclrtResetStreamResLimit(stream));
    CHECK_ERR(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE, vec + 1), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclrtResetDeviceResLimit(0));
    CHECK_MS(kernel_ms(tick, blocks), free_ms);

    /* Utilisation: two vector cores are busy while hold runs. */
    aclrtUtilizationInfo u;
    memset(&u, 0, sizeof u);
    CHECK_OK(aclrtGetDeviceUtilizationRate(0, &u));
    CHECK_EQ(u.vectorUtilization, 0);
    int *flag;
    CHECK_OK(aclrtMallocHost((void **)&flag, sizeof *flag));
    *flag = 0;
    aclrtArgsHandle a;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(hold, &a));
    CHECK_OK(aclrtKernelArgsAppend(a, &flag, sizeof flag, &p));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    CHECK_OK(aclrtLaunchKernelWithConfig(hold, 2, stream, NULL, a, NULL));
    CHECK_OK(aclrtGetDeviceUtilizationRate(0, &u));
    __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
    CHECK_EQ(u.vectorUtilization, 2 * 100 / vec);
    CHECK_EQ(u.cubeUtilization, 0);
    CHECK_OK(aclrtSynchronizeStream(stream));
    CHECK_OK(aclrtGetDeviceUtilizationRate(0, &u));
    CHECK_EQ(u.vectorUtilization, 0);

    CHECK_OK(aclrtFreeHost(flag));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(stream));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    npuemu_remove_kernel(so);
    return 0;
}
