/* event_value_two_threads: the multi-stream memory example's shape
 * (semantics.md §10: aclrtValueWait / aclrtValueWrite). Two host threads,
 * each with its own stream: the producer fills a buffer and then writes a
 * flag word with aclrtValueWrite; the consumer waits for the flag with
 * aclrtValueWait and then copies the buffer out. Both issue orders are
 * exercised, chosen by a host-side handshake (no sleeps): the wait queued
 * before the producer issues anything (the consumer stream must block on
 * the device), and the wait queued after the producer's stream drained
 * (already satisfied). The wait is GEQ: an EQ wait could miss a value
 * the producer overwrites before the consumer stream looks. The copied
 * data proves the ordering. */
#include "rt_util.h"

#include <pthread.h>
#include <string.h>

#define N 65536
#define ROUNDS 6

static aclrtContext ctx;
static uint64_t *word;
static uint8_t *buf, *out;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int consumer_issued, producer_done; /* rounds, guarded by mu */

static void wait_for(int *counter, int r)
{
    pthread_mutex_lock(&mu);
    while (*counter < r)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
}

static void publish(int *counter, int r)
{
    pthread_mutex_lock(&mu);
    *counter = r;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

/* Odd rounds: the consumer's wait is queued first; even rounds: after the
 * producer's stream drained. */
static void *consumer(void *arg)
{
    (void)arg;
    CHECK_OK(aclrtSetCurrentContext(ctx));
    aclrtStream a = NULL;
    CHECK_OK(aclrtCreateStream(&a));
    for (int r = 1; r <= ROUNDS; r++) {
        if (r % 2 == 0)
            wait_for(&producer_done, r);
        CHECK_OK(aclrtValueWait(word, (uint64_t)r, ACL_STREAM_WAIT_VALUE_GEQ, a));
        CHECK_OK(aclrtMemcpyAsync(out + (size_t)r * N, N, buf + (size_t)r * N, N, ACL_MEMCPY_DEVICE_TO_DEVICE, a));
        publish(&consumer_issued, r);
    }
    CHECK_OK(aclrtSynchronizeStream(a));
    CHECK_OK(aclrtDestroyStream(a));
    return NULL;
}

static void *producer(void *arg)
{
    (void)arg;
    CHECK_OK(aclrtSetCurrentContext(ctx));
    aclrtStream b = NULL;
    CHECK_OK(aclrtCreateStream(&b));
    for (int r = 1; r <= ROUNDS; r++) {
        if (r % 2 == 1)
            wait_for(&consumer_issued, r);
        CHECK_OK(aclrtMemsetAsync(buf + (size_t)r * N, N, 0x30 + r, N, b));
        CHECK_OK(aclrtValueWrite(word, (uint64_t)r, 0, b));
        if (r % 2 == 0) {
            CHECK_OK(aclrtSynchronizeStream(b));
            publish(&producer_done, r);
        }
    }
    CHECK_OK(aclrtSynchronizeStream(b));
    CHECK_OK(aclrtDestroyStream(b));
    return NULL;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    if (strncmp(soc, "Ascend310", 9) == 0 || strncmp(soc, "Ascend910A", 10) == 0 || strncmp(soc, "Ascend910Pro", 12) == 0) {
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        SKIP("stream memory operations are documented for 950/A3/A2 only (%s)", soc);
    }
    CHECK_OK(aclrtGetCurrentContext(&ctx));
    size_t total = (size_t)(ROUNDS + 1) * N;
    CHECK_OK(aclrtMalloc((void **)&word, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&buf, total, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&out, total, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(word, 8, 0, 8));
    CHECK_OK(aclrtMemset(buf, total, 0, total));
    CHECK_OK(aclrtMemset(out, total, 0xEE, total));

    pthread_t tc, tp;
    CHECK_EQ(pthread_create(&tc, NULL, consumer, NULL), 0);
    CHECK_EQ(pthread_create(&tp, NULL, producer, NULL), 0);
    CHECK_EQ(pthread_join(tp, NULL), 0);
    CHECK_EQ(pthread_join(tc, NULL), 0);

    static uint8_t h[N];
    for (int r = 1; r <= ROUNDS; r++) {
        memset(h, 0, N);
        CHECK_OK(aclrtMemcpy(h, N, out + (size_t)r * N, N, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int i = 0; i < N; i++)
            CHECK_EQ(h[i], 0x30 + r);
    }
    uint64_t v = 0;
    CHECK_OK(aclrtMemcpy(&v, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(v, ROUNDS);

    CHECK_OK(aclrtFree(word));
    CHECK_OK(aclrtFree(buf));
    CHECK_OK(aclrtFree(out));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
