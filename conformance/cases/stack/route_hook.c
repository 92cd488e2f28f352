/* route_hook.c: counting hooks on rt* functions that aclrt* functions call
 * (acl-to-rt.tsv), for stack_routes.c. Loaded with LD_PRELOAD, each hook
 * counts its calls and forwards to the next definition (dlsym(RTLD_NEXT)).
 * With ROUTE_HOOK_REFUSE=1 it is a sharing layer that limits the host
 * side: rtMallocHost fails with ACL_ERROR_RT_MEMORY_ALLOCATION without
 * reaching the runtime, and rtGetDeviceCount reports one device fewer;
 * on the routes whose arguments ACL translates, rtStreamGetFlags adds
 * RT_STREAM_HUGE to what it forwards, rtDeviceGetLimit answers 65536 for
 * RT_LIMIT_TYPE_STACK_SIZE itself (and refuses other types), and
 * rtsGetErrorVerbose reports a memory error at 0x1000 + device, 4096 bytes.
 * The program reads the counts through route_hook_count(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

enum { C_ctxCreate, C_ctxDestroy, C_ctxSet, C_ctxGet, C_devCount, C_mallocHost, C_freeHost, C_memset,
       C_memsetAsync, C_streamQuery, C_streamSyncTimeout, C_devSyncTimeout, C_eventQuery, C_eventWaitStatus,
       C_eventRecord, C_captureInfo, C_mbufAlloc, C_mbufFree, C_mbufSetLen, C_mbufGetLen, C_mbufCopyRef,
       C_mbufAppend, C_mbufNum, C_mbufGet, C_snapReg, C_snapUnreg, C_snapLock, C_snapUnlock, C_setGroup, C_groupCount,
       C_streamCreate, C_streamFlags, C_getLimit, C_errVerbose, C_setLimit, C_reduce, C_granularity, C_poolCreate,
       C_binaryLoad, C_privInfo, C_N };
static const char *const names[C_N] = {"rtCtxCreateEx", "rtCtxDestroyEx", "rtCtxSetCurrent", "rtCtxGetCurrent",
    "rtGetDeviceCount", "rtMallocHost", "rtFreeHost", "rtMemset", "rtMemsetAsync", "rtStreamQuery",
    "rtStreamSynchronizeWithTimeout", "rtDeviceSynchronizeWithTimeout", "rtEventQuery", "rtEventQueryWaitStatus",
    "rtEventRecord", "rtStreamGetCaptureInfo", "rtMbufAlloc", "rtMbufFree", "rtMbufSetDataLen", "rtMbufGetDataLen",
    "rtMbufCopyBufRef", "rtMbufChainAppend", "rtMbufChainGetMbufNum", "rtMbufChainGetMbuf",
    "rtSnapShotCallbackRegister", "rtSnapShotCallbackUnregister", "rtSnapShotProcessLock", "rtSnapShotProcessUnlock", "rtSetGroup", "rtGetGroupCount",
    "rtsStreamCreate", "rtStreamGetFlags", "rtDeviceGetLimit", "rtsGetErrorVerbose", "rtDeviceSetLimit",
    "rtsLaunchReduceAsyncTask", "rtMemGetAllocationGranularity", "rtMemPoolCreate", "rtBinaryLoadWithoutTilingKey",
    "rtMbufGetPrivInfo"};
#define HOOK_NAME "route_hook"
#include "hook.h"

long route_hook_count(const char *name) { return hook_count(name); }

static int refuse(void) {
    const char *v = getenv("ROUTE_HOOK_REFUSE");
    return v != NULL && strcmp(v, "1") == 0;
}

#define FORWARD(name, ...) ((__typeof__(&name))next(#name))(__VA_ARGS__)

rtError_t rtCtxCreateEx(rtContext_t *ctx, uint32_t flags, int32_t devId) {
    count(C_ctxCreate);
    return FORWARD(rtCtxCreateEx, ctx, flags, devId);
}
rtError_t rtCtxDestroyEx(rtContext_t ctx) {
    count(C_ctxDestroy);
    return FORWARD(rtCtxDestroyEx, ctx);
}
rtError_t rtCtxSetCurrent(rtContext_t ctx) {
    count(C_ctxSet);
    return FORWARD(rtCtxSetCurrent, ctx);
}
rtError_t rtCtxGetCurrent(rtContext_t *ctx) {
    count(C_ctxGet);
    return FORWARD(rtCtxGetCurrent, ctx);
}
rtError_t rtGetDeviceCount(int32_t *cnt) {
    count(C_devCount);
    rtError_t r = FORWARD(rtGetDeviceCount, cnt);
    if (r == ACL_RT_SUCCESS && refuse() && *cnt > 0) *cnt -= 1;
    return r;
}
rtError_t rtMallocHost(void **hostPtr, uint64_t size, const uint16_t moduleId) {
    count(C_mallocHost);
    if (refuse()) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    return FORWARD(rtMallocHost, hostPtr, size, moduleId);
}
rtError_t rtFreeHost(void *hostPtr) {
    count(C_freeHost);
    return FORWARD(rtFreeHost, hostPtr);
}
rtError_t rtMemset(void *devPtr, uint64_t destMax, uint32_t val, uint64_t cnt) {
    count(C_memset);
    return FORWARD(rtMemset, devPtr, destMax, val, cnt);
}
rtError_t rtMemsetAsync(void *ptr, uint64_t destMax, uint32_t val, uint64_t cnt, rtStream_t stm) {
    count(C_memsetAsync);
    return FORWARD(rtMemsetAsync, ptr, destMax, val, cnt, stm);
}
rtError_t rtStreamQuery(rtStream_t stm) {
    count(C_streamQuery);
    return FORWARD(rtStreamQuery, stm);
}
rtError_t rtStreamSynchronizeWithTimeout(rtStream_t stm, int32_t timeout) {
    count(C_streamSyncTimeout);
    return FORWARD(rtStreamSynchronizeWithTimeout, stm, timeout);
}
rtError_t rtDeviceSynchronizeWithTimeout(int32_t timeout) {
    count(C_devSyncTimeout);
    return FORWARD(rtDeviceSynchronizeWithTimeout, timeout);
}
rtError_t rtEventQuery(rtEvent_t evt) {
    count(C_eventQuery);
    return FORWARD(rtEventQuery, evt);
}
rtError_t rtEventQueryWaitStatus(rtEvent_t evt, rtEventWaitStatus_t *status) {
    count(C_eventWaitStatus);
    return FORWARD(rtEventQueryWaitStatus, evt, status);
}
rtError_t rtEventRecord(rtEvent_t evt, rtStream_t stm) {
    count(C_eventRecord);
    return FORWARD(rtEventRecord, evt, stm);
}
rtError_t rtStreamGetCaptureInfo(rtStream_t stm, rtStreamCaptureStatus *const status, rtModel_t *captureMdl) {
    count(C_captureInfo);
    return FORWARD(rtStreamGetCaptureInfo, stm, status, captureMdl);
}
rtError_t rtMbufAlloc(rtMbufPtr_t *memBuf, uint64_t size) {
    count(C_mbufAlloc);
    return FORWARD(rtMbufAlloc, memBuf, size);
}
rtError_t rtMbufFree(rtMbufPtr_t memBuf) {
    count(C_mbufFree);
    return FORWARD(rtMbufFree, memBuf);
}
rtError_t rtMbufSetDataLen(rtMbufPtr_t memBuf, uint64_t len) {
    count(C_mbufSetLen);
    return FORWARD(rtMbufSetDataLen, memBuf, len);
}
rtError_t rtMbufGetDataLen(rtMbufPtr_t memBuf, uint64_t *len) {
    count(C_mbufGetLen);
    return FORWARD(rtMbufGetDataLen, memBuf, len);
}
rtError_t rtMbufCopyBufRef(rtMbufPtr_t memBuf, rtMbufPtr_t *newMemBuf) {
    count(C_mbufCopyRef);
    return FORWARD(rtMbufCopyBufRef, memBuf, newMemBuf);
}
rtError_t rtMbufChainAppend(rtMbufPtr_t head, rtMbufPtr_t memBuf) {
    count(C_mbufAppend);
    return FORWARD(rtMbufChainAppend, head, memBuf);
}
rtError_t rtMbufChainGetMbufNum(rtMbufPtr_t head, uint32_t *num) {
    count(C_mbufNum);
    return FORWARD(rtMbufChainGetMbufNum, head, num);
}
rtError_t rtMbufChainGetMbuf(rtMbufPtr_t head, uint32_t index, rtMbufPtr_t *memBuf) {
    count(C_mbufGet);
    return FORWARD(rtMbufChainGetMbuf, head, index, memBuf);
}
rtError_t rtSnapShotCallbackRegister(rtSnapShotStage stage, rtSnapShotCallBack callback, void *args) {
    count(C_snapReg);
    return FORWARD(rtSnapShotCallbackRegister, stage, callback, args);
}
rtError_t rtSnapShotCallbackUnregister(rtSnapShotStage stage, rtSnapShotCallBack callback) {
    count(C_snapUnreg);
    return FORWARD(rtSnapShotCallbackUnregister, stage, callback);
}
rtError_t rtSnapShotProcessLock(void) {
    count(C_snapLock);
    return FORWARD(rtSnapShotProcessLock);
}
rtError_t rtSnapShotProcessUnlock(void) {
    count(C_snapUnlock);
    return FORWARD(rtSnapShotProcessUnlock);
}
rtError_t rtSetGroup(int32_t groupId) {
    count(C_setGroup);
    return FORWARD(rtSetGroup, groupId);
}
rtError_t rtGetGroupCount(uint32_t *cnt) {
    count(C_groupCount);
    const char *n = getenv("ROUTE_HOOK_GROUP_COUNT"); /* a layer that shows fewer groups */
    if (n != NULL) {
        *cnt = (uint32_t)atoi(n);
        return ACL_RT_SUCCESS;
    }
    return FORWARD(rtGetGroupCount, cnt);
}

/* The RT_STREAM_* bits of the last rtsStreamCreate's
 * RT_STREAM_CREATE_ATTR_FLAGS (the program reads it with dlsym). */
uint32_t route_hook_create_flags = 0xFFFFFFFFu;

rtError_t rtsStreamCreate(rtStream_t *stream, rtStreamCreateConfig_t *config) {
    count(C_streamCreate);
    for (size_t i = 0; config != NULL && i < config->numAttrs; i++)
        if (config->attrs[i].id == RT_STREAM_CREATE_ATTR_FLAGS) route_hook_create_flags = config->attrs[i].value.flags;
    return FORWARD(rtsStreamCreate, stream, config);
}
rtError_t rtStreamGetFlags(const rtStream_t stm, uint32_t *flags) {
    count(C_streamFlags);
    rtError_t r = FORWARD(rtStreamGetFlags, stm, flags);
    if (r == ACL_RT_SUCCESS && refuse()) *flags |= RT_STREAM_HUGE;
    return r;
}
rtError_t rtDeviceGetLimit(rtLimitType_t type, uint32_t *val) {
    count(C_getLimit);
    if (!refuse()) return FORWARD(rtDeviceGetLimit, type, val);
    if (type != RT_LIMIT_TYPE_STACK_SIZE) return ACL_ERROR_RT_PARAM_INVALID;
    *val = 65536;
    return ACL_RT_SUCCESS;
}
rtError_t rtsGetErrorVerbose(const uint32_t deviceId, rtErrorInfo *const errorInfo) {
    count(C_errVerbose);
    if (!refuse()) return FORWARD(rtsGetErrorVerbose, deviceId, errorInfo);
    memset(errorInfo, 0, sizeof *errorInfo);
    errorInfo->tryRepair = 1;
    errorInfo->hasDetail = 1;
    errorInfo->errorType = RT_ERROR_MEMORY;
    errorInfo->detail.uceInfo.arraySize = 1;
    errorInfo->detail.uceInfo.repairAddrArray[0].ptr = 0x1000 + deviceId;
    errorInfo->detail.uceInfo.repairAddrArray[0].len = 4096;
    return ACL_RT_SUCCESS;
}

/* The arguments the last call of a translated route's rt* function
 * carried, as the hook saw them (the program reads them with
 * route_hook_args): rtDeviceSetLimit (devId, type, val),
 * rtsLaunchReduceAsyncTask (kind, type, count), rtMemGetAllocationGranularity
 * (side, devid, module_id, option), rtMemPoolCreate (side, devId,
 * handleType, maxSize), rtBinaryLoadWithoutTilingKey (data, length; with
 * ROUTE_HOOK_REFUSE=1 it answers ACL_ERROR_RT_FEATURE_NOT_SUPPORT itself). */
static uint64_t seen[C_N][4];

const uint64_t *route_hook_args(const char *name) {
    for (int i = 0; i < C_N; i++)
        if (strcmp(names[i], name) == 0) return seen[i];
    return NULL;
}

rtError_t rtDeviceSetLimit(int32_t devId, rtLimitType_t type, uint32_t val) {
    count(C_setLimit);
    seen[C_setLimit][0] = (uint64_t)devId;
    seen[C_setLimit][1] = (uint64_t)type;
    seen[C_setLimit][2] = val;
    return FORWARD(rtDeviceSetLimit, devId, type, val);
}
rtError_t rtsLaunchReduceAsyncTask(const rtReduceInfo_t *reduceInfo, const rtStream_t stm, const void *reserve) {
    count(C_reduce);
    if (reduceInfo != NULL) {
        seen[C_reduce][0] = (uint64_t)reduceInfo->kind;
        seen[C_reduce][1] = (uint64_t)reduceInfo->type;
        seen[C_reduce][2] = reduceInfo->count;
    }
    return FORWARD(rtsLaunchReduceAsyncTask, reduceInfo, stm, reserve);
}
rtError_t rtMemGetAllocationGranularity(rtDrvMemProp_t *prop, rtDrvMemGranularityOptions option, size_t *granularity) {
    count(C_granularity);
    if (prop != NULL) {
        seen[C_granularity][0] = prop->side;
        seen[C_granularity][1] = prop->devid;
        seen[C_granularity][2] = prop->module_id;
        seen[C_granularity][3] = (uint64_t)option;
    }
    return FORWARD(rtMemGetAllocationGranularity, prop, option, granularity);
}
rtError_t rtMemPoolCreate(rtMemPool_t *memPool, const rtMemPoolProps *poolProps) {
    count(C_poolCreate);
    if (poolProps != NULL) {
        seen[C_poolCreate][0] = poolProps->side;
        seen[C_poolCreate][1] = poolProps->devId;
        seen[C_poolCreate][2] = (uint64_t)poolProps->handleType;
        seen[C_poolCreate][3] = poolProps->maxSize;
    }
    return FORWARD(rtMemPoolCreate, memPool, poolProps);
}
rtError_t rtBinaryLoadWithoutTilingKey(const void *data, const uint64_t length, rtBinHandle *binHandle) {
    count(C_binaryLoad);
    seen[C_binaryLoad][0] = (uint64_t)(uintptr_t)data;
    seen[C_binaryLoad][1] = length;
    if (refuse()) return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    return FORWARD(rtBinaryLoadWithoutTilingKey, data, length, binHandle);
}

/* With ROUTE_HOOK_REFUSE=1, rtMbufGetPrivInfo answers with this area
 * instead of the mbuf's (the program reads it with dlsym). */
char route_hook_priv[16];

rtError_t rtMbufGetPrivInfo(rtMbufPtr_t memBuf, void **priv, uint64_t *size) {
    count(C_privInfo);
    if (!refuse()) return FORWARD(rtMbufGetPrivInfo, memBuf, priv, size);
    *priv = route_hook_priv;
    *size = sizeof route_hook_priv;
    return ACL_RT_SUCCESS;
}
