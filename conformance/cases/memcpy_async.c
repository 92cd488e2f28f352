/* memcpy_async: aclrtMemcpyAsync with pinned and pageable host memory,
 * ordering within a stream, zero length, destMax, kinds taken as given;
 * aclrtMemset and aclrtMemsetAsync. */
#include "rt_util.h"

#define N (1 << 20)
#define MN 65536

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    void *hin = NULL, *hout = NULL, *d1 = NULL, *d2 = NULL;
    CHECK_OK(aclrtMallocHost(&hin, N));
    CHECK_OK(aclrtMallocHost(&hout, N));
    CHECK_OK(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_HUGE_FIRST));

    /* doc: semantics.md §10 — pinned copies are queued; tasks of one stream
     * run in order; SynchronizeStream waits for them (§4). */
    rt_fill(hin, N, 20);
    memset(hout, 0, N);
    CHECK_OK(aclrtMemcpyAsync(d1, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync(d2, N, d1, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync(hout, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK(rt_check_fill(hout, N, 20));

    /* The default stream (NULL) works the same way. */
    rt_fill(hin, N, 21);
    memset(hout, 0, N);
    CHECK_OK(aclrtMemcpyAsync(d1, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
    CHECK_OK(aclrtMemcpyAsync(hout, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST, NULL));
    CHECK_OK(aclrtSynchronizeStream(NULL));
    CHECK(rt_check_fill(hout, N, 21));

    /* doc: semantics.md §10 / §21.4 — with pageable host memory the call
     * returns only after the copy has completed: the data is there without
     * any synchronise. */
    static unsigned char pg_in[N], pg_out[N];
    rt_fill(pg_in, N, 22);
    CHECK_OK(aclrtMemcpyAsync(d2, N, pg_in, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    memset(pg_in, 0, N); /* the copy is done; reusing the source is safe */
    memset(pg_out, 0, N);
    CHECK_OK(aclrtMemcpyAsync(pg_out, N, d2, N, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK(rt_check_fill(pg_out, N, 22));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* doc: semantics.md §10 — count 0 succeeds, even with NULL pointers. */
    CHECK_OK(aclrtMemcpyAsync(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync(d1, N, hin, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));

    /* doc: semantics.md §10 — destMax < count → 107000 (same check as the
     * synchronous form); nothing is written. */
    memset(hout, 0x44, N);
    CHECK_ERR(aclrtMemcpyAsync(hout, N / 2, d1, N, ACL_MEMCPY_DEVICE_TO_HOST, s),
              ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtMemcpyAsync(d1, 0, hin, 16, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK(rt_all_bytes(hout, N, 0x44));

    /* doc: semantics.md §0 — NULL dst/src with count > 0 → 100000. */
    CHECK_ERR(aclrtMemcpyAsync(NULL, N, hin, 16, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemcpyAsync(d1, N, NULL, 16, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §10 — HOST_TO_HOST async on an EP (PCIe) system →
     * ACL_ERROR_RT_FEATURE_NOT_SUPPORT: the async kind is taken as given. */
    CHECK_ERR(aclrtMemcpyAsync(hout, N, hin, N, ACL_MEMCPY_HOST_TO_HOST, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* Out-of-range kinds fail (no code given). */
    CHECK_FAILS(aclrtMemcpyAsync(d1, N, hin, N, (aclrtMemcpyKind)99, s));

    /* Destroyed stream (no code given). */
    aclrtStream dead = NULL;
    CHECK_OK(aclrtCreateStream(&dead));
    CHECK_OK(aclrtDestroyStream(dead));
    CHECK_FAILS(aclrtMemcpyAsync(d1, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, dead));

    /* aclrtMemset / aclrtMemsetAsync (doc: semantics.md §10). */
    {
        static unsigned char out[MN];
        void *d = NULL, *hp = NULL;
        CHECK_OK(aclrtMalloc(&d, MN, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_OK(aclrtMallocHost(&hp, MN));
        /* doc: semantics.md §10 — synchronous byte fill. */
        CHECK_OK(aclrtMemset(d, MN, 0xAB, MN));
        memset(out, 0, MN);
        CHECK_OK(aclrtMemcpy(out, MN, d, MN, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(rt_all_bytes(out, MN, 0xAB));

        /* doc: semantics.md §10 — only the low 8 bits of value are used. */
        CHECK_OK(aclrtMemset(d, MN, 0x1234, 100));
        CHECK_OK(aclrtMemcpy(out, MN, d, MN, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(rt_all_bytes(out, 100, 0x34));
        CHECK(rt_all_bytes(out + 100, MN - 100, 0xAB));

        /* A sub-range at an offset. */
        CHECK_OK(aclrtMemset((char *)d + 1000, MN - 1000, 0, 24));
        CHECK_OK(aclrtMemcpy(out, MN, d, MN, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(rt_all_bytes(out + 1000, 24, 0));
        CHECK(rt_all_bytes(out + 1024, MN - 1024, 0xAB));

        /* doc: semantics.md §10 — host memory allocated by ACL may be set too. */
        CHECK_OK(aclrtMemset(hp, MN, 0x5A, MN));
        CHECK(rt_all_bytes(hp, MN, 0x5A));

        /* doc: semantics.md §10 — count 0 succeeds before any pointer check. */
        CHECK_OK(aclrtMemset(NULL, 0, 1, 0));
        CHECK_OK(aclrtMemset(d, MN, 1, 0));
        CHECK_OK(aclrtMemcpy(out, MN, d, MN, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(rt_all_bytes(out + 1024, MN - 1024, 0xAB));

        /* count > maxCount fails without writing (no code given for memset);
         * NULL with count > 0 → 100000 (§0). */
        CHECK_FAILS(aclrtMemset(d, 10, 0, 11));
        CHECK_ERR(aclrtMemset(NULL, MN, 0, 16), ACL_ERROR_INVALID_PARAM);
        CHECK_OK(aclrtMemcpy(out, MN, d, MN, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(rt_all_bytes(out + 1024, MN - 1024, 0xAB));
        CHECK_EQ(out[0], 0x34);

        /* doc: semantics.md §10 — aclrtMemsetAsync is queued on the stream, in
         * order with the stream's copies. */
        CHECK_OK(aclrtMemsetAsync(d, MN, 0x11, MN, s));
        CHECK_OK(aclrtMemsetAsync(d, MN, 0x22, MN / 2, s));
        memset(hp, 0, MN);
        CHECK_OK(aclrtMemcpyAsync(hp, MN, d, MN, ACL_MEMCPY_DEVICE_TO_HOST, s));
        CHECK_OK(aclrtSynchronizeStream(s));
        CHECK(rt_all_bytes(hp, MN / 2, 0x22));
        CHECK(rt_all_bytes((char *)hp + MN / 2, MN / 2, 0x11));
        /* Default stream. */
        CHECK_OK(aclrtMemsetAsync(d, MN, 0x33, MN, NULL));
        CHECK_OK(aclrtSynchronizeStream(NULL));
        CHECK_OK(aclrtMemcpy(out, MN, d, MN, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(rt_all_bytes(out, MN, 0x33));
        /* Zero length and bad input on the async form. */
        CHECK_OK(aclrtMemsetAsync(NULL, 0, 0, 0, s));
        CHECK_ERR(aclrtMemsetAsync(NULL, MN, 0, 16, s), ACL_ERROR_INVALID_PARAM);
        CHECK_FAILS(aclrtMemsetAsync(d, 10, 0, 11, s));
        CHECK_OK(aclrtSynchronizeStream(s));
        CHECK_OK(aclrtMemcpy(out, MN, d, MN, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(rt_all_bytes(out, MN, 0x33));
        CHECK_OK(aclrtFree(d));
        CHECK_OK(aclrtFreeHost(hp));
    }

    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(d1));
    CHECK_OK(aclrtFree(d2));
    CHECK_OK(aclrtFreeHost(hin));
    CHECK_OK(aclrtFreeHost(hout));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
