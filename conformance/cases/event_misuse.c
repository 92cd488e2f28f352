/* event_misuse: recording a destroyed event, waits across devices, flagged
 * records and waits, and wait timeouts. */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL, other = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&other));

    /* Recording or waiting on a destroyed event fails (no code given). */
    aclrtEvent dead = NULL;
    CHECK_OK(aclrtCreateEventWithFlag(&dead, ACL_EVENT_SYNC));
    CHECK_OK(aclrtDestroyEvent(dead));
    CHECK_FAILS(aclrtRecordEvent(dead, s));
    CHECK_FAILS(aclrtStreamWaitEvent(s, dead));
    CHECK_ERR(aclrtRecordEvent(NULL, s), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §5 — waiting does not consume the event: two
     * streams wait on one record. */
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    CHECK_OK(aclrtRecordEvent(e, NULL));
    CHECK_OK(aclrtStreamWaitEvent(s, e));
    CHECK_OK(aclrtStreamWaitEvent(other, e));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtSynchronizeStream(other));

    /* doc: semantics.md §5 — a reset on the waiting stream, then a new
     * record satisfies later waits. */
    CHECK_OK(aclrtResetEvent(e, s));
    CHECK_OK(aclrtRecordEvent(e, other));
    CHECK_OK(aclrtStreamWaitEvent(s, e));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* doc: semantics.md §5 — aclrtStreamWaitEventWithTimeout: seconds, ≥ 0. */
    CHECK_ERR(aclrtStreamWaitEventWithTimeout(s, e, -1), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtStreamWaitEventWithTimeout(s, e, 0));
    CHECK_OK(aclrtStreamWaitEventWithTimeout(s, e, 5));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* doc: semantics.md §5 — flagged waits: EXTERNAL needs timeout 0 and
     * a capturing stream; DEFAULT behaves like a wait with a timeout. */
    CHECK_OK(aclrtStreamWaitEventWithFlag(s, e, 3, ACL_EVENT_WAIT_DEFAULT));
    CHECK_FAILS(aclrtStreamWaitEventWithFlag(s, e, 3, ACL_EVENT_WAIT_EXTERNAL));
    CHECK_FAILS(aclrtStreamWaitEventWithFlag(s, e, 0, ACL_EVENT_WAIT_EXTERNAL));
    CHECK_OK(aclrtRecordEventWithFlag(e, s, ACL_EVENT_RECORD_DEFAULT));
    CHECK_FAILS(aclrtRecordEventWithFlag(e, s, ACL_EVENT_RECORD_EXTERNAL));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* doc: semantics.md §5 — the status of the waiters of an event. */
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    CHECK_OK(aclrtQueryEventWaitStatus(e, &ws));
    CHECK_EQ(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
    CHECK_ERR(aclrtQueryEventWaitStatus(e, NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §5 / §21.12 — a stream of device 1 may wait on an
     * event of device 0; recording needs event and stream on one device. */
    if (rt_device_count() >= 2) {
        aclrtContext ctx0 = NULL;
        CHECK_OK(aclrtGetCurrentContext(&ctx0));
        CHECK_OK(aclrtRecordEvent(e, s));
        CHECK_OK(aclrtSetDevice(1));
        aclrtStream s1 = NULL;
        CHECK_OK(aclrtCreateStream(&s1));
        CHECK_OK(aclrtStreamWaitEvent(s1, e));
        CHECK_OK(aclrtSynchronizeStream(s1));
        CHECK_FAILS(aclrtRecordEvent(e, s1));
        CHECK_OK(aclrtDestroyStream(s1));
        CHECK_OK(aclrtResetDevice(1));
        CHECK_OK(aclrtSetCurrentContext(ctx0));
    }

    /* doc: semantics.md §5 — SynchronizeEventWithTimeout expiry is
     * ACL_ERROR_RT_EVENT_SYNC_TIMEOUT. The record waits behind a notify
     * nobody has recorded yet. */
    aclrtNotify n = NULL;
    CHECK_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    CHECK_OK(aclrtWaitAndResetNotify(n, other, 0));
    CHECK_OK(aclrtRecordEvent(e, other));
    CHECK_ERR(aclrtSynchronizeEventWithTimeout(e, 10), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    CHECK_ERR(aclrtSynchronizeStreamWithTimeout(other, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);

    /* doc: semantics.md §5 — an expired stream wait makes the next
     * synchronise fail (no code given). */
    CHECK_OK(aclrtStreamWaitEventWithTimeout(s, e, 1));
    CHECK_FAILS(aclrtSynchronizeStream(s));

    CHECK_OK(aclrtRecordNotify(n, NULL));
    CHECK_OK(aclrtSynchronizeEvent(e));
    CHECK_OK(aclrtSynchronizeStream(other));
    CHECK_OK(aclrtDestroyNotify(n));
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(other));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
