/* context_multi: SetCurrentContext of a context of another device switches
 * the thread's device; contexts can be used from another thread. */
/* needs: devices=2 */
#include "rt_util.h"

#include <pthread.h>

struct use {
    aclrtContext ctx;
    aclError set, getdev;
    int32_t dev;
    int copied_ok;
};

static void *use_ctx(void *arg)
{
    struct use *u = (struct use *)arg;
    u->set = aclrtSetCurrentContext(u->ctx);
    u->getdev = aclrtGetDevice(&u->dev);
    unsigned char in[128], out[128];
    void *d = NULL;
    rt_fill(in, sizeof in, 5);
    memset(out, 0, sizeof out);
    u->copied_ok = aclrtMalloc(&d, sizeof in, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
                   aclrtMemcpy(d, sizeof in, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS &&
                   aclrtMemcpy(out, sizeof out, d, sizeof in, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS &&
                   aclrtFree(d) == ACL_SUCCESS && rt_check_fill(out, sizeof out, 5);
    return NULL;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    rt_need_devices(2);

    aclrtContext c0 = NULL, c1 = NULL, cur = NULL;
    int32_t dev = -1;
    CHECK_OK(aclrtCreateContext(&c0, 0));
    CHECK_OK(aclrtCreateContext(&c1, 1));
    CHECK(c0 != c1);
    /* doc: semantics.md §3 — the last created is current. */
    CHECK_OK(aclrtGetCurrentContext(&cur));
    CHECK(cur == c1);
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 1);

    /* doc: semantics.md §3 — selecting a context of another device also
     * switches the current device. */
    CHECK_OK(aclrtSetCurrentContext(c0));
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 0);
    CHECK_OK(aclrtSetCurrentContext(c1));
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 1);

    /* Memory follows the current context's device. doc: semantics.md §8/§3. */
    void *p = NULL;
    aclrtPtrAttributes a;
    CHECK_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    memset(&a, 0xff, sizeof a);
    CHECK_OK(aclrtPointerGetAttributes(p, &a));
    CHECK_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    CHECK_EQ(a.location.id, 1);
    CHECK_OK(aclrtFree(p));

    /* doc: semantics.md §3 — contexts may be used from other threads via
     * aclrtSetCurrentContext. */
    struct use u;
    memset(&u, 0, sizeof u);
    u.ctx = c0;
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, use_ctx, &u), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(u.set, ACL_SUCCESS);
    CHECK_EQ(u.getdev, ACL_SUCCESS);
    CHECK_EQ(u.dev, 0);
    CHECK(u.copied_ok);
    /* The other thread's choice did not change ours. */
    CHECK_OK(aclrtGetCurrentContext(&cur));
    CHECK(cur == c1);

    CHECK_OK(aclrtDestroyContext(c1));
    CHECK_OK(aclrtDestroyContext(c0));
    CHECK_OK(aclFinalize());
    return 0;
}
