/* capture_kernel_attr: aclmdlRIKernelTaskGetAttribute (semantics.md §18) on the
 * kernels of a captured graph: the launch attributes are recorded with the
 * kernel (schedule mode, timeout in seconds or microseconds, data dump and
 * profiling switches), a kernel
 * launched without attributes reads the defaults, the documented
 * exclusions and non-kernel tasks are refused. The replayed kernels still
 * compute the right sums.
 *
 * needs: emulator
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

#define N 4099u

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    if (strncmp(soc, "Ascend910B", 10) != 0 && strncmp(soc, "Ascend910_93", 12) != 0 && strncmp(soc, "Ascend950", 9) != 0) {
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        SKIP("aclmdlRIKernelTaskGetAttribute is documented for 950/A3/A2 only (%s)", soc);
    }
    aclrtStream s, cs;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&cs));
    aclrtBinHandle bin = NULL;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    aclrtFuncHandle f32;
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f32));

    size_t bytes = N * sizeof(float);
    static float ha[N], hc[N];
    for (uint32_t i = 0; i < N; i++)
        ha[i] = (float)i;
    void *da, *dc;
    CHECK_OK(aclrtMalloc(&da, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dc, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(da, bytes, ha, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    uint64_t n = N;
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(f32, &args));
    CHECK_OK(aclrtKernelArgsAppend(args, &da, sizeof da, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &da, sizeof da, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &dc, sizeof dc, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));

    CHECK_OK(aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_OK(aclrtMemsetAsync(dc, bytes, 0, bytes, cs));
    aclrtLaunchKernelAttr attrs[3];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attrs[0].value.schemMode = 1;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attrs[1].value.timeoutUs.timeoutLow = 2500000;
    attrs[2].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING;
    attrs[2].value.enableProfiling = 1;
    aclrtLaunchKernelCfg cfg = {.attrs = attrs, .numAttrs = 3};
    CHECK_OK(aclrtLaunchKernelWithConfig(f32, 5, cs, &cfg, args, NULL));
    CHECK_OK(aclrtLaunchKernelWithConfig(f32, 3, cs, NULL, args, NULL));
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureEnd(cs, &ri));

    aclrtStream rs = NULL;
    uint32_t ns = 1;
    CHECK_OK(aclmdlRIGetStreams(ri, &rs, &ns));
    aclmdlRITask tasks[3];
    uint32_t nt = 3;
    CHECK_OK(aclmdlRIGetTasksByStream(rs, tasks, &nt));
    CHECK_EQ(nt, 3);

    aclrtLaunchKernelAttrValue v;
    memset(&v, 0xAB, sizeof v);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v));
    CHECK_EQ(v.schemMode, 1);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, &v));
    CHECK_EQ(v.timeoutUs.timeoutLow, 2500000u);
    CHECK_EQ(v.timeoutUs.timeoutHigh, 0u);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &v));
    CHECK_EQ(v.timeout, 2); /* whole seconds */
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[2], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v));
    CHECK_EQ(v.schemMode, 0);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[2], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, &v));
    CHECK_EQ(v.timeoutUs.timeoutLow, 0u);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[2], ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, &v));
    CHECK_EQ(v.dynUBufSize, 0u);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, &v));
    CHECK_EQ(v.enableProfiling, 1);
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &v));
    CHECK_EQ(v.isDataDump, 0); /* not given: the default */
    CHECK_OK(aclmdlRIKernelTaskGetAttribute(tasks[2], ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, &v));
    CHECK_EQ(v.enableProfiling, 0);
    /* doc: not ENGINE_TYPE / BLOCKDIM_OFFSET / BLOCK_TASK_PREFETCH. */
    CHECK_ERR(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &v), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, &v), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclmdlRIKernelTaskGetAttribute(NULL, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v));

    for (int r = 0; r < 2; r++) {
        CHECK_OK(aclmdlRIExecuteAsync(ri, s));
        CHECK_OK(aclrtSynchronizeStream(s));
        memset(hc, 0, sizeof hc);
        CHECK_OK(aclrtMemcpy(hc, bytes, dc, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
        for (uint32_t i = 0; i < N; i++)
            if (hc[i] != 2.0f * (float)i) FAIL("c[%u] = %g, want %g", i, hc[i], 2.0 * i);
    }

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(dc));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(cs));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
