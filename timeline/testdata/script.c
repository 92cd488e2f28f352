//go:build ignore

/* script.c: the scripted program of timeline_test.go. Two streams, one
 * event, one kernel, copies:
 *
 *   stream a: copy H2D (x), copy H2D (y), record e
 *   stream b: wait e, kernel vadd_f32 (8 blocks), copy D2H (z)
 *
 * Usage: script KERNEL.so */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"

#define CHECK_OK(x)                                                        \
    do {                                                                   \
        aclError e_ = (x);                                                 \
        if (e_ != ACL_SUCCESS) {                                           \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

#define N 4096

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream a, b;
    CHECK_OK(aclrtCreateStream(&a));
    CHECK_OK(aclrtCreateStream(&b));
    aclrtEvent e;
    CHECK_OK(aclrtCreateEvent(&e));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryLoadFromFile(argv[1], NULL, &bin));
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));

    size_t bytes = N * sizeof(float);
    float *h;
    void *d[3];
    CHECK_OK(aclrtMallocHost((void **)&h, bytes));
    for (int i = 0; i < N; i++) h[i] = (float)i;
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtMalloc(&d[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtArgsHandle args;
    aclrtParamHandle p;
    uint64_t n = N;
    CHECK_OK(aclrtKernelArgsInit(f, &args));
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtKernelArgsAppend(args, &d[i], sizeof d[i], &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));

    CHECK_OK(aclrtMemcpyAsync(d[0], bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, a));
    CHECK_OK(aclrtMemcpyAsync(d[1], bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, a));
    CHECK_OK(aclrtRecordEvent(e, a));
    CHECK_OK(aclrtStreamWaitEvent(b, e));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 8, b, NULL, args, NULL));
    CHECK_OK(aclrtMemcpyAsync(h, bytes, d[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST, b));
    CHECK_OK(aclrtSynchronizeStream(b));
    if (h[N - 1] != 2.0f * (float)(N - 1)) {
        fprintf(stderr, "wrong result %f\n", h[N - 1]);
        return 1;
    }
    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtFree(d[i]));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(a));
    CHECK_OK(aclrtDestroyStream(b));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
