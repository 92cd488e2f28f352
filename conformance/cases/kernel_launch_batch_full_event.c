/* kernel_launch_batch_full_event: a stream whose head waits for an event
 * that another thread records, with no host order between that thread and
 * the launcher, takes launches past its 1024-task ring: the launcher stops
 * in a launch (as an immediate launch waits for ring space), the other
 * thread makes another runtime call and then records the event, and every
 * launch runs, in call order, with launches batched
 * (kernel_launch_batch_full.h; docs/kernels.md "Batched launches").
 *
 * needs: emulator
 * env: NPUEMU_LAUNCH_BATCH=1
 */
#include <pthread.h>

#include "kernel_launch_batch_full.h"

static aclrtStream s, t;
static aclrtEvent ev;

static void *recorder(void *arg) {
    (void)arg;
    CHECK_OK(aclrtSetCurrentContext(full_ctx));
    /* The launcher has made every launch the ring holds: an immediate
     * launch would now wait for the record below. */
    full_wait_stalled(FULL_DEPTH - 1);
    int32_t dev = -1;
    CHECK_OK(aclrtGetDevice(&dev)); /* another call before the record */
    CHECK_EQ(dev, 0);
    CHECK_OK(aclrtRecordEvent(ev, t));
    return NULL;
}

int main(void) {
    full_watchdog(40);
    full_setup();
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&t));
    CHECK_OK(aclrtCreateEvent(&ev));
    /* A record, then a reset that consumes it: a wait queued now waits
     * for the next record. */
    CHECK_OK(aclrtRecordEvent(ev, t));
    CHECK_OK(aclrtSynchronizeStream(t));
    CHECK_OK(aclrtResetEvent(ev, t));
    CHECK_OK(aclrtSynchronizeStream(t));
    CHECK_OK(aclrtStreamWaitEvent(s, ev));

    pthread_t th;
    CHECK(pthread_create(&th, NULL, recorder, NULL) == 0);
    uint64_t want = full_launch(s);
    CHECK(pthread_join(th, NULL) == 0);
    CHECK_OK(aclrtDestroyEvent(ev));
    CHECK_OK(aclrtDestroyStream(t));
    full_finish(s, want);
    printf("PASS\n");
    return 0;
}
