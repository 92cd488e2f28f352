/* init_errmsg_mode: aclInit's "err_msg_mode" sets the scope of
 * aclGetRecentErrMsg: "1" makes the recent message process-wide (any thread
 * reads what another thread's failure left, and the read clears it for every
 * thread); the default is the thread. The last error code stays per thread. */
#include "rt_util.h"

#include <pthread.h>

struct view {
    int fail;          /* make a failing call first */
    int read;          /* then read aclGetRecentErrMsg */
    aclError failed;   /* what that call returned */
    aclError peek;     /* aclrtPeekAtLastError afterwards */
    int msg_nonempty;  /* aclGetRecentErrMsg was non-empty */
};

static void *on_thread(void *arg)
{
    struct view *v = (struct view *)arg;
    if (v->fail) {
        int32_t dev = -1;
        /* doc: semantics.md §2 — aclrtGetDevice without a context → 107002. */
        v->failed = aclrtGetDevice(&dev);
    }
    v->peek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    if (v->read) {
        const char *m = aclGetRecentErrMsg();
        v->msg_nonempty = m != NULL && m[0] != '\0';
    }
    return NULL;
}

static struct view run_thread(int fail, int read)
{
    struct view v = {fail, read, ACL_SUCCESS, ACL_SUCCESS, 0};
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, on_thread, &v), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    return v;
}

static int msg_empty(void)
{
    const char *m = aclGetRecentErrMsg();
    return m == NULL || m[0] == '\0';
}

int main(void)
{
    char cfg[32];
    rt_write_temp(cfg, "{\"err_msg_mode\": \"1\"}");
    rt_drain_errors();

    /* doc: semantics.md §1 — err_msg_mode "1" is a recognised aclInit key. */
    CHECK_OK(aclInit(cfg));
    uint32_t n = rt_device_count();
    CHECK(n >= 1);

    /* doc: semantics.md §2 — invalid id → ACL_ERROR_RT_INVALID_DEVICEID. */
    CHECK_EQ(aclrtSetDevice((int32_t)n + 100), ACL_ERROR_RT_INVALID_DEVICEID);

    /* doc: semantics.md §0 — with err_msg_mode "1" the recent message is
     * process-wide: a thread that made no failing call reads it ... */
    struct view v = run_thread(0, 1);
    CHECK(v.msg_nonempty);
    /* ... while the last error stays the thread's own. */
    CHECK_EQ(v.peek, ACL_SUCCESS);
    CHECK_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);

    /* doc: semantics.md §0 — reading clears it: for every thread. */
    CHECK(msg_empty());

    /* Another thread's failure, unread there, is read here. */
    v = run_thread(1, 0);
    CHECK_EQ(v.failed, ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_EQ(v.peek, ACL_ERROR_RT_CONTEXT_NULL);
    CHECK(!msg_empty());
    CHECK(msg_empty());

    /* Read by the failing thread itself, it is gone here too. */
    v = run_thread(1, 1);
    CHECK(v.msg_nonempty);
    CHECK(msg_empty());
    rt_drain_errors();
    CHECK_OK(aclFinalize());

    /* doc: semantics.md §0 — by default the scope is the thread: another
     * thread does not see this thread's message. */
    CHECK_OK(aclInit(NULL));
    CHECK_EQ(aclrtSetDevice((int32_t)n + 100), ACL_ERROR_RT_INVALID_DEVICEID);
    v = run_thread(0, 1);
    CHECK(!v.msg_nonempty);
    CHECK(!msg_empty());
    CHECK_OK(aclFinalize());
    unlink(cfg);
    return 0;
}
