/* capture_external_fork: the capture-with-external-events sample flow
 * with a forked branch (semantics.md §5, §18). The graph's origin stream
 * forks a branch through an internal event; the branch waits for the
 * producer's `ready` (ACL_EVENT_WAIT_EXTERNAL) and copies the input while
 * the origin scales a second buffer; the branch joins back and the origin
 * records `done` (ACL_EVENT_RECORD_EXTERNAL), which the consumer stream
 * waits for. A producer host thread issues its copy and record for each
 * round while the main thread replays the graph. */
#include "rt_util.h"

#include <pthread.h>
#include <string.h>

#define N 32768
#define ROUNDS 4

static aclrtContext ctx;
static aclrtStream producer;
static aclrtEvent ready;
static void *hin[ROUNDS], *a;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int want_round = -1, produced = -1; /* guarded by mu */

static void *produce(void *arg)
{
    (void)arg;
    CHECK_OK(aclrtSetCurrentContext(ctx));
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_lock(&mu);
        while (want_round < r)
            pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu);
        CHECK_OK(aclrtMemcpyAsync(a, N, hin[r], N, ACL_MEMCPY_HOST_TO_DEVICE, producer));
        CHECK_OK(aclrtRecordEvent(ready, producer));
        pthread_mutex_lock(&mu);
        produced = r;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetCurrentContext(&ctx));
    aclrtStream origin = NULL, branch = NULL, consumer = NULL;
    CHECK_OK(aclrtCreateStream(&producer));
    CHECK_OK(aclrtCreateStream(&origin));
    CHECK_OK(aclrtCreateStream(&branch));
    CHECK_OK(aclrtCreateStream(&consumer));
    aclrtEvent done = NULL, fork = NULL, join = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&ready, ACL_EVENT_SYNC));
    CHECK_OK(aclrtCreateEventExWithFlag(&done, ACL_EVENT_SYNC));
    CHECK_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    CHECK_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    void *hout = NULL, *b = NULL, *c = NULL, *hc = NULL;
    for (int r = 0; r < ROUNDS; r++) {
        CHECK_OK(aclrtMallocHost(&hin[r], N));
        rt_fill(hin[r], N, 11 + 7 * r);
    }
    CHECK_OK(aclrtMallocHost(&hout, N));
    CHECK_OK(aclrtMallocHost(&hc, N));
    CHECK_OK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&b, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&c, N, ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_OK(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_OK(aclrtRecordEvent(fork, origin));
    CHECK_OK(aclrtStreamWaitEvent(branch, fork));
    CHECK_OK(aclrtStreamWaitEventWithFlag(branch, ready, 0, ACL_EVENT_WAIT_EXTERNAL));
    CHECK_OK(aclrtMemcpyAsync(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, branch));
    CHECK_OK(aclrtRecordEvent(join, branch));
    CHECK_OK(aclrtMemsetAsync(c, N, 0x5A, N, origin));
    CHECK_OK(aclrtStreamWaitEvent(origin, join));
    CHECK_OK(aclrtMemsetAsync(b, N, 0x77, 16, origin));
    CHECK_OK(aclrtRecordEventWithFlag(done, origin, ACL_EVENT_RECORD_EXTERNAL));
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureEnd(origin, &ri));

    pthread_t tp;
    CHECK_EQ(pthread_create(&tp, NULL, produce, NULL), 0);
    for (int r = 0; r < ROUNDS; r++) {
        /* The producer's record precedes the replay's external wait. */
        pthread_mutex_lock(&mu);
        want_round = r;
        pthread_cond_broadcast(&cv);
        while (produced < r)
            pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu);
        memset(hout, 0, N);
        CHECK_OK(aclmdlRIExecuteAsync(ri, origin));
        CHECK_OK(aclrtStreamWaitEvent(consumer, done));
        CHECK_OK(aclrtMemcpyAsync(hout, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
        CHECK_OK(aclrtMemcpyAsync(hc, N, c, N, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
        CHECK_OK(aclrtSynchronizeStream(consumer));
        unsigned char *o = (unsigned char *)hout, *in = (unsigned char *)hin[r];
        CHECK(rt_all_bytes(o, 16, 0x77));
        CHECK(memcmp(o + 16, in + 16, N - 16) == 0);
        CHECK(rt_all_bytes(hc, N, 0x5A));
    }
    CHECK_EQ(pthread_join(tp, NULL), 0);

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtDestroyEvent(ready));
    CHECK_OK(aclrtDestroyEvent(done));
    CHECK_OK(aclrtDestroyEvent(fork));
    CHECK_OK(aclrtDestroyEvent(join));
    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtFree(c));
    for (int r = 0; r < ROUNDS; r++)
        CHECK_OK(aclrtFreeHost(hin[r]));
    CHECK_OK(aclrtFreeHost(hout));
    CHECK_OK(aclrtFreeHost(hc));
    CHECK_OK(aclrtDestroyStream(producer));
    CHECK_OK(aclrtDestroyStream(origin));
    CHECK_OK(aclrtDestroyStream(branch));
    CHECK_OK(aclrtDestroyStream(consumer));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
