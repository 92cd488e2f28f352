/* sanitize_mem: memcheck (docs/sanitizer.md). A copy or memset that runs
 * past its allocation, or names device memory no live allocation covers
 * (freed), fails as always (a synchronous call at the call, an
 * asynchronous one with the SDMA exception at the next synchronisation:
 * docs/hardening.md §7); with memcheck it is also a report line. In-bounds
 * operands report nothing. */
/* needs: emulator */
/* env: NPUEMU_SANITIZE=memcheck */
#include "sanitize_util.h"

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

    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
