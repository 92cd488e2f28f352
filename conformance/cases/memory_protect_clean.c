/* memory_protect_clean: a correct program never meets device memory protection
 * (issue #14 point 2): kernels writing the first and last words of buffers
 * of awkward sizes (huge-page ones included), copies and memsets of whole
 * buffers, 2-D copies, frees and reuse all succeed, no exception callback
 * runs, and the data arrive.
 *
 * needs: emulator
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

static int calls;
static void on_exception(aclrtExceptionInfo *info) { (void)info; calls++; }

static aclrtFuncHandle oob;

static void write_at(aclrtStream s, void *buf, int64_t off) {
    aclrtArgsHandle h;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(oob, &h));
    CHECK_OK(aclrtKernelArgsAppend(h, &buf, sizeof buf, &p));
    CHECK_OK(aclrtKernelArgsAppend(h, &off, sizeof off, &p));
    CHECK_OK(aclrtKernelArgsFinalize(h));
    CHECK_OK(aclrtLaunchKernelWithConfig(oob, 1, s, NULL, h, NULL));
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtExceptionInfoCallbackRegister(on_exception));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = NULL;
    if (npuemu_build_kernel(repo, "examples/kernels/oob.c", so, sizeof so) != 0) FAIL("cannot build oob.c");
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(bin, "oob_write", &oob));

    static const size_t sizes[] = {4, 100, 4096, 4100, 65536, (1u << 20) + 4, 3u << 20, (2u << 20) + 64};
    enum { N = sizeof sizes / sizeof sizes[0] };
    unsigned char *host;
    CHECK_OK(aclrtMallocHost((void **)&host, 4u << 20));
    unsigned char *back = malloc(4u << 20);
    CHECK(back != NULL);
    for (int round = 0; round < 2; round++) {
        void *p[N];
        for (int i = 0; i < N; i++) {
            size_t n = sizes[i];
            CHECK_OK(aclrtMalloc(&p[i], n, i % 2 ? ACL_MEM_MALLOC_HUGE_FIRST : ACL_MEM_MALLOC_NORMAL_ONLY));
            memset(host, 0x40 + i, n);
            CHECK_OK(aclrtMemcpyAsync(p[i], n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, s));
            CHECK_OK(aclrtMemsetAsync(p[i], n, 0x40 + i, n, s));
            write_at(s, p[i], 0);
            if (n >= 8) write_at(s, p[i], (int64_t)(n & ~(size_t)3) - 4);
        }
        CHECK_OK(aclrtSynchronizeStream(s));
        for (int i = 0; i < N; i++) {
            size_t n = sizes[i];
            CHECK_OK(aclrtMemcpy(back, n, p[i], n, ACL_MEMCPY_DEVICE_TO_HOST));
            if (n >= 16) CHECK_EQ(back[n / 2], 0x40 + i);
            if (n >= 8) CHECK_EQ(back[(n & ~(size_t)3) - 1], 0xde);
            CHECK_OK(aclrtMemcpy2dAsync(p[i], 2, host, 2, 2, n / 2, ACL_MEMCPY_HOST_TO_DEVICE, s));
            CHECK_OK(aclrtMemsetD32Async(p[i], n, 0x01020304, n / 4, s));
        }
        CHECK_OK(aclrtSynchronizeStream(s));
        for (int i = 0; i < N; i++) CHECK_OK(aclrtFree(p[i]));
    }
    CHECK_EQ(calls, 0);
    free(back);
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtFreeHost(host));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
