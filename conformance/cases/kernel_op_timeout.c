/* kernel_op_timeout: aclrtSetOpExecuteTimeOut (seconds, semantics.md §16)
 * holds kernels launched without a timeout attribute to it: a kernel that
 * runs longer fails with ACL_ERROR_RT_AICORE_TIMEOUT at the next
 * synchronisation. A launch's own TIMEOUT_US attribute takes precedence.
 * The kernel busy-waits 1.3 s of wall time, so it always outlasts 1 s.
 *
 * needs: emulator
 */
#include <stdint.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

static aclrtArgsHandle spin_args(aclrtFuncHandle f, uint64_t us) {
    aclrtArgsHandle h;
    aclrtParamHandle p;
    void *null = NULL;
    if (aclrtKernelArgsInit(f, &h) != ACL_SUCCESS) FAIL("args init");
    if (aclrtKernelArgsAppend(h, &us, sizeof us, &p) != ACL_SUCCESS) FAIL("append");
    if (aclrtKernelArgsAppend(h, &null, sizeof null, &p) != ACL_SUCCESS) FAIL("append");
    if (aclrtKernelArgsFinalize(h) != ACL_SUCCESS) FAIL("finalize");
    return h;
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    if (npuemu_build_kernel(repo, "examples/kernels/spin.c", so, sizeof so) != 0) FAIL("cannot build spin.c");
    aclrtBinHandle bin = NULL;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryGetFunction(bin, "spin", &f));

    /* Without an op timeout the SoC default (1091 s on A2) applies. */
    aclrtArgsHandle quick = spin_args(f, 1000);
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, quick, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));

    CHECK_OK(aclrtSetOpExecuteTimeOut(1));
    uint32_t ms = 0;
    CHECK_OK(aclrtGetOpExecuteTimeout(&ms));
    CHECK_EQ(ms, 1000u);
    aclrtArgsHandle slow = spin_args(f, 1300000);
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, slow, NULL));
    CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TIMEOUT);

    /* A short kernel stays within the op timeout. */
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, quick, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* The launch attribute wins over the op timeout. */
    aclrtLaunchKernelAttr t = {.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US};
    t.value.timeoutUs.timeoutLow = 60u * 1000000u;
    aclrtLaunchKernelCfg cfg = {.attrs = &t, .numAttrs = 1};
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, &cfg, slow, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));

    CHECK_OK(aclrtSetOpExecuteTimeOut(0)); /* back to the maximum */
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
