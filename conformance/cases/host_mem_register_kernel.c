/* host_mem_register_kernel: host memory registration (semantics.md §9): a kernel
 * reads and writes registered host memory through the device pointer,
 * without a copy; aclrtHostRegisterV2 with ACL_HOST_REG_MAPPED and
 * aclrtHostGetDevicePointer; re-registering, unregistering unknown memory
 * and misaligned pointers fail.
 *
 * needs: emulator
 */
#include "rt_util.h"

#include <stdint.h>
#include <stdlib.h>

#include "../../examples/kernels/build_kernel.h"

#define N 10000u

int main(void)
{
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = NULL;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));

    /* Three page-aligned host buffers of ordinary (malloc) memory. */
    size_t bytes = N * sizeof(float);
    size_t span = (bytes + 4095) / 4096 * 4096;
    float *a, *b, *c;
    CHECK(posix_memalign((void **)&a, 4096, span) == 0);
    CHECK(posix_memalign((void **)&b, 4096, span) == 0);
    CHECK(posix_memalign((void **)&c, 4096, span) == 0);
    for (uint32_t i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i) + 0.5f;
        c[i] = -1;
    }

    void *da = NULL, *db = NULL, *dc = NULL;
    CHECK_OK(aclrtHostRegister(a, span, ACL_HOST_REGISTER_MAPPED, &da));
    CHECK_OK(aclrtHostRegister(b, span, ACL_HOST_REGISTER_MAPPED, &db));
    CHECK(da != NULL && db != NULL);
    /* V2: register, then ask for the device pointer. */
    CHECK_OK(aclrtHostRegisterV2(c, span, ACL_HOST_REG_MAPPED));
    CHECK_OK(aclrtHostGetDevicePointer(c, &dc, 0));
    CHECK(dc != NULL);

    /* The kernel writes c = a + b straight into host memory. */
    uint64_t n = N;
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(f, &args));
    CHECK_OK(aclrtKernelArgsAppend(args, &da, sizeof da, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &db, sizeof db, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &dc, sizeof dc, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 4, s, NULL, args, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    for (uint32_t i = 0; i < N; i++)
        if (c[i] != a[i] + b[i]) FAIL("c[%u] = %g, want %g", i, c[i], a[i] + b[i]);

    /* And reads what the host writes next, still without a copy. */
    for (uint32_t i = 0; i < N; i++) a[i] = 1000.0f;
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 4, s, NULL, args, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    for (uint32_t i = 0; i < N; i++)
        if (c[i] != 1000.0f + b[i]) FAIL("second launch: c[%u] = %g, want %g", i, c[i], 1000.0f + b[i]);

    /* Bad input. */
    void *dp = NULL;
    CHECK_ERR(aclrtHostRegister(a, span, ACL_HOST_REGISTER_MAPPED, &dp), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CHECK_ERR(aclrtHostRegisterV2(c, span, ACL_HOST_REG_MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CHECK_ERR(aclrtHostRegister(NULL, span, ACL_HOST_REGISTER_MAPPED, &dp), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtHostRegister(a, 0, ACL_HOST_REGISTER_MAPPED, &dp), ACL_ERROR_INVALID_PARAM);
    char *raw = malloc(3 * 4096);
    CHECK(raw != NULL);
    char *odd = (char *)(((uintptr_t)raw + 4095) / 4096 * 4096 + 8);
    CHECK_FAILS(aclrtHostRegister(odd, 4096, ACL_HOST_REGISTER_MAPPED, &dp)); /* not 4 KiB aligned */
    CHECK_ERR(aclrtHostUnregister(odd), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    CHECK_FAILS(aclrtHostGetDevicePointer(odd, &dp, 0));
    void *pinned = NULL;
    CHECK_OK(aclrtMallocHost(&pinned, 4096));
    CHECK_FAILS(aclrtHostRegisterV2(pinned, 4096, ACL_HOST_REG_PINNED)); /* pinned already */
    CHECK_OK(aclrtFreeHost(pinned));

    aclrtHostMemMapCapability cap = (aclrtHostMemMapCapability)7;
    CHECK_OK(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, &cap));
    CHECK(cap == ACL_RT_HOST_MEM_MAP_SUPPORTED || cap == ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED);

    CHECK_OK(aclrtHostUnregister(a));
    CHECK_OK(aclrtHostUnregister(b));
    CHECK_OK(aclrtHostUnregister(c));
    CHECK_ERR(aclrtHostUnregister(c), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);

    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    free(raw);
    free(a);
    free(b);
    free(c);
    return 0;
}
