/* stack.c: the boundary table of stack.h. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontid.h"
#include "stack.h"

void *npu_cross[NPU_X_COUNT];

static const char *const cross_names[NPU_X_COUNT] = {
    [NPU_X_rtMalloc] = "rtMalloc",
    [NPU_X_rtFree] = "rtFree",
    [NPU_X_rtMemGetInfoEx] = "rtMemGetInfoEx",
    [NPU_X_rtGetDevice] = "rtGetDevice",
    [NPU_X_rtGetDevicePhyIdByIndex] = "rtGetDevicePhyIdByIndex",
    [NPU_X_rtDeviceCanAccessPeer] = "rtDeviceCanAccessPeer",
    [NPU_X_rtEnableP2P] = "rtEnableP2P",
    [NPU_X_rtDisableP2P] = "rtDisableP2P",
    [NPU_X_rtsGetP2PStatus] = "rtsGetP2PStatus",
    [NPU_X_rtMallocPhysical] = "rtMallocPhysical",
    [NPU_X_halMemAlloc] = "halMemAlloc",
    [NPU_X_halMemFree] = "halMemFree",
    [NPU_X_halMemGetInfo] = "halMemGetInfo",
    [NPU_X_halDeviceEnableP2P] = "halDeviceEnableP2P",
    [NPU_X_halDeviceDisableP2P] = "halDeviceDisableP2P",
    [NPU_X_halDeviceCanAccessPeer] = "halDeviceCanAccessPeer",
    [NPU_X_halMbufAlloc] = "halMbufAlloc",
    [NPU_X_halMbufFree] = "halMbufFree",
    [NPU_X_halMbufGetBuffAddr] = "halMbufGetBuffAddr",
    [NPU_X_halMbufGetBuffSize] = "halMbufGetBuffSize",
    [NPU_X_halMbufGetDataLen] = "halMbufGetDataLen",
    [NPU_X_halMbufSetDataLen] = "halMbufSetDataLen",
    [NPU_X_halMbufGetPrivInfo] = "halMbufGetPrivInfo",
    [NPU_X_halMbufCopyRef] = "halMbufCopyRef",
    [NPU_X_halMbufChainAppend] = "halMbufChainAppend",
    [NPU_X_halMbufChainGetMbufNum] = "halMbufChainGetMbufNum",
    [NPU_X_halMbufChainGetMbuf] = "halMbufChainGetMbuf",
    [NPU_X_halGetMemUsageInfo] = "halGetMemUsageInfo",
    [NPU_X_halGetDeviceInfo] = "halGetDeviceInfo",
    [NPU_X_halMemCreate] = "halMemCreate",
    [NPU_X_halMemRelease] = "halMemRelease",
    [NPU_X_halMemAddressReserve] = "halMemAddressReserve",
    [NPU_X_halMemAddressFree] = "halMemAddressFree",
    [NPU_X_halMemMap] = "halMemMap",
    [NPU_X_halMemUnmap] = "halMemUnmap",
    /* The synchronous copies and fill (libfake/stack_copy.c). */
    [NPU_X_halSdmaCopy] = "halSdmaCopy",
    [NPU_X_halMemcpy] = "halMemcpy",
    [NPU_X_drvMemcpy] = "drvMemcpy",
    [NPU_X_drvMemsetD8] = "drvMemsetD8",
    [NPU_X_halMemcpy2D] = "halMemcpy2D",
    /* VMM queries, sharing, managed memory, host pointers (stack_vmm.c). */
    [NPU_X_halMemSetAccess] = "halMemSetAccess",
    [NPU_X_halMemGetAccess] = "halMemGetAccess",
    [NPU_X_halMemGetAllocationGranularity] = "halMemGetAllocationGranularity",
    [NPU_X_halMemRetainAllocationHandle] = "halMemRetainAllocationHandle",
    [NPU_X_halMemGetAddressRange] = "halMemGetAddressRange",
    [NPU_X_halMemGetAllocationPropertiesFromHandle] = "halMemGetAllocationPropertiesFromHandle",
    [NPU_X_halMemExportToShareableHandle] = "halMemExportToShareableHandle",
    [NPU_X_halMemExportToShareableHandleV2] = "halMemExportToShareableHandleV2",
    [NPU_X_halMemImportFromShareableHandle] = "halMemImportFromShareableHandle",
    [NPU_X_halMemImportFromShareableHandleV2] = "halMemImportFromShareableHandleV2",
    [NPU_X_halMemSetPidToShareableHandle] = "halMemSetPidToShareableHandle",
    [NPU_X_halMemManagedAdvise] = "halMemManagedAdvise",
    [NPU_X_halMemManagedRangeGetAttributes] = "halMemManagedRangeGetAttributes",
    [NPU_X_halMemHostGetDevPointer] = "halMemHostGetDevPointer",
    /* The information calls (libfake/stack_info.c). */
    [NPU_X_drvGetDevNum] = "drvGetDevNum",
    [NPU_X_drvDeviceGetPhyIdByIndex] = "drvDeviceGetPhyIdByIndex",
    [NPU_X_drvDeviceGetIndexByPhyId] = "drvDeviceGetIndexByPhyId",
    [NPU_X_drvGetPlatformInfo] = "drvGetPlatformInfo",
    [NPU_X_halGetSocVersion] = "halGetSocVersion",
    [NPU_X_halResourceInfoQuery] = "halResourceInfoQuery",
    [NPU_X_halGetDeviceSplitMode] = "halGetDeviceSplitMode",
    /* Host memory registration and IPC shared memory (stack_host.c). */
    [NPU_X_halHostRegister] = "halHostRegister",
    [NPU_X_halHostUnregisterEx] = "halHostUnregisterEx",
    [NPU_X_halHostRegisterCapabilities] = "halHostRegisterCapabilities",
    [NPU_X_halShmemCreateHandle] = "halShmemCreateHandle",
    [NPU_X_halShmemSetAttribute] = "halShmemSetAttribute",
    [NPU_X_halShmemSetPidHandle] = "halShmemSetPidHandle",
    [NPU_X_halShmemOpenHandle] = "halShmemOpenHandle",
    [NPU_X_halShmemCloseHandle] = "halShmemCloseHandle",
    [NPU_X_halShmemDestroyHandle] = "halShmemDestroyHandle",
};

const char *npu_stack_name(int i) { return (i >= 0 && i < NPU_X_COUNT) ? cross_names[i] : "?"; }

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int split;

/* ours is any function of this library; its base address tells a definition
 * of ours from a foreign one. */
static void ours(void) {}

/* foreign returns the global definition of name when it is not ours: not
 * this core's, nor the front library's (frontid.h), whose exported names
 * are the ones the program binds to. */
static void *foreign(void *global, const void *self, const char *name) {
    void *p = dlsym(global, name);
    const void *where = npu_object_of(p, NULL);
    if (where == NULL || where == self || where == npu_front_object()) return NULL;
    return p;
}

static void resolve(void) {
    const char *v = getenv("NPUEMU_STACK");
    if (v != NULL && strcmp(v, "split") == 0) {
        split = 1;
    } else if (v != NULL && *v != '\0' && strcmp(v, "merged") != 0) {
        fprintf(stderr, "npuemu: NPUEMU_STACK=%s is neither \"merged\" nor \"split\"; using merged\n", v);
    }
    const void *self = npu_object_of((void *)ours, NULL);
    if (self == NULL) return; /* cannot tell: stay direct */
    /* Look names up in the global scope through the program's handle:
     * dlsym(RTLD_DEFAULT) would search this library first, because it is
     * linked -Bsymbolic (DT_SYMBOLIC, as Go links every c-shared library,
     * and as the vendor links libruntime.so). */
    void *global = dlopen(NULL, RTLD_LAZY);
    if (global == NULL) return;
    for (int i = 0; i < NPU_X_COUNT; i++) {
        if (i < NPU_X_FIRST_HAL && !split) continue; /* ACL→rt binds internally */
        npu_cross[i] = foreign(global, self, cross_names[i]);
    }
    for (int i = 0; split && i < npu_route_n; i++) npu_route_fns[i] = foreign(global, self, npu_route_names + npu_route_offs[i]);
}

/* The library's constructor decides before any shim can run. */
__attribute__((constructor)) static void stack_init(void) { npu_stack_resolve(); }

int npu_stack_resolve(void) {
    pthread_once(&once, resolve);
    return split;
}

int32_t npu_x_rtMalloc(void **devPtr, uint64_t size, uint32_t type, uint16_t moduleId) {
    return ((__typeof__(&rtMalloc))npu_cross[NPU_X_rtMalloc])(devPtr, size, type, moduleId);
}

int32_t npu_x_rtFree(uintptr_t devPtr) {
    return ((__typeof__(&rtFree))npu_cross[NPU_X_rtFree])((void *)devPtr);
}

int32_t npu_x_rtMemGetInfoEx(uint32_t type, size_t *freeSize, size_t *totalSize) {
    return ((__typeof__(&rtMemGetInfoEx))npu_cross[NPU_X_rtMemGetInfoEx])((rtMemInfoType_t)type, freeSize, totalSize);
}

int32_t npu_x_rtGetDevice(int32_t *dev) { return ((__typeof__(&rtGetDevice))npu_cross[NPU_X_rtGetDevice])(dev); }

int32_t npu_x_rtGetDevicePhyIdByIndex(uint32_t index, uint32_t *phy) {
    return ((__typeof__(&rtGetDevicePhyIdByIndex))npu_cross[NPU_X_rtGetDevicePhyIdByIndex])(index, phy);
}

int32_t npu_x_rtDeviceCanAccessPeer(int32_t *can, uint32_t dev, uint32_t peer) {
    return ((__typeof__(&rtDeviceCanAccessPeer))npu_cross[NPU_X_rtDeviceCanAccessPeer])(can, dev, peer);
}

int32_t npu_x_rtEnableP2P(uint32_t dev, uint32_t peer, uint32_t flag) {
    return ((__typeof__(&rtEnableP2P))npu_cross[NPU_X_rtEnableP2P])(dev, peer, flag);
}

int32_t npu_x_rtDisableP2P(uint32_t dev, uint32_t peer) {
    return ((__typeof__(&rtDisableP2P))npu_cross[NPU_X_rtDisableP2P])(dev, peer);
}

int32_t npu_x_rtsGetP2PStatus(uint32_t dev, uint32_t peer, uint32_t *status) {
    return ((__typeof__(&rtsGetP2PStatus))npu_cross[NPU_X_rtsGetP2PStatus])(dev, peer, status);
}

int32_t npu_route_launch_v3(void *fn, aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                            aclrtStream stream) {
    rtArgsEx_t a;
    memset(&a, 0, sizeof a);
    a.args = (void *)argsData;
    a.argsSize = (uint32_t)argsSize;
    a.isNoNeedH2DCopy = 1;
    return ((__typeof__(&rtLaunchKernelByFuncHandleV3))fn)(funcHandle, numBlocks, &a, stream, NULL);
}

int32_t npu_route_query_event(void *fn, aclrtEvent event, aclrtEventStatus *status) {
    int32_t r = ((__typeof__(&rtEventQuery))fn)(event);
    if (npu_routed_pending == NULL) return r; /* forwarded: aclrtQueryEvent's own work ran */
    if (r == ACL_RT_SUCCESS) {
        *status = ACL_EVENT_STATUS_COMPLETE;
    } else if (r == ACL_ERROR_RT_EVENT_NOT_COMPLETE) {
        *status = ACL_EVENT_STATUS_NOT_READY;
        r = ACL_RT_SUCCESS;
    }
    return r;
}

int32_t npu_route_stream_query(void *fn, aclrtStream stream, aclrtStreamStatus *status) {
    int32_t r = ((__typeof__(&rtStreamQuery))fn)(stream);
    if (npu_routed_pending == NULL) return r; /* forwarded: aclrtStreamQuery's own work ran */
    if (r == ACL_RT_SUCCESS) {
        *status = ACL_STREAM_STATUS_COMPLETE;
    } else if (r == ACL_ERROR_RT_STREAM_NOT_COMPLETE) {
        *status = ACL_STREAM_STATUS_NOT_READY;
        r = ACL_RT_SUCCESS;
    }
    return r;
}

__thread npu_routed *npu_routed_pending __attribute__((tls_model("initial-exec")));

int32_t npu_route_take(void) {
    npu_routed *h = npu_routed_pending;
    npu_routed_pending = NULL;
    return h->thunk(h);
}

int32_t npu_route_run_mode(void *fn, aclrtRunMode *runMode) {
    rtRunMode m;
    int32_t r = ((__typeof__(&rtGetRunMode))fn)(&m);
    if (npu_routed_pending == NULL) return r; /* forwarded: aclrtGetRunMode's own work ran */
    if (r == ACL_RT_SUCCESS) *runMode = m == RT_RUN_MODE_OFFLINE ? ACL_DEVICE : ACL_HOST;
    return r;
}

int32_t npu_route_symbol_address(void *fn, const void *symbol, void **devPtr) {
    size_t size;
    return ((__typeof__(&rtSymbolLookup))fn)(symbol, devPtr, &size);
}

int32_t npu_route_symbol_size(void *fn, const void *symbol, size_t *size) {
    void *devPtr;
    return ((__typeof__(&rtSymbolLookup))fn)(symbol, &devPtr, size);
}

int32_t npu_x_halMemAlloc(void **pp, uint64_t size, uint64_t flag) {
    return ((__typeof__(&halMemAlloc))npu_cross[NPU_X_halMemAlloc])(pp, size, flag);
}

int32_t npu_x_halMemFree(uintptr_t pp) {
    return ((__typeof__(&halMemFree))npu_cross[NPU_X_halMemFree])((void *)pp);
}

int32_t npu_x_halMemGetInfo(uint32_t devId, uint32_t type, uint64_t phy[6]) {
    struct MemInfo info;
    memset(&info, 0, sizeof info);
    int32_t r = ((__typeof__(&halMemGetInfo))npu_cross[NPU_X_halMemGetInfo])(devId, type, &info);
    phy[0] = info.phy_info.total;
    phy[1] = info.phy_info.free;
    phy[2] = info.phy_info.huge_total;
    phy[3] = info.phy_info.huge_free;
    phy[4] = info.phy_info.giant_total;
    phy[5] = info.phy_info.giant_free;
    return r;
}

int32_t npu_x_halDeviceEnableP2P(uint32_t dev, uint32_t peer, uint32_t flag) {
    return ((__typeof__(&halDeviceEnableP2P))npu_cross[NPU_X_halDeviceEnableP2P])(dev, peer, flag);
}

int32_t npu_x_halDeviceDisableP2P(uint32_t dev, uint32_t peer, uint32_t flag) {
    return ((__typeof__(&halDeviceDisableP2P))npu_cross[NPU_X_halDeviceDisableP2P])(dev, peer, flag);
}

int32_t npu_x_halDeviceCanAccessPeer(int32_t *can, uint32_t dev, uint32_t peer) {
    return ((__typeof__(&halDeviceCanAccessPeer))npu_cross[NPU_X_halDeviceCanAccessPeer])(can, dev, peer);
}

/* The mbuf family (libfake/hal_mbuf.go). */
#define NPU_X_MBUF(name) ((__typeof__(&name))npu_cross[NPU_X_##name])

int32_t npu_x_halMbufAlloc(uint64_t size, uintptr_t *mbuf) { return NPU_X_MBUF(halMbufAlloc)(size, (Mbuf **)mbuf); }

int32_t npu_x_halMbufFree(uintptr_t mbuf) { return NPU_X_MBUF(halMbufFree)((Mbuf *)mbuf); }

int32_t npu_x_halMbufGetBuffAddr(uintptr_t mbuf, uintptr_t *buf) {
    return NPU_X_MBUF(halMbufGetBuffAddr)((Mbuf *)mbuf, (void **)buf);
}

int32_t npu_x_halMbufGetBuffSize(uintptr_t mbuf, uint64_t *size) {
    return NPU_X_MBUF(halMbufGetBuffSize)((Mbuf *)mbuf, size);
}

int32_t npu_x_halMbufGetDataLen(uintptr_t mbuf, uint64_t *len) {
    return NPU_X_MBUF(halMbufGetDataLen)((Mbuf *)mbuf, len);
}

int32_t npu_x_halMbufSetDataLen(uintptr_t mbuf, uint64_t len) { return NPU_X_MBUF(halMbufSetDataLen)((Mbuf *)mbuf, len); }

int32_t npu_x_halMbufGetPrivInfo(uintptr_t mbuf, uintptr_t *priv, uint32_t *size) {
    return NPU_X_MBUF(halMbufGetPrivInfo)((Mbuf *)mbuf, (void **)priv, size);
}

int32_t npu_x_halMbufCopyRef(uintptr_t mbuf, uintptr_t *newMbuf) {
    return NPU_X_MBUF(halMbufCopyRef)((Mbuf *)mbuf, (Mbuf **)newMbuf);
}

int32_t npu_x_halMbufChainAppend(uintptr_t head, uintptr_t mbuf) {
    return NPU_X_MBUF(halMbufChainAppend)((Mbuf *)head, (Mbuf *)mbuf);
}

int32_t npu_x_halMbufChainGetMbufNum(uintptr_t head, uint32_t *num) {
    return NPU_X_MBUF(halMbufChainGetMbufNum)((Mbuf *)head, num);
}

int32_t npu_x_halMbufChainGetMbuf(uintptr_t head, uint32_t index, uintptr_t *mbuf) {
    return NPU_X_MBUF(halMbufChainGetMbuf)((Mbuf *)head, index, (Mbuf **)mbuf);
}

int32_t npu_x_halGetMemUsageInfo(uint32_t dev, void *out, size_t in_num, size_t *out_num) {
    return ((__typeof__(&halGetMemUsageInfo))npu_cross[NPU_X_halGetMemUsageInfo])(dev, (struct mem_module_usage *)out, in_num,
                                                                                    out_num);
}

int32_t npu_x_halGetDeviceInfo(uint32_t dev, int32_t module, int32_t info, int64_t *value) {
    return ((__typeof__(&halGetDeviceInfo))npu_cross[NPU_X_halGetDeviceInfo])(dev, module, info, value);
}

int32_t npu_x_halMemCreate(uint64_t *handle, size_t size, const void *prop, uint64_t flag) {
    drv_mem_handle_t *h = NULL;
    int32_t r = ((__typeof__(&halMemCreate))npu_cross[NPU_X_halMemCreate])(&h, size, (const struct drv_mem_prop *)prop, flag);
    *handle = (uint64_t)(uintptr_t)h;
    return r;
}

int32_t npu_x_halMemRelease(uint64_t handle) {
    return ((__typeof__(&halMemRelease))npu_cross[NPU_X_halMemRelease])((drv_mem_handle_t *)(uintptr_t)handle);
}

int32_t npu_x_halMemAddressReserve(uintptr_t *ptr, size_t size, size_t alignment, uintptr_t addr, uint64_t flag) {
    void *p = NULL;
    int32_t r = ((__typeof__(&halMemAddressReserve))npu_cross[NPU_X_halMemAddressReserve])(&p, size, alignment, (void *)addr,
                                                                                          flag);
    *ptr = (uintptr_t)p;
    return r;
}

int32_t npu_x_halMemAddressFree(uintptr_t ptr) {
    return ((__typeof__(&halMemAddressFree))npu_cross[NPU_X_halMemAddressFree])((void *)ptr);
}

int32_t npu_x_halMemMap(uintptr_t ptr, size_t size, size_t offset, uint64_t handle, uint64_t flag) {
    return ((__typeof__(&halMemMap))npu_cross[NPU_X_halMemMap])((void *)ptr, size, offset,
                                                                (drv_mem_handle_t *)(uintptr_t)handle, flag);
}

int32_t npu_x_halMemUnmap(uintptr_t ptr) {
    return ((__typeof__(&halMemUnmap))npu_cross[NPU_X_halMemUnmap])((void *)ptr);
}

int32_t npu_x_rtMallocPhysical(uint64_t *handle, size_t size, void *prop, uint64_t flags) {
    rtDrvMemHandle h = NULL;
    int32_t r = ((__typeof__(&rtMallocPhysical))npu_cross[NPU_X_rtMallocPhysical])(&h, size, (rtDrvMemProp_t *)prop, flags);
    if (r == ACL_RT_SUCCESS) *handle = (uint64_t)(uintptr_t)h;
    return r;
}
