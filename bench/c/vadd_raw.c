/* vadd_raw.c: the 40-block vector add without npuemu: c = a + b on 16 Mi
 * floats, in the same 40 slices as bench_kernels.c's vadd, taken from a
 * shared counter by one thread per CPU, over three arrays mapped as
 * npuemu maps device memory (files of a directory, MAP_SHARED), or
 * anonymous memory. 10 rounds after a warm-up one, timed as
 * vector_add_40blk_16Mi_GBps is (3 arrays per round). What the host
 * itself reaches on that memory: the ceiling of ours and of PoCL's
 * (bench/vadd-peer.sh runs the three alternated).
 *
 *   vadd_raw DIR|anon [BLOCKS [THREADS]]    prints "raw wall X GB/s"
 *
 * Built with the kernels' flags: cc -O3 -march=native -pthread.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define N (16u << 20)
#define ROUNDS 10

static float *A, *B, *C;
static int blocks = 40;
static int next_block;
static pthread_barrier_t start, done;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Block k of blocks: bench_kernels.c's slice (multiples of 16 floats). */
static void add_block(int k) {
    const float *restrict a = A;
    const float *restrict b = B;
    float *restrict c = C;
    uint64_t per = (((uint64_t)N + blocks - 1) / blocks + 15) & ~(uint64_t)15;
    uint64_t lo = per * k, hi = lo + per;
    if (lo > N) lo = N;
    if (hi > N) hi = N;
    for (uint64_t i = lo; i < hi; i++) c[i] = a[i] + b[i];
}

static void *worker(void *arg) {
    (void)arg;
    for (int r = 0; r <= ROUNDS; r++) {
        pthread_barrier_wait(&start);
        int k;
        while ((k = __atomic_fetch_add(&next_block, 1, __ATOMIC_RELAXED)) < blocks) add_block(k);
        pthread_barrier_wait(&done);
    }
    return NULL;
}

static float *array(const char *dir, int i) {
    size_t bytes = (size_t)N * sizeof(float);
    void *p;
    if (strcmp(dir, "anon") == 0) {
        p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    } else {
        char path[4096];
        snprintf(path, sizeof path, "%s/vadd_raw-%d-%d", dir, (int)getpid(), i);
        int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0) { perror(path); exit(1); }
        unlink(path);
        if (ftruncate(fd, (off_t)bytes) != 0) { perror("ftruncate"); exit(1); }
        p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
    }
    if (p == MAP_FAILED) { perror("mmap"); exit(1); }
    return p;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR|anon [BLOCKS [THREADS]]\n", argv[0]);
        return 2;
    }
    if (argc > 2) blocks = atoi(argv[2]);
    long threads = argc > 3 ? atol(argv[3]) : sysconf(_SC_NPROCESSORS_ONLN);
    if (blocks < 1 || threads < 1 || threads > 1024) {
        fprintf(stderr, "%s: bad BLOCKS or THREADS\n", argv[0]);
        return 2;
    }
    A = array(argv[1], 0);
    B = array(argv[1], 1);
    C = array(argv[1], 2);
    for (size_t i = 0; i < N; i++) A[i] = B[i] = (float)i;
    pthread_barrier_init(&start, NULL, threads + 1);
    pthread_barrier_init(&done, NULL, threads + 1);
    pthread_t *t = calloc(threads, sizeof *t);
    for (long i = 0; i < threads; i++) pthread_create(&t[i], NULL, worker, NULL);
    double t0 = 0;
    for (int r = 0; r <= ROUNDS; r++) { /* round 0: the warm-up (first touch of c) */
        next_block = 0;
        if (r == 1) t0 = now_ns();
        pthread_barrier_wait(&start);
        pthread_barrier_wait(&done);
    }
    double t1 = now_ns();
    for (long i = 0; i < threads; i++) pthread_join(t[i], NULL);
    for (size_t i = 0; i < N; i += N / 64 + 1) {
        if (C[i] != 2.0f * (float)i) {
            fprintf(stderr, "vadd_raw: c[%zu] = %g, want %g\n", i, C[i], 2.0 * i);
            return 1;
        }
    }
    printf("raw wall %.2f GB/s\n", 3.0 * N * sizeof(float) * ROUNDS / (t1 - t0));
    return 0;
}
