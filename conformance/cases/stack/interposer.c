/* interposer.c: an NPU-sharing layer in miniature, for stack_interpose.c.
 * Loaded with LD_PRELOAD, it defines rt* and hal* functions that count
 * their calls and forward to the next definition (dlsym(RTLD_NEXT)), the
 * way vNPU limiters hook the CANN runtime and driver. With
 * INTERPOSER_QUOTA=<bytes> and INTERPOSER_LEVEL=rt|hal it enforces a device
 * memory quota at that level: allocations beyond it are refused
 * (rtMalloc: ACL_ERROR_RT_MEMORY_ALLOCATION; halMemAlloc:
 * DRV_ERROR_OUT_OF_MEMORY) and the memory queries report the quota as
 * the total (rtMemGetInfoEx; halMemGetInfo, normal pages).
 *
 * The program reads the counts through interposer_count(name).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/ascend_hal.h"
#include "runtime/rt.h"

enum { C_rtMalloc, C_rtFree, C_rtMemGetInfoEx, C_rtStreamCreate, C_rtLaunchV3, C_rtsLaunchWithConfig,
       C_halMemAlloc, C_halMemFree, C_halMemGetInfo, C_rtSetDevice, C_rtGetDevice, C_rtDeviceSynchronize,
       C_rtEventCreate, C_rtEventRecord, C_rtStreamWaitEvent, C_rtStreamSynchronize, C_rtEventElapsedTime, C_rtMemcpy, C_N };
static const char *const names[C_N] = {"rtMalloc", "rtFree", "rtMemGetInfoEx", "rtStreamCreate",
    "rtLaunchKernelByFuncHandleV3", "rtsLaunchKernelWithConfig", "halMemAlloc", "halMemFree", "halMemGetInfo",
    "rtSetDevice", "rtGetDevice", "rtDeviceSynchronize", "rtEventCreate", "rtEventRecord", "rtStreamWaitEvent",
    "rtStreamSynchronize", "rtEventElapsedTime", "rtMemcpy"};
#define HOOK_NAME "interposer"
#include "hook.h"
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

long interposer_count(const char *name) { return hook_count(name); }

/* The quota: live allocations of the enforcing level. */
#define MAXLIVE 1024
static struct { void *p; uint64_t size; } live[MAXLIVE];
static uint64_t used;

static int level(const char *l) {
    const char *v = getenv("INTERPOSER_LEVEL");
    return v != NULL && strcmp(v, l) == 0 && getenv("INTERPOSER_QUOTA") != NULL;
}
static uint64_t quota(void) { return strtoull(getenv("INTERPOSER_QUOTA"), NULL, 0); }

/* admit reserves size bytes (0: refused). */
static int admit(uint64_t size) {
    pthread_mutex_lock(&mu);
    int ok = used + size <= quota();
    if (ok) used += size;
    pthread_mutex_unlock(&mu);
    return ok;
}

static void remember(void *p, uint64_t size) {
    pthread_mutex_lock(&mu);
    for (int i = 0; i < MAXLIVE; i++)
        if (live[i].p == NULL) {
            live[i].p = p;
            live[i].size = size;
            break;
        }
    pthread_mutex_unlock(&mu);
}

static void unreserve(uint64_t size) {
    pthread_mutex_lock(&mu);
    used -= size;
    pthread_mutex_unlock(&mu);
}

static void forget(void *p) {
    pthread_mutex_lock(&mu);
    for (int i = 0; i < MAXLIVE; i++)
        if (live[i].p == p && p != NULL) {
            used -= live[i].size;
            live[i].p = NULL;
            break;
        }
    pthread_mutex_unlock(&mu);
}

static uint64_t usedNow(void) {
    pthread_mutex_lock(&mu);
    uint64_t u = used;
    pthread_mutex_unlock(&mu);
    return u;
}

rtError_t rtMalloc(void **devPtr, uint64_t size, rtMemType_t type, const uint16_t moduleId) {
    count(C_rtMalloc);
    int enforce = level("rt");
    if (enforce && !admit(size)) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    rtError_t r = ((__typeof__(&rtMalloc))next("rtMalloc"))(devPtr, size, type, moduleId);
    if (enforce) {
        if (r == ACL_RT_SUCCESS) remember(*devPtr, size);
        else unreserve(size);
    }
    return r;
}

rtError_t rtFree(void *devPtr) {
    count(C_rtFree);
    rtError_t r = ((__typeof__(&rtFree))next("rtFree"))(devPtr);
    if (r == ACL_RT_SUCCESS && level("rt")) forget(devPtr);
    return r;
}

rtError_t rtMemGetInfoEx(rtMemInfoType_t memInfoType, size_t *freeSize, size_t *totalSize) {
    count(C_rtMemGetInfoEx);
    rtError_t r = ((__typeof__(&rtMemGetInfoEx))next("rtMemGetInfoEx"))(memInfoType, freeSize, totalSize);
    if (r == ACL_RT_SUCCESS && level("rt") && *totalSize > 0) {
        *totalSize = quota();
        *freeSize = quota() - usedNow();
    }
    return r;
}

rtError_t rtStreamCreate(rtStream_t *stm, int32_t priority) {
    count(C_rtStreamCreate);
    return ((__typeof__(&rtStreamCreate))next("rtStreamCreate"))(stm, priority);
}

rtError_t rtLaunchKernelByFuncHandleV3(rtFuncHandle funcHandle, uint32_t numBlocks, const rtArgsEx_t *const argsInfo,
                                       rtStream_t stm, const rtTaskCfgInfo_t *const cfgInfo) {
    count(C_rtLaunchV3);
    return ((__typeof__(&rtLaunchKernelByFuncHandleV3))next("rtLaunchKernelByFuncHandleV3"))(funcHandle, numBlocks, argsInfo, stm, cfgInfo);
}

rtError_t rtsLaunchKernelWithConfig(rtFuncHandle funcHandle, uint32_t numBlocks, rtStream_t stm, rtKernelLaunchCfg_t *cfg,
                                    rtArgsHandle argsHandle, void *reserve) {
    count(C_rtsLaunchWithConfig);
    return ((__typeof__(&rtsLaunchKernelWithConfig))next("rtsLaunchKernelWithConfig"))(funcHandle, numBlocks, stm, cfg, argsHandle, reserve);
}

drvError_t halMemAlloc(void **pp, unsigned long long size, unsigned long long flag) {
    count(C_halMemAlloc);
    int enforce = level("hal");
    if (enforce && !admit(size)) return DRV_ERROR_OUT_OF_MEMORY;
    drvError_t r = ((__typeof__(&halMemAlloc))next("halMemAlloc"))(pp, size, flag);
    if (enforce) {
        if (r == DRV_ERROR_NONE) remember(*pp, size);
        else unreserve(size);
    }
    return r;
}

drvError_t halMemFree(void *pp) {
    count(C_halMemFree);
    drvError_t r = ((__typeof__(&halMemFree))next("halMemFree"))(pp);
    if (r == DRV_ERROR_NONE && level("hal")) forget(pp);
    return r;
}

DVresult halMemGetInfo(DVdevice device, unsigned int type, struct MemInfo *info) {
    count(C_halMemGetInfo);
    DVresult r = ((__typeof__(&halMemGetInfo))next("halMemGetInfo"))(device, type, info);
    if (r == DRV_ERROR_NONE && level("hal") && info->phy_info.total + info->phy_info.huge_total > 0) {
        info->phy_info.total = quota();
        info->phy_info.free = quota() - usedNow();
        info->phy_info.huge_total = info->phy_info.huge_free = 0;
        info->phy_info.giant_total = info->phy_info.giant_free = 0;
    }
    return r;
}

/* The calls a vNPU limiter makes for its own bookkeeping: counted and
 * forwarded. */
rtError_t rtSetDevice(int32_t devId) {
    count(C_rtSetDevice);
    return ((__typeof__(&rtSetDevice))next("rtSetDevice"))(devId);
}

rtError_t rtGetDevice(int32_t *devId) {
    count(C_rtGetDevice);
    return ((__typeof__(&rtGetDevice))next("rtGetDevice"))(devId);
}

rtError_t rtDeviceSynchronize(void) {
    count(C_rtDeviceSynchronize);
    return ((__typeof__(&rtDeviceSynchronize))next("rtDeviceSynchronize"))();
}

rtError_t rtEventCreate(rtEvent_t *evt) {
    count(C_rtEventCreate);
    return ((__typeof__(&rtEventCreate))next("rtEventCreate"))(evt);
}

rtError_t rtEventRecord(rtEvent_t evt, rtStream_t stm) {
    count(C_rtEventRecord);
    return ((__typeof__(&rtEventRecord))next("rtEventRecord"))(evt, stm);
}

rtError_t rtStreamWaitEvent(rtStream_t stm, rtEvent_t evt) {
    count(C_rtStreamWaitEvent);
    return ((__typeof__(&rtStreamWaitEvent))next("rtStreamWaitEvent"))(stm, evt);
}

rtError_t rtStreamSynchronize(rtStream_t stm) {
    count(C_rtStreamSynchronize);
    return ((__typeof__(&rtStreamSynchronize))next("rtStreamSynchronize"))(stm);
}

rtError_t rtEventElapsedTime(float32_t *timeInterval, rtEvent_t startEvent, rtEvent_t endEvent) {
    count(C_rtEventElapsedTime);
    return ((__typeof__(&rtEventElapsedTime))next("rtEventElapsedTime"))(timeInterval, startEvent, endEvent);
}

rtError_t rtMemcpy(void *dst, uint64_t destMax, const void *src, uint64_t cnt, rtMemcpyKind_t kind) {
    count(C_rtMemcpy);
    return ((__typeof__(&rtMemcpy))next("rtMemcpy"))(dst, destMax, src, cnt, kind);
}
