/* memcpy_basic: synchronous aclrtMemcpy in every kind, direction inferred from
 * the pointers, zero-length copies, destMax checks, rejected kinds. */
#include "rt_util.h"

#define N 65536

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    static unsigned char src[N], dst[N], guard[N];
    void *d1 = NULL, *d2 = NULL, *pin = NULL;
    CHECK_OK(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&pin, N));

    /* doc: semantics.md §10 — HOST_TO_HOST, both pageable and pinned. */
    rt_fill(src, N, 10);
    memset(dst, 0, N);
    CHECK_OK(aclrtMemcpy(dst, N, src, N, ACL_MEMCPY_HOST_TO_HOST));
    CHECK(rt_check_fill(dst, N, 10));
    CHECK_OK(aclrtMemcpy(pin, N, src, N, ACL_MEMCPY_HOST_TO_HOST));
    CHECK(rt_check_fill(pin, N, 10));

    /* HOST_TO_DEVICE, DEVICE_TO_DEVICE, DEVICE_TO_HOST. */
    rt_fill(src, N, 11);
    CHECK_OK(aclrtMemcpy(d1, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(d2, N, d1, N, ACL_MEMCPY_DEVICE_TO_DEVICE));
    memset(dst, 0, N);
    CHECK_OK(aclrtMemcpy(dst, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_check_fill(dst, N, 11));

    /* HOST_TO_BUF_TO_DEVICE (5): src host, dst device; the host buffer may be
     * reused at once. */
    rt_fill(src, N, 12);
    CHECK_OK(aclrtMemcpy(d1, N, src, N, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
    memset(src, 0, N);
    memset(dst, 0, N);
    CHECK_OK(aclrtMemcpy(dst, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_check_fill(dst, N, 12));

    /* DEFAULT (4): direction from the addresses, each way. */
    rt_fill(src, N, 13);
    CHECK_OK(aclrtMemcpy(d1, N, src, N, ACL_MEMCPY_DEFAULT));
    CHECK_OK(aclrtMemcpy(d2, N, d1, N, ACL_MEMCPY_DEFAULT));
    memset(dst, 0, N);
    CHECK_OK(aclrtMemcpy(dst, N, d2, N, ACL_MEMCPY_DEFAULT));
    CHECK(rt_check_fill(dst, N, 13));
    memset(dst, 0, N);
    CHECK_OK(aclrtMemcpy(dst, N, src, N, ACL_MEMCPY_DEFAULT));
    CHECK(rt_check_fill(dst, N, 13));

    /* doc: semantics.md §10 / §21.4 — the kind of aclrtMemcpy is not trusted:
     * direction comes from the pointers. A device→host copy labelled
     * HOST_TO_DEVICE still lands in host memory. */
    rt_fill(src, N, 14);
    CHECK_OK(aclrtMemcpy(d1, N, src, N, ACL_MEMCPY_DEVICE_TO_HOST));
    memset(dst, 0, N);
    CHECK_OK(aclrtMemcpy(dst, N, d1, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(rt_check_fill(dst, N, 14));

    /* Partial copies at offsets. */
    rt_fill(src, N, 15);
    CHECK_OK(aclrtMemcpy(d1, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE));
    memset(dst, 0xEE, N);
    CHECK_OK(aclrtMemcpy(dst + 10, 100, (char *)d1 + 10, 100, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_all_bytes(dst, 10, 0xEE));
    CHECK(memcmp(dst + 10, src + 10, 100) == 0);
    CHECK(rt_all_bytes(dst + 110, N - 110, 0xEE));

    /* doc: semantics.md §10 / §21.4 — count 0 succeeds before any pointer
     * check, even with NULL pointers. */
    CHECK_OK(aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(NULL, N, NULL, 0, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_OK(aclrtMemcpy(d1, N, src, 0, ACL_MEMCPY_HOST_TO_DEVICE));

    /* doc: semantics.md §10 — count > destMax or destMax == 0 → 107000, and
     * nothing is written. */
    memset(guard, 0x77, N);
    CHECK_OK(aclrtMemcpy(d2, N, guard, N, ACL_MEMCPY_HOST_TO_DEVICE));
    rt_fill(src, N, 16);
    CHECK_ERR(aclrtMemcpy(d2, N / 2, src, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtMemcpy(d2, 0, src, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    memset(dst, 0, N);
    CHECK_OK(aclrtMemcpy(dst, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_all_bytes(dst, N, 0x77));
    memset(dst, 0x55, N);
    CHECK_ERR(aclrtMemcpy(dst, N - 1, d1, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(rt_all_bytes(dst, N, 0x55));
    CHECK_ERR(aclrtMemcpy(dst, N - 1, src, N, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(rt_all_bytes(dst, N, 0x55));

    /* doc: semantics.md §10 — NULL dst/src with count > 0 → 100000. */
    CHECK_ERR(aclrtMemcpy(NULL, N, src, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemcpy(d1, N, NULL, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §10 / §21.4 — kinds 6 and 7 are rejected with
     * 100000 by aclrtMemcpy, with nothing written; other values outside
     * 0..7 fail too (no code given). */
    memset(dst, 0x55, N);
    CHECK_ERR(aclrtMemcpy(d2, N, d1, N, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemcpy(d2, N, d1, N, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemcpy(dst, N, src, N, (aclrtMemcpyKind)6), ACL_ERROR_INVALID_PARAM);
    CHECK(rt_all_bytes(dst, N, 0x55));
    CHECK_FAILS(aclrtMemcpy(dst, N, src, N, (aclrtMemcpyKind)99));
    CHECK_FAILS(aclrtMemcpy(dst, N, src, N, (aclrtMemcpyKind)-1));
    CHECK(rt_all_bytes(dst, N, 0x55));
    memset(dst, 0, N);
    CHECK_OK(aclrtMemcpy(dst, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_all_bytes(dst, N, 0x77));

    CHECK_OK(aclrtFree(d1));
    CHECK_OK(aclrtFree(d2));
    CHECK_OK(aclrtFreeHost(pin));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
