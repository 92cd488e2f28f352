/* callback_launch: aclrtLaunchCallback runs every callback exactly once, on the
 * thread subscribed with aclrtSubscribeReport, inside its
 * aclrtProcessReport loop; a blocking callback holds the stream's later
 * tasks. */
#include "rt_util.h"

#include <pthread.h>
#include <stdatomic.h>

#define N 64

static atomic_int stop_flag;
static atomic_int counts[N];
static atomic_int wrong_thread;
static pthread_t reporter;
static aclrtContext ctx;

static void *report_loop(void *arg)
{
    (void)arg;
    CHECK_OK(aclrtSetCurrentContext(ctx));
    while (!atomic_load(&stop_flag)) {
        aclError e = aclrtProcessReport(50);
        /* doc: semantics.md §16 — nothing pending within the timeout is
         * ACL_ERROR_RT_REPORT_TIMEOUT. */
        if (e != ACL_SUCCESS && e != ACL_ERROR_RT_REPORT_TIMEOUT) FAIL("aclrtProcessReport: %d", e);
    }
    return NULL;
}

static void on_callback(void *user)
{
    int i = (int)(intptr_t)user;
    if (!pthread_equal(pthread_self(), reporter)) atomic_store(&wrong_thread, 1);
    atomic_fetch_add(&counts[i], 1);
}

static atomic_int seen_before_host;

static void after(void *user)
{
    (void)user;
    int n = 0;
    for (int i = 0; i < N; i++) n += atomic_load(&counts[i]);
    atomic_store(&seen_before_host, n);
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetCurrentContext(&ctx));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));

    CHECK_EQ(pthread_create(&reporter, NULL, report_loop, NULL), 0);
    /* doc: semantics.md §16 — the thread id is the pthread_t as uint64_t. */
    CHECK_OK(aclrtSubscribeReport((uint64_t)reporter, s));

    for (int i = 0; i < N; i++) {
        aclrtCallbackBlockType bt = (i % 2) ? ACL_CALLBACK_NO_BLOCK : ACL_CALLBACK_BLOCK;
        CHECK_OK(aclrtLaunchCallback(on_callback, (void *)(intptr_t)i, bt, s));
    }
    /* The last callback blocks: the host function after it sees all N. */
    CHECK_OK(aclrtLaunchCallback(on_callback, (void *)(intptr_t)0, ACL_CALLBACK_BLOCK, s));
    CHECK_OK(aclrtLaunchHostFunc(s, after, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));

    CHECK_EQ(atomic_load(&seen_before_host), N + 1);
    CHECK_EQ(atomic_load(&wrong_thread), 0);
    CHECK_EQ(atomic_load(&counts[0]), 2);
    for (int i = 1; i < N; i++) CHECK_EQ(atomic_load(&counts[i]), 1);

    CHECK_OK(aclrtUnSubscribeReport((uint64_t)reporter, s));
    atomic_store(&stop_flag, 1);
    CHECK_EQ(pthread_join(reporter, NULL), 0);

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
