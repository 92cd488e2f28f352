/* stack_route.h: the routed ACL calls whose rt* call takes its arguments in
 * another form than the ACL call (not installed; internal). Each
 * npu_route_* function is one ACL function's call of the interposed rt*
 * definition fn (cmd/shimgen/route.go, "helper"), made by the ACL
 * function's generated shim in the split layout with the ACL arguments and
 * the ACL work pending (npu_routed_pending, stack.h). It translates what
 * acl-to-rt.tsv says the vendor's ACL translates: enum values numbered
 * differently on the two sides, an ACL record where the rt* function takes
 * its own, an output ACL does not have. A forward runs the ACL work (its
 * results, codes and messages); where the rt* outputs are the helper's
 * locals, the forward also writes the rt* form of the ACL results there
 * (route_out, stack_route.c), and the helper converts the locals into the
 * ACL outputs, so an interposer's answer, or its change of a forwarded
 * result, is what the program gets.
 *
 * The npu_rt_* functions translate one enum value (-1: no counterpart; the
 * route's guard keeps such calls inside npuemu, where ACL refuses them). */
#ifndef NPUEMU_LIBFAKE_STACK_ROUTE_H
#define NPUEMU_LIBFAKE_STACK_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"
#include "runtime/rt.h"

/* aclrtDeviceLimit -> rtLimitType_t, by name: rt numbers
 * RT_LIMIT_TYPE_LOW_POWER_TIMEOUT first, which ACL does not have. */
int npu_rt_limit_type(aclrtDeviceLimit limit);
/* aclDataType -> rtDataType, by name, for the types aclrtReduceAsync
 * takes (FLOAT, FLOAT16, BF16, INT8, INT16, INT32). */
int npu_rt_data_type(aclDataType type);
/* ACL_STREAM_* flags <-> RT_STREAM_* bits (rt-constants.tsv; acl-to-rt.tsv:
 * DEVICE_USE_ONLY is RT_STREAM_CP_PROCESS_USE). Bits with no counterpart
 * are dropped. */
uint32_t npu_rt_stream_flags(uint32_t aclFlags);
uint32_t npu_acl_stream_flags(uint32_t rtFlags);
/* The ACL stream flags npu_rt_stream_flags translates. */
#define NPU_ACL_STREAM_FLAGS_KNOWN                                                                                   \
    (ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE | ACL_STREAM_CPU_SCHEDULE | \
     ACL_STREAM_DEVICE_USE_ONLY)

/* aclrtDeviceSetLimit: rtDeviceSetLimit(0, the rt limit type, value). The
 * limit is process-wide and set before any device; the spec gives no
 * device id for the call, npuemu passes 0 (the first device). */
int32_t npu_route_device_set_limit(void *fn, aclrtDeviceLimit limit, size_t value);
/* aclrtDeviceGetLimit: rtDeviceGetLimit into a uint32_t, widened. */
int32_t npu_route_device_get_limit(void *fn, aclrtDeviceLimit limit, size_t *value);
/* aclrtCreateStreamWithConfig: rtsStreamCreate with an
 * rtStreamCreateConfig_t of two attributes, RT_STREAM_CREATE_ATTR_PRIORITY
 * and RT_STREAM_CREATE_ATTR_FLAGS (RT_STREAM_* bits). */
int32_t npu_route_create_stream_with_config(void *fn, aclrtStream *stream, uint32_t priority, uint32_t flag);
/* aclrtStreamGetFlags: rtStreamGetFlags, RT_STREAM_* bits converted. */
int32_t npu_route_stream_get_flags(void *fn, aclrtStream stream, uint32_t *flags);
/* aclrtReduceAsync: rtsLaunchReduceAsyncTask over an rtReduceInfo_t. */
int32_t npu_route_reduce_async(void *fn, void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                               aclDataType type, aclrtStream stream, void *reserve);
/* aclrtMemcpyBatchV2 and aclrtMemcpyBatchAsyncV2: rtsMemcpyBatch (no
 * destMaxs) and rtsMemcpyBatchAsync, with a local failIdx the V2 calls do
 * not return. */
int32_t npu_route_memcpy_batch_v2(void *fn, void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                                  aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs);
int32_t npu_route_memcpy_batch_async_v2(void *fn, void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                        size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                        size_t numAttrs, aclrtStream stream);
/* aclrtMemGetAllocationGranularity: rtMemGetAllocationGranularity over the
 * rtDrvMemProp_t built from the ACL prop as aclrtMallocPhysical builds it
 * (npuRouteDrvMemProp, Go). A prop ACL refuses makes no rt* call: the
 * ACL work runs and refuses it. */
int32_t npu_route_mem_granularity(void *fn, aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option,
                                  size_t *granularity);
/* aclrtBinaryLoad: rtBinaryLoadWithoutTilingKey over the bytes the
 * aclrtBinary holds (npuRouteRawBinary, Go: the memory given to
 * aclrtCreateBinary); a handle ACL refuses makes no rt* call. */
int32_t npu_route_binary_load(void *fn, const aclrtBinary binary, aclrtBinHandle *binHandle);
/* aclrtGetBufUserData / aclrtSetBufUserData: rtMbufGetPrivInfo, then ACL's
 * own copy from / into the user-data area it reports (size > 0 and
 * size + offset within the area, else ACL_ERROR_INVALID_PARAM). A forward
 * runs the whole ACL call (the copy included). */
int32_t npu_route_get_buf_user_data(void *fn, const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset);
int32_t npu_route_set_buf_user_data(void *fn, aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset);
/* aclrtGetGroupInfoDetail: rtGetGroupCount, groupIndex checked against
 * the count it reports, then ACL's own read of the aclrtGroupInfo. */
int32_t npu_route_group_info_detail(void *fn, const aclrtGroupInfo *groupInfo, int32_t groupIndex, aclrtGroupAttr attr,
                                    void *attrValue, size_t valueLen, size_t *paramRetSize);
/* aclrtMemPoolCreate: rtMemPoolCreate over an rtMemPoolProps (side from the
 * location type, devId from its id, handleType cast, maxSize). */
int32_t npu_route_mem_pool_create(void *fn, aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps);
/* aclrtGetErrorVerbose / aclrtRepairError: rtsGetErrorVerbose /
 * rtsRepairError, aclrtErrorInfo <-> rtErrorInfo (the memory error's
 * addresses, at most RT_MAX_RECORD_PA_NUM_PER_DEV, or the AI Core error
 * type). */
int32_t npu_route_get_error_verbose(void *fn, int32_t deviceId, aclrtErrorInfo *errorInfo);
int32_t npu_route_repair_error(void *fn, int32_t deviceId, const aclrtErrorInfo *errorInfo);
/* aclrtGetMemUceInfo / aclrtMemUceRepair: rtGetMemUceInfo /
 * rtMemUceRepair, the ACL array <-> one rtMemUceInfo record (at most
 * RT_MAX_RECORD_PA_NUM_PER_DEV addresses). */
int32_t npu_route_get_mem_uce_info(void *fn, int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize,
                                   size_t *retSize);
int32_t npu_route_mem_uce_repair(void *fn, int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize);
/* aclrtGetDeviceUtilizationRate: the ACL work (its checks, the memory
 * utilisation), then one rtGetAllUtilizations per core kind (AI Core,
 * vector, AI CPU); an rt error makes that rate -1 (acl-to-rt.tsv). */
int32_t npu_route_device_utilization(void *fn, int32_t deviceId, aclrtUtilizationInfo *utilizationInfo);

#endif
