/* memcpy_mt.c: the machine's memcpy bandwidth with every CPU the process
 * may use (its affinity mask, so `taskset` counts): T threads each copy
 * their slice of a 64 MiB buffer, 20 times, between two barriers; bytes are
 * counted as limits.c counts them (bytes copied, once). The reference of
 * issue #15's "≥ 70 % of the machine's memcpy bandwidth" (bench/scaling.sh).
 *   memcpy_mt [THREADS]    prints "memcpy_mt_64MiB_GBps VALUE GB/s"
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { REPS = 20 };
static size_t big = 64u << 20;
static char *src, *dst;
static int nthreads;
static pthread_barrier_t bar;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void *worker(void *p) {
    size_t i = (size_t)p, slice = big / nthreads;
    size_t off = i * slice, n = i == (size_t)nthreads - 1 ? big - off : slice;
    memset(src + off, 1, n); /* first touch by the copying thread */
    memset(dst + off, 2, n);
    for (int r = 0; r <= REPS; r++) {
        pthread_barrier_wait(&bar);
        memcpy(dst + off, src + off, n);
    }
    pthread_barrier_wait(&bar);
    return NULL;
}

int main(int argc, char **argv) {
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    nthreads = argc > 1 ? atoi(argv[1]) : CPU_COUNT(&set);
    if (nthreads < 1) nthreads = 1;
    src = malloc(big);
    dst = malloc(big);
    pthread_t th[1024];
    if (nthreads > 1024) nthreads = 1024;
    pthread_barrier_init(&bar, NULL, nthreads + 1);
    for (int i = 0; i < nthreads; i++) pthread_create(&th[i], NULL, worker, (void *)(size_t)i);
    pthread_barrier_wait(&bar); /* warm-up copy starts */
    pthread_barrier_wait(&bar); /* warm-up done, timed copies start */
    double t0 = now_ns();
    for (int r = 1; r < REPS; r++) pthread_barrier_wait(&bar);
    pthread_barrier_wait(&bar); /* the last copy is done */
    double t1 = now_ns();
    for (int i = 0; i < nthreads; i++) pthread_join(th[i], NULL);
    printf("memcpy_mt_64MiB_GBps %.2f GB/s\n", (double)big * REPS / (t1 - t0));
    return 0;
}
