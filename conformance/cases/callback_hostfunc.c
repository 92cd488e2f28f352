/* callback_hostfunc: aclrtLaunchHostFunc runs on a runtime thread when the stream
 * reaches it, after the stream's earlier tasks and before its later ones. */
#include "rt_util.h"

#include <pthread.h>
#include <stdatomic.h>

#define N 32
#define BYTES 4096

static int order[N];
static atomic_int next;
static pthread_t main_thread;
static atomic_int on_main;

struct probe {
    unsigned char *host;
    int seen; /* first byte the host function saw */
};

static void record(void *arg)
{
    int i = (int)(intptr_t)arg;
    order[atomic_fetch_add(&next, 1)] = i;
    if (pthread_equal(pthread_self(), main_thread)) atomic_store(&on_main, 1);
}

static void look(void *arg)
{
    struct probe *p = arg;
    p->seen = p->host[0];
}

int main(void)
{
    main_thread = pthread_self();
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));

    CHECK_ERR(aclrtLaunchHostFunc(s, NULL, NULL), ACL_ERROR_INVALID_PARAM);

    for (int i = 0; i < N; i++) CHECK_OK(aclrtLaunchHostFunc(s, record, (void *)(intptr_t)i));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(atomic_load(&next), N);
    for (int i = 0; i < N; i++) CHECK_EQ(order[i], i);
    CHECK_EQ(atomic_load(&on_main), 0);

    /* The host function sees the result of the copy queued before it. */
    void *dev = NULL;
    unsigned char *host = NULL;
    CHECK_OK(aclrtMalloc(&dev, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost((void **)&host, BYTES));
    memset(host, 0, BYTES);
    CHECK_OK(aclrtMemsetAsync(dev, BYTES, 0x5A, BYTES, s));
    CHECK_OK(aclrtMemcpyAsync(host, BYTES, dev, BYTES, ACL_MEMCPY_DEVICE_TO_HOST, s));
    struct probe p = {host, -1};
    CHECK_OK(aclrtLaunchHostFunc(s, look, &p));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(p.seen, 0x5A);

    /* The default stream (NULL) takes host functions too. */
    atomic_store(&next, 0);
    CHECK_OK(aclrtLaunchHostFunc(NULL, record, (void *)(intptr_t)7));
    CHECK_OK(aclrtSynchronizeStream(NULL));
    CHECK_EQ(order[0], 7);

    CHECK_OK(aclrtFreeHost(host));
    CHECK_OK(aclrtFree(dev));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
