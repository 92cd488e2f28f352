/* stream_mem_op_value: aclrtValueWait / aclrtValueWrite across two streams
 * driven by two threads (the shape of the documentation's multi-stream
 * example): stream A waits for a word that stream B writes, so A's later
 * work runs after B's earlier work; the four wait conditions; argument
 * checks. */
#include "rt_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static aclrtContext ctx;
static void *word;
static atomic_int seq;
static int producer_at = -1, consumer_at = -1;

static void mark(void *p) { *(int *)p = atomic_fetch_add(&seq, 1); }

static void *consumer(void *arg)
{
    (void)arg;
    CHECK_OK(aclrtSetCurrentContext(ctx));
    aclrtStream a = NULL;
    CHECK_OK(aclrtCreateStream(&a));
    CHECK_OK(aclrtValueWait(word, 1, ACL_STREAM_WAIT_VALUE_EQ, a));
    CHECK_OK(aclrtLaunchHostFunc(a, mark, &consumer_at));
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
    CHECK_OK(aclrtLaunchHostFunc(b, mark, &producer_at));
    CHECK_OK(aclrtValueWrite(word, 1, 0, b));
    CHECK_OK(aclrtSynchronizeStream(b));
    CHECK_OK(aclrtDestroyStream(b));
    return NULL;
}

/* wait_released queues a wait for cond against value after the word holds
 * initial, then writes final from another stream; it returns once the
 * waiting stream drained. */
static void wait_released(aclrtStream w, aclrtStream x, uint64_t initial, uint64_t value, uint32_t cond, uint64_t final)
{
    CHECK_OK(aclrtMemcpy(word, 8, &initial, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtValueWait(word, value, cond, w));
    CHECK_OK(aclrtValueWrite(word, final, 0, x));
    CHECK_OK(aclrtSynchronizeStream(w));
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
    CHECK_OK(aclrtMalloc(&word, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(word, 64, 0, 64));

    /* The consumer starts first and must still run after the producer. */
    pthread_t tc, tp;
    CHECK_EQ(pthread_create(&tc, NULL, consumer, NULL), 0);
    struct timespec nap = {0, 2000000};
    nanosleep(&nap, NULL);
    CHECK_EQ(pthread_create(&tp, NULL, producer, NULL), 0);
    CHECK_EQ(pthread_join(tp, NULL), 0);
    CHECK_EQ(pthread_join(tc, NULL), 0);
    CHECK_EQ(producer_at, 0);
    CHECK_EQ(consumer_at, 1);
    uint64_t v = 0;
    CHECK_OK(aclrtMemcpy(&v, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(v, 1);

    /* doc: semantics.md §10 — the four conditions. */
    aclrtStream w = NULL, x = NULL;
    CHECK_OK(aclrtCreateStream(&w));
    CHECK_OK(aclrtCreateStream(&x));
    wait_released(w, x, 1, 5, ACL_STREAM_WAIT_VALUE_GEQ, 7);
    wait_released(w, x, 1, 5, ACL_STREAM_WAIT_VALUE_EQ, 5);
    wait_released(w, x, 1, 6, ACL_STREAM_WAIT_VALUE_AND, 2);
    wait_released(w, x, ~(uint64_t)0, 0, ACL_STREAM_WAIT_VALUE_NOR, 0);
    /* A condition true from the start does not block. */
    CHECK_OK(aclrtValueWait(word, 0, ACL_STREAM_WAIT_VALUE_GEQ, w));
    CHECK_OK(aclrtSynchronizeStream(w));

    /* Argument checks: NULL, unaligned, unknown flag, non-zero write flag. */
    CHECK_FAILS(aclrtValueWrite(NULL, 1, 0, x));
    CHECK_FAILS(aclrtValueWait(NULL, 1, 0, x));
    CHECK_FAILS(aclrtValueWrite((char *)word + 4, 1, 0, x));
    CHECK_FAILS(aclrtValueWait(word, 1, 4, x));
    CHECK_FAILS(aclrtValueWrite(word, 1, 1, x));

    CHECK_OK(aclrtDestroyStream(w));
    CHECK_OK(aclrtDestroyStream(x));
    CHECK_OK(aclrtFree(word));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
