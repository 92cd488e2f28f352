//go:build ignore

/* vector_add.c: c = a + b over 16 Mi floats on an npuemu AI Core kernel.
 *
 *   cc -shared -fPIC -O2 -I emu/include examples/kernels/vadd.c -o vadd.so
 *   cc -O2 -I emu/include examples/vector_add.c -L emu/lib -lascendcl -o vector_add
 *   LD_LIBRARY_PATH=emu/lib ./vector_add vadd.so
 *
 * Without an argument it builds examples/kernels/vadd.c itself (with $CC,
 * default cc), which is how the examples runner runs it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "kernels/build_kernel.h"

#define CHECK(call)                                                                     \
    do {                                                                                \
        aclError e_ = (call);                                                           \
        if (e_ != ACL_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s = %d (%s)\n", __FILE__, __LINE__, #call, (int)e_, \
                    aclGetRecentErrMsg());                                              \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

int main(int argc, char **argv) {
    const uint64_t n = 16u << 20;
    const size_t bytes = n * sizeof(float);
    const uint32_t blocks = 40;

    char so[4096];
    int built = 0;
    if (argc > 1) {
        snprintf(so, sizeof so, "%s", argv[1]);
    } else {
        char repo[4096];
        npuemu_repo_of(__FILE__, 1, repo, sizeof repo);
        if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) return 1;
        built = 1;
    }

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));

    float *ha, *hb, *hc;
    CHECK(aclrtMallocHost((void **)&ha, bytes));
    CHECK(aclrtMallocHost((void **)&hb, bytes));
    CHECK(aclrtMallocHost((void **)&hc, bytes));
    for (uint64_t i = 0; i < n; i++) {
        ha[i] = (float)i;
        hb[i] = 0.5f * (float)(i % 1000);
    }
    void *da, *db, *dc;
    CHECK(aclrtMalloc(&da, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&db, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dc, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(da, bytes, ha, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(db, bytes, hb, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    aclrtBinHandle bin;
    CHECK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    if (built) npuemu_remove_kernel(so); /* loaded: the file is no longer needed */
    aclrtFuncHandle fn;
    CHECK(aclrtBinaryGetFunction(bin, "vadd_f32", &fn));

    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK(aclrtKernelArgsInit(fn, &args));
    CHECK(aclrtKernelArgsAppend(args, &da, sizeof da, &p));
    CHECK(aclrtKernelArgsAppend(args, &db, sizeof db, &p));
    CHECK(aclrtKernelArgsAppend(args, &dc, sizeof dc, &p));
    CHECK(aclrtKernelArgsAppend(args, (void *)&n, sizeof n, &p));
    CHECK(aclrtKernelArgsFinalize(args));

    aclrtEvent start, end;
    CHECK(aclrtCreateEvent(&start));
    CHECK(aclrtCreateEvent(&end));
    CHECK(aclrtRecordEvent(start, stream));
    CHECK(aclrtLaunchKernelWithConfig(fn, blocks, stream, NULL, args, NULL));
    CHECK(aclrtRecordEvent(end, stream));
    CHECK(aclrtSynchronizeStream(stream));
    float ms = 0;
    CHECK(aclrtEventElapsedTime(&ms, start, end));

    CHECK(aclrtMemcpy(hc, bytes, dc, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (hc[i] != ha[i] + hb[i]) {
            if (bad++ < 5) fprintf(stderr, "c[%llu] = %g, want %g\n", (unsigned long long)i, hc[i], ha[i] + hb[i]);
        }
    }
    printf("vector_add: %llu floats, %u blocks, %llu wrong, %.3f ms on the device clock\n",
           (unsigned long long)n, blocks, (unsigned long long)bad, ms);

    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyEvent(start));
    CHECK(aclrtDestroyEvent(end));
    CHECK(aclrtFree(da));
    CHECK(aclrtFree(db));
    CHECK(aclrtFree(dc));
    CHECK(aclrtFreeHost(ha));
    CHECK(aclrtFreeHost(hb));
    CHECK(aclrtFreeHost(hc));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return bad == 0 ? 0 : 1;
}
