/* exception_taskabort: aclrtDeviceTaskAbort discards the tasks queued on every
 * stream of the device, between the PRE and POST stages of the callbacks
 * registered with aclrtSetDeviceTaskAbortCallback; the streams stay
 * usable. The memory-error calls: the emulated HBM reports no
 * uncorrectable error (aclrtGetMemUceInfo lists none), so no range can be
 * repaired, and the ACL_RT_NO_ERROR of aclrtGetErrorVerbose needs no
 * repair (13_exception_handling.md; Atlas A2, the default SoC).
 *
 * needs: emulator
 */
#include "rt_util.h"

#include <semaphore.h>
#include <stdint.h>
#include <string.h>

#include "../../examples/kernels/build_kernel.h"

static int stages[8], nstages;
static int32_t fail_pre;

static int32_t on_abort(int32_t dev, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void *args) {
    if (dev != 0 || timeout != 2000 || args != &nstages) return 99;
    if (nstages < 8) stages[nstages++] = (int)stage;
    return stage == ACL_RT_DEVICE_TASK_ABORT_PRE ? fail_pre : 0;
}

/* A host function that holds its stream until the test posts gate. */
static sem_t gate;
static void hold(void *arg) {
    (void)arg;
    while (sem_wait(&gate) != 0) {
    }
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s1, s2;
    CHECK_OK(aclrtCreateStream(&s1));
    CHECK_OK(aclrtCreateStream(&s2));
    if (npuemu_build_kernel(repo, "examples/kernels/spin.c", so, sizeof so) != 0) FAIL("cannot build spin.c");
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    aclrtFuncHandle spin;
    CHECK_OK(aclrtBinaryGetFunction(bin, "spin", &spin));

    uint32_t *flags;
    CHECK_OK(aclrtMalloc((void **)&flags, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(flags, 4096, 0, 4096));
    uint64_t us = 0;
    uint32_t *f2 = flags + 64;
    aclrtArgsHandle a2;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(spin, &a2));
    CHECK_OK(aclrtKernelArgsAppend(a2, &us, sizeof us, &p));
    CHECK_OK(aclrtKernelArgsAppend(a2, &f2, sizeof f2, &p));
    CHECK_OK(aclrtKernelArgsFinalize(a2));

    CHECK_ERR(aclrtSetDeviceTaskAbortCallback(NULL, on_abort, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtSetDeviceTaskAbortCallback("kx", on_abort, &nstages));

    /* Each stream: a host function held until after the abort (it runs
     * or is discarded), then a kernel queued behind it. */
    CHECK(sem_init(&gate, 0, 0) == 0);
    CHECK_OK(aclrtLaunchHostFunc(s1, hold, NULL));
    CHECK_OK(aclrtLaunchKernelWithConfig(spin, 1, s1, NULL, a2, NULL));
    CHECK_OK(aclrtLaunchHostFunc(s2, hold, NULL));
    CHECK_OK(aclrtLaunchKernelWithConfig(spin, 1, s2, NULL, a2, NULL));
    CHECK_OK(aclrtDeviceTaskAbort(0, 2000));
    sem_post(&gate);
    sem_post(&gate);
    CHECK_EQ(nstages, 2);
    CHECK_EQ(stages[0], ACL_RT_DEVICE_TASK_ABORT_PRE);
    CHECK_EQ(stages[1], ACL_RT_DEVICE_TASK_ABORT_POST);
    (void)aclrtSynchronizeStream(s1);
    (void)aclrtSynchronizeStream(s2);
    uint32_t h[2];
    CHECK_OK(aclrtMemcpy(h, sizeof h[0], f2, sizeof h[0], ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(h[0], 0); /* the queued launches were discarded */

    /* The streams stay usable. */
    CHECK_OK(aclrtLaunchKernelWithConfig(spin, 1, s1, NULL, a2, NULL));
    CHECK_OK(aclrtSynchronizeStream(s1));
    CHECK_OK(aclrtMemcpy(h, sizeof h[0], f2, sizeof h[0], ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(h[0], 1);

    /* A PRE callback that fails stops the abort before it starts. */
    fail_pre = 5;
    nstages = 0;
    CHECK_ERR(aclrtDeviceTaskAbort(0, 2000), ACL_ERROR_RT_DEVICE_TASK_ABORT);
    CHECK_EQ(nstages, 1);
    CHECK_OK(aclrtSetDeviceTaskAbortCallback("kx", NULL, NULL));
    nstages = 0;
    CHECK_OK(aclrtDeviceTaskAbort(0, 0));
    CHECK_EQ(nstages, 0);
    CHECK_ERR(aclrtDeviceTaskAbort(64, 0), ACL_ERROR_RT_INVALID_DEVICEID);

    /* Memory errors: none to report or repair. */
    aclrtMemUceInfo info[4];
    size_t n = 99;
    CHECK_OK(aclrtGetMemUceInfo(0, info, 4, &n));
    CHECK_EQ(n, 0);
    CHECK_ERR(aclrtGetMemUceInfo(0, info, 4, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetMemUceInfo(0, NULL, 0, &n), ACL_ERROR_INVALID_PARAM);
    memset(info, 0, sizeof info);
    info[0].addr = flags;
    info[0].len = 4096;
    CHECK_ERR(aclrtMemUceRepair(0, info, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtMemUceRepair(0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    aclrtErrorInfo err;
    memset(&err, 0, sizeof err);
    CHECK_OK(aclrtGetErrorVerbose(0, &err));
    CHECK_EQ(err.errorType, ACL_RT_NO_ERROR);
    CHECK_OK(aclrtRepairError(0, &err));
    err.errorType = ACL_RT_ERROR_MEMORY;
    CHECK_ERR(aclrtRepairError(0, &err), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtRepairError(0, NULL), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtFree(flags));
    sem_destroy(&gate);
    CHECK_OK(aclrtDestroyStream(s1));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
