/* managed_mprotect: host-side faults with NPUEMU_SVM_HOST_FAULTS=mprotect. A
 * host touch of a page a device owns traps, the page comes back to the
 * host and the access resumes with the right data; a kernel's own accesses
 * never trap; a fault outside managed memory is still a crash, and a
 * kernel's is still an exception.
 *
 * needs: emulator
 * env: NPUEMU_HBM_BYTES=33554432 NPUEMU_SVM_HOST_FAULTS=mprotect
 */
#include <stdint.h>

#include "check.h"
#include "npuemu/svm.h"
#include "../../examples/kernels/build_kernel.h"

#define HBM (32u << 20)
#define PAGE (2u << 20)

static struct npuemu_svm_stats stats(int32_t dev) {
    struct npuemu_svm_stats s;
    CHECK_OK(npuemuSvmGetStats(dev, &s));
    return s;
}

static void launch(aclrtFuncHandle f, aclrtStream s, float *a, float *c, uint64_t n) {
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(f, &args));
    CHECK_OK(aclrtKernelArgsAppend(args, &a, sizeof a, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &a, sizeof a, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &c, sizeof c, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 4, s, NULL, args, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_EQ(strcmp(npuemuSvmHostFaultMode(), "mprotect"), 0);
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));

    /* a: 4 pages the host fills; c: 4 pages the kernel writes. */
    const uint64_t bytes = 4ull * PAGE, n = bytes / sizeof(float);
    float *a = NULL, *c = NULL;
    CHECK_OK(aclrtMemAllocManaged((void **)&a, bytes, ACL_RT_MEM_ATTACH_GLOBAL));
    CHECK_OK(aclrtMemAllocManaged((void **)&c, bytes, ACL_RT_MEM_ATTACH_GLOBAL));
    for (uint64_t i = 0; i < n; i++) a[i] = (float)(i & 0xffff);
    struct npuemu_svm_stats h0 = stats(NPUEMU_SVM_HOST);
    CHECK_EQ(h0.faults, 0);

    launch(f, s, a, c, n);
    struct npuemu_svm_stats d1 = stats(0), h1 = stats(NPUEMU_SVM_HOST);
    CHECK_EQ(d1.faults, 8);
    CHECK_EQ(d1.resident_bytes, 8ull * PAGE);
    CHECK_EQ(h1.faults, 0);
    CHECK_EQ(h1.host_signals, 0); /* the kernel's own accesses do not trap */

    /* Host reads of c trap once per page; the pages come home. */
    for (uint64_t i = 0; i < n; i++)
        if (c[i] != 2.0f * (float)(i & 0xffff)) FAIL("c[%llu] = %g", (unsigned long long)i, c[i]);
    struct npuemu_svm_stats d2 = stats(0), h2 = stats(NPUEMU_SVM_HOST);
    CHECK_EQ(h2.faults, 4);
    CHECK_EQ(h2.host_signals, 4);
    CHECK_EQ(d2.resident_bytes, 4ull * PAGE); /* a is still on the device */
    CHECK_EQ(d2.bytes_dtoh - d1.bytes_dtoh, 4ull * PAGE); /* c was dirty */

    /* A host write to one page of a: one more fault, one page home. */
    a[5] = 7.0f;
    struct npuemu_svm_stats h3 = stats(NPUEMU_SVM_HOST);
    CHECK_EQ(h3.faults, 5);
    CHECK_EQ(stats(0).resident_bytes, 3ull * PAGE);
    CHECK(a[5] == 7.0f);

    /* Prefetch to the device protects again; the next host read traps. */
    aclrtMemManagedLocation dev0 = {.type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0};
    CHECK_OK(aclrtMemManagedPrefetchAsync(c, bytes, dev0, 0, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK(c[n - 1] == 2.0f * (float)((n - 1) & 0xffff));
    CHECK_EQ(stats(NPUEMU_SVM_HOST).faults, 6);

    /* aclrtMemcpy from managed memory on the device is a device access: no
     * trap, data right. */
    float *d = NULL, h[4];
    CHECK_OK(aclrtMalloc((void **)&d, 4 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(d, sizeof h, a + 4, sizeof h, ACL_MEMCPY_DEFAULT));
    CHECK_OK(aclrtMemcpy(h, sizeof h, d, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(h[1] == 7.0f && h[0] == 4.0f);

    /* A kernel that reaches a device-owned managed page its arguments do
     * not point into (an offset from another buffer) traps in the handler
     * and is served as a device access: no exception. The same kernel
     * writing outside every mapping, or into freed managed memory, still
     * raises the AI Core exception. */
    if (npuemu_build_kernel(repo, "examples/kernels/oob.c", so, sizeof so) != 0) FAIL("cannot build oob.c");
    aclrtBinHandle ob;
    aclrtFuncHandle oob;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &ob));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(ob, "oob_write", &oob));
    uint32_t *e = NULL;
    CHECK_OK(aclrtMemAllocManaged((void **)&e, PAGE, ACL_RT_MEM_ATTACH_GLOBAL));
    e[0] = 1;
    CHECK_OK(aclrtMemManagedPrefetchAsync(e, PAGE, dev0, 0, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    uint64_t sig0 = stats(NPUEMU_SVM_HOST).host_signals;
    int64_t offs[2] = {(int64_t)((uintptr_t)e - (uintptr_t)d), (int64_t)1 << 52};
    for (int k = 0; k < 3; k++) {
        aclrtArgsHandle args;
        aclrtParamHandle p;
        CHECK_OK(aclrtKernelArgsInit(oob, &args));
        CHECK_OK(aclrtKernelArgsAppend(args, &d, sizeof d, &p));
        CHECK_OK(aclrtKernelArgsAppend(args, &offs[k == 2 ? 0 : k], sizeof offs[0], &p));
        CHECK_OK(aclrtKernelArgsFinalize(args));
        CHECK_OK(aclrtLaunchKernelWithConfig(oob, 1, s, NULL, args, NULL));
        if (k == 0) {
            CHECK_OK(aclrtSynchronizeStream(s));
            CHECK_EQ(stats(NPUEMU_SVM_HOST).host_signals, sig0 + 1);
            CHECK_EQ(e[0], 0xdeadbeefu);
            /* Send it back to the device and free it: stale now. */
            CHECK_OK(aclrtMemManagedPrefetchAsync(e, PAGE, dev0, 0, s));
            CHECK_OK(aclrtSynchronizeStream(s));
            CHECK_OK(aclrtFree(e));
        } else {
            CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
        }
    }
    CHECK_OK(aclrtBinaryUnLoad(ob));
    CHECK_OK(aclrtFree(d));

    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(c));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
