/* managed_uffd: host-side faults with NPUEMU_SVM_HOST_FAULTS=userfaultfd-wp. A
 * host write to a page a device holds blocks in the kernel until the
 * runtime's userfaultfd handler has migrated the page back to the host,
 * then resumes with the right data; host reads are not trapped in this mode
 * (they see the one backing store) and a kernel's own accesses never trap.
 * Where the kernel or the sandbox refuses userfaultfd write-protect, the
 * mode in use is the fallback and the case skips, saying so.
 *
 * needs: emulator
 * env: NPUEMU_HBM_BYTES=33554432 NPUEMU_SVM_HOST_FAULTS=userfaultfd-wp
 */
#include <stdint.h>

#include "check.h"
#include "npuemu/svm.h"
#include "../../examples/kernels/build_kernel.h"

#define PAGE (2u << 20)

static struct npuemu_svm_stats stats(int32_t dev) {
    struct npuemu_svm_stats s;
    CHECK_OK(npuemuSvmGetStats(dev, &s));
    return s;
}

int main(void) {
    const char *mode = npuemuSvmHostFaultMode();
    CHECK(mode != NULL);
    if (strcmp(mode, "userfaultfd-wp") != 0) SKIP("userfaultfd write-protect refused here; host faults use %s", mode);

    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));

    /* a: 4 pages the host fills; c: 4 pages the kernel writes. */
    uint64_t bytes = 4ull * PAGE, n = bytes / sizeof(float);
    float *a = NULL, *c = NULL;
    CHECK_OK(aclrtMemAllocManaged((void **)&a, bytes, ACL_RT_MEM_ATTACH_GLOBAL));
    CHECK_OK(aclrtMemAllocManaged((void **)&c, bytes, ACL_RT_MEM_ATTACH_GLOBAL));
    for (uint64_t i = 0; i < n; i++) a[i] = (float)(i & 0xffff);
    CHECK_EQ(stats(NPUEMU_SVM_HOST).faults, 0);

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
    CHECK_EQ(stats(0).faults, 8);
    CHECK_EQ(stats(0).resident_bytes, 8ull * PAGE);
    CHECK_EQ(stats(NPUEMU_SVM_HOST).faults, 0); /* the kernel's own accesses do not trap */

    /* Host reads of c are not trapped in this mode, and see the results. */
    for (uint64_t i = 0; i < n; i++)
        if (c[i] != 2.0f * (float)(i & 0xffff)) FAIL("c[%llu] = %g", (unsigned long long)i, c[i]);
    CHECK_EQ(stats(NPUEMU_SVM_HOST).faults, 0);
    CHECK_EQ(stats(0).resident_bytes, 8ull * PAGE);
    CHECK_EQ(stats(NPUEMU_SVM_HOST).host_signals, 0); /* no signal handler involved */

    /* A host write to each page of c: one fault each, the pages come home
     * (dirty: written back), the writes land. */
    struct npuemu_svm_stats d1 = stats(0);
    for (int k = 0; k < 4; k++) c[(size_t)k * (PAGE / sizeof(float)) + 3] = -1.0f;
    struct npuemu_svm_stats h2 = stats(NPUEMU_SVM_HOST), d2 = stats(0);
    CHECK_EQ(h2.faults, 4);
    CHECK_EQ(d2.resident_bytes, 4ull * PAGE);
    CHECK_EQ(d2.bytes_dtoh - d1.bytes_dtoh, 4ull * PAGE);
    CHECK(c[3] == -1.0f && c[4] == 8.0f);
    c[5] = 0; /* host-owned now: no fault */
    CHECK_EQ(stats(NPUEMU_SVM_HOST).faults, 4);

    /* Read-mostly: a device duplicate keeps host reads in place; a host
     * write collapses it. */
    CHECK_OK(aclrtMemManagedAdvise(c, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, (aclrtMemManagedLocation){.type = ACL_MEM_LOCATIONTYPE_HOST}));
    aclrtMemManagedLocation dev0 = {.type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0};
    CHECK_OK(aclrtMemManagedPrefetchAsync(c, PAGE, dev0, 0, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK(c[3] == -1.0f);
    c[3] = 1.5f;
    CHECK_EQ(stats(NPUEMU_SVM_HOST).faults, 5);
    CHECK(c[3] == 1.5f);

    /* Freed while on the device, then reused: the new allocation is
     * plain host memory. */
    CHECK_OK(aclrtMemManagedPrefetchAsync(a, bytes, dev0, 0, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtFree(a));
    float *b = NULL;
    CHECK_OK(aclrtMemAllocManaged((void **)&b, bytes, ACL_RT_MEM_ATTACH_GLOBAL));
    for (uint64_t i = 0; i < n; i += 1024) b[i] = 1.0f;
    CHECK_EQ(stats(NPUEMU_SVM_HOST).faults, 5);

    CHECK_OK(aclrtFree(b));
    CHECK_OK(aclrtFree(c));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
