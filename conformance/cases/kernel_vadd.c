/* kernel_vadd: load an npuemu kernel binary from a file and from memory,
 * look its kernels up, build arguments, launch with aclrtLaunchKernelWithConfig
 * and aclrtLaunchKernel, check the results of fp32 and fp16 vector adds and
 * the function queries.
 *
 * needs: emulator
 */
#include <stdint.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

#define N 100003u /* not a multiple of the block count */

static uint16_t half(int v) { /* small integers are exact in fp16 */
    if (v == 0) return 0;
    int e = 0;
    while ((1 << (e + 1)) <= v) e++;
    uint32_t m = ((uint32_t)v << (10 - e)) & 0x3ff;
    return (uint16_t)(((e + 15) << 10) | m);
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));

    aclrtBinHandle bin = NULL;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK(bin != NULL);
    aclrtFuncHandle f32, f16;
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f32));
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f16", &f16));
    CHECK(f32 != f16);

    /* Function queries. */
    char name[32];
    CHECK_OK(aclrtGetFunctionName(f32, sizeof name, name));
    CHECK(strcmp(name, "vadd_f32") == 0);
    CHECK_ERR(aclrtGetFunctionName(f32, 4, name), ACL_ERROR_INVALID_PARAM);
    int64_t v = -1;
    CHECK_OK(aclrtGetFunctionAttribute(f32, ACL_FUNC_ATTR_KERNEL_TYPE, &v));
    CHECK_EQ(v, ACL_KERNEL_TYPE_VECTOR);
    aclrtBinHandle back = NULL;
    CHECK_OK(aclrtFunctionGetBinary(f16, &back));
    CHECK(back == bin);
    void *aic = (void *)1, *aiv = NULL;
    CHECK_OK(aclrtGetFunctionAddr(f32, &aic, &aiv));
    CHECK(aic == NULL && aiv != NULL);

    /* fp32 through an args handle. */
    size_t bytes = N * sizeof(float);
    float *ha, *hb, *hc;
    CHECK_OK(aclrtMallocHost((void **)&ha, bytes));
    CHECK_OK(aclrtMallocHost((void **)&hb, bytes));
    CHECK_OK(aclrtMallocHost((void **)&hc, bytes));
    for (uint32_t i = 0; i < N; i++) {
        ha[i] = (float)i;
        hb[i] = (float)(3 * i) + 0.25f;
    }
    void *da, *db, *dc;
    CHECK_OK(aclrtMalloc(&da, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&db, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dc, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(da, bytes, ha, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(db, bytes, hb, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemset(dc, bytes, 0, bytes));

    uint64_t n = N;
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(f32, &args));
    CHECK_OK(aclrtKernelArgsAppend(args, &da, sizeof da, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &db, sizeof db, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &dc, sizeof dc, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));
    aclrtLaunchKernelAttr attr = {.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE};
    attr.value.schemMode = 1;
    aclrtLaunchKernelCfg cfg = {.attrs = &attr, .numAttrs = 1};
    CHECK_OK(aclrtLaunchKernelWithConfig(f32, 7, s, &cfg, args, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(hc, bytes, dc, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < N; i++)
        if (hc[i] != ha[i] + hb[i]) FAIL("fp32 c[%u] = %g, want %g", i, hc[i], ha[i] + hb[i]);

    /* The same kernel with the packed arguments in device memory. */
    uint64_t packed[4] = {(uintptr_t)db, (uintptr_t)db, (uintptr_t)dc, n};
    void *dargs;
    CHECK_OK(aclrtMalloc(&dargs, sizeof packed, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(dargs, sizeof packed, packed, sizeof packed, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtLaunchKernel(f32, 3, dargs, sizeof packed, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(hc, bytes, dc, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < N; i++)
        if (hc[i] != 2 * hb[i]) FAIL("b+b c[%u] = %g, want %g", i, hc[i], 2 * hb[i]);
    CHECK_ERR(aclrtLaunchKernel(f32, 3, ha, sizeof packed, s), ACL_ERROR_INVALID_PARAM); /* host memory */

    /* fp16 from a binary loaded from memory. */
    FILE *fp = fopen(so, "rb");
    CHECK(fp != NULL);
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *image = malloc((size_t)len);
    CHECK(fread(image, 1, (size_t)len, fp) == (size_t)len);
    fclose(fp);
    npuemu_remove_kernel(so);
    aclrtBinHandle bin2;
    CHECK_OK(aclrtBinaryLoadFromData(image, (size_t)len, NULL, &bin2));
    free(image);
    CHECK(bin2 != bin);
    aclrtFuncHandle g16;
    CHECK_OK(aclrtBinaryGetFunction(bin2, "vadd_f16", &g16));
    uint16_t *h16 = (uint16_t *)ha;
    for (uint32_t i = 0; i < N; i++) h16[i] = half((int)(i % 500));
    CHECK_OK(aclrtMemcpy(da, bytes, h16, N * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtArgsHandle a16;
    CHECK_OK(aclrtKernelArgsInit(g16, &a16));
    CHECK_OK(aclrtKernelArgsAppend(a16, &da, sizeof da, &p));
    CHECK_OK(aclrtKernelArgsAppend(a16, &da, sizeof da, &p));
    CHECK_OK(aclrtKernelArgsAppend(a16, &dc, sizeof dc, &p));
    CHECK_OK(aclrtKernelArgsAppend(a16, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(a16));
    CHECK_OK(aclrtLaunchKernelWithConfig(g16, 16, s, NULL, a16, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    uint16_t *o16 = (uint16_t *)hc;
    CHECK_OK(aclrtMemcpy(o16, bytes, dc, N * 2, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < N; i++)
        if (o16[i] != half((int)(2 * (i % 500)))) FAIL("fp16 c[%u] = %#x, want %#x", i, o16[i], half((int)(2 * (i % 500))));

    /* Unloading kills the handles. */
    CHECK_OK(aclrtBinaryUnLoad(bin2));
    CHECK_ERR(aclrtLaunchKernelWithConfig(g16, 1, s, NULL, a16, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_ERR(aclrtBinaryUnLoad(bin2), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_OK(aclrtBinaryUnLoad(bin));

    CHECK_OK(aclrtFree(dargs));
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(db));
    CHECK_OK(aclrtFree(dc));
    CHECK_OK(aclrtFreeHost(ha));
    CHECK_OK(aclrtFreeHost(hb));
    CHECK_OK(aclrtFreeHost(hc));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
