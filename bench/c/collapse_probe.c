/* collapse_probe.c: what huge pages would give the 40-block vector add
 * where device memory's file system makes none (docs/benchmarks.md,
 * "Twenty-second session"). Device pointers are host addresses in the
 * node's window, so this program can ask the kernel itself to collapse
 * its three 64 MiB arrays into huge pages (madvise MADV_COLLAPSE) once a
 * memset and a warm-up launch have touched every page, then times 10
 * launches of 40 blocks as vector_add_40blk_16Mi_GBps does.
 *
 *   collapse_probe 0|1     with KSO=path/bench_kernels.so
 *   1: collapse first. Output: "collapse=C (MS ms) GBPS GB/s", MS the
 *   time the three madvise calls took.
 *
 * Run it with NPUEMU_NODE set to a name (a node in /dev/shm, as `go run
 * ./bench` has) and alternate 0 and 1, e.g.
 *   for r in 1 2 3 4 5 6; do for c in 0 1; do
 *     NPUEMU_NODE=probe LD_LIBRARY_PATH=emu/lib ./collapse_probe $c; done; done
 */
#include "acl/acl.h"
#include "bench_ck.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/* collapse asks for huge pages over the 2 MiB-aligned part of p..p+n. */
static void collapse(void *p, size_t n) {
    const uintptr_t huge = 2u << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + n) & ~(huge - 1);
    if (e > a && madvise((void *)a, e - a, MADV_COLLAPSE) != 0) perror("madvise(MADV_COLLAPSE)");
}

int main(int argc, char **argv) {
    if (argc < 2 || getenv("KSO") == NULL) {
        fprintf(stderr, "usage: KSO=bench_kernels.so %s 0|1\n", argv[0]);
        return 2;
    }
    int want = atoi(argv[1]);
    CK(aclInit(NULL));
    CK(aclrtSetDevice(0));
    aclrtBinHandle bin;
    CK(aclrtBinaryLoadFromFile(getenv("KSO"), NULL, &bin));
    aclrtFuncHandle f;
    CK(aclrtBinaryGetFunction(bin, "vadd", &f));
    const size_t n = 16u << 20, bytes = n * sizeof(float);
    void *d[3];
    for (int i = 0; i < 3; i++) {
        CK(aclrtMalloc(&d[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CK(aclrtMemset(d[i], bytes, 0, bytes));
    }
    aclrtArgsHandle a;
    aclrtParamHandle p;
    uint64_t nn = n;
    CK(aclrtKernelArgsInit(f, &a));
    for (int i = 0; i < 3; i++) CK(aclrtKernelArgsAppend(a, &d[i], sizeof d[i], &p));
    CK(aclrtKernelArgsAppend(a, &nn, sizeof nn, &p));
    CK(aclrtKernelArgsFinalize(a));
    aclrtStream s;
    CK(aclrtCreateStream(&s));
    CK(aclrtLaunchKernelWithConfig(f, 40, s, NULL, a, NULL)); /* warm-up */
    CK(aclrtSynchronizeStream(s));
    double c0 = now_ns();
    if (want)
        for (int i = 0; i < 3; i++) collapse(d[i], bytes);
    double c1 = now_ns();
    const int k = 10;
    double t0 = now_ns();
    for (int i = 0; i < k; i++) CK(aclrtLaunchKernelWithConfig(f, 40, s, NULL, a, NULL));
    CK(aclrtSynchronizeStream(s));
    double t1 = now_ns();
    printf("collapse=%d (%.1f ms) %.2f GB/s\n", want, (c1 - c0) / 1e6, 3.0 * bytes * k / (t1 - t0));
    CK(aclrtDestroyStream(s));
    for (int i = 0; i < 3; i++) CK(aclrtFree(d[i]));
    CK(aclrtBinaryUnLoad(bin));
    CK(aclrtResetDevice(0));
    CK(aclFinalize());
    return 0;
}
