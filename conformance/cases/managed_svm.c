/* managed_svm: the ACL managed-memory family — allocation, advice and its
 * attributes, prefetch (single and batch) on a stream, copies and memsets
 * through managed memory, pointer attributes — with the counters each
 * operation moves, and bad input with its codes.
 *
 * needs: emulator
 * env: NPUEMU_SVM_HOST_FAULTS=explicit
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "npuemu/svm.h"

#define PAGE (2u << 20)

static struct npuemu_svm_stats stats(int32_t dev) {
    struct npuemu_svm_stats s;
    CHECK_OK(npuemuSvmGetStats(dev, &s));
    return s;
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));

    /* Allocation: size rounded up to 2 MiB, flag ACL_RT_MEM_ATTACH_GLOBAL. */
    char *m = NULL;
    CHECK_ERR(aclrtMemAllocManaged(NULL, PAGE, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemAllocManaged((void **)&m, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemAllocManaged((void **)&m, PAGE, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtMemAllocManaged((void **)&m, 3 * PAGE - 100, ACL_RT_MEM_ATTACH_GLOBAL));
    CHECK((uintptr_t)m >= 0x90000000000ull && (uintptr_t)m % PAGE == 0);
    memset(m, 0x5a, 3 * PAGE); /* the whole rounded size is usable */

    aclrtPtrAttributes pa;
    CHECK_OK(aclrtPointerGetAttributes(m + 100, &pa));
    CHECK_EQ(pa.location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
    CHECK_EQ(pa.pageSize, PAGE);

    /* Prefetch to the device on a stream: prefetched bytes, no faults. */
    aclrtMemManagedLocation dev0 = {.type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 0};
    aclrtMemManagedLocation host = {.type = ACL_MEM_LOCATIONTYPE_HOST, .id = 0};
    struct npuemu_svm_stats a = stats(0);
    CHECK_OK(aclrtMemManagedPrefetchAsync(m, 2 * PAGE, dev0, 0, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    struct npuemu_svm_stats b = stats(0);
    CHECK_EQ(b.prefetched_bytes - a.prefetched_bytes, 2ull * PAGE);
    CHECK_EQ(b.faults, a.faults);
    CHECK_EQ(b.resident_bytes, 2ull * PAGE);
    CHECK_OK(aclrtPointerGetAttributes(m, &pa));
    CHECK_EQ(pa.location.id, 0);

    /* An async memset on the device: page 2 faults in, pages 0-1 hit. */
    CHECK_OK(aclrtMemsetAsync(m, 3 * PAGE, 7, 3 * PAGE, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    struct npuemu_svm_stats c = stats(0);
    CHECK_EQ(c.faults - b.faults, 1);
    CHECK(m[0] == 7 && m[3 * PAGE - 1] == 7);

    /* Copies: managed <-> device memory on the device, managed <-> host on
     * the host; data always right. */
    char *d = NULL, h[64];
    CHECK_OK(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(d, 4096, m + PAGE, 4096, ACL_MEMCPY_DEFAULT));
    CHECK_OK(aclrtMemcpyAsync(m + 2 * PAGE, 64, d, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(h, sizeof h, m + 2 * PAGE, sizeof h, ACL_MEMCPY_DEFAULT));
    for (int i = 0; i < 64; i++) CHECK_EQ(h[i], 7);
    struct npuemu_svm_stats hs = stats(NPUEMU_SVM_HOST);
    CHECK(hs.faults >= 1); /* the host copy pulled page 2 back */
    CHECK_OK(aclrtFree(d));

    /* Advice and attributes. */
    CHECK_OK(aclrtMemManagedAdvise(m, 2 * PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, host));
    CHECK_OK(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev0));
    CHECK_OK(aclrtMemManagedAdvise(m, 2 * PAGE, ACL_MEM_ADVISE_SET_ACCESSED_BY, host));
    int32_t v = -9, by[4];
    CHECK_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * PAGE, &v, sizeof v));
    CHECK_EQ(v, 1);
    CHECK_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 3 * PAGE, &v, sizeof v));
    CHECK_EQ(v, 0);
    CHECK_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, PAGE, &v, sizeof v));
    CHECK_EQ(v, 0);
    CHECK_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 2 * PAGE, &v, sizeof v));
    CHECK_EQ(v, -2); /* not the same on every page */
    CHECK_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 2 * PAGE, by, sizeof by));
    CHECK(by[0] == -1 && by[1] == -2 && by[2] == -2 && by[3] == -2);
    aclrtMemManagedRangeAttribute kinds[2] = {ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID};
    int32_t ty = -9, id = -9;
    void *out[2] = {&ty, &id};
    size_t sizes[2] = {sizeof ty, sizeof id};
    CHECK_OK(aclrtMemManagedGetAttrs(kinds, 2, m, PAGE, out, sizes));
    CHECK(ty == ACL_MEM_LOCATIONTYPE_DEVICE && id == 0);
    CHECK_OK(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, host));
    CHECK_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, PAGE, &v, sizeof v));
    CHECK_EQ(v, -2);

    /* Batch prefetch: item 0 to the device, items 1-2 to the host. */
    const void *ptrs[3] = {m, m + PAGE, m + 2 * PAGE};
    size_t psz[3] = {PAGE, PAGE, PAGE}, idx[2] = {0, 1};
    aclrtMemManagedLocation locs[2] = {dev0, host};
    CHECK_OK(aclrtMemManagedPrefetchBatchAsync(ptrs, psz, 3, locs, idx, 2, 0, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtPointerGetAttributes(m, &pa));
    CHECK_EQ(pa.location.id, 0);

    /* Bad input. */
    void *dev = NULL;
    char plain[64];
    CHECK_OK(aclrtMalloc(&dev, PAGE, ACL_MEM_MALLOC_HUGE_ONLY));
    CHECK_ERR(aclrtMemManagedAdvise(dev, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, host), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedAdvise(plain, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, host), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedAdvise(NULL, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, host), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedAdvise(m, PAGE, (aclrtMemManagedAdviseType)9, host), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedAdvise(m + 4096, PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, host), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtMemManagedAdvise(m, 4 * PAGE, ACL_MEM_ADVISE_SET_READ_MOSTLY, host), ACL_ERROR_RT_PARAM_INVALID);
    aclrtMemManagedLocation bad = {.type = (aclrtMemManagedLocationType)9, .id = 0};
    aclrtMemManagedLocation far = {.type = ACL_MEM_LOCATIONTYPE_DEVICE, .id = 60};
    CHECK_ERR(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, bad), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedAdvise(m, PAGE, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, far), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_ERR(aclrtMemManagedPrefetchAsync(dev, PAGE, dev0, 0, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedPrefetchAsync(m, PAGE, dev0, 1, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedPrefetchAsync(m, 4096, dev0, 0, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclrtMemManagedPrefetchAsync(m, 0, dev0, 0, s), ACL_ERROR_INVALID_PARAM);
    size_t badidx[2] = {0, 0};
    CHECK_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, psz, 3, locs, badidx, 2, 0, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedPrefetchBatchAsync(ptrs, psz, 3, locs, idx, 2, 1, s), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, dev, PAGE, &v, sizeof v), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, PAGE, &v, 2), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, PAGE, by, 6), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)42, m, PAGE, &v, sizeof v), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, PAGE, NULL, 4), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtFree(m + PAGE), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_OK(aclrtFree(dev));

    CHECK_OK(aclrtFree(m));
    CHECK_ERR(aclrtFree(m), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_EQ(stats(0).resident_bytes, 0);
    struct npuemu_svm_stats x;
    CHECK_ERR(npuemuSvmGetStats(99, &x), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_EQ(npuemuSvmGetStats(0, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
