/* stream_basic: create/destroy, priorities and flags with their getters,
 * synchronise/query of idle and busy streams, bad handles. */
#include "rt_util.h"

#define N (1 << 20)

int main(void)
{
    CHECK_OK(aclInit(NULL));

    /* Without a context no stream can be created (no code given). */
    aclrtStream s = NULL;
    CHECK_FAILS(aclrtCreateStream(&s));

    CHECK_OK(aclrtSetDevice(0));

    /* doc: semantics.md §4 — aclrtCreateStream gives priority 0, no flags. */
    CHECK_OK(aclrtCreateStream(&s));
    CHECK(s != NULL);
    uint32_t prio = 99, flags = 99;
    CHECK_OK(aclrtStreamGetPriority(s, &prio));
    CHECK_EQ(prio, 0);
    CHECK_OK(aclrtStreamGetFlags(s, &flags));
    CHECK_EQ(flags, 0);

    /* doc: semantics.md §4 — getters accept NULL = default stream, which
     * always has the highest priority. */
    prio = 99;
    flags = 99;
    CHECK_OK(aclrtStreamGetPriority(NULL, &prio));
    CHECK_EQ(prio, 0);
    CHECK_OK(aclrtStreamGetFlags(NULL, &flags));
    CHECK_EQ(flags, 0);
    int32_t id_def = -1, id_s = -1;
    CHECK_OK(aclrtStreamGetId(NULL, &id_def));
    CHECK_OK(aclrtStreamGetId(s, &id_s));
    CHECK(id_def != id_s);

    /* doc: semantics.md §4 / §21.9 — priorities 0..7, out of range clamped
     * silently (not rejected). */
    aclrtStream p3 = NULL, p7 = NULL, p8 = NULL, pbig = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&p3, 3, 0));
    CHECK_OK(aclrtStreamGetPriority(p3, &prio));
    CHECK_EQ(prio, 3);
    CHECK_OK(aclrtCreateStreamWithConfig(&p7, 7, 0));
    CHECK_OK(aclrtStreamGetPriority(p7, &prio));
    CHECK_EQ(prio, 7);
    CHECK_OK(aclrtCreateStreamWithConfig(&p8, 8, 0));
    CHECK_OK(aclrtStreamGetPriority(p8, &prio));
    CHECK_EQ(prio, 7);
    CHECK_OK(aclrtCreateStreamWithConfig(&pbig, 0xFFFFFFFFu, 0));
    CHECK_OK(aclrtStreamGetPriority(pbig, &prio));
    CHECK_EQ(prio, 7);

    /* doc: semantics.md §4 — flags are OR-able; GetFlags reports the OR of
     * the creation flags. */
    aclrtStream ff = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&ff, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
    CHECK_OK(aclrtStreamGetFlags(ff, &flags));
    CHECK_EQ(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
    aclrtStream pers = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&pers, 2, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtStreamGetFlags(pers, &flags));
    CHECK_EQ(flags, ACL_STREAM_PERSISTENT);
    CHECK_OK(aclrtStreamGetPriority(pers, &prio));
    CHECK_EQ(prio, 2);
    /* doc: semantics.md §4 — a PERSISTENT stream's synchronise returns at once. */
    CHECK_OK(aclrtSynchronizeStream(pers));

    /* doc: semantics.md §4 — synchronise and query of an idle stream. */
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtSynchronizeStream(NULL));
    CHECK_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
    CHECK_OK(aclrtSynchronizeStreamWithTimeout(s, 1000));
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    CHECK_OK(aclrtStreamQuery(s, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    st = ACL_STREAM_STATUS_NOT_READY;
    CHECK_OK(aclrtStreamQuery(NULL, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_COMPLETE);

    /* A stream with queued pinned copies: sync waits, then query is complete. */
    void *h = NULL, *back = NULL, *d = NULL;
    CHECK_OK(aclrtMallocHost(&h, N));
    CHECK_OK(aclrtMallocHost(&back, N));
    CHECK_OK(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST));
    rt_fill(h, N, 3);
    memset(back, 0, N);
    CHECK_OK(aclrtMemcpyAsync(d, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE, p3));
    CHECK_OK(aclrtMemcpyAsync(back, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, p3));
    st = ACL_STREAM_STATUS_RESERVED;
    CHECK_OK(aclrtStreamQuery(p3, &st));
    CHECK(st == ACL_STREAM_STATUS_COMPLETE || st == ACL_STREAM_STATUS_NOT_READY);
    CHECK_OK(aclrtSynchronizeStreamWithTimeout(p3, 60000));
    CHECK(rt_check_fill(back, N, 3));
    CHECK_OK(aclrtStreamQuery(p3, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_COMPLETE);

    /* doc: semantics.md §4 — DestroyStream waits for outstanding tasks. */
    memset(back, 0, N);
    CHECK_OK(aclrtMemcpyAsync(back, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, p7));
    CHECK_OK(aclrtDestroyStream(p7));
    CHECK(rt_check_fill(back, N, 3));

    /* Bad input. doc: semantics.md §0 — NULL outputs → ACL_ERROR_INVALID_PARAM. */
    CHECK_ERR(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtCreateStreamWithConfig(NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtStreamGetPriority(s, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtStreamGetFlags(s, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtStreamGetId(s, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtStreamQuery(s, NULL), ACL_ERROR_INVALID_PARAM);
    /* doc: semantics.md §4 — the default stream cannot be destroyed. */
    CHECK_FAILS(aclrtDestroyStream(NULL));

    /* Destroyed handles are rejected, not used (no code given). */
    CHECK_OK(aclrtDestroyStream(p8));
    CHECK_FAILS(aclrtDestroyStream(p8));
    CHECK_FAILS(aclrtSynchronizeStream(p8));
    CHECK_FAILS(aclrtStreamQuery(p8, &st));
    CHECK_FAILS(aclrtMemcpyAsync(d, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE, p8));

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(p3));
    CHECK_OK(aclrtDestroyStream(pbig));
    CHECK_OK(aclrtDestroyStream(ff));
    CHECK_OK(aclrtDestroyStream(pers));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtFreeHost(back));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
