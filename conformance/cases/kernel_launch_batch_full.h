/* kernel_launch_batch_full.h: what the kernel_launch_batch_full_* cases
 * share. A stream's head waits for something another thread does (records
 * an event, or a host function waits for a host flag); the main thread
 * launches past the stream's 1024-task ring behind it; the other thread
 * waits until the launcher has stopped (its launch found the ring full, as
 * an immediate launch would), then calls the runtime and releases the
 * head. With launches batched, that other thread's calls must not wait for
 * the launcher's batch (docs/kernels.md "Batched launches", "Full
 * streams"): a hang is caught by a watchdog, which fails the case.
 *
 * The kernels: dbl doubles the device word it is given, inc adds one, so a
 * sequence of both tells the order they ran in.
 */
#ifndef NPUEMU_KERNEL_LAUNCH_BATCH_FULL_H
#define NPUEMU_KERNEL_LAUNCH_BATCH_FULL_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "case_kernel.h"

/* The tasks a stream's ring holds (tsfw's default queue depth). */
#define FULL_DEPTH 1024
/* Launches behind the head: past the ring by more than a batch. */
#define FULL_LAUNCHES 1200

static const char *full_kernel_src =
    "#include \"%s/emu/include/npuemu/kernel.h\"\n"
    "static void dbl(const npuemu_kernel_ctx *ctx) { uint64_t *p = NPUEMU_ARG(ctx, uint64_t *, 0); *p = *p * 2 %% 1000000007u; }\n"
    "static void inc(const npuemu_kernel_ctx *ctx) { uint64_t *p = NPUEMU_ARG(ctx, uint64_t *, 0); *p = *p + 1; }\n"
    "NPUEMU_KERNEL_TABLE(\n"
    "    NPUEMU_KERNEL(dbl, NPUEMU_VECTOR, .num_params = 1),\n"
    "    NPUEMU_KERNEL(inc, NPUEMU_VECTOR, .num_params = 1),\n"
    ")\n";

static aclrtContext full_ctx;
static aclrtFuncHandle full_dbl, full_inc;
static aclrtArgsHandle full_adbl, full_ainc;
static void *full_dev;
static aclrtBinHandle full_bin;
/* Launch calls of the main thread that have returned. */
static atomic_long full_launched;

static void full_on_alarm(int sig) {
    (void)sig;
    static const char m[] = "FAIL: watchdog: the program hung (a thread waited for another thread's batched "
                            "launches into a full stream)\n";
    ssize_t w = write(2, m, sizeof m - 1);
    (void)w;
    _exit(1);
}

/* full_watchdog fails the case if it has not ended within seconds. */
static void full_watchdog(unsigned seconds) {
    signal(SIGALRM, full_on_alarm);
    alarm(seconds);
}

static aclrtArgsHandle full_args_of(aclrtFuncHandle f, void *p) {
    aclrtArgsHandle a;
    aclrtParamHandle ph;
    CHECK_OK(aclrtKernelArgsInit(f, &a));
    CHECK_OK(aclrtKernelArgsAppend(a, &p, sizeof p, &ph));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    return a;
}

/* full_setup initialises device 0, builds the kernels and sets the device
 * word to 1. */
static void full_setup(void) {
    char so[4096];
    build_case_kernel(__FILE__, full_kernel_src, so, sizeof so);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetCurrentContext(&full_ctx));
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &full_bin));
    CHECK_OK(aclrtBinaryGetFunction(full_bin, "dbl", &full_dbl));
    CHECK_OK(aclrtBinaryGetFunction(full_bin, "inc", &full_inc));
    CHECK_OK(aclrtMalloc(&full_dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    full_adbl = full_args_of(full_dbl, full_dev);
    full_ainc = full_args_of(full_inc, full_dev);
    uint64_t one = 1;
    CHECK_OK(aclrtMemcpy(full_dev, 8, &one, 8, ACL_MEMCPY_HOST_TO_DEVICE));
}

/* full_launch makes FULL_LAUNCHES launches of dbl and inc into s in an
 * order-sensitive pattern (each armed by its first launch, the rest
 * batched), counting the calls that returned, and returns the value the
 * device word must then hold. */
static uint64_t full_launch(aclrtStream s) {
    uint64_t want = 1;
    for (int i = 0; i < FULL_LAUNCHES; i++) {
        int d = (i % 5) < 2;
        CHECK_OK(aclrtLaunchKernelWithConfig(d ? full_dbl : full_inc, 1, s, NULL, d ? full_adbl : full_ainc, NULL));
        atomic_fetch_add(&full_launched, 1);
        want = d ? want * 2 % 1000000007u : want + 1;
    }
    return want;
}

static double full_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* full_wait_stalled waits until the launcher has made at least min launch
 * calls and then made none for 50 ms (its launch waits for ring space), or
 * 5 s have passed. This only makes the hang the cases look for likely; the
 * cases pass whatever it returns after. */
static void full_wait_stalled(long min) {
    double t0 = full_now(), still = 0;
    long last = -1;
    while (full_now() - t0 < 5) {
        long n = atomic_load(&full_launched);
        if (n != last) {
            last = n;
            still = full_now();
        } else if (n >= min && full_now() - still > 0.05) {
            return;
        }
        struct timespec d = {0, 1000000};
        nanosleep(&d, NULL);
    }
}

/* full_finish synchronises s, checks the word, and tears down. */
static void full_finish(aclrtStream s, uint64_t want) {
    CHECK_OK(aclrtSynchronizeStream(s));
    uint64_t got = 0;
    CHECK_OK(aclrtMemcpy(&got, 8, full_dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(got, want);
    CHECK_EQ(atomic_load(&full_launched), FULL_LAUNCHES);
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(full_dev));
    CHECK_OK(aclrtBinaryUnLoad(full_bin));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
}

#endif
