/* kernel_faults: a kernel that traps, dereferences NULL or writes outside
 * every mapping raises an AI Core exception: the launch succeeds, the next
 * synchronisation of the stream returns ACL_ERROR_RT_AICORE_EXCEPTION
 * (semantics.md §0) with a message, once; the process survives and the
 * stream keeps working. Blocks that did not fault ran. A fault of the
 * runtime's own copy engines is still reported as such after a kernel has
 * faulted (the guard passes faults outside kernels on). A launch timeout
 * shorter than the kernel's run fails it with ACL_ERROR_RT_AICORE_TIMEOUT.
 *
 * needs: emulator
 */
#include <stdint.h>
#include <sys/mman.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

static aclrtBinHandle load(const char *repo, const char *src) {
    char so[4096];
    aclrtBinHandle bin = NULL;
    if (npuemu_build_kernel(repo, src, so, sizeof so) != 0) FAIL("cannot build %s", src);
    if (aclrtBinaryLoadFromFile(so, NULL, &bin) != ACL_SUCCESS) FAIL("cannot load %s: %s", src, aclGetRecentErrMsg());
    npuemu_remove_kernel(so);
    return bin;
}

static aclrtArgsHandle args2(aclrtFuncHandle f, const void *a, size_t na, const void *b, size_t nb) {
    aclrtArgsHandle h;
    aclrtParamHandle p;
    if (aclrtKernelArgsInit(f, &h) != ACL_SUCCESS) FAIL("args init");
    if (a && aclrtKernelArgsAppend(h, (void *)a, na, &p) != ACL_SUCCESS) FAIL("append");
    if (b && aclrtKernelArgsAppend(h, (void *)b, nb, &p) != ACL_SUCCESS) FAIL("append");
    if (aclrtKernelArgsFinalize(h) != ACL_SUCCESS) FAIL("finalize");
    return h;
}

int main(void) {
    char repo[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle trap = load(repo, "examples/kernels/trap.c");
    aclrtBinHandle oob = load(repo, "examples/kernels/oob.c");
    aclrtBinHandle spin = load(repo, "examples/kernels/spin.c");
    aclrtFuncHandle ftrap, fnull, foob, fspin;
    CHECK_OK(aclrtBinaryGetFunction(trap, "trap_block", &ftrap));
    CHECK_OK(aclrtBinaryGetFunction(trap, "null_write", &fnull));
    CHECK_OK(aclrtBinaryGetFunction(oob, "oob_write", &foob));
    CHECK_OK(aclrtBinaryGetFunction(spin, "spin", &fspin));

    uint32_t *d;
    CHECK_OK(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(d, 4096, 0xff, 4096));

    /* npuemu_trap in block 3 of 8. */
    uint32_t bad = 3;
    aclrtArgsHandle a = args2(ftrap, &bad, sizeof bad, &d, sizeof d);
    CHECK_OK(aclrtLaunchKernelWithConfig(ftrap, 8, s, NULL, a, NULL));
    CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_OK(aclrtSynchronizeStream(s)); /* reported once */
    uint32_t h[8];
    CHECK_OK(aclrtMemcpy(h, sizeof h, d, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(h[0], 0);
    CHECK_EQ(h[3], 0xffffffffu); /* the trapping block wrote nothing */

    /* A NULL store: SIGSEGV inside the kernel. */
    void *null = NULL;
    aclrtArgsHandle an = args2(fnull, &null, sizeof null, NULL, 0);
    CHECK_OK(aclrtLaunchKernelWithConfig(fnull, 4, s, NULL, an, NULL));
    CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);

    /* Out of bounds: just past the 4096 bytes asked for stays inside the
     * allocation's last page (4096 + the runtime's 32-byte padding: no
     * fault, docs/hardening.md §7), 2^52 bytes past it leaves every
     * mapping (memory_protect_kernel covers the guard pages). */
    int64_t near = 4096, far = (int64_t)1 << 52;
    aclrtArgsHandle a1 = args2(foob, &d, sizeof d, &near, sizeof near);
    CHECK_OK(aclrtLaunchKernelWithConfig(foob, 1, s, NULL, a1, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    aclrtArgsHandle a2 = args2(foob, &d, sizeof d, &far, sizeof far);
    CHECK_OK(aclrtLaunchKernelWithConfig(foob, 1, s, NULL, a2, NULL));
    CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);

    /* The stream works after the exceptions. */
    bad = 100;
    aclrtArgsHandle ok = args2(ftrap, &bad, sizeof bad, &d, sizeof d);
    CHECK_OK(aclrtLaunchKernelWithConfig(ftrap, 8, s, NULL, ok, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(h, sizeof h, d, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(h[3], 3);

    /* A copy from unmapped host memory still faults in the copy engine. */
    void *gone = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(gone != MAP_FAILED);
    munmap(gone, 4096);
    /* Pageable memory makes the call wait for the copy, so the engine's
     * fault (Go code: the guard hands it to the Go runtime's handler) comes
     * back from the call itself. */
    CHECK_ERR(aclrtMemcpyAsync(d, 4096, gone, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_SYS_DMA);
    CHECK_OK(aclrtSynchronizeStream(s));

    /* A long-running kernel: a synchronisation with a timeout expires, a
     * later one waits for the end; a launch timeout below the run time is
     * an AI Core timeout. */
    uint64_t us = 200000;
    aclrtArgsHandle as = args2(fspin, &us, sizeof us, &null, sizeof null);
    CHECK_OK(aclrtLaunchKernelWithConfig(fspin, 2, s, NULL, as, NULL));
    CHECK_ERR(aclrtSynchronizeStreamWithTimeout(s, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK_OK(aclrtSynchronizeStream(s));
    aclrtLaunchKernelAttr t = {.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US};
    t.value.timeoutUs.timeoutLow = 1000;
    aclrtLaunchKernelCfg cfg = {.attrs = &t, .numAttrs = 1};
    us = 20000;
    CHECK_ERR(aclrtKernelArgsParaUpdate(as, NULL, &us, sizeof us), ACL_ERROR_INVALID_PARAM);
    aclrtArgsHandle as2 = args2(fspin, &us, sizeof us, &null, sizeof null);
    CHECK_OK(aclrtLaunchKernelWithConfig(fspin, 1, s, &cfg, as2, NULL));
    CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TIMEOUT);

    CHECK_OK(aclrtBinaryUnLoad(trap));
    CHECK_OK(aclrtBinaryUnLoad(oob));
    CHECK_OK(aclrtBinaryUnLoad(spin));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
