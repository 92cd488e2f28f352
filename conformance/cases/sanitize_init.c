/* sanitize_init: initcheck (docs/sanitizer.md). Reading device memory
 * nothing wrote (a copy to the host, the source of a device-to-device
 * copy) is reported with the first unwritten byte; memory written by a
 * memset or a copy reads clean. */
/* needs: emulator */
/* env: NPUEMU_SANITIZE=all NPUEMU_SANITIZE_TRACK_WAIT=10m */
#include "sanitize_util.h"

#define N 8192

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    void *a = NULL, *b = NULL, *c = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&b, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&c, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, N));
    memset(h, 9, N);

    /* True negative: written by a memset, a host-to-device copy and a
     * device-to-device copy (in two halves), then read back. */
    san_begin();
    CHECK_OK(aclrtMemsetAsync(a, N, 0, N, s));
    CHECK_OK(aclrtMemcpyAsync(b, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync(c, N / 2, a, N / 2, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync((char *)c + N / 2, N / 2, b, N / 2, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync(h, N, c, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(h, N, a, N, ACL_MEMCPY_DEVICE_TO_HOST));
    const char *out = san_end();
    CHECK_EQ(san_count(out, NULL), 0);

    /* True positive: a fresh allocation read whole, and one whose second
     * half was never written. */
    void *fresh = NULL, *half = NULL;
    CHECK_OK(aclrtMalloc(&fresh, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&half, N, ACL_MEM_MALLOC_HUGE_FIRST));
    san_begin();
    CHECK_OK(aclrtMemcpyAsync(h, N, fresh, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtMemsetAsync(half, N, 1, N / 2, s));
    CHECK_OK(aclrtMemcpyAsync(c, N, half, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(h, N, fresh, N, ACL_MEMCPY_DEVICE_TO_HOST));
    out = san_end();
    CHECK_EQ(san_count(out, "initcheck"), 3);
    CHECK(san_has(out, "initcheck", "aclrtMemcpyAsync (task", "(offset 0) was never written"));
    CHECK(san_has(out, "initcheck", "(offset 4096) was never written", NULL));
    CHECK(san_has(out, "initcheck", "aclrtMemcpy (host thread", NULL));
    CHECK_EQ(san_count(out, NULL), 3);

    /* A freed and reallocated buffer starts unwritten again. */
    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
    san_begin();
    CHECK_OK(aclrtMemcpy(h, N, a, N, ACL_MEMCPY_DEVICE_TO_HOST));
    out = san_end();
    CHECK_EQ(san_count(out, "initcheck"), 1);

    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtFree(c));
    CHECK_OK(aclrtFree(fresh));
    CHECK_OK(aclrtFree(half));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
