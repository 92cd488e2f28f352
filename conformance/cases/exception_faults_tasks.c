/* exception_faults_tasks: NPUEMU_FAULTS injects faults at the documented
 * places (docs/faults.md): the 2nd aclrtMalloc fails with out-of-memory;
 * the 1st copy task fails with ACL_ERROR_RT_SYS_DMA, the 2nd launch of
 * vadd_f32 with an AI Core exception and the 3rd with an AI Core timeout,
 * each reported at the next synchronisation and to the exception callback
 * with its code; the other calls are unaffected.
 *
 * needs: emulator
 * env: NPUEMU_FAULTS=oom:nth=2;sdma:nth=1;aicore:nth=2,kernel=vadd_f32;timeout:nth=3,kernel=vadd_f32
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

static int exc_calls;
static uint32_t exc_code;
static void on_exception(aclrtExceptionInfo *info) {
    exc_calls++;
    exc_code = aclrtGetErrorCodeFromExceptionInfo(info);
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtSetExceptionInfoCallback(on_exception));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));

    /* oom: the 2nd allocation fails, the 3rd succeeds. */
    void *a, *b;
    CHECK_OK(aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERR(aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    const char *msg = aclGetRecentErrMsg();
    (void)msg;
    CHECK_OK(aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));

    /* sdma: the first copy task fails at the sync point. */
    void *host;
    CHECK_OK(aclrtMallocHost(&host, 4096));
    memset(host, 1, 4096);
    CHECK_OK(aclrtMemcpyAsync(a, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA);
    CHECK_EQ(exc_calls, 1);
    CHECK_EQ(exc_code, ACL_ERROR_RT_SYS_DMA);
    CHECK_OK(aclrtMemcpyAsync(a, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* aicore / timeout: the 2nd and 3rd launches of vadd_f32. */
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));
    uint64_t n = 1024;
    uint64_t packed[4] = {(uintptr_t)a, (uintptr_t)a, (uintptr_t)b, n};
    void *dargs;
    CHECK_OK(aclrtMalloc(&dargs, sizeof packed, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(dargs, sizeof packed, packed, sizeof packed, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtLaunchKernel(f, 2, dargs, sizeof packed, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtLaunchKernel(f, 2, dargs, sizeof packed, s));
    CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_EQ(exc_calls, 2);
    CHECK_EQ(exc_code, ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_OK(aclrtLaunchKernel(f, 2, dargs, sizeof packed, s));
    CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TIMEOUT);
    CHECK_EQ(exc_calls, 3);
    CHECK_EQ(exc_code, ACL_ERROR_RT_AICORE_TIMEOUT);
    CHECK_OK(aclrtLaunchKernel(f, 2, dargs, sizeof packed, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(exc_calls, 3);

    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtFree(dargs));
    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtFreeHost(host));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    npuemu_remove_kernel(so);
    printf("injected oom, sdma, aicore and timeout faults reported where expected\n");
    return 0;
}
