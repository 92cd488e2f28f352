/* managed_oversub: a managed buffer twice the device's memory, filled by the
 * host, doubled in place by a kernel, read back; the device evicts its
 * least recently used pages to make room, and a second pass over the
 * buffer thrashes (explicit host fault mode, the default).
 *
 * needs: emulator
 * env: NPUEMU_HBM_BYTES=33554432 NPUEMU_SVM_HOST_FAULTS=explicit
 */
#include <dlfcn.h>
#include <stdint.h>

#include "check.h"
#include "npuemu/svm.h"
#include "../../examples/kernels/build_kernel.h"

#define HBM (32u << 20)
#define PAGE (2u << 20)
#define PAGES (2 * HBM / PAGE)

static struct npuemu_svm_stats stats(int32_t dev) {
    struct npuemu_svm_stats s;
    CHECK_OK(npuemuSvmGetStats(dev, &s));
    return s;
}

static void launch(aclrtFuncHandle f, aclrtStream s, float *buf, uint64_t n) {
    aclrtArgsHandle args;
    aclrtParamHandle p;
    CHECK_OK(aclrtKernelArgsInit(f, &args));
    CHECK_OK(aclrtKernelArgsAppend(args, &buf, sizeof buf, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &buf, sizeof buf, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &buf, sizeof buf, &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 8, s, NULL, args, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_EQ(strcmp(npuemuSvmHostFaultMode(), "explicit"), 0);
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));

    size_t fr = 0, total = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &total));
    CHECK_EQ(total, HBM);

    const uint64_t bytes = 2ull * HBM, n = bytes / sizeof(float);
    float *buf = NULL;
    CHECK_OK(aclrtMemAllocManaged((void **)&buf, bytes, ACL_RT_MEM_ATTACH_GLOBAL));
    for (uint64_t i = 0; i < n; i++) buf[i] = (float)(i % 1000003);
    struct npuemu_svm_stats d0 = stats(0);
    CHECK_EQ(d0.faults, 0);
    CHECK_EQ(d0.resident_bytes, 0);

    /* The kernel's footprint is the whole buffer: every page faults in,
     * the second half evicts the first. */
    launch(f, s, buf, n);
    struct npuemu_svm_stats d1 = stats(0);
    CHECK_EQ(d1.faults, PAGES);
    CHECK_EQ(d1.evictions, PAGES - HBM / PAGE);
    CHECK_EQ(d1.bytes_htod, bytes);
    /* Dirty victims are written back when evicted, the pages still
     * resident at the stream synchronize (explicit mode): all of them. */
    CHECK_EQ(d1.bytes_dtoh, bytes);
    CHECK_EQ(d1.resident_bytes, HBM);
    /* Managed pages take the device's memory: none is free. */
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &total));
    CHECK_EQ(fr, 0);
    for (uint64_t i = 0; i < n; i++)
        if (buf[i] != 2.0f * (float)(i % 1000003)) FAIL("buf[%llu] = %g after one pass", (unsigned long long)i, buf[i]);

    /* A second pass: sequential access larger than the device thrashes. */
    launch(f, s, buf, n);
    struct npuemu_svm_stats d2 = stats(0);
    CHECK_EQ(d2.faults - d1.faults, PAGES);
    CHECK_EQ(d2.thrash - d1.thrash, PAGES);
    CHECK(d2.evictions - d1.evictions == PAGES);
    for (uint64_t i = 0; i < n; i++)
        if (buf[i] != 4.0f * (float)(i % 1000003)) FAIL("buf[%llu] = %g after two passes", (unsigned long long)i, buf[i]);

    /* aclrtMalloc competes for the same memory: it fails while managed
     * pages fill the device, and succeeds once they are prefetched home. */
    void *d = NULL;
    CHECK_ERR(aclrtMalloc(&d, PAGE, ACL_MEM_MALLOC_HUGE_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);
    aclrtMemManagedLocation host = {.type = ACL_MEM_LOCATIONTYPE_HOST, .id = 0};
    CHECK_OK(aclrtMemManagedPrefetchAsync(buf, bytes, host, 0, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(stats(0).resident_bytes, 0);
    CHECK_OK(aclrtMalloc(&d, PAGE, ACL_MEM_MALLOC_HUGE_ONLY));
    CHECK_OK(aclrtFree(d));

    CHECK_OK(aclrtFree(buf));
    CHECK_ERR(aclrtFree(buf), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
