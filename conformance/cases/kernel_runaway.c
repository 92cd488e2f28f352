/* kernel_runaway: a kernel that never ends (issue #14, point 6;
 * docs/hardening.md). Past the op execute timeout its task fails with
 * ACL_ERROR_RT_AICORE_TIMEOUT at that time (its host thread is abandoned)
 * and the stream goes on; aclrtStreamAbort and aclFinalize return in bounded
 * time even with a runaway kernel still running and no timeout to stop it.
 *
 * A synchronisation without a timeout may run the kernel's blocks on the
 * calling thread; this case waits with a timeout so that it stays free.
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
    aclrtArgsHandle forever = spin_args(f, UINT64_C(1) << 50); /* ~36 years */
    aclrtArgsHandle quick = spin_args(f, 10);

    /* Past the op timeout: the task fails, the stream goes on. */
    CHECK_OK(aclrtSetOpExecuteTimeOut(1));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, forever, NULL));
    CHECK_ERR(aclrtSynchronizeStreamWithTimeout(s, 60000), ACL_ERROR_RT_AICORE_TIMEOUT);
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, quick, NULL));
    CHECK_OK(aclrtSynchronizeStreamWithTimeout(s, 60000));

    /* No timeout at all: aclrtStreamAbort returns at once, ... */
    CHECK_OK(aclrtSetOpExecuteTimeOut(0));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, forever, NULL));
    CHECK_OK(aclrtStreamAbort(s));

    /* ... and aclFinalize still returns. */
    CHECK_ERR(aclrtSynchronizeStreamWithTimeout(s, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK_OK(aclFinalize());
    printf("runaway kernels: timed out at the op timeout; aclFinalize returned\n");
    return 0;
}
