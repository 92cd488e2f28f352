/* device_refcount: SetDevice/ResetDevice are reference counted
 * process-wide; the default context lives until the last reset; threads that
 * SetDevice the same id share one default context. */
#include "rt_util.h"

#include <pthread.h>

struct worker {
    aclrtContext ctx;
    int32_t dev;
    aclError set, get, getdev, reset;
    int copied_ok;
};

static void *worker_main(void *arg)
{
    struct worker *w = (struct worker *)arg;
    w->set = aclrtSetDevice(0);
    w->get = aclrtGetCurrentContext(&w->ctx);
    w->getdev = aclrtGetDevice(&w->dev);
    /* Work on the shared default context from this thread. */
    unsigned char in[256], out[256];
    void *d = NULL;
    rt_fill(in, sizeof in, 9);
    memset(out, 0, sizeof out);
    w->copied_ok = aclrtMalloc(&d, sizeof in, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
                   aclrtMemcpy(d, sizeof in, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS &&
                   aclrtMemcpy(out, sizeof out, d, sizeof in, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS &&
                   aclrtFree(d) == ACL_SUCCESS && rt_check_fill(out, sizeof out, 9);
    w->reset = aclrtResetDevice(0);
    return NULL;
}

/* fresh_thread checks that a thread that never called SetDevice has no
 * context of its own. */
static void *fresh_thread(void *arg)
{
    int32_t dev = -1;
    *(aclError *)arg = aclrtGetDevice(&dev);
    return NULL;
}


int main(void)
{
    CHECK_OK(aclInit(NULL));
    int32_t active = -1;
    uint32_t flags = 0;

    /* doc: semantics.md §3 — aclrtGetPrimaryCtxState: active = whether the
     * default context exists; flags may be NULL. */
    CHECK_OK(aclrtGetPrimaryCtxState(0, &flags, &active));
    CHECK_EQ(active, 0);

    /* doc: semantics.md §2 — each SetDevice increments the count; every
     * call returns the same default context. */
    aclrtContext c1 = NULL, c2 = NULL;
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetCurrentContext(&c1));
    CHECK(c1 != NULL);
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetCurrentContext(&c2));
    CHECK(c1 == c2);
    CHECK_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
    CHECK_EQ(active, 1);

    /* First reset: one reference remains, the device stays usable. */
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
    CHECK_EQ(active, 1);
    int32_t dev = -1;
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 0);
    void *p = NULL;
    CHECK_OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtFree(p));
    CHECK_OK(aclrtDestroyStream(s));

    /* doc: semantics.md §2 — at 0 the default context is released. */
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
    CHECK_EQ(active, 0);

    /* doc: semantics.md §2 — Reset after a release is an error. */
    CHECK_FAILS(aclrtResetDevice(0));

    /* doc: semantics.md §0 — NULL output; invalid device id. */
    CHECK_ERR(aclrtGetPrimaryCtxState(0, &flags, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtGetPrimaryCtxState(-1, &flags, &active));

    /* A new SetDevice creates a new default context. */
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
    CHECK_EQ(active, 1);
    CHECK_OK(aclrtResetDevice(0));


    /* doc: semantics.md §2 / §21.11 — threads and the shared default context. */
    CHECK_OK(aclrtSetDevice(0));
    aclrtContext mine = NULL;
    CHECK_OK(aclrtGetCurrentContext(&mine));
    CHECK(mine != NULL);

    /* doc: semantics.md §2 / §21.11 — all threads that SetDevice the same id
     * share the same default context. */
    struct worker w[2];
    pthread_t th[2];
    memset(w, 0, sizeof w);
    for (int i = 0; i < 2; i++) CHECK_EQ(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    for (int i = 0; i < 2; i++) CHECK_EQ(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(w[i].set, ACL_SUCCESS);
        CHECK_EQ(w[i].get, ACL_SUCCESS);
        CHECK(w[i].ctx == mine);
        CHECK_EQ(w[i].getdev, ACL_SUCCESS);
        CHECK_EQ(w[i].dev, 0);
        CHECK(w[i].copied_ok);
        /* doc: semantics.md §2 — the workers' resets only drop their own
         * references. */
        CHECK_EQ(w[i].reset, ACL_SUCCESS);
    }

    /* The main thread's reference keeps the default context alive. */
    active = 0;
    CHECK_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
    CHECK_EQ(active, 1);
    aclrtContext still = NULL;
    CHECK_OK(aclrtGetCurrentContext(&still));
    CHECK(still == mine);
    p = NULL;
    CHECK_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(p));

    /* doc: semantics.md §3 — the current context is thread-local: a new
     * thread has none (→ 107002, §2). */
    aclError fresh = ACL_SUCCESS;
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, fresh_thread, &fresh), 0);
    CHECK_EQ(pthread_join(t, NULL), 0);
    CHECK_EQ(fresh, ACL_ERROR_RT_CONTEXT_NULL);

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
    CHECK_EQ(active, 0);
    CHECK_OK(aclFinalize());
    return 0;
}
