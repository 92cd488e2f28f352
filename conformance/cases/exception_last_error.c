/* exception_last_error: per-thread last error (aclrtGetLastError / aclrtPeekAtLastError)
 * and aclGetRecentErrMsg after a failing runtime call. */
#include "rt_util.h"

#include <pthread.h>

struct other_view {
    aclError peek;
    const char *msg;
    int msg_empty;
};

/* other_thread looks at the error state from a thread that made no failing
 * call: both are thread-scoped by default. */
static void *other_thread(void *arg)
{
    struct other_view *v = (struct other_view *)arg;
    v->peek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    v->msg = aclGetRecentErrMsg();
    v->msg_empty = (v->msg == NULL || v->msg[0] == '\0');
    return NULL;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    uint32_t n = rt_device_count();
    CHECK(n >= 1);

    /* doc: semantics.md §0 — GetLastError returns the last error and resets
     * it; afterwards both queries report ACL_SUCCESS. */
    rt_drain_errors();
    CHECK_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    CHECK_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);

    /* A runtime-layer failure: doc: semantics.md §2 — invalid id → 107001. */
    aclError e = aclrtSetDevice((int32_t)n + 100);
    CHECK_EQ(e, ACL_ERROR_RT_INVALID_DEVICEID);

    /* doc: semantics.md §0 — the recent message and the last error are
     * per thread: another thread sees neither. */
    struct other_view v;
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, other_thread, &v), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(v.peek, ACL_SUCCESS);
    CHECK(v.msg_empty);

    /* doc: semantics.md §0 — Peek returns the last error without clearing. */
    CHECK_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);

    /* doc: semantics.md §0 — aclGetRecentErrMsg describes recent failures and
     * clears them: non-empty now, NULL or empty when read again. */
    const char *msg = aclGetRecentErrMsg();
    CHECK(msg != NULL);
    CHECK(msg[0] != '\0');
    const char *again = aclGetRecentErrMsg();
    CHECK(again == NULL || again[0] == '\0');

    /* Reading the message does not touch the last error. */
    CHECK_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);

    /* doc: semantics.md §0 — GetLastError returns it and resets it. */
    CHECK_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    CHECK_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);

    /* A second, different failure replaces the first.
     * doc: semantics.md §2 — aclrtGetDevice without a context → 107002. */
    int32_t dev = -1;
    e = aclrtGetDevice(&dev);
    CHECK_EQ(e, ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_CONTEXT_NULL);
    msg = aclGetRecentErrMsg();
    CHECK(msg != NULL && msg[0] != '\0');
    CHECK_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_CONTEXT_NULL);

    CHECK_OK(aclFinalize());
    return 0;
}
