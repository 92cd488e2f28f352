/* notify_basic: notify record/wait across two streams and two devices,
 * the 1:1 rule, ids, batch reset, timeouts and bad input. */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream a = NULL, b = NULL;
    CHECK_OK(aclrtCreateStream(&a));
    CHECK_OK(aclrtCreateStream(&b));

    /* doc: semantics.md §6 — flags DEFAULT 0 or DEVICE_USE_ONLY 1. */
    aclrtNotify n = NULL, d = NULL;
    CHECK_ERR(aclrtCreateNotify(NULL, ACL_NOTIFY_DEFAULT), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtCreateNotify(&n, 0x100));
    CHECK_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    CHECK_OK(aclrtCreateNotify(&d, ACL_NOTIFY_DEVICE_USE_ONLY));
    uint32_t id0 = 0, id1 = 0;
    CHECK_OK(aclrtGetNotifyId(n, &id0));
    CHECK_OK(aclrtGetNotifyId(d, &id1));
    CHECK(id0 != id1);
    CHECK_ERR(aclrtGetNotifyId(n, NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §6 — stream b blocks until a sets the notify. */
    CHECK_OK(aclrtWaitAndResetNotify(n, b, 0));
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    CHECK_OK(aclrtStreamQuery(b, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_NOT_READY);
    CHECK_OK(aclrtRecordNotify(n, a));
    CHECK_OK(aclrtSynchronizeStream(b));

    /* doc: semantics.md §6 / §21.7 — a wait consumes the notify: one
     * record releases exactly one wait. */
    CHECK_OK(aclrtRecordNotify(n, a));
    CHECK_OK(aclrtSynchronizeStream(a));
    CHECK_OK(aclrtWaitAndResetNotify(n, b, 0));
    CHECK_OK(aclrtSynchronizeStream(b));
    CHECK_OK(aclrtWaitAndResetNotify(n, b, 0));
    CHECK_OK(aclrtStreamQuery(b, &st));
    CHECK_EQ(st, ACL_STREAM_STATUS_NOT_READY);
    CHECK_OK(aclrtRecordNotify(n, NULL));
    CHECK_OK(aclrtSynchronizeStream(b));

    /* doc: semantics.md §6 — aclrtNotifyBatchReset clears set notifies. */
    CHECK_OK(aclrtRecordNotify(n, a));
    CHECK_OK(aclrtSynchronizeStream(a));
    aclrtNotify both[2] = {n, d};
    CHECK_OK(aclrtNotifyBatchReset(both, 2));
    CHECK_ERR(aclrtNotifyBatchReset(NULL, 2), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtNotifyBatchReset(both, 0), ACL_ERROR_INVALID_PARAM);
    /* The reset notify holds the next wait; its 1 s timeout expires and
     * the next synchronise fails (doc: §21.8, seconds; no code given). */
    CHECK_OK(aclrtWaitAndResetNotify(n, b, 1));
    CHECK_FAILS(aclrtSynchronizeStream(b));

    /* doc: semantics.md §6 — notifies signal across devices. */
    if (rt_device_count() >= 2) {
        aclrtContext ctx0 = NULL;
        CHECK_OK(aclrtGetCurrentContext(&ctx0));
        CHECK_OK(aclrtSetDevice(1));
        aclrtStream s1 = NULL;
        CHECK_OK(aclrtCreateStream(&s1));
        CHECK_OK(aclrtWaitAndResetNotify(n, s1, 0));
        CHECK_OK(aclrtSetCurrentContext(ctx0));
        CHECK_OK(aclrtRecordNotify(n, a));
        CHECK_OK(aclrtSetDevice(1));
        CHECK_OK(aclrtSynchronizeStream(s1));
        CHECK_OK(aclrtDestroyStream(s1));
        CHECK_OK(aclrtResetDevice(1));
        CHECK_OK(aclrtSetCurrentContext(ctx0));
    }

    CHECK_OK(aclrtDestroyNotify(n));
    CHECK_OK(aclrtDestroyNotify(d));
    CHECK_FAILS(aclrtRecordNotify(n, a));
    CHECK_ERR(aclrtDestroyNotify(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtDestroyStream(a));
    CHECK_OK(aclrtDestroyStream(b));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
