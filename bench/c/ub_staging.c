/* ub_staging.c: what staging through local memory costs the host, without
 * npuemu. The shape of bench/ascendc_vadd/vadd_bench.cpp in plain C:
 * c = a + b over 16 Mi floats in 8 blocks, blocks taken from a shared
 * counter by THREADS threads, each block in tiles of 16 KiB, over three
 * arrays in one memfd mapped MAP_SHARED (as npuemu maps device memory).
 * Modes:
 *   fused   one pass: c = a + b with streaming stores (the plain kernel);
 *   staged  what an Ascend C kernel does per tile: copy the a and b tiles
 *           into two buffers (DataCopy GM -> UB, memcpy), add them into a
 *           third (Add), copy it out with streaming stores (DataCopy
 *           UB -> GM, as npuemu's copy_stream);
 *   ahead   staged, and the add also prefetches the next a and b tiles,
 *           one line of each per 16 floats it adds (a copy engine that
 *           fetches the next tile while the vector unit computes).
 * 10 rounds after a warm-up one, 3 arrays moved per round, as the Ascend
 * C benchmark counts them.
 *
 *   ub_staging fused|staged|ahead [THREADS]   prints "MODE X GB/s"
 *
 * Built as the device pass builds the vector loops:
 *   cc -O3 -mavx2 -pthread -o ub_staging bench/c/ub_staging.c
 */
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define N (16u << 20)
#define BLOCKS 8
#define TILE 4096 /* floats: 16 KiB */
#define ROUNDS 10

static float *A, *B, *C;
static int mode; /* 0 fused, 1 staged, 2 ahead */
static int next_block;

static void copy_out(float *d, const float *s) {
    for (int k = 0; k < TILE; k += 8) _mm256_stream_ps(d + k, _mm256_loadu_ps(s + k));
    _mm_sfence();
}

static void block(int blk, float *ux, float *uy, float *uz) {
    size_t per = N / BLOCKS;
    const float *a = A + blk * per, *b = B + blk * per;
    float *c = C + blk * per;
    for (size_t i = 0; i < per; i += TILE) {
        if (mode == 0) {
            for (int k = 0; k < TILE; k += 8)
                _mm256_stream_ps(c + i + k, _mm256_add_ps(_mm256_loadu_ps(a + i + k), _mm256_loadu_ps(b + i + k)));
            continue;
        }
        memcpy(ux, a + i, TILE * sizeof(float));
        memcpy(uy, b + i, TILE * sizeof(float));
        if (mode == 2 && i + TILE < per) {
            for (int k = 0; k < TILE; k += 16) {
                __builtin_prefetch(a + i + TILE + k, 0, 3);
                __builtin_prefetch(b + i + TILE + k, 0, 3);
                for (int q = k; q < k + 16; q++) uz[q] = ux[q] + uy[q];
            }
        } else {
            for (int k = 0; k < TILE; k++) uz[k] = ux[k] + uy[k];
        }
        copy_out(c + i, uz);
    }
}

static void *worker(void *arg) {
    (void)arg;
    float *u = aligned_alloc(64, 3 * TILE * sizeof(float));
    int b;
    while ((b = __atomic_fetch_add(&next_block, 1, __ATOMIC_RELAXED)) < BLOCKS) block(b, u, u + TILE, u + 2 * TILE);
    free(u);
    return NULL;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void round_of(int threads) {
    pthread_t th[64];
    next_block = 0;
    for (int t = 0; t < threads; t++) pthread_create(&th[t], NULL, worker, NULL);
    for (int t = 0; t < threads; t++) pthread_join(th[t], NULL);
}

int main(int argc, char **argv) {
    static const char *names[] = {"fused", "staged", "ahead"};
    mode = -1;
    for (int m = 0; argc > 1 && m < 3; m++)
        if (strcmp(argv[1], names[m]) == 0) mode = m;
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    if (mode < 0 || threads < 1 || threads > 64) {
        fprintf(stderr, "usage: ub_staging fused|staged|ahead [THREADS 1..64]\n");
        return 2;
    }
    size_t bytes = (size_t)N * sizeof(float);
    int fd = memfd_create("ub_staging", 0);
    if (fd < 0 || ftruncate(fd, 3 * bytes) != 0) {
        perror("memfd");
        return 1;
    }
    A = mmap(NULL, 3 * bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (A == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    B = A + N;
    C = B + N;
    for (size_t i = 0; i < N; i++) A[i] = (float)(i % 1000), B[i] = 0.5f;
    round_of(threads); /* warm-up: C's pages */
    double t0 = now();
    for (int r = 0; r < ROUNDS; r++) round_of(threads);
    double t = now() - t0;
    for (size_t i = 0; i < N; i += 4099) {
        if (C[i] != (float)(i % 1000) + 0.5f) {
            fprintf(stderr, "ub_staging: c[%zu] = %g\n", i, C[i]);
            return 1;
        }
    }
    printf("%s %.2f GB/s\n", names[mode], 3.0 * bytes * ROUNDS / t / 1e9);
    return 0;
}
