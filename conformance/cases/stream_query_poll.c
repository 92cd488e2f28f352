/* stream_query_poll: a host thread that polls a query in a tight loop,
 * as a program that spins on aclrtStreamQuery or aclrtQueryEventStatus
 * does, sees queued work finish, even when the emulator's Go runtime has
 * a single P (GOMAXPROCS=1 in the environment, or as many polling threads
 * as CPUs): the copy runs on an SDMA engine and the kernel on a host lane,
 * which need the P the polling thread keeps taking back
 * (rt/core/thread.go, Thread.NotReady). On a device the queries answer
 * "not ready" until the work is done, and then "complete".
 *
 * needs: emulator
 * env: GOMAXPROCS=1
 */
#include <stdint.h>
#include <time.h>

#include "check.h"
#include "case_kernel.h"

static const char *kernel_src =
    "#include \"%s/emu/include/npuemu/kernel.h\"\n"
    "static void mark(const npuemu_kernel_ctx *ctx) {\n"
    "    int32_t *out = NPUEMU_ARG(ctx, int32_t *, 0);\n"
    "    out[ctx->block_idx] = 7;\n"
    "}\n"
    "NPUEMU_KERNEL_TABLE(\n"
    "    NPUEMU_KERNEL(mark, NPUEMU_VECTOR, .num_params = 1),\n"
    ")\n";

#define BIG (64u << 20)
#define BLOCKS 8
/* A bound far above what the work takes, so that a hang fails the case
 * with a message instead of its timeout. */
#define LIMIT_S 20.0

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* poll_stream spins on aclrtStreamQuery until COMPLETE, prints how many
 * answers were NOT_READY and how long it polled, and returns the count;
 * fails after LIMIT_S seconds. */
static long poll_stream(aclrtStream s, const char *what)
{
    double t0 = now_s();
    long not_ready = 0;
    for (;;) {
        aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
        CHECK_OK(aclrtStreamQuery(s, &st));
        if (st == ACL_STREAM_STATUS_COMPLETE) {
            printf("%s: %ld answers NOT_READY, %.3f ms\n", what, not_ready, (now_s() - t0) * 1e3);
            return not_ready;
        }
        CHECK_EQ(st, ACL_STREAM_STATUS_NOT_READY);
        not_ready++;
        if ((not_ready & 1023) == 0 && now_s() - t0 > LIMIT_S) {
            fprintf(stderr, "%s: still not complete after %.0f s of polling (%ld answers)\n", what, LIMIT_S, not_ready);
            exit(1);
        }
    }
}

int main(void)
{
    char so[4096];
    build_case_kernel(__FILE__, kernel_src, so, sizeof so);

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    void *d = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc(&d, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, BIG));
    memset(h, 0x5a, BIG);

    /* A copy on an SDMA engine, polled with aclrtStreamQuery. */
    CHECK_OK(aclrtMemsetAsync(d, BIG, 0x11, BIG, s));
    CHECK_OK(aclrtMemcpyAsync(h, BIG, d, BIG, ACL_MEMCPY_DEVICE_TO_HOST, s));
    poll_stream(s, "aclrtMemcpyAsync + aclrtStreamQuery");
    CHECK_EQ(((unsigned char *)h)[0], 0x11);
    CHECK_EQ(((unsigned char *)h)[BIG - 1], 0x11);

    /* The same, polled through an event. */
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEvent(&e));
    CHECK_OK(aclrtMemsetAsync(d, BIG, 0x22, BIG, s));
    CHECK_OK(aclrtMemcpyAsync(h, BIG, d, BIG, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtRecordEvent(e, s));
    double t0 = now_s();
    for (long n = 1;; n++) {
        aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
        CHECK_OK(aclrtQueryEventStatus(e, &st));
        if (st == ACL_EVENT_RECORDED_STATUS_COMPLETE) break;
        if ((n & 1023) == 0 && now_s() - t0 > LIMIT_S) FAIL("aclrtQueryEventStatus: the event never completed while the host polled");
    }
    CHECK_EQ(((unsigned char *)h)[BIG / 2], 0x22);

    /* A kernel of several blocks on the host lanes. */
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle mark = NULL;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK_OK(aclrtBinaryGetFunction(bin, "mark", &mark));
    aclrtArgsHandle args = NULL;
    aclrtParamHandle p = NULL;
    CHECK_OK(aclrtKernelArgsInit(mark, &args));
    CHECK_OK(aclrtKernelArgsAppend(args, &d, sizeof d, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));
    CHECK_OK(aclrtMemsetAsync(d, BLOCKS * 4, 0, BLOCKS * 4, s));
    CHECK_OK(aclrtLaunchKernelWithConfig(mark, BLOCKS, s, NULL, args, NULL));
    poll_stream(s, "aclrtLaunchKernelWithConfig + aclrtStreamQuery");
    int32_t out[BLOCKS];
    CHECK_OK(aclrtMemcpy(out, sizeof out, d, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < BLOCKS; i++) CHECK_EQ(out[i], 7);

    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
