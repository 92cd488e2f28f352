// replay_bench: host cost of issuing work directly versus replaying it from
// a captured model run instance.
//
// One round is TASKS small asynchronous tasks (alternating 256-byte memsets
// and device-to-device copies) on one stream. "direct" issues them with
// aclrtMemsetAsync / aclrtMemcpyAsync; "replay" captures the same sequence
// once (aclmdlRICaptureBegin/End) and issues it with one
// aclmdlRIExecuteAsync. Only the issuing is timed (the stream is
// synchronised after each round, untimed); each figure is the median over
// the rounds of the round's time divided by TASKS.
//
// Prints "metric value unit" lines: direct_task_ns, replay_task_ns and
// replay_direct_ratio (target ≤ 0.5).
//
//	cc -O2 -I emu/include bench/c/replay_bench.c -L emu/lib -lascendcl
//	LD_LIBRARY_PATH=emu/lib ./a.out [--quick]
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

#define TASKS 100
#define CHUNK 256

#define CK(x)                                                                         \
    do {                                                                              \
        aclError e_ = (x);                                                            \
        if (e_ != ACL_SUCCESS) {                                                      \
            const char *m_ = aclGetRecentErrMsg();                                    \
            fprintf(stderr, "%s:%d %s = %d (%s)\n", __FILE__, __LINE__, #x, (int)e_, \
                    m_ ? m_ : "no message");                                          \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// issue queues the round's tasks on s.
static void issue(aclrtStream s, char *a, char *b) {
    for (int i = 0; i < TASKS; i++) {
        size_t off = (size_t)(i / 2) * CHUNK;
        if (i % 2 == 0)
            CK(aclrtMemsetAsync(a + off, CHUNK, i & 0xFF, CHUNK, s));
        else
            CK(aclrtMemcpyAsync(b + off, CHUNK, a + off, CHUNK, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    }
}

int main(int argc, char **argv) {
    int rounds = 300;
    if (argc > 1 && strcmp(argv[1], "--quick") == 0) {
        rounds = 5;
    } else if (argc > 1) {
        fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
        return 2;
    }
    CK(aclInit(NULL));
    CK(aclrtSetDevice(0));
    aclrtStream s;
    CK(aclrtCreateStream(&s));
    void *a, *b;
    size_t bytes = (size_t)TASKS / 2 * CHUNK;
    CK(aclrtMalloc(&a, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMalloc(&b, bytes, ACL_MEM_MALLOC_HUGE_FIRST));

    aclmdlRI ri;
    CK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    issue(s, a, b);
    CK(aclmdlRICaptureEnd(s, &ri));

    // Warm-up of both paths.
    for (int i = 0; i < 10; i++) {
        issue(s, a, b);
        CK(aclmdlRIExecuteAsync(ri, s));
    }
    CK(aclrtSynchronizeStream(s));

    double *direct = calloc(rounds, sizeof *direct), *replay = calloc(rounds, sizeof *replay);
    if (direct == NULL || replay == NULL) return 1;
    // Interleaved, so that a slow phase of the machine hits both alike.
    for (int r = 0; r < rounds; r++) {
        double t0 = now_ns();
        issue(s, a, b);
        double t1 = now_ns();
        CK(aclrtSynchronizeStream(s));
        double t2 = now_ns();
        CK(aclmdlRIExecuteAsync(ri, s));
        double t3 = now_ns();
        CK(aclrtSynchronizeStream(s));
        direct[r] = (t1 - t0) / TASKS;
        replay[r] = (t3 - t2) / TASKS;
    }
    double d = median(direct, rounds), p = median(replay, rounds);
    printf("direct_task_ns %.6g ns/task\n", d);
    printf("replay_task_ns %.6g ns/task\n", p);
    printf("replay_direct_ratio %.6g ratio\n", p / d);

    CK(aclmdlRIDestroy(ri));
    CK(aclrtFree(a));
    CK(aclrtFree(b));
    CK(aclrtDestroyStream(s));
    CK(aclrtResetDevice(0));
    CK(aclFinalize());
    free(direct);
    free(replay);
    return 0;
}
