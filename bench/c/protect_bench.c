// protect_bench: what device memory protection costs (docs/hardening.md,
// "Device memory is protected"). Prints "metric value unit" lines: median
// of a launch + synchronize of a one-block kernel, a 4 KiB and a 64 MiB
// host-to-device aclrtMemcpy, and a 2 MiB aclrtMalloc + aclrtFree. Run it
// with NPUEMU_PROTECT=1 and =0 alternately (bench/protect.sh).
//
//   protect_bench KERNEL.so    (examples/kernels/oob.c built with npuemu_build_kernel)
#include "acl/acl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK(x)                                                                              \
    do {                                                                                   \
        aclError e_ = (x);                                                                 \
        if (e_ != ACL_SUCCESS) {                                                           \
            fprintf(stderr, "%s:%d %s = %d (%s)\n", __FILE__, __LINE__, #x, (int)e_, aclGetRecentErrMsg()); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp);
    return v[n / 2];
}

enum { N = 401 };

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s oob_kernel.so\n", argv[0]);
        return 2;
    }
    static double t[N];
    CK(aclInit(NULL));
    CK(aclrtSetDevice(0));
    aclrtStream s;
    CK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CK(aclrtBinaryGetFunction(bin, "oob_write", &f));
    void *buf;
    CK(aclrtMalloc(&buf, 64u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    int64_t off = 0;
    aclrtArgsHandle h;
    aclrtParamHandle p;
    CK(aclrtKernelArgsInit(f, &h));
    CK(aclrtKernelArgsAppend(h, &buf, sizeof buf, &p));
    CK(aclrtKernelArgsAppend(h, &off, sizeof off, &p));
    CK(aclrtKernelArgsFinalize(h));
    for (int i = 0; i < N; i++) {
        double t0 = now_us();
        CK(aclrtLaunchKernelWithConfig(f, 1, s, NULL, h, NULL));
        CK(aclrtSynchronizeStream(s));
        t[i] = now_us() - t0;
    }
    printf("launch_sync %.3f us\n", median(t, N));

    char *host = malloc(64u << 20);
    memset(host, 1, 64u << 20);
    for (int i = 0; i < N; i++) {
        double t0 = now_us();
        CK(aclrtMemcpy(buf, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
        t[i] = now_us() - t0;
    }
    printf("h2d_4KiB %.3f us\n", median(t, N));
    for (int i = 0; i < 15; i++) {
        double t0 = now_us();
        CK(aclrtMemcpy(buf, 64u << 20, host, 64u << 20, ACL_MEMCPY_HOST_TO_DEVICE));
        t[i] = now_us() - t0;
    }
    printf("h2d_64MiB %.3f us\n", median(t, 15));
    for (int i = 0; i < N; i++) {
        void *m;
        double t0 = now_us();
        CK(aclrtMalloc(&m, 2u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
        CK(aclrtFree(m));
        t[i] = now_us() - t0;
    }
    printf("malloc_free_2MiB %.3f us\n", median(t, N));
    for (int i = 0; i < N; i++) {
        void *m;
        double t0 = now_us();
        CK(aclrtMalloc(&m, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
        CK(aclrtFree(m));
        t[i] = now_us() - t0;
    }
    printf("malloc_free_4KiB %.3f us\n", median(t, N));
    free(host);
    CK(aclrtFree(buf));
    CK(aclrtBinaryUnLoad(bin));
    CK(aclrtDestroyStream(s));
    CK(aclrtResetDevice(0));
    CK(aclFinalize());
    return 0;
}
