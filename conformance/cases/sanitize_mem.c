/* sanitize_mem: memcheck (docs/sanitizer.md). A copy or memset that runs
 * past its allocation, or names device memory no live allocation covers
 * (freed), fails as always (a synchronous call at the call, an
 * asynchronous one with the SDMA exception at the next synchronisation:
 * docs/hardening.md §7); with memcheck it is also a report line, and so is
 * a kernel that faults on protected device memory (past its buffer). In-bounds
 * operands report nothing. */
/* needs: emulator */
/* env: NPUEMU_SANITIZE=memcheck NPUEMU_SANITIZE_TRACK_WAIT=10m */
#include "sanitize_util.h"
#include "../../examples/kernels/build_kernel.h"

#define N 4096

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    void *a = NULL, *b = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&b, 2 * N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, 2 * N));

    /* True negative: operands inside their allocations, to the last byte. */
    san_begin();
    CHECK_OK(aclrtMemsetAsync(a, N, 0, N, s));
    CHECK_OK(aclrtMemcpyAsync(b, 2 * N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync((char *)b + N, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync(h, 2 * N, b, 2 * N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtMemset((char *)a + N - 1, 1, 0, 1));
    CHECK_OK(aclrtSynchronizeStream(s));
    const char *out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);

    /* True positives: an overrun past the usable size (aclrtMalloc pads
     * a size to 32 bytes and adds 32: 4128 bytes here), and a freed
     * buffer. */
    void *dead = NULL;
    CHECK_OK(aclrtMalloc(&dead, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(dead));
    san_begin();
    CHECK_OK(aclrtMemcpyAsync(h, 2 * N, a, N + 64, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_SYS_DMA);
    CHECK_FAILS(aclrtMemset(dead, N, 0, N));
    out = san_end();
    CHECK(san_has(out, "memcheck", "aclrtMemcpyAsync: src", "overrun its allocation"));
    CHECK(san_has(out, "memcheck", "aclrtMemset: devPtr", "not inside any live allocation"));
    CHECK_EQ(san_count(out, "memcheck"), 2);

    /* A kernel writing one word past a page-sized buffer faults on the
     * guard page: the AI Core exception at the sync, and a memcheck line
     * naming the kernel and the allocation. */
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle oob = NULL;
    if (npuemu_build_kernel(repo, "examples/kernels/oob.c", so, sizeof so) != 0) FAIL("cannot build oob.c");
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(bin, "oob_write", &oob));
    void *page = NULL;
    CHECK_OK(aclrtMallocAlign32(&page, N, ACL_MEM_MALLOC_NORMAL_ONLY));
    int64_t off = N;
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(oob, &args));
    CHECK_OK(aclrtKernelArgsAppend(args, &page, sizeof page, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &off, sizeof off, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));
    san_begin();
    CHECK_OK(aclrtLaunchKernelWithConfig(oob, 1, s, NULL, args, NULL));
    CHECK_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    out = san_end();
    CHECK(san_has(out, "memcheck", "kernel oob_write, block 0 of 1", "0 bytes past its end"));
    CHECK_EQ(san_count(out, "memcheck"), 1);
    CHECK_OK(aclrtFree(page));
    CHECK_OK(aclrtBinaryUnLoad(bin));

    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
