/* event_order: cross-stream ordering through events — the waiting
 * stream's later work sees what the recording stream did before the record. */
#include "rt_util.h"

#define N (8 << 20)

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream a = NULL, b = NULL, c = NULL;
    CHECK_OK(aclrtCreateStream(&a));
    CHECK_OK(aclrtCreateStream(&b));
    CHECK_OK(aclrtCreateStream(&c));
    void *hin = NULL, *hb = NULL, *hc = NULL, *d = NULL;
    CHECK_OK(aclrtMallocHost(&hin, N));
    CHECK_OK(aclrtMallocHost(&hb, N));
    CHECK_OK(aclrtMallocHost(&hc, N));
    CHECK_OK(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST));

    /* doc: semantics.md §5 — record on A after an async copy; B and C wait
     * (waiting does not consume the event, any number of streams may wait);
     * their later copies read what A wrote. */
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    CHECK_OK(aclrtMemset(d, N, 0, N));
    rt_fill(hin, N, 60);
    memset(hb, 0, N);
    memset(hc, 0, N);
    CHECK_OK(aclrtMemcpyAsync(d, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, a));
    CHECK_OK(aclrtRecordEvent(e, a));
    CHECK_OK(aclrtStreamWaitEvent(b, e));
    CHECK_OK(aclrtStreamWaitEvent(c, e));
    CHECK_OK(aclrtMemcpyAsync(hb, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, b));
    CHECK_OK(aclrtMemcpyAsync(hc, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, c));
    CHECK_OK(aclrtSynchronizeStream(b));
    CHECK_OK(aclrtSynchronizeStream(c));
    CHECK(rt_check_fill(hb, N, 60));
    CHECK(rt_check_fill(hc, N, 60));

    /* doc: semantics.md §5 — the waiting tasks have finished: wait status
     * COMPLETE (0); the record is complete: recorded status COMPLETE (1). */
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_NOT_READY;
    CHECK_OK(aclrtQueryEventWaitStatus(e, &ws));
    CHECK_EQ(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_OK(aclrtQueryEventStatus(e, &rs));
    CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);

    /* doc: semantics.md §5 — reset issued on the waiting stream after the wait. */
    CHECK_OK(aclrtResetEvent(e, b));
    CHECK_OK(aclrtSynchronizeStream(b));

    /* doc: semantics.md §5 — ExWithFlag(SYNC) events are re-recordable: each
     * record snapshots A's submitted work; a wait uses the snapshot current
     * when the wait is issued. Two rounds with different data. */
    aclrtEvent ex = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    for (unsigned round = 0; round < 2; round++) {
        rt_fill(hin, N, 61 + round);
        memset(hb, 0, N);
        CHECK_OK(aclrtMemcpyAsync(d, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, a));
        CHECK_OK(aclrtRecordEvent(ex, a));
        CHECK_OK(aclrtStreamWaitEvent(b, ex));
        CHECK_OK(aclrtMemcpyAsync(hb, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, b));
        CHECK_OK(aclrtSynchronizeStream(b));
        CHECK(rt_check_fill(hb, N, 61 + round));
        CHECK_OK(aclrtSynchronizeStream(a));
    }

    /* A wait with a timeout (seconds, 0 = never; doc: semantics.md §5 / §21.8). */
    rt_fill(hin, N, 63);
    memset(hb, 0, N);
    CHECK_OK(aclrtMemcpyAsync(d, N, hin, N, ACL_MEMCPY_HOST_TO_DEVICE, a));
    CHECK_OK(aclrtRecordEvent(e, a));
    CHECK_OK(aclrtStreamWaitEventWithTimeout(b, e, 30));
    CHECK_OK(aclrtMemcpyAsync(hb, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, b));
    CHECK_OK(aclrtSynchronizeStream(b));
    CHECK(rt_check_fill(hb, N, 63));
    CHECK_ERR(aclrtStreamWaitEventWithTimeout(b, NULL, 30), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtStreamWaitEventWithTimeout(b, e, -1));

    /* doc: semantics.md §2 — SynchronizeDevice covers every stream. */
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyEvent(ex));
    CHECK_OK(aclrtDestroyStream(a));
    CHECK_OK(aclrtDestroyStream(b));
    CHECK_OK(aclrtDestroyStream(c));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtFreeHost(hin));
    CHECK_OK(aclrtFreeHost(hb));
    CHECK_OK(aclrtFreeHost(hc));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
