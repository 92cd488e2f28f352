/* launch_ab.c: the launch workloads of npuemu_bench, one at a time, with
 * the CPU time of the whole process (every thread: launchers and lanes)
 * per operation beside the wall time. On a loaded host the wall time of a
 * launch mostly measures the wait for a CPU; the CPU time does not, so
 * before/after comparisons of the launch path use both
 * (bench/compare-launch.sh runs it against two builds, alternated).
 *
 *   launch_ab MODE N [REPS]   with KSO=path/bench_kernels.so
 *   MODE e: N launches of the empty kernel in a row, then a synchronisation
 *        s: N times launch + aclrtSynchronizeStream
 *        h: N times aclrtLaunchKernelWithHostArgs + aclrtSynchronizeStream
 *        l: N aclrtLaunchKernelWithHostArgs in a row, then a synchronisation
 *        d: N times aclrtLaunchKernel (arguments in device memory) + synchronize
 *        n: N aclrtLaunchKernel in a row, then a synchronisation
 *        y: N synchronisations of an idle stream
 *        c: N 4 KiB synchronous host-to-device copies (aclrtMemcpy)
 *        m: 4 threads, each N launches into a stream of its own
 *        v: N launches of the vector add (16 Mi floats, 40 blocks: the
 *           host threads run the blocks) in a row, then a synchronisation
 * Output, one line per repetition: "MODE wall VALUE UNIT cpu_ns NS
 * ivcsw_per_s K": K is the process's involuntary context switches (every
 * thread preempted by another) per second of wall time.
 */
#include "acl/acl.h"
#include "bench_ck.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_ns(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e9 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e3;
}

static long ivcsw(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_nivcsw;
}

/* vector_args: three 64 MiB device arrays for vadd (a and b zeroed) and
 * their arguments, the element count last. */
static aclrtArgsHandle vector_args(aclrtFuncHandle vf, size_t n) {
    void *d[3];
    aclrtArgsHandle va;
    aclrtParamHandle p;
    uint64_t nn = n;
    for (int i = 0; i < 3; i++) CK(aclrtMalloc(&d[i], n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < 2; i++) CK(aclrtMemset(d[i], n * sizeof(float), 0, n * sizeof(float)));
    CK(aclrtKernelArgsInit(vf, &va));
    for (int i = 0; i < 3; i++) CK(aclrtKernelArgsAppend(va, &d[i], sizeof d[i], &p));
    CK(aclrtKernelArgsAppend(va, &nn, sizeof nn, &p));
    CK(aclrtKernelArgsFinalize(va));
    return va;
}

static aclrtFuncHandle f;
static aclrtArgsHandle a;
static aclrtContext ctx;

static void *mt(void *p) {
    int n = *(int *)p;
    aclrtStream s;
    CK(aclrtSetCurrentContext(ctx));
    CK(aclrtCreateStream(&s));
    for (int i = 0; i < n; i++) CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
    CK(aclrtSynchronizeStream(s));
    CK(aclrtDestroyStream(s));
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3 || getenv("KSO") == NULL) {
        fprintf(stderr, "usage: KSO=bench_kernels.so %s e|s|h|l|d|n|y|c|m|v N [REPS]\n", argv[0]);
        return 2;
    }
    char mode = argv[1][0];
    int n = atoi(argv[2]), reps = argc > 3 ? atoi(argv[3]) : 1;
    CK(aclInit(NULL));
    CK(aclrtSetDevice(0));
    CK(aclrtGetCurrentContext(&ctx));
    aclrtBinHandle bin;
    CK(aclrtBinaryLoadFromFile(getenv("KSO"), NULL, &bin));
    CK(aclrtBinaryGetFunction(bin, "empty", &f));
    void *dev;
    CK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtParamHandle ph;
    CK(aclrtKernelArgsInit(f, &a));
    CK(aclrtKernelArgsAppend(a, &dev, sizeof dev, &ph));
    CK(aclrtKernelArgsFinalize(a));
    void *host;
    CK(aclrtMallocHost(&host, 4096));
    void *dargs; /* the argument block of aclrtLaunchKernel: dev, in device memory */
    CK(aclrtMalloc(&dargs, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMemcpy(dargs, 64, &dev, sizeof dev, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtStream s;
    CK(aclrtCreateStream(&s));
    const size_t vn = 16u << 20; /* mode v: the vector add's floats */
    aclrtFuncHandle vf = NULL;
    aclrtArgsHandle va = NULL;
    if (mode == 'v') {
        CK(aclrtBinaryGetFunction(bin, "vadd", &vf));
        va = vector_args(vf, vn);
        CK(aclrtLaunchKernelWithConfig(vf, 40, s, NULL, va, NULL)); /* first touch of c */
        CK(aclrtSynchronizeStream(s));
    }
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns(), c0 = cpu_ns();
        long v0 = ivcsw();
        switch (mode) {
        case 'e':
            for (int i = 0; i < n; i++) CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
            printf("e wall %.0f ns/launch", (now_ns() - t0) / n);
            CK(aclrtSynchronizeStream(s));
            break;
        case 's':
            for (int i = 0; i < n; i++) {
                CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
                CK(aclrtSynchronizeStream(s));
            }
            printf("s wall %.3f us", (now_ns() - t0) / n / 1e3);
            break;
        case 'h':
            for (int i = 0; i < n; i++) {
                CK(aclrtLaunchKernelWithHostArgs(f, 1, s, NULL, &dev, sizeof dev, NULL, 0));
                CK(aclrtSynchronizeStream(s));
            }
            printf("h wall %.3f us", (now_ns() - t0) / n / 1e3);
            break;
        case 'l':
            for (int i = 0; i < n; i++) CK(aclrtLaunchKernelWithHostArgs(f, 1, s, NULL, &dev, sizeof dev, NULL, 0));
            printf("l wall %.0f ns/launch", (now_ns() - t0) / n);
            CK(aclrtSynchronizeStream(s));
            break;
        case 'd':
            for (int i = 0; i < n; i++) {
                CK(aclrtLaunchKernel(f, 1, dargs, sizeof dev, s));
                CK(aclrtSynchronizeStream(s));
            }
            printf("d wall %.3f us", (now_ns() - t0) / n / 1e3);
            break;
        case 'n':
            for (int i = 0; i < n; i++) CK(aclrtLaunchKernel(f, 1, dargs, sizeof dev, s));
            printf("n wall %.0f ns/launch", (now_ns() - t0) / n);
            CK(aclrtSynchronizeStream(s));
            break;
        case 'y':
            for (int i = 0; i < n; i++) CK(aclrtSynchronizeStream(s));
            printf("y wall %.3f us", (now_ns() - t0) / n / 1e3);
            break;
        case 'c': /* a 4 KiB synchronous host-to-device copy (h2d_4KiB_sync_us) */
            for (int i = 0; i < n; i++) CK(aclrtMemcpy(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
            printf("c wall %.3f us", (now_ns() - t0) / n / 1e3);
            break;
        case 'm': {
            pthread_t th[4];
            for (int i = 0; i < 4; i++)
                if (pthread_create(&th[i], NULL, mt, &n) != 0) exit(1);
            for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
            printf("m wall %.3f Mlaunches/s", 4.0 * n / (now_ns() - t0) * 1e3);
            n *= 4;
            break;
        }
        case 'v': /* vector_add_40blk_16Mi_GBps's loop */
            for (int i = 0; i < n; i++) CK(aclrtLaunchKernelWithConfig(vf, 40, s, NULL, va, NULL));
            CK(aclrtSynchronizeStream(s));
            printf("v wall %.2f GB/s", 3.0 * vn * sizeof(float) * n / (now_ns() - t0));
            break;
        default:
            fprintf(stderr, "unknown mode %c\n", mode);
            return 2;
        }
        double wall = now_ns() - t0;
        printf(" cpu_ns %.0f ivcsw_per_s %.0f\n", (cpu_ns() - c0) / n, (ivcsw() - v0) / (wall / 1e9));
        if (mode == 'm') n /= 4;
    }
    CK(aclrtDestroyStream(s));
    CK(aclrtFree(dev));
    CK(aclrtFree(dargs));
    CK(aclrtFreeHost(host));
    CK(aclrtBinaryUnLoad(bin));
    CK(aclrtResetDevice(0));
    CK(aclFinalize());
    return 0;
}
