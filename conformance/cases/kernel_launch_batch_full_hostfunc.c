/* kernel_launch_batch_full_hostfunc: a host function at the head of a
 * stream waits for the launcher to stop in a launch past the stream's
 * 1024-task ring (as an immediate launch waits for ring space), then
 * calls the runtime and returns; every launch then runs, in call order,
 * with launches batched (kernel_launch_batch_full.h; docs/kernels.md
 * "Batched launches").
 *
 * needs: emulator
 * env: NPUEMU_LAUNCH_BATCH=1
 */
#include "kernel_launch_batch_full.h"

static atomic_int called;

static void head(void *arg) {
    (void)arg;
    full_wait_stalled(FULL_DEPTH - 1);
    /* Runtime calls from the host function that holds the full stream. */
    CHECK_OK(aclrtSetCurrentContext(full_ctx));
    int32_t dev = -1;
    CHECK_OK(aclrtGetDevice(&dev));
    CHECK_EQ(dev, 0);
    void *p = NULL;
    CHECK_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(p));
    atomic_store(&called, 1);
}

int main(void) {
    full_watchdog(40);
    full_setup();
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtLaunchHostFunc(s, head, NULL));
    uint64_t want = full_launch(s);
    full_finish(s, want);
    CHECK_EQ(atomic_load(&called), 1);
    printf("PASS\n");
    return 0;
}
