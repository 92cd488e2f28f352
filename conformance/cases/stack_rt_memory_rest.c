/* stack_rt_memory_rest: the rest of the runtime's memory calls, called
 * directly: rtsMalloc, rtsMallocHost, rtsPointerGetAttributes,
 * rtsCheckMemType, rtHostMemMapCapabilities; the copies rtMemcpyAsyncEx,
 * rtMemcpyAsyncWithOffset, rts{Get,Set}MemcpyDesc[Size],
 * rtsMemcpyAsyncWithDesc, rtsMemcpyBatch[Async], rtsLaunchReduceAsyncTask;
 * managed memory (rtMemManagedAdvise, rtMemManagedGetAttr[s],
 * rtMemManagedPrefetchBatchAsync, rtMemPrefetchToDevice); the CMO
 * descriptor calls and rtDeviceL2CacheFlush; the refusals of the 310B-only
 * CMO barriers, of link selection and of inter-server IPC on an A2:
 * results, and the ACL_ERROR_RT_* codes for bad input.
 *
 * link: -lruntime -lascendcl
 * needs: emulator, devices=2
 * env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=2 NPUEMU_SVM_HOST_FAULTS=explicit
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

#define MiB (1024u * 1024u)

int main(void) {
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);

    /* rtsMalloc: policy and cfg as aclrtMallocWithCfg, advise checked. */
    rtMallocAttribute_t attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].attr = RT_MEM_MALLOC_ATTR_MODULE_ID;
    attrs[0].value.moduleId = 33;
    attrs[1].attr = RT_MEM_MALLOC_ATTR_DEVICE_ID;
    attrs[1].value.deviceId = 0;
    rtMallocConfig_t cfg = {attrs, 2};
    void *d = NULL, *d2 = NULL;
    CHECK_RT(rtsMalloc(NULL, 4096, RT_MEM_MALLOC_HUGE_FIRST, RT_MEM_ADVISE_NONE, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMalloc(&d, 0, RT_MEM_MALLOC_HUGE_FIRST, RT_MEM_ADVISE_NONE, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMalloc(&d, 4096, RT_MEM_MALLOC_HUGE_FIRST, (rtMallocAdvise)9, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMalloc(&d, 4096, RT_MEM_MALLOC_HUGE_FIRST, RT_MEM_ADVISE_DVPP, &cfg), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    attrs[1].value.deviceId = 1; /* not the current device */
    CHECK_RT(rtsMalloc(&d, 4096, RT_MEM_MALLOC_HUGE_FIRST, RT_MEM_ADVISE_NONE, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    attrs[1].attr = (rtMallocAttr)7;
    CHECK_RT(rtsMalloc(&d, 4096, RT_MEM_MALLOC_HUGE_FIRST, RT_MEM_ADVISE_NONE, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(d == NULL);
    attrs[1].attr = RT_MEM_MALLOC_ATTR_DEVICE_ID;
    attrs[1].value.deviceId = 0;
    CHECK_RT(rtsMalloc(&d, 4096, RT_MEM_MALLOC_HUGE_FIRST, RT_MEM_ADVISE_NONE, &cfg), ACL_RT_SUCCESS);
    CHECK_RT(rtsMalloc(&d2, 4096, RT_MEM_MALLOC_NORMAL_ONLY, RT_MEM_ADVISE_TS, NULL), ACL_RT_SUCCESS);
    CHECK(d != NULL && d2 != NULL && d != d2);

    /* rtsMallocHost: pinned host memory. */
    void *h = NULL;
    CHECK_RT(rtsMallocHost(NULL, 4096, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMallocHost(&h, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    attrs[0].attr = (rtMallocAttr)9;
    CHECK_RT(rtsMallocHost(&h, 4096, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    attrs[0].attr = RT_MEM_MALLOC_ATTR_MODULE_ID;
    CHECK_RT(rtsMallocHost(&h, 4096, &cfg), ACL_RT_SUCCESS);
    CHECK(h != NULL);
    unsigned char *hb = h;
    for (int i = 0; i < 4096; i++) hb[i] = (unsigned char)(i * 13 + 5);

    /* rtsPointerGetAttributes: device, pinned host, unregistered. */
    rtPtrAttributes_t pa;
    memset(&pa, 0xFF, sizeof pa);
    CHECK_RT(rtsPointerGetAttributes(d, &pa), ACL_RT_SUCCESS);
    CHECK_EQ(pa.location.type, RT_MEMORY_LOC_DEVICE);
    CHECK_EQ(pa.location.id, 0);
    CHECK(pa.pageSize >= 4096);
    CHECK_RT(rtsPointerGetAttributes(h, &pa), ACL_RT_SUCCESS);
    CHECK_EQ(pa.location.type, RT_MEMORY_LOC_HOST);
    unsigned char stackbuf[64];
    CHECK_RT(rtsPointerGetAttributes(stackbuf, &pa), ACL_RT_SUCCESS);
    CHECK_EQ(pa.location.type, RT_MEMORY_LOC_UNREGISTERED);
    CHECK_RT(rtsPointerGetAttributes(d, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* rtsCheckMemType: all device memory is DEV. */
    void *addrs[2] = {d, d2};
    uint32_t res = 7;
    CHECK_RT(rtsCheckMemType(addrs, 2, ACL_RT_MEM_TYPE_DEV, &res, 0), ACL_RT_SUCCESS);
    CHECK_EQ(res, 1);
    CHECK_RT(rtsCheckMemType(addrs, 2, ACL_RT_MEM_TYPE_DVPP, &res, 0), ACL_RT_SUCCESS);
    CHECK_EQ(res, 0);
    CHECK_RT(rtsCheckMemType(addrs, 2, 1, &res, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCheckMemType(NULL, 2, ACL_RT_MEM_TYPE_DEV, &res, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCheckMemType(addrs, 0, ACL_RT_MEM_TYPE_DEV, &res, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCheckMemType(addrs, 2, ACL_RT_MEM_TYPE_DEV, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCheckMemType(addrs, 2, ACL_RT_MEM_TYPE_DEV, &res, 1), ACL_ERROR_RT_PARAM_INVALID);

    /* rtHostMemMapCapabilities. */
    rtHostMemMapCapability cap = RT_HOST_MEM_MAP_NOT_SUPPORTED;
    CHECK_RT(rtHostMemMapCapabilities(0, RT_HAC_TYPE_AIC, &cap), ACL_RT_SUCCESS);
    CHECK_EQ(cap, RT_HOST_MEM_MAP_SUPPORTED);
    CHECK_RT(rtHostMemMapCapabilities(0, RT_HAC_TYPE_RDMA, &cap), ACL_RT_SUCCESS);
    CHECK_EQ(cap, RT_HOST_MEM_MAP_NOT_SUPPORTED);
    CHECK_RT(rtHostMemMapCapabilities(0, RT_HAC_TYPE_MAX, &cap), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtHostMemMapCapabilities(0, RT_HAC_TYPE_AIC, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtHostMemMapCapabilities(99, RT_HAC_TYPE_AIC, &cap), ACL_ERROR_RT_INVALID_DEVICEID);

    /* rtMemcpyAsyncEx with a CHECK attribute: H2D in stream order. */
    rtMemcpyAttribute_t ma;
    memset(&ma, 0, sizeof ma);
    ma.id = RT_MEMCPY_ATTRIBUTE_CHECK;
    ma.value.checkBitmap = 1;
    rtMemcpyConfig_t mc = {&ma, 1};
    CHECK_RT(rtMemcpyAsyncEx(d, 4096, h, 4096, RT_MEMCPY_HOST_TO_DEVICE, s, &mc), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    unsigned char back[4096];
    memset(back, 0, sizeof back);
    CHECK_RT(rtMemcpy(back, sizeof back, d, 4096, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(back, h, 4096) == 0);
    CHECK_RT(rtMemcpyAsyncEx(d, 4096, h, 4096, (rtMemcpyKind_t)99, s, &mc), ACL_ERROR_RT_PARAM_INVALID);
    ma.id = (rtMemcpyAttributeId_t)5;
    CHECK_RT(rtMemcpyAsyncEx(d, 4096, h, 4096, RT_MEMCPY_HOST_TO_DEVICE, s, &mc), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemcpyAsyncEx(d, 16, h, 4096, RT_MEMCPY_HOST_TO_DEVICE, s, NULL), ACL_ERROR_RT_PARAM_INVALID); /* count > destMax */

    /* rtMemcpyAsyncWithOffset: base addresses in pinned host cells. */
    void **cells = NULL;
    CHECK_RT(rtMallocHost((void **)&cells, 64, 0), ACL_RT_SUCCESS);
    cells[0] = d2; /* destination base */
    cells[1] = d;  /* source base */
    CHECK_RT(rtMemsetAsync(d2, 4096, 0, 4096, s), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpyAsyncWithOffset(&cells[0], 4096, 16, (const void **)&cells[1], 64, 32, RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    memset(back, 0xAA, sizeof back);
    CHECK_RT(rtMemcpy(back, 128, d2, 128, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(back + 16, hb + 32, 64) == 0);
    CHECK_EQ(back[15], 0);
    CHECK_EQ(back[80], 0);
    CHECK_RT(rtMemcpyAsyncWithOffset(NULL, 4096, 16, (const void **)&cells[1], 64, 32, RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemcpyAsyncWithOffset(&cells[0], 4096, 16, (const void **)&cells[1], 64, 32, RT_MEMCPY_KIND_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID); /* inner D2D only */

    /* Copy descriptors (inner device to device). */
    size_t dsz = 0;
    CHECK_RT(rtsGetMemcpyDescSize(RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, &dsz), ACL_RT_SUCCESS);
    CHECK(dsz > 0 && dsz <= 4096);
    CHECK_RT(rtsGetMemcpyDescSize(RT_MEMCPY_KIND_DEVICE_TO_DEVICE, &dsz), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsGetMemcpyDescSize(RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    void *desc = NULL;
    CHECK_RT(rtMalloc(&desc, 4096, RT_MEMORY_DEFAULT, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemsetAsync(d2, 4096, 0, 4096, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsSetMemcpyDesc(desc, RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, d, d2, 256, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtsSetMemcpyDesc(desc, RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, d, d2, 256, &mc), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSetMemcpyDesc(desc, RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, h, d2, 256, NULL), ACL_ERROR_RT_PARAM_INVALID); /* host source */
    CHECK_RT(rtsSetMemcpyDesc(NULL, RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, d, d2, 256, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMemcpyAsyncWithDesc(desc, RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, NULL, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK_RT(rtMemcpy(back, 512, d2, 512, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(back, hb, 256) == 0);
    CHECK_EQ(back[256], 0);
    CHECK_RT(rtsMemcpyAsyncWithDesc(desc, RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE, &mc, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMemcpyAsyncWithDesc(desc, RT_MEMCPY_KIND_HOST_TO_DEVICE, NULL, s), ACL_ERROR_RT_PARAM_INVALID);

    /* rtsMemcpyBatch: two host-to-device items under one attribute. */
    unsigned char src0[100], src1[200];
    for (int i = 0; i < 100; i++) src0[i] = (unsigned char)(i + 1);
    for (int i = 0; i < 200; i++) src1[i] = (unsigned char)(255 - i);
    void *dsts[2] = {d2, (char *)d2 + 1024};
    void *srcs[2] = {src0, src1};
    size_t sizes[2] = {100, 200};
    rtMemcpyBatchAttr ba;
    memset(&ba, 0, sizeof ba);
    ba.dstLoc.type = RT_MEMORY_LOC_DEVICE;
    ba.dstLoc.id = 0;
    ba.srcLoc.type = RT_MEMORY_LOC_HOST;
    size_t bidx = 0, fail = 0;
    CHECK_RT(rtsMemcpyBatch(dsts, srcs, sizes, 2, &ba, &bidx, 1, &fail), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(back, 2048, d2, 2048, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(back, src0, 100) == 0);
    CHECK(memcmp(back + 1024, src1, 200) == 0);
    CHECK_RT(rtsMemcpyBatch(dsts, srcs, sizes, 2, &ba, &bidx, 1, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMemcpyBatch(dsts, srcs, sizes, 0, &ba, &bidx, 1, &fail), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMemcpyBatch(NULL, srcs, sizes, 2, &ba, &bidx, 1, &fail), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMemcpyBatch(dsts, srcs, sizes, 2, &ba, &bidx, 3, &fail), ACL_ERROR_RT_PARAM_INVALID); /* numAttrs > count */

    /* rtsMemcpyBatchAsync: back to the host in stream order. */
    unsigned char out0[100], out1[200];
    memset(out0, 0, sizeof out0);
    memset(out1, 0, sizeof out1);
    void *adsts[2] = {out0, out1};
    void *asrcs[2] = {d2, (char *)d2 + 1024};
    size_t maxs[2] = {sizeof out0, sizeof out1};
    rtMemcpyBatchAttr bb;
    memset(&bb, 0, sizeof bb);
    bb.dstLoc.type = RT_MEMORY_LOC_HOST;
    bb.srcLoc.type = RT_MEMORY_LOC_DEVICE;
    bb.srcLoc.id = 0;
    CHECK_RT(rtsMemcpyBatchAsync(adsts, maxs, asrcs, sizes, 2, &bb, &bidx, 1, &fail, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK(memcmp(out0, src0, 100) == 0);
    CHECK(memcmp(out1, src1, 200) == 0);
    CHECK_RT(rtsMemcpyBatchAsync(adsts, NULL, asrcs, sizes, 2, &bb, &bidx, 1, &fail, s), ACL_ERROR_RT_PARAM_INVALID);

    /* rtsLaunchReduceAsyncTask: dst += src over int32. */
    int32_t a[16], b[16], r[16];
    for (int i = 0; i < 16; i++) {
        a[i] = i * 3;
        b[i] = 100 - i;
    }
    CHECK_RT(rtMemcpy(d, 4096, a, sizeof a, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(d2, 4096, b, sizeof b, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    rtReduceInfo_t ri;
    memset(&ri, 0, sizeof ri);
    ri.dst = d;
    ri.src = d2;
    ri.count = sizeof a;
    ri.kind = RT_MEMCPY_SDMA_AUTOMATIC_ADD;
    ri.type = RT_DATA_TYPE_INT32;
    CHECK_RT(rtsLaunchReduceAsyncTask(&ri, s, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(r, sizeof r, d, sizeof r, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    for (int i = 0; i < 16; i++) CHECK_EQ(r[i], a[i] + b[i]);
    CHECK_RT(rtsLaunchReduceAsyncTask(NULL, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLaunchReduceAsyncTask(&ri, s, &ri), ACL_ERROR_RT_PARAM_INVALID); /* reserve */
    ri.type = RT_DATA_TYPE_UINT8;
    CHECK_RT(rtsLaunchReduceAsyncTask(&ri, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ri.type = RT_DATA_TYPE_INT32;
    ri.kind = (rtReduceKind)3;
    CHECK_RT(rtsLaunchReduceAsyncTask(&ri, s, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* Managed memory: advice and attributes. */
    void *m = NULL;
    CHECK_RT(rtMemAllocManaged(&m, 2 * MiB, RT_MEMORY_ATTACH_GLOBAL, 0), ACL_RT_SUCCESS);
    rtMemManagedLocation dev0 = {rtMemLocationTypeDevice, 0};
    uint32_t rm = 7;
    CHECK_RT(rtMemManagedGetAttr(rtMemRangeAttributeReadMostly, m, 2 * MiB, &rm, sizeof rm), ACL_RT_SUCCESS);
    CHECK_EQ(rm, 0);
    CHECK_RT(rtMemManagedAdvise(m, 2 * MiB, 0 /* SET_READ_MOSTLY */, dev0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemManagedGetAttr(rtMemRangeAttributeReadMostly, m, 2 * MiB, &rm, sizeof rm), ACL_RT_SUCCESS);
    CHECK_EQ(rm, 1);
    CHECK_RT(rtMemManagedAdvise(m, 2 * MiB, 2 /* SET_PREFERRED_LOCATION */, dev0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemManagedAdvise(m, 2 * MiB, 6, dev0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemManagedAdvise(NULL, 2 * MiB, 0, dev0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemManagedAdvise(h, 4096, 0, dev0), ACL_ERROR_RT_PARAM_INVALID); /* not managed */
    int32_t pl = -9;
    uint32_t plt = 0;
    rtMemManagedRangeAttribute as2[2] = {rtMemRangeAttributePreferredLocation, rtMemRangeAttributePreferredLocationType};
    void *data2[2] = {&pl, &plt};
    size_t dsizes[2] = {sizeof pl, sizeof plt};
    CHECK_RT(rtMemManagedGetAttrs(as2, 2, m, 2 * MiB, data2, dsizes), ACL_RT_SUCCESS);
    CHECK_EQ(pl, 0);
    CHECK_EQ(plt, rtMemLocationTypeDevice);
    CHECK_RT(rtMemManagedGetAttrs(as2, 0, m, 2 * MiB, data2, dsizes), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemManagedGetAttr(rtMemRangeAttributeLastPrefetchLocation, m, 2 * MiB, &pl, sizeof pl), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtMemManagedGetAttr(rtMemRangeAttributeReadMostly, m, 2 * MiB, NULL, 4), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemManagedGetAttr((rtMemManagedRangeAttribute)42, m, 2 * MiB, &rm, sizeof rm), ACL_ERROR_RT_PARAM_INVALID);

    /* rtMemManagedPrefetchBatchAsync: the range moves to device 0 and back
     * to the host, data intact. */
    CHECK_RT(rtMemcpy(m, 64, src0, 64, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    const void *mp[1] = {m};
    size_t ms[1] = {2 * MiB};
    size_t li[1] = {0};
    rtMemManagedLocation hostloc = {rtMemLocationTypeHost, 0};
    CHECK_RT(rtMemManagedPrefetchBatchAsync(mp, ms, 1, &dev0, li, 1, 0, s), ACL_RT_SUCCESS);
    CHECK_RT(rtMemManagedPrefetchBatchAsync(mp, ms, 1, &hostloc, li, 1, 0, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    memset(out0, 0, sizeof out0);
    CHECK_RT(rtMemcpy(out0, 64, m, 64, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(out0, src0, 64) == 0);
    CHECK_RT(rtMemManagedPrefetchBatchAsync(mp, ms, 1, &dev0, li, 1, 1, s), ACL_ERROR_RT_PARAM_INVALID); /* flags */
    CHECK_RT(rtMemManagedPrefetchBatchAsync(NULL, ms, 1, &dev0, li, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);
    size_t bad_li[1] = {1};
    CHECK_RT(rtMemManagedPrefetchBatchAsync(mp, ms, 1, &dev0, bad_li, 1, 0, s), ACL_ERROR_RT_PARAM_INVALID);

    /* rtMemPrefetchToDevice (aclrtMemP2PMap's mapping step): a peer with
     * access only. */
    CHECK_RT(rtMemPrefetchToDevice(m, 2 * MiB, 1), ACL_ERROR_RT_PARAM_INVALID); /* no peer access yet */
    CHECK_OK(aclrtDeviceEnablePeerAccess(1, 0));
    CHECK_RT(rtMemPrefetchToDevice(m, 2 * MiB, 1), ACL_RT_SUCCESS);
    CHECK_RT(rtMemPrefetchToDevice(d, 4096, 1), ACL_RT_SUCCESS); /* device memory: checked */
    CHECK_RT(rtMemPrefetchToDevice(m, 2 * MiB, 0), ACL_ERROR_RT_PARAM_INVALID); /* its own device */
    CHECK_RT(rtMemPrefetchToDevice(m, 2 * MiB, 7), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtMemPrefetchToDevice(NULL, 4096, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemPrefetchToDevice(h, 4096, 1), ACL_ERROR_RT_PARAM_INVALID); /* host memory */
    CHECK_OK(aclrtFree(m));

    /* CMO descriptors. */
    size_t csz = 0;
    CHECK_RT(rtsGetCmoDescSize(&csz), ACL_RT_SUCCESS);
    CHECK(csz > 0 && csz <= 4096);
    CHECK_RT(rtsGetCmoDescSize(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSetCmoDesc(desc, d, 256), ACL_RT_SUCCESS);
    CHECK_RT(rtsSetCmoDesc(NULL, d, 256), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsSetCmoDesc(desc, h, 256), ACL_ERROR_RT_PARAM_INVALID); /* host memory */
    CHECK_RT(rtsLaunchCmoAddrTask(desc, s, RT_CMO_PREFETCH, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsLaunchCmoAddrTask(desc, s, (rtCmoOpCode)0, NULL), ACL_ERROR_RT_PARAM_INVALID); /* ACL's number, not rt's */
    CHECK_RT(rtsLaunchCmoAddrTask(desc, s, RT_CMO_FLUSH, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtsLaunchCmoAddrTask(desc, s, RT_CMO_PREFETCH, &ri), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLaunchCmoAddrTask(NULL, s, RT_CMO_PREFETCH, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* rtDeviceL2CacheFlush: nothing cached, arguments checked. */
    CHECK_RT(rtDeviceL2CacheFlush(NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceL2CacheFlush(d), ACL_ERROR_RT_PARAM_INVALID);

    /* CMO barriers are the 310B's only. */
    CHECK_RT(rtsCmoAsyncWithBarrier(d, 256, RT_CMO_INVALID, 1, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    rtBarrierTaskInfo_t bt;
    memset(&bt, 0, sizeof bt);
    bt.logicIdNum = 1;
    bt.cmoInfo[0].cmoType = RT_CMO_INVALID;
    bt.cmoInfo[0].logicId = 1;
    CHECK_RT(rtsLaunchBarrierTask(&bt, s, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    /* Link selection is Atlas A3's: an A2 refuses it, before looking at
     * the arguments (the SoC gate its ACL caller's column gives it). */
    CHECK_RT(rtMemMapSelectedLink(d2, 2 * MiB, d, RT_MEM_LINK_IDX_1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtMemMapSelectedLink(d2, 2 * MiB, d, 7), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    /* Inter-server IPC: Atlas A3 only, refused here before the arguments
     * are looked at (stack_rt_vmm_more checks them on an A3). */
    int32_t pids[1] = {(int32_t)getpid()};
    rtServerPid sp = {0, pids, 1};
    CHECK_RT(rtIpcMemImportPidInterServer("npuemu-key", &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtIpcMemImportPidInterServer("npuemu-key", NULL, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    rtNotify_t nt = NULL;
    CHECK_RT(rtsNotifyCreate(&nt, RT_NOTIFY_FLAG_DEFAULT), ACL_RT_SUCCESS);
    CHECK_RT(rtNotifySetImportPidInterServer(nt, &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtNotifySetImportPidInterServer(NULL, &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtsNotifyDestroy(nt), ACL_RT_SUCCESS);

    CHECK_RT(rtFree(desc), ACL_RT_SUCCESS);
    CHECK_RT(rtFreeHost(cells), ACL_RT_SUCCESS);
    CHECK_RT(rtFreeHost(h), ACL_RT_SUCCESS);
    CHECK_RT(rtFree(d), ACL_RT_SUCCESS);
    CHECK_RT(rtFree(d2), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
