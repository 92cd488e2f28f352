/* stack_route.c: the translations of the routed ACL calls of stack_route.h. */
#include <stdio.h>
#include <string.h>

#include "_cgo_export.h"
#include "stack.h"
#include "stack_route.h"

/* A route whose rt* outputs are locals of the helper, converted into the
 * ACL outputs after the call: the helper puts a route_out in front of the
 * pending ACL work, so that a forward runs the ACL work and then writes
 * the rt* form of its results into the locals (fill). The helper converts
 * the locals whether the interposer forwarded or answered itself, so an
 * interposer that forwards and then changes the outputs is heard too. */
typedef struct route_out {
    npu_routed h;
    npu_routed *acl;                    /* the ACL work */
    void (*fill)(struct route_out *o); /* ACL results -> rt* locals */
    void *p[4];                         /* what fill reads and writes */
} route_out;

static int32_t route_out_thunk(npu_routed *h) {
    route_out *o = (route_out *)h;
    int32_t r = o->acl->thunk(o->acl);
    if (r == ACL_RT_SUCCESS) o->fill(o);
    return r;
}

static void route_out_begin(route_out *o, void (*fill)(route_out *)) {
    o->acl = npu_routed_pending;
    o->h.rt = o->acl->rt;
    o->h.thunk = route_out_thunk;
    o->fill = fill;
    npu_routed_pending = &o->h;
}

int npu_rt_limit_type(aclrtDeviceLimit limit) {
    switch (limit) {
    case ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE: return RT_LIMIT_TYPE_SIMT_STACK_SIZE;
    case ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE: return RT_LIMIT_TYPE_SIMT_DVG_WARP_STACK_SIZE;
    case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE: return RT_LIMIT_TYPE_STACK_SIZE;
    case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE: return RT_LIMIT_TYPE_SIMD_PRINTF_FIFO_SIZE_PER_CORE;
    case ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE: return RT_LIMIT_TYPE_SIMT_PRINTF_FIFO_SIZE;
    }
    return -1;
}

int npu_rt_data_type(aclDataType type) {
    switch (type) {
    case ACL_FLOAT: return RT_DATA_TYPE_FP32;
    case ACL_FLOAT16: return RT_DATA_TYPE_FP16;
    case ACL_BF16: return RT_DATA_TYPE_BFP16;
    case ACL_INT8: return RT_DATA_TYPE_INT8;
    case ACL_INT16: return RT_DATA_TYPE_INT16;
    case ACL_INT32: return RT_DATA_TYPE_INT32;
    default: return -1;
    }
}

static const struct {
    uint32_t acl, rt;
} stream_flag_pairs[] = {
    {ACL_STREAM_FAST_LAUNCH, RT_STREAM_FAST_LAUNCH}, {ACL_STREAM_FAST_SYNC, RT_STREAM_FAST_SYNC},
    {ACL_STREAM_PERSISTENT, RT_STREAM_PERSISTENT},   {ACL_STREAM_HUGE, RT_STREAM_HUGE},
    {ACL_STREAM_CPU_SCHEDULE, RT_STREAM_CPU_SCHEDULE}, {ACL_STREAM_DEVICE_USE_ONLY, RT_STREAM_CP_PROCESS_USE},
};

uint32_t npu_rt_stream_flags(uint32_t aclFlags) {
    uint32_t f = 0;
    for (size_t i = 0; i < sizeof stream_flag_pairs / sizeof stream_flag_pairs[0]; i++)
        if (aclFlags & stream_flag_pairs[i].acl) f |= stream_flag_pairs[i].rt;
    return f;
}

uint32_t npu_acl_stream_flags(uint32_t rtFlags) {
    uint32_t f = 0;
    for (size_t i = 0; i < sizeof stream_flag_pairs / sizeof stream_flag_pairs[0]; i++)
        if (rtFlags & stream_flag_pairs[i].rt) f |= stream_flag_pairs[i].acl;
    return f;
}

int32_t npu_route_device_set_limit(void *fn, aclrtDeviceLimit limit, size_t value) {
    return ((__typeof__(&rtDeviceSetLimit))fn)(0, (rtLimitType_t)npu_rt_limit_type(limit), (uint32_t)value);
}

static void fill_limit(route_out *o) {
    size_t v = *(size_t *)o->p[1];
    *(uint32_t *)o->p[0] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

int32_t npu_route_device_get_limit(void *fn, aclrtDeviceLimit limit, size_t *value) {
    uint32_t v = 0;
    route_out o = {.p = {&v, value}};
    route_out_begin(&o, fill_limit);
    int32_t r = ((__typeof__(&rtDeviceGetLimit))fn)((rtLimitType_t)npu_rt_limit_type(limit), &v);
    if (r == ACL_RT_SUCCESS) *value = v;
    return r;
}

int32_t npu_route_create_stream_with_config(void *fn, aclrtStream *stream, uint32_t priority, uint32_t flag) {
    rtStreamCreateAttr_t attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = RT_STREAM_CREATE_ATTR_PRIORITY;
    attrs[0].value.priority = priority;
    attrs[1].id = RT_STREAM_CREATE_ATTR_FLAGS;
    attrs[1].value.flags = npu_rt_stream_flags(flag);
    rtStreamCreateConfig_t cfg = {attrs, 2};
    return ((__typeof__(&rtsStreamCreate))fn)((rtStream_t *)stream, &cfg);
}

static void fill_stream_flags(route_out *o) { *(uint32_t *)o->p[0] = npu_rt_stream_flags(*(uint32_t *)o->p[1]); }

int32_t npu_route_stream_get_flags(void *fn, aclrtStream stream, uint32_t *flags) {
    uint32_t f = 0;
    route_out o = {.p = {&f, flags}};
    route_out_begin(&o, fill_stream_flags);
    int32_t r = ((__typeof__(&rtStreamGetFlags))fn)(stream, &f);
    if (r == ACL_RT_SUCCESS) *flags = npu_acl_stream_flags(f);
    return r;
}

int32_t npu_route_reduce_async(void *fn, void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                               aclDataType type, aclrtStream stream, void *reserve) {
    rtReduceInfo_t ri;
    memset(&ri, 0, sizeof ri);
    ri.dst = dst;
    ri.src = (void *)src;
    ri.count = (size_t)count;
    ri.kind = (rtReduceKind)kind; /* RT_MEMCPY_SDMA_AUTOMATIC_*: ACL's values */
    ri.type = (rtDataType)npu_rt_data_type(type);
    return ((__typeof__(&rtsLaunchReduceAsyncTask))fn)(&ri, (rtStream_t)stream, reserve);
}

int32_t npu_route_memcpy_batch_v2(void *fn, void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                                  aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs) {
    (void)destMaxs; /* rtsMemcpyBatch has none: each destination holds its size */
    size_t failIdx = SIZE_MAX;
    return ((__typeof__(&rtsMemcpyBatch))fn)(dsts, srcs, sizes, numBatches, (rtMemcpyBatchAttr *)attrs, attrsIndexes,
                                             numAttrs, &failIdx);
}

int32_t npu_route_memcpy_batch_async_v2(void *fn, void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                        size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                        size_t numAttrs, aclrtStream stream) {
    size_t failIdx = SIZE_MAX;
    return ((__typeof__(&rtsMemcpyBatchAsync))fn)(dsts, destMaxs, srcs, sizes, numBatches, (rtMemcpyBatchAttr *)attrs,
                                                  attrsIndexes, numAttrs, &failIdx, (rtStream_t)stream);
}

int32_t npu_route_mem_granularity(void *fn, aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option,
                                  size_t *granularity) {
    rtDrvMemProp_t p;
    memset(&p, 0, sizeof p);
    if (!npuRouteDrvMemProp(prop, &p)) return npu_route_take(); /* ACL refuses the prop: no rt* call */
    return ((__typeof__(&rtMemGetAllocationGranularity))fn)(&p, (rtDrvMemGranularityOptions)option, granularity);
}

int32_t npu_route_binary_load(void *fn, const aclrtBinary binary, aclrtBinHandle *binHandle) {
    void *data = NULL;
    uint64_t length = 0;
    if (!npuRouteRawBinary(binary, &data, &length)) return npu_route_take(); /* ACL refuses the handle */
    return ((__typeof__(&rtBinaryLoadWithoutTilingKey))fn)(data, length, (rtBinHandle *)binHandle);
}

/* fill_done marks a forward whose ACL work succeeded (p[0]: an int). */
static void fill_done(route_out *o) { *(int *)o->p[0] = 1; }

/* buf_user_area is the mbuf's user-data area as the interposed
 * rtMbufGetPrivInfo reports it, checked as ACL checks it; *area NULL:
 * the call was forwarded and the ACL work did the copy (or r failed). */
static int32_t buf_user_area(const char *api, void *fn, aclrtMbuf buf, size_t size, size_t offset, char **area) {
    int done = 0;
    void *priv = NULL;
    uint64_t n = 0;
    route_out o = {.p = {&done}};
    route_out_begin(&o, fill_done);
    *area = NULL;
    int32_t r = ((__typeof__(&rtMbufGetPrivInfo))fn)((rtMbufPtr_t)buf, &priv, &n);
    if (r != ACL_RT_SUCCESS || done) return r;
    if (priv == NULL || size > n || offset > n - size) {
        char msg[192];
        snprintf(msg, sizeof msg, "%s: %zu bytes at offset %zu: the user-data area rtMbufGetPrivInfo reports is %llu bytes",
                 api, size, offset, (unsigned long long)n);
        return npuRouteInvalid(msg);
    }
    *area = (char *)priv + offset;
    return r;
}

int32_t npu_route_get_buf_user_data(void *fn, const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset) {
    char *area;
    int32_t r = buf_user_area("aclrtGetBufUserData", fn, buf, size, offset, &area);
    if (r == ACL_RT_SUCCESS && area != NULL) memcpy(dataPtr, area, size);
    return r;
}

int32_t npu_route_set_buf_user_data(void *fn, aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset) {
    char *area;
    int32_t r = buf_user_area("aclrtSetBufUserData", fn, buf, size, offset, &area);
    if (r == ACL_RT_SUCCESS && area != NULL) memcpy(area, dataPtr, size);
    return r;
}

int32_t npu_route_group_info_detail(void *fn, const aclrtGroupInfo *groupInfo, int32_t groupIndex, aclrtGroupAttr attr,
                                    void *attrValue, size_t valueLen, size_t *paramRetSize) {
    (void)groupInfo, (void)attr, (void)attrValue, (void)valueLen, (void)paramRetSize; /* the ACL work's */
    int done = 0;
    uint32_t n = 0;
    route_out o = {.p = {&done}};
    route_out_begin(&o, fill_done);
    int32_t r = ((__typeof__(&rtGetGroupCount))fn)(&n);
    if (r != ACL_RT_SUCCESS || done) return r;
    if (groupIndex < 0 || (uint32_t)groupIndex >= n) {
        char msg[160];
        snprintf(msg, sizeof msg, "aclrtGetGroupInfoDetail: groupIndex %d: rtGetGroupCount reports %u groups", groupIndex, n);
        return npuRouteInvalid(msg);
    }
    return npu_route_take(); /* ACL's own read of the object */
}

int32_t npu_route_mem_pool_create(void *fn, aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps) {
    rtMemPoolProps p;
    memset(&p, 0, sizeof p);
    p.side = poolProps->location.type == ACL_MEM_LOCATION_TYPE_DEVICE ? MEM_DEV_SIDE : MEM_HOST_SIDE;
    p.devId = poolProps->location.id;
    p.handleType = (rtDrvMemHandleType)poolProps->handleType;
    p.maxSize = poolProps->maxSize;
    return ((__typeof__(&rtMemPoolCreate))fn)((rtMemPool_t *)memPool, &p);
}

/* rtErrorInfo <-> aclrtErrorInfo: the header, and the detail of a memory
 * error (addresses) or an AI Core error (its type). */
static void error_info_to_acl(const rtErrorInfo *e, aclrtErrorInfo *a) {
    memset(a, 0, sizeof *a);
    a->tryRepair = e->tryRepair;
    a->hasDetail = e->hasDetail;
    a->errorType = (aclrtErrorType)e->errorType;
    if (e->errorType == RT_ERROR_MEMORY) {
        size_t n = e->detail.uceInfo.arraySize;
        if (n > RT_MAX_RECORD_PA_NUM_PER_DEV) n = RT_MAX_RECORD_PA_NUM_PER_DEV;
        a->detail.uceInfo.arraySize = n;
        for (size_t i = 0; i < n; i++) {
            a->detail.uceInfo.memUceInfoArray[i].addr = (void *)(uintptr_t)e->detail.uceInfo.repairAddrArray[i].ptr;
            a->detail.uceInfo.memUceInfoArray[i].len = e->detail.uceInfo.repairAddrArray[i].len;
        }
    } else if (e->errorType == RT_ERROR_AICORE) {
        a->detail.aicoreErrType = (aclrtAicoreErrorType)e->detail.aicoreErrType;
    }
}

static void error_info_to_rt(const aclrtErrorInfo *a, rtErrorInfo *e) {
    memset(e, 0, sizeof *e);
    e->tryRepair = a->tryRepair;
    e->hasDetail = a->hasDetail;
    e->errorType = (rtErrType)a->errorType;
    if (a->errorType == ACL_RT_ERROR_MEMORY) {
        size_t n = a->detail.uceInfo.arraySize;
        if (n > RT_MAX_RECORD_PA_NUM_PER_DEV) n = RT_MAX_RECORD_PA_NUM_PER_DEV;
        e->detail.uceInfo.arraySize = n;
        for (size_t i = 0; i < n; i++) {
            e->detail.uceInfo.repairAddrArray[i].ptr = (uint64_t)(uintptr_t)a->detail.uceInfo.memUceInfoArray[i].addr;
            e->detail.uceInfo.repairAddrArray[i].len = a->detail.uceInfo.memUceInfoArray[i].len;
        }
    } else if (a->errorType == ACL_RT_ERROR_AICORE) {
        e->detail.aicoreErrType = (rtAicoreErrorType)a->detail.aicoreErrType;
    }
}

static void fill_error_info(route_out *o) { error_info_to_rt((const aclrtErrorInfo *)o->p[1], (rtErrorInfo *)o->p[0]); }

int32_t npu_route_get_error_verbose(void *fn, int32_t deviceId, aclrtErrorInfo *errorInfo) {
    rtErrorInfo e;
    memset(&e, 0, sizeof e);
    route_out o = {.p = {&e, errorInfo}};
    route_out_begin(&o, fill_error_info);
    int32_t r = ((__typeof__(&rtsGetErrorVerbose))fn)((uint32_t)deviceId, &e);
    if (r == ACL_RT_SUCCESS) error_info_to_acl(&e, errorInfo);
    return r;
}

int32_t npu_route_repair_error(void *fn, int32_t deviceId, const aclrtErrorInfo *errorInfo) {
    rtErrorInfo e;
    error_info_to_rt(errorInfo, &e);
    return ((__typeof__(&rtsRepairError))fn)((uint32_t)deviceId, &e);
}

static void fill_uce_info(route_out *o) {
    rtMemUceInfo *u = (rtMemUceInfo *)o->p[0];
    const aclrtMemUceInfo *a = (const aclrtMemUceInfo *)o->p[1];
    size_t n = *(size_t *)o->p[2];
    if (n > RT_MAX_RECORD_PA_NUM_PER_DEV) n = RT_MAX_RECORD_PA_NUM_PER_DEV;
    u->count = (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        u->repairAddr[i].ptr = (uint64_t)(uintptr_t)a[i].addr;
        u->repairAddr[i].len = a[i].len;
    }
}

int32_t npu_route_get_mem_uce_info(void *fn, int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize,
                                   size_t *retSize) {
    rtMemUceInfo u;
    memset(&u, 0, sizeof u);
    u.devid = (uint32_t)deviceId;
    route_out o = {.p = {&u, memUceInfoArray, retSize}};
    route_out_begin(&o, fill_uce_info);
    int32_t r = ((__typeof__(&rtGetMemUceInfo))fn)((uint32_t)deviceId, &u);
    if (r != ACL_RT_SUCCESS) return r;
    size_t n = u.count;
    if (n > RT_MAX_RECORD_PA_NUM_PER_DEV) n = RT_MAX_RECORD_PA_NUM_PER_DEV;
    if (n > arraySize) n = arraySize;
    for (size_t i = 0; i < n; i++) {
        memset(&memUceInfoArray[i], 0, sizeof memUceInfoArray[i]);
        memUceInfoArray[i].addr = (void *)(uintptr_t)u.repairAddr[i].ptr;
        memUceInfoArray[i].len = u.repairAddr[i].len;
    }
    *retSize = n;
    return r;
}

int32_t npu_route_mem_uce_repair(void *fn, int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize) {
    rtMemUceInfo u;
    memset(&u, 0, sizeof u);
    u.devid = (uint32_t)deviceId;
    u.count = (uint32_t)arraySize; /* the route's guard: at most RT_MAX_RECORD_PA_NUM_PER_DEV */
    for (size_t i = 0; i < arraySize; i++) {
        u.repairAddr[i].ptr = (uint64_t)(uintptr_t)memUceInfoArray[i].addr;
        u.repairAddr[i].len = memUceInfoArray[i].len;
    }
    return ((__typeof__(&rtMemUceRepair))fn)((uint32_t)deviceId, &u);
}

int32_t npu_route_device_utilization(void *fn, int32_t deviceId, aclrtUtilizationInfo *utilizationInfo) {
    /* ACL's own part first: its checks (device, utilizationExtend) and the
     * memory utilisation, which rt* does not give. */
    int32_t r = npu_route_take();
    if (r != ACL_RT_SUCCESS) return r;
    static const rtTypeUtil_t kinds[3] = {RT_UTIL_TYPE_AICORE, RT_UTIL_TYPE_AIVECTOR, RT_UTIL_TYPE_AICPU};
    int32_t *rates[3] = {&utilizationInfo->cubeUtilization, &utilizationInfo->vectorUtilization,
                         &utilizationInfo->aicpuUtilization};
    for (int i = 0; i < 3; i++) {
        uint8_t u = 0;
        *rates[i] = ((__typeof__(&rtGetAllUtilizations))fn)(deviceId, kinds[i], &u) == ACL_RT_SUCCESS ? (int32_t)u : -1;
    }
    return ACL_RT_SUCCESS;
}
