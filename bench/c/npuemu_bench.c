// npuemu benchmark: the runtime-level workloads of the PoCL peer
// (../shared/bench/ocl_peer.c) expressed in ACL, plus npuemu-only figures.
// Prints one "metric value unit" line per workload on stdout, with the peer's
// metric names wherever the workload is the same, so `go run ./bench` can put
// both columns side by side. Diagnostics go to stderr; any failed call exits 1.
//
//   npuemu_bench            full sizes and iteration counts
//   npuemu_bench --quick    tiny sizes, only to check that everything runs
//   npuemu_bench --kernels  the kernel workloads only (launch, vector add)
//
// Host memory: the peer copies from and to plain malloc'ed (pageable) memory,
// so the metrics shared with it (h2d_64MiB_GBps, d2h_64MiB_GBps,
// h2d_4KiB_sync_us) do too. The same 64 MiB copies from aclrtMallocHost
// (pinned) memory are printed as the npuemu-only *_pinned_GBps metrics.
#define _GNU_SOURCE
#include "acl/acl.h"

#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

#define CK(x)                                                                      \
    do {                                                                           \
        aclError e_ = (x);                                                         \
        if (e_ != ACL_SUCCESS) {                                                   \
            const char *m_ = aclGetRecentErrMsg();                                 \
            fprintf(stderr, "%s:%d %s = %d (%s)\n", __FILE__, __LINE__, #x, (int)e_, \
                    m_ ? m_ : "no message");                                       \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

// Sizes and iteration counts; --quick shrinks them to a smoke test.
struct params {
    size_t big;        // bulk copy size (64 MiB, as the peer)
    int bulk_iters;    // timed bulk copies (peer: 10)
    int small_iters;   // 4 KiB copies and event round trips (peer: 2000)
    int sync_iters;    // synchronisations of an empty stream
    int spawn_samples; // child processes for start_to_first_malloc_ms
};

static const struct params full = {64u << 20, 10, 2000, 20000, 3};
static const struct params quick = {1u << 20, 2, 20, 20, 1};

struct bench {
    struct params p;
    int32_t device;
    char *pageable;   // p.big bytes of malloc'ed host memory
    void *pinned;     // p.big bytes of aclrtMallocHost memory
    void *dev;        // p.big bytes of device memory
};

static void metric(const char *name, double value, const char *unit) {
    printf("%s %.6g %s\n", name, value, unit);
    fflush(stdout);
}

// ---- copies -----------------------------------------------------------------

static double bulk_gbps(struct bench *b, void *host, aclrtMemcpyKind kind) {
    size_t n = b->p.big;
    void *dst = kind == ACL_MEMCPY_HOST_TO_DEVICE ? b->dev : host;
    const void *src = kind == ACL_MEMCPY_HOST_TO_DEVICE ? host : b->dev;
    CK(aclrtMemcpy(dst, n, src, n, kind)); // warm-up: first touch of every page
    double t0 = now_ns();
    for (int i = 0; i < b->p.bulk_iters; i++) CK(aclrtMemcpy(dst, n, src, n, kind));
    double t1 = now_ns();
    return (double)n * b->p.bulk_iters / (t1 - t0);
}

static void bench_bulk_copies(struct bench *b) {
    metric("h2d_64MiB_GBps", bulk_gbps(b, b->pageable, ACL_MEMCPY_HOST_TO_DEVICE), "GB/s");
    metric("d2h_64MiB_GBps", bulk_gbps(b, b->pageable, ACL_MEMCPY_DEVICE_TO_HOST), "GB/s");
    metric("h2d_64MiB_pinned_GBps", bulk_gbps(b, b->pinned, ACL_MEMCPY_HOST_TO_DEVICE), "GB/s");
    metric("d2h_64MiB_pinned_GBps", bulk_gbps(b, b->pinned, ACL_MEMCPY_DEVICE_TO_HOST), "GB/s");
    // The copied bytes must have arrived: a copy that only returns success
    // would otherwise look infinitely fast.
    memset(b->pageable, 0x5a, 4096);
    CK(aclrtMemcpy(b->dev, 4096, b->pageable, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    memset(b->pinned, 0, 4096);
    CK(aclrtMemcpy(b->pinned, 4096, b->dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    if (memcmp(b->pinned, b->pageable, 4096) != 0) {
        fprintf(stderr, "round trip host -> device -> host changed the data\n");
        exit(1);
    }
}

static void bench_small_copy(struct bench *b) {
    int n = b->p.small_iters;
    double t0 = now_ns();
    for (int i = 0; i < n; i++)
        CK(aclrtMemcpy(b->dev, 4096, b->pageable, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    double t1 = now_ns();
    metric("h2d_4KiB_sync_us", (t1 - t0) / n / 1e3, "us");
}

// ---- streams and events -------------------------------------------------------

static void bench_sync_empty_stream(struct bench *b) {
    aclrtStream s;
    CK(aclrtCreateStream(&s));
    CK(aclrtSynchronizeStream(s));
    int n = b->p.sync_iters;
    double t0 = now_ns();
    for (int i = 0; i < n; i++) CK(aclrtSynchronizeStream(s));
    double t1 = now_ns();
    CK(aclrtDestroyStream(s));
    metric("sync_empty_stream_us", (t1 - t0) / n / 1e3, "us");
}

// Record on stream A, stream B waits for the event, the host synchronises B:
// the peer's marker / barrier / clFinish sequence.
static void bench_cross_queue_event(struct bench *b) {
    aclrtStream a, s2;
    aclrtEvent ev;
    CK(aclrtCreateStream(&a));
    CK(aclrtCreateStream(&s2));
    CK(aclrtCreateEvent(&ev));
    int n = b->p.small_iters;
    double t0 = now_ns();
    for (int i = 0; i < n; i++) {
        CK(aclrtRecordEvent(ev, a));
        CK(aclrtStreamWaitEvent(s2, ev));
        CK(aclrtSynchronizeStream(s2));
    }
    double t1 = now_ns();
    CK(aclrtDestroyEvent(ev));
    CK(aclrtDestroyStream(s2));
    CK(aclrtDestroyStream(a));
    metric("cross_queue_event_roundtrip_us", (t1 - t0) / n / 1e3, "us");
}

// Creates every stream the device still has room for, then destroys them all.
// Runs while the benchmark holds no stream of its own, so the count is the
// device's whole limit less the default stream.
static void bench_stream_limit(struct bench *b) {
    (void)b;
    uint32_t avail = 0;
    CK(aclrtGetStreamAvailableNum(&avail));
    if (avail == 0) {
        fprintf(stderr, "aclrtGetStreamAvailableNum reported 0 streams\n");
        exit(1);
    }
    aclrtStream *s = calloc(avail, sizeof *s);
    if (s == NULL) exit(1);
    double t0 = now_ns();
    for (uint32_t i = 0; i < avail; i++) CK(aclrtCreateStream(&s[i]));
    for (uint32_t i = 0; i < avail; i++) CK(aclrtDestroyStream(s[i]));
    double t1 = now_ns();
    free(s);
    metric("stream_limit_create_destroy_ms", (t1 - t0) / 1e6, "ms");
    metric("stream_limit_count", avail, "streams");
}

// ---- process start ----------------------------------------------------------

// Child mode (--first-malloc): everything a program does before its first
// device allocation, then print the CLOCK_MONOTONIC time of that moment.
// Loading the Go runtime happens at exec, before main, and is included.
static int first_malloc_child(void) {
    void *p = NULL;
    CK(aclInit(NULL));
    CK(aclrtSetDevice(0));
    CK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    double t = now_ns();
    printf("%.0f\n", t);
    fflush(stdout);
    CK(aclrtFree(p));
    CK(aclrtResetDevice(0));
    CK(aclFinalize());
    return 0;
}

// Spawns this program in child mode and measures from just before the spawn
// to the child's first successful aclrtMalloc. CLOCK_MONOTONIC is system-wide,
// so the two processes' readings compare directly.
static double spawn_first_malloc_ms(void) {
    int fd[2];
    if (pipe(fd) != 0) { perror("pipe"); exit(1); }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    char *argv[] = {"npuemu_bench", "--first-malloc", NULL};
    pid_t pid;
    double t0 = now_ns();
    int rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc != 0) { fprintf(stderr, "posix_spawn: %s\n", strerror(rc)); exit(1); }
    char buf[64] = {0};
    size_t got = 0;
    ssize_t r;
    while (got < sizeof buf - 1 && (r = read(fd[0], buf + got, sizeof buf - 1 - got)) > 0) got += r;
    close(fd[0]);
    int status = -1;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "first-malloc child failed (status %d)\n", status);
        exit(1);
    }
    double t1 = strtod(buf, NULL);
    if (t1 <= t0) { fprintf(stderr, "first-malloc child printed %s\n", buf); exit(1); }
    return (t1 - t0) / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void bench_start_to_first_malloc(struct bench *b) {
    double v[16];
    int n = b->p.spawn_samples;
    for (int i = 0; i < n; i++) v[i] = spawn_first_malloc_ms();
    qsort(v, n, sizeof v[0], cmp_double);
    metric("start_to_first_malloc_ms", v[n / 2], "ms");
}

// ---- kernels ----------------------------------------------------------------

// The kernels live in bench_kernels.c next to this file; the runner compiles
// this file by absolute path, so __FILE__ locates both it and emu/include.
// They are built like any npuemu kernel (docs/kernels.md), with -O3
// -march=native: the kernel runs on this very host, and the peer's kernels
// are vectorised by LLVM for it too.
static void build_bench_kernels(char *so, size_t n) {
    // NPUEMU_BENCH_KERNELS names a prebuilt bench_kernels.so, for hosts
    // without a compiler (it is not removed afterwards: copied first).
    const char *pre = getenv("NPUEMU_BENCH_KERNELS");
    if (pre != NULL && *pre != 0) {
        char tmpd[] = "/tmp/npuemu-bench-XXXXXX";
        if (mkdtemp(tmpd) == NULL) { perror("mkdtemp"); exit(1); }
        snprintf(so, n, "%s/bench_kernels.so", tmpd);
        char cp[9000];
        snprintf(cp, sizeof cp, "cp '%s' '%s'", pre, so);
        if (system(cp) != 0) {
            fprintf(stderr, "npuemu_bench: cannot copy %s\n", pre);
            exit(1);
        }
        return;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *slash = strrchr(dir, '/');
    if (slash == NULL) {
        fprintf(stderr, "npuemu_bench: built from %s, not an absolute path: cannot find bench_kernels.c\n", __FILE__);
        exit(1);
    }
    *slash = 0; // dir = .../bench/c
    char tmp[] = "/tmp/npuemu-bench-XXXXXX";
    if (mkdtemp(tmp) == NULL) { perror("mkdtemp"); exit(1); }
    const char *cc = getenv("CC");
    if (cc == NULL || *cc == 0) cc = "cc";
    snprintf(so, n, "%s/bench_kernels.so", tmp);
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "%s -shared -fPIC -O3 -march=native -Wall -Werror -I '%s/../../emu/include' '%s/bench_kernels.c' -o '%s'",
             cc, dir, dir, so);
    if (system(cmd) != 0) {
        fprintf(stderr, "npuemu_bench: building the kernels failed: %s\n", cmd);
        exit(1);
    }
}

static aclrtArgsHandle kernel_args(aclrtFuncHandle f, void *const *ptrs, int nptrs, uint64_t n, int with_n) {
    aclrtArgsHandle a;
    aclrtParamHandle p;
    CK(aclrtKernelArgsInit(f, &a));
    for (int i = 0; i < nptrs; i++) CK(aclrtKernelArgsAppend(a, (void *)&ptrs[i], sizeof ptrs[i], &p));
    if (with_n) CK(aclrtKernelArgsAppend(a, &n, sizeof n, &p));
    CK(aclrtKernelArgsFinalize(a));
    return a;
}

// Empty kernel (blockDim 1, one pointer argument), the peer's three launch
// workloads: enqueue cost and throughput of N launches, then R launches each
// followed by a synchronisation.
static void bench_launch(struct bench *b, aclrtBinHandle bin) {
    aclrtFuncHandle f;
    aclrtStream s;
    CK(aclrtBinaryGetFunction(bin, "empty", &f));
    CK(aclrtCreateStream(&s));
    aclrtArgsHandle a = kernel_args(f, &b->dev, 1, 0, 0);
    for (int i = 0; i < 100; i++) CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL)); // warm-up
    CK(aclrtSynchronizeStream(s));
    int n = b->p.sync_iters; // peer: 20000
    double t0 = now_ns();
    for (int i = 0; i < n; i++) CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
    double t1 = now_ns();
    CK(aclrtSynchronizeStream(s));
    double t2 = now_ns();
    metric("launch_enqueue_ns", (t1 - t0) / n, "ns/launch");
    metric("launch_throughput", n / ((t2 - t0) / 1e9), "launches/s");
    // npuemu only: the same loop again. The first one, after the peer's
    // 100-launch warm-up, includes the start-up of a bounded ring (launch
    // objects allocated until ~1024 are in flight, the ring growing); this
    // one is the steady state (docs/kernels.md, "Speed").
    t0 = now_ns();
    for (int i = 0; i < n; i++) CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
    t1 = now_ns();
    CK(aclrtSynchronizeStream(s));
    metric("launch_enqueue_steady_ns", (t1 - t0) / n, "ns/launch");
    int r = b->p.small_iters; // peer: 2000
    t0 = now_ns();
    for (int i = 0; i < r; i++) {
        CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, a, NULL));
        CK(aclrtSynchronizeStream(s));
    }
    t1 = now_ns();
    metric("launch_sync_roundtrip_us", (t1 - t0) / r / 1e3, "us");
    // npuemu only: the same two workloads launched as Ascend C's <<<>>>
    // launches, the arguments passed as host bytes
    // (aclrtLaunchKernelWithHostArgs, copied at the call).
    void *hargs[1] = {b->dev};
    t0 = now_ns();
    for (int i = 0; i < n; i++) CK(aclrtLaunchKernelWithHostArgs(f, 1, s, NULL, hargs, sizeof hargs, NULL, 0));
    t1 = now_ns();
    CK(aclrtSynchronizeStream(s));
    metric("launch_hostargs_enqueue_ns", (t1 - t0) / n, "ns/launch");
    t0 = now_ns();
    for (int i = 0; i < r; i++) {
        CK(aclrtLaunchKernelWithHostArgs(f, 1, s, NULL, hargs, sizeof hargs, NULL, 0));
        CK(aclrtSynchronizeStream(s));
    }
    t1 = now_ns();
    metric("launch_hostargs_sync_roundtrip_us", (t1 - t0) / r / 1e3, "us");
    CK(aclrtDestroyStream(s));
}

// c = a + b on 16 Mi floats (the bulk size / 4), K launches after a warm-up
// one, bytes counted as the peer does (3 arrays per launch). The stream may
// use as many vector cores as the host has CPUs (aclrtSetStreamResLimit),
// and each launch has 16 blocks per core: the lanes take blocks as they
// free up, as the peer's threads take work-groups, so a CPU the OS lends to
// another process for a while delays only the blocks it would have run, not
// a fixed half of the array.
static void bench_vector_add(struct bench *b, aclrtBinHandle bin) {
    size_t n = b->p.big / sizeof(float), bytes = n * sizeof(float);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1) cpus = 1;
    uint32_t blocks = 16 * (uint32_t)cpus;
    aclrtFuncHandle f;
    aclrtStream s;
    void *d[3];
    CK(aclrtBinaryGetFunction(bin, "vadd", &f));
    CK(aclrtCreateStream(&s));
    uint32_t cores = 0;
    CK(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, &cores)); // the SoC's pool
    if ((uint32_t)cpus < cores) cores = (uint32_t)cpus;
    CK(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, cores));
    CK(aclrtUseStreamResInCurrentThread(s));
    float *h = malloc(bytes);
    if (h == NULL) exit(1);
    for (size_t i = 0; i < n; i++) h[i] = (float)i;
    for (int i = 0; i < 3; i++) CK(aclrtMalloc(&d[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMemcpy(d[0], bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CK(aclrtMemcpy(d[1], bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtArgsHandle a = kernel_args(f, d, 3, n, 1);
    CK(aclrtLaunchKernelWithConfig(f, blocks, s, NULL, a, NULL)); // warm-up: first touch of c
    CK(aclrtSynchronizeStream(s));
    int k = b->p.bulk_iters; // peer: 10
    double t0 = now_ns();
    for (int i = 0; i < k; i++) CK(aclrtLaunchKernelWithConfig(f, blocks, s, NULL, a, NULL));
    CK(aclrtSynchronizeStream(s));
    double t1 = now_ns();
    metric("vector_add_16Mi_GBps", 3.0 * bytes * k / (t1 - t0), "GB/s");
    CK(aclrtMemcpy(h, bytes, d[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < n; i += n / 64 + 1) {
        if (h[i] != 2.0f * (float)i) {
            fprintf(stderr, "vector add wrong: c[%zu] = %g, want %g\n", i, h[i], 2.0 * i);
            exit(1);
        }
    }
    for (int i = 0; i < 3; i++) CK(aclrtFree(d[i]));
    free(h);
    CK(aclrtUnuseStreamResInCurrentThread(s));
    CK(aclrtDestroyStream(s));
}

// npuemu only: 4 threads, each launching the empty kernel into a stream of
// its own (the many-core launch path: no lock shared by the streams on the
// way), N launches each after a warm-up; launches of all threads per second
// from the moment they all start to the last synchronisation.
#define MT_THREADS 4

struct mt_launcher {
    aclrtContext ctx;
    aclrtFuncHandle f;
    aclrtArgsHandle a;
    aclrtStream s;
    int n;
    pthread_barrier_t *start;
};

static void *mt_launch(void *p) {
    struct mt_launcher *m = p;
    CK(aclrtSetCurrentContext(m->ctx));
    for (int i = 0; i < 100; i++) CK(aclrtLaunchKernelWithConfig(m->f, 1, m->s, NULL, m->a, NULL));
    CK(aclrtSynchronizeStream(m->s));
    pthread_barrier_wait(m->start);
    for (int i = 0; i < m->n; i++) CK(aclrtLaunchKernelWithConfig(m->f, 1, m->s, NULL, m->a, NULL));
    CK(aclrtSynchronizeStream(m->s));
    return NULL;
}

static void bench_launch_mt(struct bench *b, aclrtBinHandle bin) {
    struct mt_launcher m[MT_THREADS];
    pthread_t th[MT_THREADS];
    pthread_barrier_t start;
    aclrtContext ctx;
    aclrtFuncHandle f;
    CK(aclrtGetCurrentContext(&ctx));
    CK(aclrtBinaryGetFunction(bin, "empty", &f));
    aclrtArgsHandle a = kernel_args(f, &b->dev, 1, 0, 0);
    pthread_barrier_init(&start, NULL, MT_THREADS + 1);
    for (int i = 0; i < MT_THREADS; i++) {
        m[i] = (struct mt_launcher){.ctx = ctx, .f = f, .a = a, .n = b->p.sync_iters, .start = &start};
        CK(aclrtCreateStream(&m[i].s));
        if (pthread_create(&th[i], NULL, mt_launch, &m[i]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(1);
        }
    }
    pthread_barrier_wait(&start);
    double t0 = now_ns();
    for (int i = 0; i < MT_THREADS; i++) pthread_join(th[i], NULL);
    double t1 = now_ns();
    metric("launch_mt4_throughput", MT_THREADS * (double)b->p.sync_iters / ((t1 - t0) / 1e9), "launches/s");
    pthread_barrier_destroy(&start);
    for (int i = 0; i < MT_THREADS; i++) CK(aclrtDestroyStream(m[i].s));
}

// npuemu only: the vector add launched as a user would, 40 blocks (an
// Atlas A2's vector cores) with no resource limit: the blocks run on the
// host's threads (docs/kernels.md, "Host threads").
static void bench_vector_add_40(struct bench *b, aclrtBinHandle bin) {
    size_t n = b->p.big / sizeof(float), bytes = n * sizeof(float);
    const uint32_t blocks = 40;
    aclrtFuncHandle f;
    aclrtStream s;
    void *d[3];
    CK(aclrtBinaryGetFunction(bin, "vadd", &f));
    CK(aclrtCreateStream(&s));
    for (int i = 0; i < 3; i++) CK(aclrtMalloc(&d[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CK(aclrtMemcpy(d[0], bytes, b->pageable, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CK(aclrtMemcpy(d[1], bytes, b->pageable, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtArgsHandle a = kernel_args(f, d, 3, n, 1);
    CK(aclrtLaunchKernelWithConfig(f, blocks, s, NULL, a, NULL)); // warm-up: first touch of c
    CK(aclrtSynchronizeStream(s));
    int k = b->p.bulk_iters;
    double t0 = now_ns();
    for (int i = 0; i < k; i++) CK(aclrtLaunchKernelWithConfig(f, blocks, s, NULL, a, NULL));
    CK(aclrtSynchronizeStream(s));
    double t1 = now_ns();
    metric("vector_add_40blk_16Mi_GBps", 3.0 * bytes * k / (t1 - t0), "GB/s");
    for (int i = 0; i < 3; i++) CK(aclrtFree(d[i]));
    CK(aclrtDestroyStream(s));
}

static void bench_kernels(struct bench *b) {
    char so[4200];
    build_bench_kernels(so, sizeof so);
    aclrtBinHandle bin;
    CK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    // The loaded object stays mapped; remove the file and its directory.
    unlink(so);
    *strrchr(so, '/') = 0;
    rmdir(so);
    bench_launch(b, bin);
    bench_launch_mt(b, bin);
    bench_vector_add(b, bin);
    bench_vector_add_40(b, bin);
    CK(aclrtBinaryUnLoad(bin));
}

// ---- workload table ---------------------------------------------------------

struct workload {
    const char *name;
    void (*run)(struct bench *);
};

static const struct workload workloads[] = {
    {"stream limit", bench_stream_limit}, // first: no stream of ours exists yet
    {"bulk copies", bench_bulk_copies},
    {"small copy", bench_small_copy},
    {"empty stream sync", bench_sync_empty_stream},
    {"cross-queue event", bench_cross_queue_event},
    {"kernels", bench_kernels},
};

int main(int argc, char **argv) {
    struct bench b = {.p = full, .device = 0};
    int kernels_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--first-malloc") == 0) return first_malloc_child();
        if (strcmp(argv[i], "--quick") == 0) {
            b.p = quick;
        } else if (strcmp(argv[i], "--kernels") == 0) {
            kernels_only = 1;
        } else {
            fprintf(stderr, "usage: %s [--quick] [--kernels]\n", argv[0]);
            return 2;
        }
    }
    // Measured before this process initialises ACL, so the child does not
    // compete with our own runtime's start-up.
    if (!kernels_only) bench_start_to_first_malloc(&b);

    CK(aclInit(NULL));
    CK(aclrtSetDevice(b.device));
    b.pageable = malloc(b.p.big);
    if (b.pageable == NULL) return 1;
    memset(b.pageable, 1, b.p.big);
    CK(aclrtMallocHost(&b.pinned, b.p.big));
    memset(b.pinned, 1, b.p.big);
    CK(aclrtMalloc(&b.dev, b.p.big, ACL_MEM_MALLOC_HUGE_FIRST));

    for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; i++) {
        if (kernels_only && workloads[i].run != bench_kernels) continue;
        fprintf(stderr, "npuemu_bench: %s\n", workloads[i].name);
        workloads[i].run(&b);
    }

    CK(aclrtFree(b.dev));
    CK(aclrtFreeHost(b.pinned));
    free(b.pageable);
    CK(aclrtResetDevice(b.device));
    CK(aclFinalize());
    return 0;
}
