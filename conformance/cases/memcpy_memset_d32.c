/* memcpy_memset_d32: aclrtMemsetD32 / aclrtMemsetD32Async fill 32-bit words of
 * device and pinned host memory. */
/* env: NPUEMU_SOC=Ascend910B3 */
#include "rt_util.h"

#include <string.h>

#define N 1001

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *d = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc(&d, 4 * (N + 1), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, 4 * N));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    static uint32_t out[N + 1];

    /* doc: semantics.md §11 — memSize >= 4N, fills N words. */
    CHECK_OK(aclrtMemsetD32(d, 4 * (N + 1), 0x11223344u, N + 1));
    CHECK_OK(aclrtMemsetD32Async(d, 4 * (N + 1), 0xcafef00du, N, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(out, sizeof out, d, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++)
        CHECK_EQ(out[i], 0xcafef00du);
    CHECK_EQ(out[N], 0x11223344u);

    /* Host memory is filled synchronously even by the async form. */
    CHECK_OK(aclrtMemsetD32Async(h, 4 * N, 5, N, s));
    for (int i = 0; i < N; i++)
        CHECK_EQ(((uint32_t *)h)[i], 5u);

    CHECK_FAILS(aclrtMemsetD32(d, 4 * N - 1, 1, N));
    CHECK_FAILS(aclrtMemsetD32(NULL, 4, 1, 1));
    CHECK_FAILS(aclrtMemsetD32(out, sizeof out, 1, 1)); /* not ACL memory */

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
