/* stack_rt_memory_more: more of the runtime's memory calls, called
 * directly: 2D copies and 32-bit fills (rtMemcpy2d[Async],
 * rtMemsetD32[Async]), rtMallocCached, the frees that synchronize the
 * device first, rtGetMemUsageInfo, host registration (rtHostRegisterV2,
 * rtsHostRegister, rtHostGetDevicePointer, rtsHostUnregister), managed
 * memory (rtMemAllocManaged, rtMemManagedPrefetchAsync) and cache maintenance (rtFlushCache,
 * rtInvalidCache, rtCmoAsync): their results and their ACL_ERROR_RT_*
 * codes for bad input.
 *
 * link: -lruntime -lascendcl
 * needs: emulator
 * env: NPUEMU_SOC=Ascend910B3 NPUEMU_SVM_HOST_FAULTS=explicit
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

#define ROWS 4
#define W 16
#define PITCH 32

int main(void) {
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);

    /* rtMallocCached is rtMalloc. */
    void *d = NULL;
    CHECK_RT(rtMallocCached(NULL, 4096, RT_MEMORY_DEFAULT, 33), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMallocCached(&d, 0, RT_MEMORY_DEFAULT, 33), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMallocCached(&d, 4096, RT_MEMORY_DEFAULT, 33), ACL_RT_SUCCESS);
    CHECK(d != NULL);

    /* rtMemcpy2d: 4 rows of 16 bytes, host pitch 32, packed on the device. */
    unsigned char host[ROWS * PITCH], back[ROWS * PITCH];
    for (int i = 0; i < ROWS * PITCH; i++) host[i] = (unsigned char)(i * 7 + 1);
    CHECK_RT(rtMemcpy2d(d, W, host, PITCH, W, ROWS, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK_RT(rtMemcpy(back, sizeof back, d, W * ROWS, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    for (int r = 0; r < ROWS; r++)
        CHECK(memcmp(back + r * W, host + r * PITCH, W) == 0);
    CHECK_RT(rtMemcpy2d(d, W, host, PITCH, W, ROWS, (rtMemcpyKind_t)99), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemcpy2d(d, W, host, PITCH, PITCH + 1, ROWS, RT_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID); /* width > pitch */
    CHECK_RT(rtMemcpy2d(NULL, W, host, PITCH, W, ROWS, RT_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);

    /* rtMemcpy2dAsync back out, spread to pitch 32, in stream order. */
    memset(back, 0xEE, sizeof back);
    CHECK_RT(rtMemcpy2dAsync(back, PITCH, d, W, W, ROWS, RT_MEMCPY_DEVICE_TO_HOST, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    for (int r = 0; r < ROWS; r++) {
        CHECK(memcmp(back + r * PITCH, host + r * PITCH, W) == 0);
        CHECK_EQ(back[r * PITCH + W], 0xEE); /* the gap is untouched */
    }
    CHECK_RT(rtMemcpy2dAsync(back, PITCH, d, W, W, ROWS, (rtMemcpyKind_t)99, s), ACL_ERROR_RT_PARAM_INVALID);

    /* rtMemsetD32 / rtMemsetD32Async: 32-bit words. */
    uint32_t words[16];
    CHECK_RT(rtMemsetD32(d, 4096, 0xDEADBEEFu, 16), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(words, sizeof words, d, sizeof words, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    for (int i = 0; i < 16; i++) CHECK_EQ(words[i], 0xDEADBEEFu);
    CHECK_RT(rtMemsetD32Async(d, 4096, 0x01020304u, 8, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(words, sizeof words, d, sizeof words, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    for (int i = 0; i < 16; i++) CHECK_EQ(words[i], i < 8 ? 0x01020304u : 0xDEADBEEFu);
    CHECK_RT(rtMemsetD32(d, 16, 1, 8), ACL_ERROR_RT_PARAM_INVALID); /* 32 bytes into 16 */
    CHECK_RT(rtMemsetD32(NULL, 16, 1, 1), ACL_ERROR_RT_PARAM_INVALID);

    /* rtGetMemUsageInfo: the rtMalloc'd page shows. */
    rtMemUsageInfo_t u[16];
    size_t n = 0;
    CHECK_RT(rtGetMemUsageInfo(0, u, 16, &n), ACL_RT_SUCCESS);
    CHECK(n >= 1 && n <= 16);
    uint64_t used = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(u[i].name[0] != '\0');
        CHECK(u[i].memPeakSize >= u[i].curMemSize);
        used += u[i].curMemSize;
    }
    CHECK(used >= 4096);
    CHECK_RT(rtGetMemUsageInfo(0, u, 1, &n), ACL_RT_SUCCESS);
    CHECK_EQ(n, 1);
    CHECK_RT(rtGetMemUsageInfo(0, NULL, 16, &n), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetMemUsageInfo(0, u, 0, &n), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetMemUsageInfo(0, u, 16, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetMemUsageInfo(999, u, 16, &n), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtGetMemUsageInfo(0x80000000u, u, 16, &n), ACL_ERROR_RT_INVALID_DEVICEID);

    /* rtCmoAsync: prefetch of device memory in stream order;
     * the rt op codes are not the ACL ones (RT_CMO_PREFETCH is 6). */
    CHECK_RT(rtCmoAsync(d, 256, RT_CMO_PREFETCH, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtCmoAsync(d, 256, (rtCmoOpCode_t)0, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtCmoAsync(d, 256, RT_CMO_FLUSH, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtCmoAsync(host, 256, RT_CMO_PREFETCH, s), ACL_ERROR_RT_PARAM_INVALID); /* not device memory */

    /* Cache maintenance: arguments checked. */
    CHECK_RT(rtFlushCache(d, 64), ACL_RT_SUCCESS);
    CHECK_RT(rtInvalidCache(d, 64), ACL_RT_SUCCESS);
    CHECK_RT(rtFlushCache(NULL, 64), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtInvalidCache(d, 0), ACL_ERROR_RT_PARAM_INVALID);

    /* rtFreeWithDevSync: queued work first, then the free. */
    CHECK_RT(rtMemsetD32Async(d, 4096, 7, 1024, s), ACL_RT_SUCCESS);
    CHECK_RT(rtFreeWithDevSync(d), ACL_RT_SUCCESS);
    CHECK_RT(rtFreeWithDevSync(d), ACL_ERROR_RT_PARAM_INVALID); /* already freed */
    CHECK_RT(rtFreeWithDevSync(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtFreeWithDevSync(host), ACL_ERROR_RT_PARAM_INVALID); /* not device memory */

    /* rtFreeHostWithDevSync. */
    void *h = NULL;
    CHECK_RT(rtMallocHost(&h, 4096, 33), ACL_RT_SUCCESS);
    CHECK_RT(rtFreeHostWithDevSync(h), ACL_RT_SUCCESS);
    CHECK_RT(rtFreeHostWithDevSync(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(rtFreeHostWithDevSync(h) != ACL_RT_SUCCESS); /* already freed */

    /* Host registration. */
    size_t span = 2 * 4096;
    unsigned char *pg = NULL;
    CHECK(posix_memalign((void **)&pg, 4096, span) == 0);
    void *dp = NULL;
    CHECK_RT(rtHostRegisterV2(pg, span, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtHostRegisterV2(NULL, span, RT_MEM_HOST_REGISTER_MAPPED), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtHostRegisterV2(pg, 0, RT_MEM_HOST_REGISTER_MAPPED), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtHostRegisterV2(pg, span, RT_MEM_HOST_REGISTER_MAPPED), ACL_RT_SUCCESS);
    CHECK_RT(rtHostRegisterV2(pg, span, RT_MEM_HOST_REGISTER_MAPPED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CHECK_RT(rtHostGetDevicePointer(pg, &dp, 0), ACL_RT_SUCCESS);
    CHECK(dp != NULL);
    CHECK_RT(rtHostGetDevicePointer(pg, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtHostGetDevicePointer(pg, &dp, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsHostUnregister(pg), ACL_RT_SUCCESS);
    CHECK(rtsHostUnregister(pg) != ACL_RT_SUCCESS); /* not registered any more */
    CHECK_RT(rtsHostUnregister(NULL), ACL_ERROR_RT_PARAM_INVALID);
    void *dp1 = NULL;
    CHECK_RT(rtsHostRegister(pg, span, RT_HOST_REGISTER_MAPPED, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsHostRegister(pg, span, (rtHostRegisterType)99, &dp1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsHostRegister(pg, span, RT_HOST_REGISTER_IOMEMORY, &dp1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtsHostRegister(pg, span, RT_HOST_REGISTER_MAPPED, &dp1), ACL_RT_SUCCESS);
    CHECK(dp1 != NULL);
    CHECK_RT(rtHostGetDevicePointer(pg, &dp, 0), ACL_RT_SUCCESS);
    CHECK(dp == dp1);
    CHECK_RT(rtsHostUnregister(pg), ACL_RT_SUCCESS);
    free(pg);

    /* Managed memory. */
    void *m = NULL;
    CHECK_RT(rtMemAllocManaged(NULL, 2u << 20, RT_MEMORY_ATTACH_GLOBAL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemAllocManaged(&m, 0, RT_MEMORY_ATTACH_GLOBAL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemAllocManaged(&m, 2u << 20, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(m == NULL);
    CHECK_RT(rtMemAllocManaged(&m, 2u << 20, RT_MEMORY_ATTACH_GLOBAL, 0), ACL_RT_SUCCESS);
    CHECK(m != NULL);
    unsigned char mb[64];
    CHECK_RT(rtMemcpy(m, 64, host, 64, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(mb, 64, m, 64, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(mb, host, 64) == 0);
    rtMemManagedLocation dev0 = {rtMemLocationTypeDevice, 0};
    CHECK_RT(rtMemManagedPrefetchAsync(m, 2u << 20, dev0, 0, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    memset(mb, 0, sizeof mb);
    CHECK_RT(rtMemcpy(mb, 64, m, 64, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(mb, host, 64) == 0); /* the data moved with the page */
    rtMemManagedLocation badloc = {rtMemLocationTypeInvalid, 0};
    CHECK_RT(rtMemManagedPrefetchAsync(m, 2u << 20, badloc, 0, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemManagedPrefetchAsync(m, 2u << 20, dev0, 1, s), ACL_ERROR_RT_PARAM_INVALID); /* flags */
    CHECK_RT(rtMemManagedPrefetchAsync(host, 64, dev0, 0, s), ACL_ERROR_RT_PARAM_INVALID); /* not managed */

    /* rtMemFreeManaged is not in npuemu's rt surface: aclrtFree frees
     * managed memory. */
    CHECK_OK(aclrtFree(m));
    CHECK(aclrtFree(m) != ACL_SUCCESS); /* already freed */

    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
