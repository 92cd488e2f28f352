/* phase_probe.c: is a slow launch + synchronize the host's doing or the
 * process's? (bench/host-phases.sh runs two of these on one CPU at once;
 * docs/benchmarks.md, "Twenty-second session".)
 *
 *   phase_probe REPS [MODE]   with KSO=path/bench_kernels.so
 *   MODE s (default): 2000 times launch of the empty kernel + synchronize
 *        y: 2000 synchronisations of an idle stream
 *        e: 2000 launches in a row, then a synchronisation
 *
 * Each repetition does the 2000 operations, then three fixed reference
 * loops that call nothing:
 *   ALU:  dependent multiplies and shifts, no memory (one instruction
 *         waits for the last: the core's clock, not its width or caches);
 *   ILP:  sums of a 16 KiB array into eight independent accumulators (as
 *         many instructions a cycle as the core issues, from L1);
 *   LOCK: atomic adds to one cache line of this thread's (the locked
 *         instructions a launch path is built of);
 *   L2:   a chase of dependent loads around a random cycle over 256 KiB
 *         (over L1, within the core's L2: the latency of the next level).
 * One line per repetition:
 *   END_MS OP_NS ALU_US ILP_US LOCK_US L2_US
 * END_MS: CLOCK_MONOTONIC at the repetition's end, in ms (comparable
 * between processes); OP_NS: this thread's CPU time per operation, in ns;
 * the others: this thread's CPU time of each reference loop, in µs. Thread
 * CPU time, not wall time: two probes sharing one CPU do not count each
 * other's turns.
 */
#include "acl/acl.h"
#include "bench_ck.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define OPS 2000
#define ALU_ITERS 300000
#define ILP_ROUNDS 200
#define LOCK_ITERS 20000
#define CHASE_WORDS (256 * 1024 / 8)
#define CHASE_STEPS 50000

static double clock_ns(clockid_t c) {
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static volatile unsigned long sink;

static double alu_us(void) {
    double t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    unsigned long x = 1;
    for (int i = 0; i < ALU_ITERS; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        x ^= x >> 17;
    }
    sink = x;
    return (clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / 1e3;
}

static unsigned long words[2048]; /* 16 KiB */

static double ilp_us(void) {
    double t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    unsigned long s[8] = {0};
    for (int r = 0; r < ILP_ROUNDS; r++) {
        for (int i = 0; i < 2048; i += 8)
            for (int k = 0; k < 8; k++) s[k] += words[i + k] ^ (unsigned long)r;
        __asm__ volatile("" ::: "memory"); /* one pass per round, not folded */
    }
    sink = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
    return (clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / 1e3;
}

static unsigned long counter __attribute__((aligned(64)));

static double lock_us(void) {
    double t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < LOCK_ITERS; i++) __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
    return (clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / 1e3;
}

static unsigned long chain[CHASE_WORDS] __attribute__((aligned(64)));

/* chase_init links chain into one random cycle, a cache line per hop. */
static void chase_init(void) {
    enum { lines = CHASE_WORDS / 8 };
    static unsigned order[lines];
    for (unsigned i = 0; i < lines; i++) order[i] = i;
    unsigned long x = 88172645463325252UL;
    for (unsigned i = lines - 1; i > 0; i--) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        unsigned j = (unsigned)(x % (i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (unsigned i = 0; i < lines; i++) chain[order[i] * 8] = order[(i + 1) % lines] * 8;
}

static double chase_us(void) {
    double t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    unsigned long k = 0;
    for (int i = 0; i < CHASE_STEPS; i++) k = chain[k];
    sink = k;
    return (clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / 1e3;
}

int main(int argc, char **argv) {
    if (argc < 2 || getenv("KSO") == NULL) {
        fprintf(stderr, "usage: KSO=bench_kernels.so %s REPS [s|y|e]\n", argv[0]);
        return 2;
    }
    int reps = atoi(argv[1]);
    for (int i = 0; i < 2048; i++) words[i] = (unsigned long)i * 2654435761UL;
    chase_init();
    char mode = argc > 2 ? argv[2][0] : 's';
    if (mode != 's' && mode != 'y' && mode != 'e') {
        fprintf(stderr, "unknown mode %c\n", mode);
        return 2;
    }
    CK(aclInit(NULL));
    CK(aclrtSetDevice(0));
    aclrtBinHandle bin;
    CK(aclrtBinaryLoadFromFile(getenv("KSO"), NULL, &bin));
    aclrtFuncHandle f;
    CK(aclrtBinaryGetFunction(bin, "empty", &f));
    void *dev;
    CK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtArgsHandle a;
    aclrtParamHandle p;
    CK(aclrtKernelArgsInit(f, &a));
    CK(aclrtKernelArgsAppend(a, &dev, sizeof dev, &p));
    CK(aclrtKernelArgsFinalize(a));
    aclrtStream s;
    CK(aclrtCreateStream(&s));
    for (int r = 0; r < reps; r++) {
        double t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
        switch (mode) {
        case 's':
            for (int i = 0; i < OPS; i++) {
                CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
                CK(aclrtSynchronizeStream(s));
            }
            break;
        case 'y':
            for (int i = 0; i < OPS; i++) CK(aclrtSynchronizeStream(s));
            break;
        case 'e':
            for (int i = 0; i < OPS; i++) CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
            CK(aclrtSynchronizeStream(s));
            break;
        }
        double op = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / OPS;
        double alu = alu_us(), ilp = ilp_us(), lk = lock_us(), l2 = chase_us();
        printf("%.3f %.1f %.1f %.1f %.1f %.1f\n", clock_ns(CLOCK_MONOTONIC) / 1e6, op, alu, ilp, lk, l2);
    }
    CK(aclrtDestroyStream(s));
    CK(aclrtFree(dev));
    CK(aclrtBinaryUnLoad(bin));
    CK(aclrtResetDevice(0));
    CK(aclFinalize());
    return 0;
}
