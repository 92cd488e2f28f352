/* callback_report_errors: the documented failures of the callback API — a
 * callback on a stream without a subscribed thread, aclrtProcessReport
 * timeouts and bad timeouts, double and foreign subscriptions. */
#include "rt_util.h"

#include <pthread.h>

static void nothing(void *user) { (void)user; }

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    uint64_t self = (uint64_t)pthread_self();

    /* doc: semantics.md §16 — no subscribed thread: 107015. */
    CHECK_ERR(aclrtLaunchCallback(nothing, NULL, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG);
    CHECK_ERR(aclrtLaunchCallback(nothing, NULL, ACL_CALLBACK_NO_BLOCK, NULL), ACL_ERROR_RT_STREAM_NO_CB_REG);

    /* doc: semantics.md §16 — timeout −1 or > 0 ms; 0 and < −1 are
     * parameter errors. */
    CHECK_FAILS(aclrtProcessReport(0));
    CHECK_FAILS(aclrtProcessReport(-2));

    CHECK_OK(aclrtSubscribeReport(self, s));
    /* A stream has at most one thread. */
    CHECK_FAILS(aclrtSubscribeReport(self, s));
    /* doc: semantics.md §16 — nothing to run: ACL_ERROR_RT_REPORT_TIMEOUT. */
    CHECK_ERR(aclrtProcessReport(5), ACL_ERROR_RT_REPORT_TIMEOUT);

    /* The subscribed thread may be the launching one: the callback waits
     * for the next aclrtProcessReport of this thread. */
    CHECK_OK(aclrtLaunchCallback(nothing, NULL, ACL_CALLBACK_NO_BLOCK, s));
    CHECK_OK(aclrtProcessReport(-1));
    CHECK_OK(aclrtSynchronizeStream(s));

    CHECK_OK(aclrtUnSubscribeReport(self, s));
    CHECK_FAILS(aclrtUnSubscribeReport(self, s));
    CHECK_ERR(aclrtLaunchCallback(nothing, NULL, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG);

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
