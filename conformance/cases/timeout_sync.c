/* timeout_sync: the WithTimeout synchronisations expire with their
 * documented codes while a stream is held back by a slow host function, and
 * succeed once it has finished. */
#include "rt_util.h"

#include <time.h>

/* The case exercises deprecated entry points on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* hold keeps the stream busy for about 400 ms of wall time. It calls no
 * runtime API (doc: semantics.md §16 — callbacks must not). */
static void hold(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 400 * 1000 * 1000};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEvent(&e));

    /* doc: semantics.md §16 — later tasks of s wait until fn returns. */
    CHECK_OK(aclrtLaunchHostFunc(s, hold, NULL));
    CHECK_OK(aclrtRecordEvent(e, s));

    /* doc: semantics.md §5 — event sync expiry → 507047 (timeout in ms). */
    CHECK_ERR(aclrtSynchronizeEventWithTimeout(e, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    /* doc: semantics.md §4 — stream sync expiry → 507046. */
    CHECK_ERR(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    /* doc: semantics.md §2 — device sync expiry → 507046. */
    CHECK_ERR(aclrtSynchronizeDeviceWithTimeout(20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    /* Still running: doc: semantics.md §4 / §5 — NOT_READY in each encoding. */
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    CHECK_OK(aclrtStreamQuery(s, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_NOT_READY);
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    CHECK_OK(aclrtQueryEventStatus(e, &rs));
    CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    aclrtEventStatus es = ACL_EVENT_STATUS_COMPLETE;
    CHECK_OK(aclrtQueryEvent(e, &es));
    CHECK_EQ(es, ACL_EVENT_STATUS_NOT_READY);

    /* A timeout leaves the work queued; waiting forever finishes it. */
    CHECK_OK(aclrtSynchronizeEventWithTimeout(e, -1));
    CHECK_OK(aclrtQueryEventStatus(e, &rs));
    CHECK_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
    CHECK_OK(aclrtStreamQuery(s, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    CHECK_OK(aclrtSynchronizeDeviceWithTimeout(-1));

    /* doc: semantics.md §16 — NULL function is a parameter error (§0). */
    CHECK_ERR(aclrtLaunchHostFunc(s, NULL, NULL), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
