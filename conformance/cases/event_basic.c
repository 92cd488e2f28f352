/* event_basic: event creation flags, record/synchronise/query with the three
 * status encodings, elapsed time, reset rules, bad handles. */
#include "rt_util.h"

/* The case exercises deprecated entry points on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define N (1 << 20)

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    void *h = NULL, *d = NULL;
    CHECK_OK(aclrtMallocHost(&h, N));
    CHECK_OK(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST));
    rt_fill(h, N, 50);

    /* doc: semantics.md §5 / §21.6 — the three status enums are inverted
     * with respect to each other. */
    CHECK_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, 0);
    CHECK_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, 1);
    CHECK_EQ(ACL_EVENT_STATUS_COMPLETE, 0);
    CHECK_EQ(ACL_EVENT_STATUS_NOT_READY, 1);
    CHECK_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, 0);
    CHECK_EQ(ACL_EVENT_WAIT_STATUS_NOT_READY, 1);

    /* doc: semantics.md §5 — aclrtQueryEventStatus reports NOT_READY for a
     * never-recorded event. */
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEvent(&e));
    CHECK(e != NULL);
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    CHECK_OK(aclrtQueryEventStatus(e, &rs));
    CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);

    /* Record after a copy, synchronise: complete in both encodings. */
    CHECK_OK(aclrtMemcpyAsync(d, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtRecordEvent(e, s));
    CHECK_OK(aclrtSynchronizeEvent(e));
    CHECK_OK(aclrtQueryEventStatus(e, &rs));
    CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    aclrtEventStatus es = ACL_EVENT_STATUS_NOT_READY;
    CHECK_OK(aclrtQueryEvent(e, &es));
    CHECK_EQ(es, ACL_EVENT_STATUS_COMPLETE);
    /* doc: semantics.md §5 — SynchronizeEventWithTimeout: −1 forever, > 0 ms. */
    CHECK_OK(aclrtSynchronizeEventWithTimeout(e, -1));
    CHECK_OK(aclrtSynchronizeEventWithTimeout(e, 1000));
    /* Re-recording on the default stream works too. */
    CHECK_OK(aclrtRecordEvent(e, NULL));
    CHECK_OK(aclrtSynchronizeEvent(e));

    /* Events from aclrtCreateEvent can be reset: aclrtResetEvent calls
     * rtEventReset, which accepts default-flag events (acl-to-rt.tsv; the
     * vendor's source corrects semantics.md §5 / §21.7 here, issue #13).
     */
    CHECK_OK(aclrtResetEvent(e, s));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* doc: semantics.md §5 — elapsed time in ms between two events recorded
     * on the same stream, both complete; TIME_LINE events record timestamps. */
    aclrtEvent t0 = NULL, t1 = NULL;
    CHECK_OK(aclrtCreateEventWithFlag(&t0, ACL_EVENT_TIME_LINE));
    CHECK_OK(aclrtCreateEventWithFlag(&t1, ACL_EVENT_TIME_LINE));
    CHECK_OK(aclrtRecordEvent(t0, s));
    CHECK_OK(aclrtMemcpyAsync(d, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtRecordEvent(t1, s));
    CHECK_OK(aclrtSynchronizeEvent(t1));
    float ms = -1.0f;
    CHECK_OK(aclrtEventElapsedTime(&ms, t0, t1));
    CHECK(ms >= 0.0f);
    uint64_t ts0 = 0, ts1 = 0;
    CHECK_OK(aclrtEventGetTimestamp(t0, &ts0));
    CHECK_OK(aclrtEventGetTimestamp(t1, &ts1));
    CHECK(ts1 >= ts0);
    CHECK_ERR(aclrtEventElapsedTime(NULL, t0, t1), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtEventElapsedTime(&ms, NULL, t1), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtEventElapsedTime(&ms, t0, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtEventGetTimestamp(t0, NULL), ACL_ERROR_INVALID_PARAM);
    /* An event never recorded has no time (no code given). */
    aclrtEvent never = NULL;
    CHECK_OK(aclrtCreateEventWithFlag(&never, ACL_EVENT_TIME_LINE));
    CHECK_FAILS(aclrtEventElapsedTime(&ms, t0, never));

    /* doc: semantics.md §5 — without SYNC an event cannot be waited on. */
    CHECK_FAILS(aclrtStreamWaitEvent(s, t0));

    /* doc: semantics.md §5 / §21.7 — SYNC events may be reset. */
    aclrtEvent se = NULL;
    CHECK_OK(aclrtCreateEventWithFlag(&se, ACL_EVENT_SYNC));
    CHECK_OK(aclrtRecordEvent(se, s));
    CHECK_OK(aclrtSynchronizeEvent(se));
    CHECK_OK(aclrtResetEvent(se, s));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* doc: semantics.md §5 — CreateEventExWithFlag events: complete before the
     * first record, re-recordable; Reset / QueryEvent / QueryEventWaitStatus
     * are errors on them. */
    aclrtEvent ex = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    CHECK_OK(aclrtQueryEventStatus(ex, &rs));
    CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_OK(aclrtRecordEvent(ex, s));
    CHECK_OK(aclrtRecordEvent(ex, s));
    CHECK_OK(aclrtSynchronizeEvent(ex));
    CHECK_FAILS(aclrtResetEvent(ex, s));
    CHECK_FAILS(aclrtQueryEvent(ex, &es));
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    CHECK_FAILS(aclrtQueryEventWaitStatus(ex, &ws));

    /* doc: semantics.md §5 — ACL_EVENT_IPC only with ExWithFlag and alone;
     * ACL_EVENT_EXTERNAL cannot be combined. */
    aclrtEvent bad = NULL;
    CHECK_FAILS(aclrtCreateEventWithFlag(&bad, ACL_EVENT_IPC));
    CHECK_FAILS(aclrtCreateEventExWithFlag(&bad, ACL_EVENT_IPC | ACL_EVENT_SYNC));
    CHECK_FAILS(aclrtCreateEventWithFlag(&bad, ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC));

    /* Bad input. doc: semantics.md §0 — NULL handles / outputs → 100000. */
    CHECK_ERR(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtCreateEventWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtCreateEventExWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtRecordEvent(NULL, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtSynchronizeEvent(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtSynchronizeEventWithTimeout(NULL, 10), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtQueryEventStatus(NULL, &rs), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtQueryEventStatus(e, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtQueryEvent(e, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtQueryEventWaitStatus(se, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtStreamWaitEvent(s, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtResetEvent(NULL, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §5 — DestroyEvent; a destroyed event is rejected
     * afterwards (no code given). */
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_FAILS(aclrtRecordEvent(e, s));
    CHECK_FAILS(aclrtSynchronizeEvent(e));
    CHECK_FAILS(aclrtDestroyEvent(e));

    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtDestroyEvent(t0));
    CHECK_OK(aclrtDestroyEvent(t1));
    CHECK_OK(aclrtDestroyEvent(never));
    CHECK_OK(aclrtDestroyEvent(se));
    CHECK_OK(aclrtDestroyEvent(ex));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
