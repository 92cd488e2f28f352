package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/npuemu/npuemu/abi"
)

// route is an ACL function whose implementation is one call of an rt*
// function (acl-to-rt.tsv): in the split layout (NPUEMU_STACK=split,
// docs/stack.md) that call crosses from libascendcl.so into libruntime.so,
// so an interposed rt* definition must see it. Its shim then calls the
// interposed definition directly, in C, when libfake/stack.c found one
// (npu_route_fns); otherwise nothing changes. ACL functions that do work of
// their own before the rt* call (aclrtMalloc: padding, policy translation)
// are routed in Go instead (acl/stack.go, rt/stack).
type route struct {
	acl, rt string
	// args are the C arguments of the rt* call over the ACL parameters;
	// "" passes them unchanged.
	args string
	// guard is the C condition under which the ACL function reaches the
	// rt* call (its own argument checks pass); "" means always. When it is
	// false the emulator answers, with the ACL code.
	guard string
	// helper, when set, is a C function of stack.c that makes the call
	// (building an rt* argument record), given the rt* pointer first.
	helper string
	// noArgs: the rt* function takes none of the ACL parameters.
	noArgs bool
}

// routes, in no particular order; an entry's index is its slot in
// npu_route_fns.
var routes = []route{
	{acl: "aclrtSetDevice", rt: "rtSetDevice"},
	{acl: "aclrtResetDevice", rt: "rtDeviceReset"},
	{acl: "aclrtGetDevice", rt: "rtGetDevice", guard: "deviceId != NULL"},
	{acl: "aclrtSynchronizeDevice", rt: "rtDeviceSynchronize"},
	{acl: "aclrtCreateStream", rt: "rtStreamCreate", args: "stream, 0", guard: "stream != NULL"},
	{acl: "aclrtDestroyStream", rt: "rtStreamDestroy", guard: "stream != NULL"},
	{acl: "aclrtSynchronizeStream", rt: "rtStreamSynchronize"},
	{acl: "aclrtStreamWaitEvent", rt: "rtStreamWaitEvent", guard: "event != NULL"},
	{acl: "aclrtCreateEvent", rt: "rtEventCreate", guard: "event != NULL"},
	{acl: "aclrtDestroyEvent", rt: "rtEventDestroy", guard: "event != NULL"},
	{acl: "aclrtRecordEvent", rt: "rtEventRecord", guard: "event != NULL"},
	{acl: "aclrtResetEvent", rt: "rtEventReset", guard: "event != NULL"},
	{acl: "aclrtSynchronizeEvent", rt: "rtEventSynchronize", guard: "event != NULL"},
	{acl: "aclrtEventElapsedTime", rt: "rtEventElapsedTime", guard: "ms != NULL && startEvent != NULL && endEvent != NULL"},
	{acl: "aclrtQueryEventStatus", rt: "rtEventQueryStatus", args: "event, (rtEventStatus_t *)status", guard: "event != NULL && status != NULL"},
	{acl: "aclmdlRIExecuteAsync", rt: "rtModelExecute", args: "modelRI, stream, 0", guard: "modelRI != NULL"},
	{acl: "aclrtLaunchKernel", rt: "rtLaunchKernelByFuncHandleV3", helper: "npu_route_launch_v3", guard: "argsSize <= 0xFFFFFFFFu"},
	{acl: "aclrtLaunchKernelWithConfig", rt: "rtsLaunchKernelWithConfig", args: "funcHandle, numBlocks, stream, (rtKernelLaunchCfg_t *)cfg, argsHandle, reserve"},
	// The copy kinds 0..3 have the same numbers in ACL and rt; DEFAULT and
	// HOST_TO_BUF_TO_DEVICE are translated by ACL and stay unrouted, as do
	// count 0 (no rt call) and NULL pointers (ACL's own check).
	{acl: "aclrtMemcpy", rt: "rtMemcpy", args: "dst, destMax, src, count, (rtMemcpyKind_t)kind",
		guard: "dst != NULL && src != NULL && count != 0 && (unsigned)kind <= ACL_MEMCPY_DEVICE_TO_DEVICE"},
	{acl: "aclrtMemcpyAsync", rt: "rtMemcpyAsync", args: "dst, destMax, src, count, (rtMemcpyKind_t)kind, stream",
		guard: "dst != NULL && src != NULL && count != 0 && (unsigned)kind <= ACL_MEMCPY_DEVICE_TO_DEVICE"},
	// The rest of acl-to-rt.tsv's one-call rows whose rt* function npuemu
	// implements (docs/stack.md lists the rows that still bind inside).
	{acl: "aclrtCreateContext", rt: "rtCtxCreateEx", args: "context, 0 /* RT_CTX_NORMAL_MODE */, deviceId", guard: "context != NULL"},
	{acl: "aclrtDestroyContext", rt: "rtCtxDestroyEx", guard: "context != NULL"},
	{acl: "aclrtSetCurrentContext", rt: "rtCtxSetCurrent", guard: "context != NULL"},
	{acl: "aclrtGetCurrentContext", rt: "rtCtxGetCurrent", guard: "context != NULL"},
	{acl: "aclrtSynchronizeDeviceWithTimeout", rt: "rtDeviceSynchronizeWithTimeout", guard: "timeout >= -1"},
	{acl: "aclrtGetDeviceCount", rt: "rtGetDeviceCount", args: "(int32_t *)count", guard: "count != NULL"},
	{acl: "aclrtRecordEventWithFlag", rt: "rtEventRecord", args: "event, stream", guard: "event != NULL && flag == ACL_EVENT_RECORD_DEFAULT"},
	{acl: "aclrtQueryEvent", rt: "rtEventQuery", helper: "npu_route_query_event", guard: "event != NULL && status != NULL"},
	{acl: "aclrtQueryEventWaitStatus", rt: "rtEventQueryWaitStatus", args: "event, (rtEventWaitStatus_t *)status", guard: "event != NULL && status != NULL"},
	{acl: "aclrtMallocHost", rt: "rtMallocHost", args: "hostPtr, size, NPU_RT_MODULE_APP", guard: "hostPtr != NULL && size != 0"},
	{acl: "aclrtFreeHost", rt: "rtFreeHost", guard: "hostPtr != NULL"},
	// count 0 makes no rt call (acl-to-rt.tsv); the value is cast to uint32_t.
	{acl: "aclrtMemset", rt: "rtMemset", args: "devPtr, maxCount, (uint32_t)value, count", guard: "devPtr != NULL && count != 0"},
	{acl: "aclrtMemsetAsync", rt: "rtMemsetAsync", args: "devPtr, maxCount, (uint32_t)value, count, stream", guard: "devPtr != NULL && count != 0"},
	{acl: "aclrtFreePhysical", rt: "rtFreePhysical", args: "(rtDrvMemHandle)handle", guard: "handle != NULL"},
	{acl: "aclrtSynchronizeStreamWithTimeout", rt: "rtStreamSynchronizeWithTimeout", guard: "timeout == -1 || timeout > 0"},
	{acl: "aclrtStreamQuery", rt: "rtStreamQuery", helper: "npu_route_stream_query", guard: "status != NULL"},
	{acl: "aclrtSetGroup", rt: "rtSetGroup"},
	{acl: "aclrtGetGroupCount", rt: "rtGetGroupCount", guard: "count != NULL"},
	{acl: "aclrtAllocBuf", rt: "rtMbufAlloc", args: "(rtMbufPtr_t *)buf, size", guard: "buf != NULL && size != 0"},
	{acl: "aclrtFreeBuf", rt: "rtMbufFree", guard: "buf != NULL"},
	{acl: "aclrtSetBufDataLen", rt: "rtMbufSetDataLen", guard: "buf != NULL"},
	{acl: "aclrtGetBufDataLen", rt: "rtMbufGetDataLen", args: "buf, (uint64_t *)len", guard: "buf != NULL && len != NULL"},
	{acl: "aclrtCopyBufRef", rt: "rtMbufCopyBufRef", args: "buf, (rtMbufPtr_t *)newBuf", guard: "buf != NULL && newBuf != NULL"},
	{acl: "aclrtAppendBufChain", rt: "rtMbufChainAppend", guard: "headBuf != NULL && buf != NULL && headBuf != buf"},
	{acl: "aclrtGetBufChainNum", rt: "rtMbufChainGetMbufNum", guard: "headBuf != NULL && num != NULL"},
	{acl: "aclrtGetBufFromChain", rt: "rtMbufChainGetMbuf", args: "headBuf, index, (rtMbufPtr_t *)buf", guard: "headBuf != NULL && buf != NULL"},
	// The runtime's snapshot calls act on the calling process (no pid).
	{acl: "aclrtSnapShotProcessLock", rt: "rtSnapShotProcessLock", guard: "pid == getpid()", noArgs: true},
	{acl: "aclrtSnapShotProcessUnlock", rt: "rtSnapShotProcessUnlock", guard: "pid == getpid()", noArgs: true},
	{acl: "aclrtSnapShotProcessBackup", rt: "rtSnapShotProcessBackup", guard: "pid == getpid() && args != NULL", noArgs: true},
	{acl: "aclrtSnapShotProcessRestore", rt: "rtSnapShotProcessRestore", guard: "pid == getpid() && args != NULL", noArgs: true},
	{acl: "aclrtSnapShotCallbackRegister", rt: "rtSnapShotCallbackRegister", args: "(rtSnapShotStage)stage, (rtSnapShotCallBack)callback, args",
		guard: "(unsigned)stage <= ACL_RT_SNAPSHOT_UNLOCK_POST && callback != NULL"},
	{acl: "aclrtSnapShotCallbackUnregister", rt: "rtSnapShotCallbackUnregister", args: "(rtSnapShotStage)stage, (rtSnapShotCallBack)callback",
		guard: "(unsigned)stage <= ACL_RT_SNAPSHOT_UNLOCK_POST && callback != NULL"},
	// Rows whose rt* function round 9 implemented (the same rule).
	{acl: "aclrtGetFuncHandleFromExceptionInfo", rt: "rtGetFuncHandleFromExceptionInfo", args: "(const rtExceptionInfo_t*)info, (rtFuncHandle*)func", guard: "info != NULL && func != NULL"},
	{acl: "aclrtBinarySetExceptionCallback", rt: "rtBinarySetExceptionCallback", args: "(rtBinHandle)binHandle, (rtOpExceptionCallback)callback, userData", guard: "binHandle != NULL"},
	{acl: "aclrtSetTsDevice", rt: "rtSetTSDevice", args: "(uint32_t)tsId"},
	{acl: "aclrtMallocHostWithCfg", rt: "rtsMallocHost", args: "ptr, size, (const rtMallocConfig_t*)cfg", guard: "ptr != NULL && cfg != NULL"},
	{acl: "aclrtPointerGetAttributes", rt: "rtsPointerGetAttributes", args: "ptr, (rtPtrAttributes_t*)attributes", guard: "ptr != NULL && attributes != NULL"},
	{acl: "aclrtHostMemMapCapabilities", rt: "rtHostMemMapCapabilities", args: "deviceId, (rtHacType)hacType, (rtHostMemMapCapability*)capabilities", guard: "capabilities != NULL"},
	{acl: "aclrtSetOpExecuteTimeOutV2", rt: "rtSetOpExecuteTimeOutV2", guard: "actualTimeout != NULL"},
	{acl: "aclrtGetOpTimeOutInterval", rt: "rtGetOpTimeOutInterval", guard: "interval != NULL"},
	{acl: "aclrtBinaryUnLoad", rt: "rtBinaryUnLoad", args: "(rtBinHandle)binHandle", guard: "binHandle != NULL"},
	{acl: "aclrtBinaryGetFunction", rt: "rtsFuncGetByName", args: "(const rtBinHandle)binHandle, (const char_t*)kernelName, (rtFuncHandle*)funcHandle", guard: "binHandle != NULL && kernelName != NULL && funcHandle != NULL"},
	{acl: "aclrtMemExportToShareableHandle", rt: "rtsMemExportToShareableHandle", args: "(rtDrvMemHandle)handle, (rtDrvMemHandleType)handleType, flags, shareableHandle", guard: "handle != NULL && shareableHandle != NULL"},
	{acl: "aclrtMemImportFromShareableHandle", rt: "rtMemImportFromShareableHandle", args: "shareableHandle, deviceId, (rtDrvMemHandle*)handle", guard: "handle != NULL"},
	{acl: "aclrtMemSetPidToShareableHandle", rt: "rtMemSetPidToShareableHandle", args: "shareableHandle, (int*)pid, (uint32_t)pidNum", guard: "pid != NULL"},
	{acl: "aclrtBinaryGetGlobal", rt: "rtBinaryGetGlobal", args: "(const rtBinHandle)binHandle, name, dptr, size", guard: "binHandle != NULL && name != NULL && dptr != NULL && size != NULL"},
	{acl: "aclrtGetFuncBySymbol", rt: "rtGetFuncBySymbol", args: "symbol, (rtFuncHandle*)funcHandle", guard: "symbol != NULL && funcHandle != NULL"},
	{acl: "aclrtGetFunctionAddr", rt: "rtsFuncGetAddr", args: "(const rtFuncHandle)funcHandle, aicAddr, aivAddr", guard: "funcHandle != NULL && aicAddr != NULL && aivAddr != NULL"},
	{acl: "aclrtGetFunctionSize", rt: "rtFuncGetSize", args: "(const rtFuncHandle)funcHandle, aicSize, aivSize", guard: "funcHandle != NULL && aicSize != NULL && aivSize != NULL"},
	{acl: "aclrtGetMemcpyDescSize", rt: "rtsGetMemcpyDescSize", args: "(rtMemcpyKind)kind, descSize", guard: "descSize != NULL"},
	{acl: "aclrtSetMemcpyDesc", rt: "rtsSetMemcpyDesc", args: "(rtMemcpyDesc_t)desc, (rtMemcpyKind)kind, srcAddr, dstAddr, count, (rtMemcpyConfig_t*)config", guard: "desc != NULL && srcAddr != NULL && dstAddr != NULL && config != NULL"},
	{acl: "aclrtMemcpyAsyncWithOffset", rt: "rtMemcpyAsyncWithOffset", args: "dst, (uint64_t)destMax, (uint64_t)dstDataOffset, src, (uint64_t)count, (uint64_t)srcDataOffset, (rtMemcpyKind)kind, stream", guard: "dst != NULL && src != NULL"},
	{acl: "aclrtKernelArgsGetHandleMemSize", rt: "rtsKernelArgsGetHandleMemSize", args: "(rtFuncHandle)funcHandle, memSize", guard: "funcHandle != NULL && memSize != NULL"},
	{acl: "aclrtKernelArgsGetMemSize", rt: "rtsKernelArgsGetMemSize", args: "(rtFuncHandle)funcHandle, userArgsSize, actualArgsSize", guard: "funcHandle != NULL && actualArgsSize != NULL"},
	{acl: "aclrtKernelArgsInit", rt: "rtsKernelArgsInit", args: "(rtFuncHandle)funcHandle, (rtArgsHandle*)argsHandle", guard: "funcHandle != NULL && argsHandle != NULL"},
	{acl: "aclrtKernelArgsInitByUserMem", rt: "rtsKernelArgsInitByUserMem", args: "(rtFuncHandle)funcHandle, (rtArgsHandle)argsHandle, userHostMem, actualArgsSize", guard: "funcHandle != NULL && argsHandle != NULL && userHostMem != NULL"},
	{acl: "aclrtKernelArgsAppend", rt: "rtsKernelArgsAppend", args: "(rtArgsHandle)argsHandle, param, paramSize, (rtParaHandle*)paramHandle", guard: "argsHandle != NULL && param != NULL && paramHandle != NULL"},
	{acl: "aclrtKernelArgsAppendPlaceHolder", rt: "rtsKernelArgsAppendPlaceHolder", args: "(rtArgsHandle)argsHandle, (rtParaHandle*)paramHandle", guard: "argsHandle != NULL && paramHandle != NULL"},
	{acl: "aclrtKernelArgsGetPlaceHolderBuffer", rt: "rtsKernelArgsGetPlaceHolderBuffer", args: "(rtArgsHandle)argsHandle, (rtParaHandle)paramHandle, dataSize, bufferAddr", guard: "argsHandle != NULL && paramHandle != NULL && bufferAddr != NULL"},
	{acl: "aclrtKernelArgsParaUpdate", rt: "rtsKernelArgsParaUpdate", args: "(rtArgsHandle)argsHandle, (rtParaHandle)paramHandle, param, paramSize", guard: "argsHandle != NULL && paramHandle != NULL && param != NULL"},
	{acl: "aclrtKernelArgsFinalize", rt: "rtsKernelArgsFinalize", args: "(rtArgsHandle)argsHandle", guard: "argsHandle != NULL"},
	{acl: "aclrtGetDeviceCapability", rt: "rtsDeviceGetCapability", args: "deviceId, (int32_t)devFeatureType, value", guard: "value != NULL"},
	{acl: "aclrtGetFunctionName", rt: "rtsFuncGetName", args: "(const rtFuncHandle)funcHandle, maxLen, (char_t* const)name", guard: "funcHandle != NULL && name != NULL"},
	{acl: "aclrtRegisterCpuFunc", rt: "rtsRegisterCpuFunc", args: "(rtBinHandle)handle, (const char_t* const)funcName, (const char_t* const)kernelName, (rtFuncHandle*)funcHandle", guard: "handle != NULL && funcName != NULL && kernelName != NULL && funcHandle != NULL"},
	{acl: "aclrtMemcpyBatchAsync", rt: "rtsMemcpyBatchAsync", args: "dsts, destMaxs, srcs, sizes, numBatches, (rtMemcpyBatchAttr*)attrs, attrsIndexes, numAttrs, failIndex, stream", guard: "dsts != NULL && destMaxs != NULL && srcs != NULL && sizes != NULL && attrs != NULL && attrsIndexes != NULL && failIndex != NULL"},
	{acl: "aclrtIpcMemSetAttr", rt: "rtIpcSetMemoryAttr", args: "key, (uint32_t)type, attr", guard: "key != NULL"},
	{acl: "aclrtIpcMemImportPidInterServer", rt: "rtIpcMemImportPidInterServer", args: "key, (const rtServerPid*)serverPids, num", guard: "key != NULL && serverPids != NULL"},
	{acl: "aclrtNotifySetImportPidInterServer", rt: "rtNotifySetImportPidInterServer", args: "(rtNotify_t)notify, (const rtServerPid*)serverPids, num", guard: "notify != NULL && serverPids != NULL"},
	{acl: "aclrtCheckMemType", rt: "rtsCheckMemType", guard: "addrList != NULL && checkResult != NULL"},
	{acl: "aclrtGetFloatOverflowStatus", rt: "rtsGetFloatOverflowStatus", args: "(void* const)outputAddr, outputSize, stream", guard: "outputAddr != NULL"},
	{acl: "aclrtResetFloatOverflowStatus", rt: "rtsResetFloatOverflowStatus"},
	{acl: "aclrtRegStreamStateCallback", rt: "rtsRegStreamStateCallback", args: "(const char_t*)regName, (rtsStreamStateCallback)callback, args", guard: "regName != NULL"},
	{acl: "aclrtRegDeviceStateCallback", rt: "rtsRegDeviceStateCallback", args: "(const char_t*)regName, (rtsDeviceStateCallback)callback, args", guard: "regName != NULL"},
	{acl: "aclrtSetDeviceTaskAbortCallback", rt: "rtsSetDeviceTaskAbortCallback", args: "(const char_t*)regName, (rtsDeviceTaskAbortCallback)callback, args", guard: "regName != NULL"},
	{acl: "aclrtGetOpExecuteTimeout", rt: "rtGetOpExecuteTimeoutV2", guard: "timeoutMs != NULL"},
	{acl: "aclrtCmoGetDescSize", rt: "rtsGetCmoDescSize", guard: "size != NULL"},
	{acl: "aclrtCmoSetDesc", rt: "rtsSetCmoDesc", args: "(rtCmoDesc_t)cmoDesc, src, size", guard: "cmoDesc != NULL && src != NULL"},
	{acl: "aclrtGetFunctionAttribute", rt: "rtFunctionGetAttribute", args: "(rtFuncHandle)funcHandle, (rtFuncAttribute)attrType, attrValue", guard: "funcHandle != NULL"},
	{acl: "aclrtFunctionGetBinary", rt: "rtFunctionGetBinary", args: "(const rtFuncHandle)funcHandle, (rtBinHandle*)binHandle", guard: "funcHandle != NULL && binHandle != NULL"},
	{acl: "aclrtFunctionGetParamCount", rt: "rtFunctionGetParamCount", guard: "func != NULL && paramCount != NULL"},
	{acl: "aclrtFunctionGetParamInfo", rt: "rtFunctionGetParamInfo", guard: "func != NULL && paramOffset != NULL && paramSize != NULL"},
	{acl: "aclrtFunctionGetAvailDynUbufPerBlock", rt: "rtFunctionGetAvailDynUbufPerBlock", guard: "func != NULL && dynamicUbufSize != NULL"},
	{acl: "aclrtMemGetAllocationPropertiesFromHandle", rt: "rtMemGetAllocationPropertiesFromHandle", args: "(rtDrvMemHandle)handle, (rtDrvMemProp_t*)prop", guard: "handle != NULL && prop != NULL"},
	{acl: "aclrtMemManagedGetAttr", rt: "rtMemManagedGetAttr", args: "(rtMemManagedRangeAttribute)attribute, ptr, size, data, dataSize", guard: "ptr != NULL && data != NULL"},
	{acl: "aclrtMemManagedGetAttrs", rt: "rtMemManagedGetAttrs", args: "(rtMemManagedRangeAttribute*)attributes, numAttributes, ptr, size, data, dataSizes", guard: "attributes != NULL && ptr != NULL && data != NULL && dataSizes != NULL"},
	{acl: "aclrtMemManagedAdvise", rt: "rtMemManagedAdvise", args: "ptr, size, (uint16_t)advise, *(rtMemManagedLocation *)&location", guard: "ptr != NULL"},
	{acl: "aclrtMemManagedPrefetchBatchAsync", rt: "rtMemManagedPrefetchBatchAsync", args: "ptrs, sizes, count, (rtMemManagedLocation*)prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, stream", guard: "ptrs != NULL && sizes != NULL && prefetchLocs != NULL && prefetchLocIdxs != NULL"},
	{acl: "aclrtMemMapSelectedLink", rt: "rtMemMapSelectedLink", guard: "virPtrDst != NULL && virPtrSrc != NULL"},
	{acl: "aclrtDeviceL2CacheFlush", rt: "rtDeviceL2CacheFlush"},
	// Rows whose rt* function the round-9 launch and capture work implemented.
	{acl: "aclrtGetThreadLastTaskId", rt: "rtsGetThreadLastTaskId", guard: "taskId != NULL"},
	{acl: "aclmdlRITaskGetParams", rt: "rtModelTaskGetParams", args: "(rtTask_t)task, (rtTaskParams *)params", guard: "task != NULL && params != NULL"},
	{acl: "aclmdlRITaskSetParams", rt: "rtModelTaskSetParams", args: "(rtTask_t)task, (rtTaskParams *)params", guard: "task != NULL && params != NULL"},
	{acl: "aclmdlRIKernelTaskGetAttribute", rt: "rtModelKernelTaskGetAttribute",
		args: "(rtTask_t)task, (rtLaunchKernelAttrId)attrId, (rtLaunchKernelAttrVal_t *)attrValue", guard: "task != NULL && attrValue != NULL"},
	{acl: "aclrtValueWrite", rt: "rtsValueWrite", guard: "devAddr != NULL"},
	{acl: "aclrtValueWait", rt: "rtsValueWait", guard: "devAddr != NULL"},
	{acl: "aclrtLaunchKernelV2", rt: "rtsLaunchKernelWithDevArgs",
		args: "funcHandle, numBlocks, stream, (rtKernelLaunchCfg_t *)cfg, argsData, (uint32_t)argsSize, NULL", guard: "funcHandle != NULL && argsSize <= 0xFFFFFFFFu"},
	{acl: "aclrtLaunchKernelWithHostArgs", rt: "rtsLaunchKernelWithHostArgs",
		args:  "funcHandle, numBlocks, stream, (rtKernelLaunchCfg_t *)cfg, hostArgs, (uint32_t)argsSize, (rtPlaceHolderInfo_t *)placeHolderArray, (uint32_t)placeHolderNum",
		guard: "funcHandle != NULL && hostArgs != NULL && argsSize <= 0xFFFFFFFFu && placeHolderNum <= 0xFFFFFFFFu"},
	{acl: "aclrtLaunchKernelWithArgsArray", rt: "rtLaunchKernelWithArgsArray", args: "func, numBlocks, stream, (rtKernelLaunchCfg_t *)cfg, args", guard: "func != NULL && args != NULL"},
	{acl: "aclrtRandomNumAsync", rt: "rtsLaunchRandomNumTask", args: "(const rtRandomNumTaskInfo_t*)taskInfo, stream, reserve", guard: "taskInfo != NULL"},
	{acl: "aclrtTaskUpdateAsync", rt: "rtsLaunchUpdateTask", args: "taskStream, taskId, execStream, (rtTaskUpdateCfg_t *)info", guard: "info != NULL"},
	{acl: "aclrtPersistentTaskClean", rt: "rtsPersistentTaskClean"},
	{acl: "aclrtCacheLastTaskOpInfo", rt: "rtCacheLastTaskOpInfo", guard: "infoPtr != NULL"},
	{acl: "aclrtCacheLastTaskExtendInfo", rt: "rtCacheLastTaskExtendInfo", guard: "extendInfoPtr != NULL"},
	{acl: "aclmdlRITaskGetSeqId", rt: "rtTaskGetSeqId", args: "(rtTask_t)task, id", guard: "task != NULL && id != NULL"},
	{acl: "aclmdlRIGetTasksByStream", rt: "rtStreamGetTasks", args: "(rtStream_t const)stream, (rtTask_t*)tasks, numTasks", guard: "tasks != NULL && numTasks != NULL"},
	{acl: "aclmdlRITaskGetType", rt: "rtTaskGetType", args: "(rtTask_t)task, (rtTaskType*)type", guard: "task != NULL && type != NULL"},
	{acl: "aclmdlRITaskDisable", rt: "rtModelTaskDisable", args: "(rtTask_t)task", guard: "task != NULL"},
	{acl: "aclmdlRIDestroyRegisterCallback", rt: "rtModelDestroyRegisterCallback", args: "(rtModel_t const)modelRI, (rtCallback_t)func, userData", guard: "modelRI != NULL"},
	{acl: "aclmdlRIDestroyUnregisterCallback", rt: "rtModelDestroyUnregisterCallback", args: "(rtModel_t const)modelRI, (rtCallback_t)func", guard: "modelRI != NULL"},
	{acl: "aclmdlRICondHandleCreate", rt: "rtModelCondHandleCreate", args: "(rtModel_t)modelRI, defaultLaunchValue, (rtCondHandleFlag_t)flag, (rtCondHandle_t*)handle", guard: "modelRI != NULL && handle != NULL"},
	{acl: "aclmdlRICondHandleGetCondPtr", rt: "rtModelCondHandleGetCondPtr", args: "(rtCondHandle_t)handle, ptr", guard: "handle != NULL && ptr != NULL"},
	{acl: "aclmdlRIAddCondTask", rt: "rtStreamAddCondTask", args: "*(rtCondTaskParams *)&params, stream, flags"},
	{acl: "aclmdlRICaptureToModelRIBegin", rt: "rtStreamBeginCaptureToModel", args: "stream, (rtModel_t)modelRI, (const rtStreamCaptureMode)mode", guard: "modelRI != NULL"},
	{acl: "aclrtCreateStreamV2", rt: "rtStreamCreateWithConfig", args: "(rtStream_t*)stream, (rtStreamConfigHandle*)handle", guard: "stream != NULL && handle != NULL"},
	// Rows whose rt* call takes other arguments than the ACL call (the
	// values acl-to-rt.tsv gives).
	{acl: "aclrtMemcpyAsyncWithDesc", rt: "rtsMemcpyAsyncWithDesc", args: "desc, (rtMemcpyKind)kind, NULL, stream", guard: "desc != NULL"},
	{acl: "aclrtMemcpyAsyncWithCondition", rt: "rtMemcpyAsyncEx",
		args:  "dst, destMax, src, count, (rtMemcpyKind_t)(kind == ACL_MEMCPY_DEFAULT ? RT_MEMCPY_DEFAULT : kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE ? RT_MEMCPY_HOST_TO_DEVICE_EX : (int)kind), stream, NULL",
		guard: "dst != NULL && src != NULL && (unsigned)kind <= ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE"},
	{acl: "aclrtMemcpyBatch", rt: "rtsMemcpyBatch", args: "dsts, srcs, sizes, numBatches, (rtMemcpyBatchAttr *)attrs, attrsIndexes, numAttrs, failIndex",
		guard: "dsts != NULL && destMaxs != NULL && srcs != NULL && sizes != NULL && attrs != NULL && attrsIndexes != NULL && failIndex != NULL"},
	{acl: "aclrtGetDevicesTopo", rt: "rtsGetPairDevicesInfo", args: "deviceId, otherDeviceId, 0 /* RT_DEVS_INFO_TYPE_TOPOLOGY */, value", guard: "value != NULL"},
	{acl: "aclrtMallocForTaskScheduler", rt: "rtsMalloc", args: "devPtr, size, (rtMallocPolicy)policy, RT_MEM_ADVISE_TS, (rtMallocConfig_t *)cfg", guard: "devPtr != NULL && size != 0"},
	{acl: "aclrtGetSymbolAddress", rt: "rtSymbolLookup", helper: "npu_route_symbol_address", guard: "symbol != NULL && devPtr != NULL"},
	{acl: "aclrtGetSymbolSize", rt: "rtSymbolLookup", helper: "npu_route_symbol_size", guard: "symbol != NULL && size != NULL"},
	// Either output may be NULL for the ACL call, not for rtStreamGetCaptureInfo's status.
	{acl: "aclmdlRICaptureGetInfo", rt: "rtStreamGetCaptureInfo", args: "stream, (rtStreamCaptureStatus *)status, (rtModel_t *)modelRI", guard: "status != NULL"},
	// The remaining one-call rows of acl-to-rt.tsv whose rt* function npuemu
	// implements (ninth session). The guard is the ACL function's own NULL
	// checks (handles and out-pointers; a stream may be NULL); other argument
	// errors reach the rt* function and carry its code, as through the
	// vendor's pass-through. Enum arguments are cast where acl-to-rt.tsv says
	// the numbering agrees and translated where it does not (cache
	// maintenance, 2-D copy kinds, the run mode); TestEveryRoutableCallIsRouted
	// holds the list to the spec.
	{acl: "aclrtPeekAtLastError", rt: "rtPeekAtLastError", args: "(rtLastErrLevel_t)level"},
	{acl: "aclrtGetLastError", rt: "rtGetLastError", args: "(rtLastErrLevel_t)level"},
	{acl: "aclrtSubscribeReport", rt: "rtSubscribeReport"},
	{acl: "aclrtLaunchCallback", rt: "rtCallbackLaunch", args: "fn, userData, stream, blockType == ACL_CALLBACK_BLOCK", guard: "fn != NULL && (unsigned)blockType <= ACL_CALLBACK_BLOCK"},
	{acl: "aclrtProcessReport", rt: "rtProcessReport"},
	{acl: "aclrtUnSubscribeReport", rt: "rtUnSubscribeReport"},
	{acl: "aclrtResetDeviceForce", rt: "rtDeviceResetForce"},
	{acl: "aclrtSetStreamFailureMode", rt: "rtStreamSetMode"},
	{acl: "aclrtGetRunMode", rt: "rtGetRunMode", helper: "npu_route_run_mode", guard: "runMode != NULL"},
	{acl: "aclrtCreateEventWithFlag", rt: "rtEventCreateWithFlag", args: "(rtEvent_t*)event, flag", guard: "event != NULL"},
	{acl: "aclrtCreateEventExWithFlag", rt: "rtEventCreateExWithFlag", args: "(rtEvent_t*)event, flag", guard: "event != NULL"},
	{acl: "aclrtSynchronizeEventWithTimeout", rt: "rtEventSynchronizeWithTimeout", args: "(rtEvent_t)event, timeout", guard: "event != NULL && timeout >= -1"},
	{acl: "aclrtEventGetTimestamp", rt: "rtEventGetTimeStamp", args: "timestamp, event", guard: "event != NULL && timestamp != NULL"},
	{acl: "aclrtHostRegister", rt: "rtsHostRegister", args: "ptr, size, (rtHostRegisterType)type, devPtr", guard: "ptr != NULL && devPtr != NULL"},
	{acl: "aclrtHostRegisterV2", rt: "rtHostRegisterV2", guard: "ptr != NULL"},
	{acl: "aclrtHostGetDevicePointer", rt: "rtHostGetDevicePointer", guard: "pHost != NULL && pDevice != NULL"},
	{acl: "aclrtHostUnregister", rt: "rtsHostUnregister", guard: "ptr != NULL"},
	{acl: "aclrtStreamGetId", rt: "rtsStreamGetId", guard: "streamId != NULL"},
	{acl: "aclrtMemFlush", rt: "rtFlushCache", guard: "devPtr != NULL"},
	{acl: "aclrtMemInvalidate", rt: "rtInvalidCache", guard: "devPtr != NULL"},
	{acl: "aclrtMemAllocManaged", rt: "rtMemAllocManaged", args: "ptr, size, flag, NPU_RT_MODULE_APP", guard: "ptr != NULL && size != 0"},
	{acl: "aclrtFreeWithDevSync", rt: "rtFreeWithDevSync", guard: "devPtr != NULL"},
	{acl: "aclrtFreeHostWithDevSync", rt: "rtFreeHostWithDevSync", guard: "hostPtr != NULL"},
	{acl: "aclrtMemcpy2d", rt: "rtMemcpy2d", args: "dst, dpitch, src, spitch, width, height, (rtMemcpyKind_t)(kind == ACL_MEMCPY_DEFAULT ? RT_MEMCPY_DEFAULT : kind)", guard: "dst != NULL && src != NULL && kind >= ACL_MEMCPY_HOST_TO_DEVICE && kind <= ACL_MEMCPY_DEFAULT"},
	{acl: "aclrtMemcpy2dAsync", rt: "rtMemcpy2dAsync", args: "dst, dpitch, src, spitch, width, height, (rtMemcpyKind_t)(kind == ACL_MEMCPY_DEFAULT ? RT_MEMCPY_DEFAULT : kind), stream", guard: "dst != NULL && src != NULL && kind >= ACL_MEMCPY_HOST_TO_DEVICE && kind <= ACL_MEMCPY_DEFAULT"},
	{acl: "aclrtReserveMemAddress", rt: "rtReserveMemAddress", guard: "virPtr != NULL"},
	{acl: "aclrtReleaseMemAddress", rt: "rtReleaseMemAddress", guard: "virPtr != NULL"},
	{acl: "aclrtMapMem", rt: "rtMapMem", args: "virPtr, size, offset, (rtDrvMemHandle)handle, flags", guard: "virPtr != NULL && handle != NULL"},
	{acl: "aclrtUnmapMem", rt: "rtUnmapMem", guard: "virPtr != NULL"},
	{acl: "aclrtMemMapNoAccess", rt: "rtMemMapNoAccess", args: "virPtr, size, offset, (rtDrvMemHandle)handle, flags", guard: "virPtr != NULL && handle != NULL"},
	{acl: "aclrtDestroyStreamForce", rt: "rtStreamDestroyForce"},
	{acl: "aclrtStreamGetPriority", rt: "rtStreamGetPriority", guard: "priority != NULL"},
	{acl: "aclrtStreamWaitEventWithFlag", rt: "rtStreamWaitEventWithFlag", args: "stream, (rtEvent_t)event, timeout, flag", guard: "event != NULL"},
	{acl: "aclrtStreamWaitEventWithTimeout", rt: "rtsEventWait", args: "stream, event, (uint32_t)timeout", guard: "event != NULL && timeout >= 0"},
	{acl: "aclrtGetMemUsageInfo", rt: "rtGetMemUsageInfo", args: "(uint32_t)deviceId, (rtMemUsageInfo_t*)memUsageInfo, inputNum, outputNum", guard: "memUsageInfo != NULL && outputNum != NULL"},
	{acl: "aclrtSetOpWaitTimeout", rt: "rtSetOpWaitTimeOut"},
	{acl: "aclrtSetOpExecuteTimeOut", rt: "rtSetOpExecuteTimeOut"},
	{acl: "aclrtSetStreamOverflowSwitch", rt: "rtSetStreamOverflowSwitch"},
	{acl: "aclrtGetStreamOverflowSwitch", rt: "rtGetStreamOverflowSwitch", guard: "flag != NULL"},
	{acl: "aclrtGetOverflowStatus", rt: "rtGetDeviceSatStatus", args: "(void* const)outputAddr, (const uint64_t)outputSize, stream", guard: "outputAddr != NULL"},
	{acl: "aclrtResetOverflowStatus", rt: "rtCleanDeviceSatStatus"},
	{acl: "aclrtQueryDeviceStatus", rt: "rtDeviceStatusQuery", args: "(const uint32_t)deviceId, (rtDeviceStatus*)deviceStatus", guard: "deviceStatus != NULL"},
	{acl: "aclrtMemGetAccess", rt: "rtMemGetAccess", args: "virPtr, (rtMemLocation*)location, flag", guard: "virPtr != NULL && location != NULL && flag != NULL"},
	{acl: "aclrtDeviceGetBareTgid", rt: "rtDeviceGetBareTgid", args: "(uint32_t*)pid", guard: "pid != NULL"},
	{acl: "aclrtCmoAsync", rt: "rtCmoAsync", args: "src, size, (rtCmoOpCode_t)(cmoType + RT_CMO_PREFETCH), stream", guard: "src != NULL && (unsigned)cmoType <= ACL_RT_CMO_TYPE_FLUSH"},
	{acl: "aclrtDeviceTaskAbort", rt: "rtDeviceTaskAbort"},
	{acl: "aclrtStreamAbort", rt: "rtStreamAbort"},
	{acl: "aclmdlRIUpdate", rt: "rtModelUpdate", args: "(rtModel_t)modelRI", guard: "modelRI != NULL"},
	{acl: "aclrtGetStreamAvailableNum", rt: "rtsStreamGetAvailableNum", guard: "streamCount != NULL"},
	{acl: "aclrtSetStreamAttribute", rt: "rtsStreamSetAttribute", args: "stream, (rtStreamAttr)stmAttrType, (rtStreamAttrValue_t*)value", guard: "value != NULL"},
	{acl: "aclrtGetStreamAttribute", rt: "rtsStreamGetAttribute", args: "stream, (rtStreamAttr)stmAttrType, (rtStreamAttrValue_t*)value", guard: "value != NULL"},
	{acl: "aclrtCreateNotify", rt: "rtsNotifyCreate", args: "(rtNotify_t*)notify, flag", guard: "notify != NULL"},
	{acl: "aclrtDestroyNotify", rt: "rtsNotifyDestroy", args: "(rtNotify_t)notify", guard: "notify != NULL"},
	{acl: "aclrtCntNotifyCreate", rt: "rtCntNotifyCreateServer", args: "(rtCntNotify_t* const)cntNotify, flag", guard: "cntNotify != NULL"},
	{acl: "aclrtCntNotifyDestroy", rt: "rtCntNotifyDestroy", args: "(rtCntNotify_t const)cntNotify", guard: "cntNotify != NULL"},
	{acl: "aclrtRecordNotify", rt: "rtsNotifyRecord", args: "(rtNotify_t)notify, stream", guard: "notify != NULL"},
	{acl: "aclrtWaitAndResetNotify", rt: "rtsNotifyWaitAndReset", args: "(rtNotify_t)notify, stream, timeout", guard: "notify != NULL"},
	{acl: "aclrtGetNotifyId", rt: "rtsNotifyGetId", args: "(rtNotify_t)notify, notifyId", guard: "notify != NULL && notifyId != NULL"},
	{acl: "aclrtGetEventId", rt: "rtsEventGetId", args: "(rtEvent_t)event, eventId", guard: "event != NULL && eventId != NULL"},
	{acl: "aclrtGetEventAvailNum", rt: "rtsEventGetAvailNum", guard: "eventCount != NULL"},
	{acl: "aclrtGetDeviceInfo", rt: "rtsDeviceGetInfo", args: "deviceId, (rtDevAttr)attr, value", guard: "value != NULL"},
	{acl: "aclrtDeviceGetStreamPriorityRange", rt: "rtsDeviceGetStreamPriorityRange", guard: "leastPriority != NULL && greatestPriority != NULL"},
	{acl: "aclrtDeviceGetUuid", rt: "rtGetDeviceUuid", args: "deviceId, (rtUuid_t*)uuid", guard: "uuid != NULL"},
	{acl: "aclrtDeviceGetPCIBusId", rt: "rtDeviceGetPCIBusId", guard: "pciBusId != NULL"},
	{acl: "aclrtDeviceGetByPCIBusId", rt: "rtDeviceGetByPCIBusId", guard: "pciBusId != NULL && deviceId != NULL"},
	{acl: "aclrtCtxGetCurrentDefaultStream", rt: "rtsCtxGetCurrentDefaultStream", args: "(rtStream_t*)stream", guard: "stream != NULL"},
	{acl: "aclrtGetPrimaryCtxState", rt: "rtsGetPrimaryCtxState", guard: "flags != NULL && active != NULL"},
	{acl: "aclrtGetDeviceResLimit", rt: "rtsGetDeviceResLimit", args: "deviceId, (const rtDevResLimitType_t)type, value", guard: "value != NULL"},
	{acl: "aclrtSetDeviceResLimit", rt: "rtsSetDeviceResLimit", args: "deviceId, (const rtDevResLimitType_t)type, value"},
	{acl: "aclrtResetDeviceResLimit", rt: "rtsResetDeviceResLimit"},
	{acl: "aclrtGetStreamResLimit", rt: "rtsGetStreamResLimit", args: "stream, (const rtDevResLimitType_t)type, (uint32_t* const)value", guard: "value != NULL"},
	{acl: "aclrtSetStreamResLimit", rt: "rtsSetStreamResLimit", args: "stream, (const rtDevResLimitType_t)type, value"},
	{acl: "aclrtResetStreamResLimit", rt: "rtsResetStreamResLimit"},
	{acl: "aclrtUseStreamResInCurrentThread", rt: "rtsUseStreamResInCurrentThread"},
	{acl: "aclrtUnuseStreamResInCurrentThread", rt: "rtsNotUseStreamResInCurrentThread"},
	{acl: "aclrtGetResInCurrentThread", rt: "rtsGetResInCurrentThread", args: "(const rtDevResLimitType_t)type, (uint32_t* const)value", guard: "value != NULL"},
	{acl: "aclrtCreateLabel", rt: "rtsLabelCreate", args: "(rtLabel_t*)label", guard: "label != NULL"},
	{acl: "aclrtSetLabel", rt: "rtsLabelSet", args: "(rtLabel_t)label, stream", guard: "label != NULL"},
	{acl: "aclrtDestroyLabel", rt: "rtsLabelDestroy", args: "(rtLabel_t)label", guard: "label != NULL"},
	{acl: "aclrtCreateLabelList", rt: "rtsLabelSwitchListCreate", args: "(rtLabel_t*)labels, num, (void* *)labelList", guard: "labels != NULL && labelList != NULL"},
	{acl: "aclrtDestroyLabelList", rt: "rtsLabelSwitchListDestroy", args: "(void*)labelList", guard: "labelList != NULL"},
	{acl: "aclrtSwitchLabelByIndex", rt: "rtsLabelSwitchByIndex", args: "ptr, maxValue, (void*)labelList, stream", guard: "ptr != NULL && labelList != NULL"},
	{acl: "aclrtActiveStream", rt: "rtsActiveStream"},
	{acl: "aclrtSwitchStream", rt: "rtsSwitchStream", args: "leftValue, (rtCondition_t)cond, rightValue, (rtSwitchDataType_t)dataType, trueStream, falseStream, stream", guard: "leftValue != NULL && rightValue != NULL"},
	{acl: "aclrtIpcMemGetExportKey", rt: "rtsIpcMemGetExportKey", args: "devPtr, size, (char_t*)key, (uint32_t)len, flags", guard: "devPtr != NULL && key != NULL"},
	{acl: "aclrtIpcMemClose", rt: "rtsIpcMemClose", args: "(const char_t*)key", guard: "key != NULL"},
	{acl: "aclrtIpcMemImportByKey", rt: "rtsIpcMemImportByKey", args: "devPtr, (const char_t*)key, flags", guard: "devPtr != NULL && key != NULL"},
	{acl: "aclrtIpcMemSetImportPid", rt: "rtsIpcMemSetImportPid", args: "(const char_t*)key, pid, (int)num", guard: "key != NULL && pid != NULL"},
	{acl: "aclrtNotifyBatchReset", rt: "rtsNotifyBatchReset", args: "(rtNotify_t*)notifies, (uint32_t)num", guard: "notifies != NULL"},
	{acl: "aclrtNotifyGetExportKey", rt: "rtsNotifyGetExportKey", args: "(rtNotify_t)notify, (char_t*)key, (uint32_t)len, flags", guard: "notify != NULL && key != NULL"},
	{acl: "aclrtNotifyImportByKey", rt: "rtsNotifyImportByKey", args: "(rtNotify_t*)notify, (const char_t*)key, flags", guard: "notify != NULL && key != NULL"},
	{acl: "aclrtNotifySetImportPid", rt: "rtsNotifySetImportPid", args: "(rtNotify_t)notify, pid, (int)num", guard: "notify != NULL && pid != NULL"},
	{acl: "aclrtGetLogicDevIdByUserDevId", rt: "rtsGetLogicDevIdByUserDevId", guard: "logicDevId != NULL"},
	{acl: "aclrtGetUserDevIdByLogicDevId", rt: "rtsGetUserDevIdByLogicDevId", guard: "userDevid != NULL"},
	{acl: "aclrtGetLogicDevIdByPhyDevId", rt: "rtsGetLogicDevIdByPhyDevId", guard: "logicDevId != NULL"},
	{acl: "aclrtGetPhyDevIdByLogicDevId", rt: "rtsGetPhyDevIdByLogicDevId", guard: "phyDevId != NULL"},
	{acl: "aclrtCtxGetFloatOverflowAddr", rt: "rtsCtxGetFloatOverflowAddr", guard: "overflowAddr != NULL"},
	{acl: "aclrtLaunchHostFunc", rt: "rtsLaunchHostFunc", args: "stream, (const rtCallback_t)fn, (void* const)args", guard: "fn != NULL"},
	{acl: "aclrtStreamStop", rt: "rtsStreamStop"},
	{acl: "aclrtCheckArchCompatibility", rt: "rtCheckArchCompatibility", args: "(const char_t*)socVersion, canCompatible", guard: "socVersion != NULL && canCompatible != NULL"},
	{acl: "aclrtCntNotifyRecord", rt: "rtsCntNotifyRecord", args: "(rtCntNotify_t)cntNotify, stream, (rtCntNotifyRecordInfo_t*)info", guard: "cntNotify != NULL && info != NULL"},
	{acl: "aclrtCntNotifyWaitWithTimeout", rt: "rtsCntNotifyWaitWithTimeout", args: "(rtCntNotify_t)cntNotify, stream, (rtCntNotifyWaitInfo_t*)info", guard: "cntNotify != NULL && info != NULL"},
	{acl: "aclrtCntNotifyReset", rt: "rtsCntNotifyReset", args: "(rtCntNotify_t)cntNotify, stream", guard: "cntNotify != NULL"},
	{acl: "aclrtCntNotifyGetId", rt: "rtsCntNotifyGetId", args: "(rtCntNotify_t)cntNotify, notifyId", guard: "cntNotify != NULL && notifyId != NULL"},
	{acl: "aclrtMemSetAccess", rt: "rtMemSetAccess", args: "virPtr, size, (rtMemAccessDesc*)desc, count", guard: "virPtr != NULL && desc != NULL"},
	{acl: "aclrtIpcGetEventHandle", rt: "rtIpcGetEventHandle", args: "(rtEvent_t)event, (rtIpcEventHandle_t*)handle", guard: "event != NULL && handle != NULL"},
	{acl: "aclrtIpcOpenEventHandle", rt: "rtIpcOpenEventHandle", args: "*(rtIpcEventHandle_t *)&handle, (rtEvent_t *)event", guard: "event != NULL"},
	{acl: "aclrtMemRetainAllocationHandle", rt: "rtMemRetainAllocationHandle", args: "virPtr, (rtDrvMemHandle*)handle", guard: "virPtr != NULL && handle != NULL"},
	{acl: "aclrtMemGetAddressRange", rt: "rtMemGetAddressRange", guard: "ptr != NULL && pbase != NULL && psize != NULL"},
	{acl: "aclrtMemPoolDestroy", rt: "rtMemPoolDestroy", args: "(rtMemPool_t const)memPool", guard: "memPool != NULL"},
	{acl: "aclrtMemPoolSetAttr", rt: "rtMemPoolSetAttr", args: "(rtMemPool_t)memPool, (rtMemPoolAttr)attr, value", guard: "memPool != NULL && value != NULL"},
	{acl: "aclrtMemPoolGetAttr", rt: "rtMemPoolGetAttr", args: "(rtMemPool_t)memPool, (rtMemPoolAttr)attr, value", guard: "memPool != NULL && value != NULL"},
	{acl: "aclrtMemPoolMallocAsync", rt: "rtMemPoolMallocAsync", args: "ptr, (const uint64_t)size, (const rtMemPool_t)memPool, stream", guard: "ptr != NULL && memPool != NULL"},
	{acl: "aclrtMemPoolFreeAsync", rt: "rtMemPoolFreeAsync", guard: "ptr != NULL"},
	{acl: "aclrtMemPoolTrimTo", rt: "rtMemPoolTrimTo", args: "(rtMemPool_t)memPool, (uint64_t)minBytesToKeep", guard: "memPool != NULL"},
	{acl: "aclrtMemManagedPrefetchAsync", rt: "rtMemManagedPrefetchAsync", args: "ptr, size, *(rtMemManagedLocation *)&location, flags, stream", guard: "ptr != NULL"},
	{acl: "aclmdlRIDestroy", rt: "rtModelDestroy", args: "(rtModel_t)modelRI", guard: "modelRI != NULL"},
	{acl: "aclmdlRICaptureBegin", rt: "rtStreamBeginCapture", args: "stream, (const rtStreamCaptureMode)mode"},
	{acl: "aclmdlRICaptureEnd", rt: "rtStreamEndCapture", args: "stream, (rtModel_t*)modelRI", guard: "modelRI != NULL"},
	{acl: "aclmdlRIDebugPrint", rt: "rtModelDebugDotPrint", args: "(rtModel_t)modelRI", guard: "modelRI != NULL"},
	{acl: "aclmdlRIDebugJsonPrint", rt: "rtModelDebugJsonPrint", args: "(rtModel_t)modelRI, path, flags", guard: "modelRI != NULL && path != NULL"},
	{acl: "aclmdlRICaptureThreadExchangeMode", rt: "rtThreadExchangeCaptureMode", args: "(rtStreamCaptureMode*)mode", guard: "mode != NULL"},
	{acl: "aclmdlRICaptureTaskGrpBegin", rt: "rtsStreamBeginTaskGrp"},
	{acl: "aclmdlRICaptureTaskGrpEnd", rt: "rtsStreamEndTaskGrp", args: "stream, (rtTaskGrp_t*)handle", guard: "handle != NULL"},
	{acl: "aclmdlRICaptureTaskUpdateBegin", rt: "rtsStreamBeginTaskUpdate", args: "stream, (rtTaskGrp_t)handle", guard: "handle != NULL"},
	{acl: "aclmdlRICaptureTaskUpdateEnd", rt: "rtsStreamEndTaskUpdate"},
	{acl: "aclmdlRIBuildBegin", rt: "rtsModelCreate", args: "(rtModel_t*)modelRI, flag", guard: "modelRI != NULL"},
	{acl: "aclmdlRIBindStream", rt: "rtsModelBindStream", args: "(rtModel_t)modelRI, stream, flag", guard: "modelRI != NULL"},
	{acl: "aclmdlRIEndTask", rt: "rtsEndGraph", args: "(rtModel_t)modelRI, stream", guard: "modelRI != NULL"},
	{acl: "aclmdlRIBuildEnd", rt: "rtsModelLoadComplete", args: "(rtModel_t)modelRI, reserve", guard: "modelRI != NULL"},
	{acl: "aclmdlRIUnbindStream", rt: "rtsModelUnbindStream", args: "(rtModel_t)modelRI, stream", guard: "modelRI != NULL"},
	{acl: "aclmdlRIExecute", rt: "rtsModelExecute", args: "(rtModel_t)modelRI, timeout", guard: "modelRI != NULL"},
	{acl: "aclmdlRISetName", rt: "rtsModelSetName", args: "(rtModel_t)modelRI, (const char_t*)name", guard: "modelRI != NULL && name != NULL"},
	{acl: "aclmdlRIGetName", rt: "rtsModelGetName", args: "(rtModel_t)modelRI, maxLen, (char_t* const)name", guard: "modelRI != NULL && name != NULL"},
	{acl: "aclmdlRIGetId", rt: "rtModelGetId", args: "(rtModel_t)modelRI, modelRIId", guard: "modelRI != NULL && modelRIId != NULL"},
	{acl: "aclmdlRIAbort", rt: "rtsModelAbort", args: "(rtModel_t)modelRI", guard: "modelRI != NULL"},
	{acl: "aclmdlRIGetStreams", rt: "rtModelGetStreams", args: "(rtModel_t const)modelRI, (rtStream_t*)streams, numStreams", guard: "modelRI != NULL && streams != NULL && numStreams != NULL"},
	// Rows whose translation is written at the boundary (tenth session):
	// the enums and records acl-to-rt.tsv says ACL converts, translated by
	// name in libfake/stack_route.c (helpers) or cast where the two sides
	// number them alike (rtFloatOverflowMode_t, rtLoadBinaryOption,
	// rtMemSharedHandleType, rtDrvMemGranularityOptions: rt-types.md).
	{acl: "aclrtSetDeviceSatMode", rt: "rtSetDeviceSatMode", args: "(rtFloatOverflowMode_t)mode"},
	{acl: "aclrtGetDeviceSatMode", rt: "rtGetDeviceSatMode", args: "(rtFloatOverflowMode_t *)mode", guard: "mode != NULL"},
	{acl: "aclrtDeviceSetLimit", rt: "rtDeviceSetLimit", helper: "npu_route_device_set_limit",
		guard: "npu_rt_limit_type(limit) >= 0 && value <= 0xFFFFFFFFu"},
	{acl: "aclrtDeviceGetLimit", rt: "rtDeviceGetLimit", helper: "npu_route_device_get_limit",
		guard: "value != NULL && npu_rt_limit_type(limit) >= 0"},
	{acl: "aclrtBinaryLoadFromFile", rt: "rtsBinaryLoadFromFile", args: "binPath, (const rtLoadBinaryConfig_t *)options, (rtBinHandle *)binHandle",
		guard: "binPath != NULL && binHandle != NULL"},
	{acl: "aclrtBinaryLoadFromData", rt: "rtsBinaryLoadFromData", args: "data, (uint64_t)length, (const rtLoadBinaryConfig_t *)options, (rtBinHandle *)binHandle",
		guard: "data != NULL && binHandle != NULL"},
	{acl: "aclrtMemExportToShareableHandleV2", rt: "rtMemExportToShareableHandleV2",
		args: "(rtDrvMemHandle)handle, (rtMemSharedHandleType)shareType, flags, shareableHandle", guard: "handle != NULL && shareableHandle != NULL"},
	{acl: "aclrtMemSetPidToShareableHandleV2", rt: "rtMemSetPidToShareableHandleV2",
		args: "shareableHandle, (rtMemSharedHandleType)shareType, (int *)pid, (uint32_t)pidNum", guard: "shareableHandle != NULL && pid != NULL && pidNum <= 0xFFFFFFFFu"},
	{acl: "aclrtCmoAsyncWithDesc", rt: "rtsLaunchCmoAddrTask", args: "cmoDesc, stream, (rtCmoOpCode)(cmoType + RT_CMO_PREFETCH), reserve",
		guard: "cmoDesc != NULL && (unsigned)cmoType <= ACL_RT_CMO_TYPE_FLUSH"},
	{acl: "aclrtReduceAsync", rt: "rtsLaunchReduceAsyncTask", helper: "npu_route_reduce_async",
		guard: "dst != NULL && src != NULL && npu_rt_data_type(type) >= 0"},
	{acl: "aclrtMemcpyBatchV2", rt: "rtsMemcpyBatch", helper: "npu_route_memcpy_batch_v2",
		guard: "dsts != NULL && destMaxs != NULL && srcs != NULL && sizes != NULL && attrs != NULL && attrsIndexes != NULL"},
	{acl: "aclrtMemcpyBatchAsyncV2", rt: "rtsMemcpyBatchAsync", helper: "npu_route_memcpy_batch_async_v2",
		guard: "dsts != NULL && destMaxs != NULL && srcs != NULL && sizes != NULL && attrs != NULL && attrsIndexes != NULL"},
	{acl: "aclrtCreateStreamWithConfig", rt: "rtsStreamCreate", helper: "npu_route_create_stream_with_config",
		guard: "stream != NULL && (flag & ~NPU_ACL_STREAM_FLAGS_KNOWN) == 0"},
	{acl: "aclrtStreamGetFlags", rt: "rtStreamGetFlags", helper: "npu_route_stream_get_flags", guard: "flags != NULL"},
	// npuemu's "logic" device ids (the rts* calls') are the user ids
	// (rt/device.go): ACL's logic -> user conversion around the call is
	// the identity.
	{acl: "aclrtGetUserDevIdByPhyDevId", rt: "rtsGetLogicDevIdByPhyDevId", guard: "userDevId != NULL"},
	{acl: "aclrtGetPhyDevIdByUserDevId", rt: "rtsGetPhyDevIdByLogicDevId", guard: "phyDevId != NULL"},
	{acl: "aclrtMemGetAllocationGranularity", rt: "rtMemGetAllocationGranularity", helper: "npu_route_mem_granularity",
		guard: "prop != NULL && granularity != NULL && (option == ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM || option == ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)"},
	{acl: "aclrtBinaryLoad", rt: "rtBinaryLoadWithoutTilingKey", helper: "npu_route_binary_load", guard: "binary != NULL && binHandle != NULL"},
	{acl: "aclrtGetBufUserData", rt: "rtMbufGetPrivInfo", helper: "npu_route_get_buf_user_data", guard: "buf != NULL && dataPtr != NULL && size != 0"},
	{acl: "aclrtSetBufUserData", rt: "rtMbufGetPrivInfo", helper: "npu_route_set_buf_user_data", guard: "buf != NULL && dataPtr != NULL && size != 0"},
	{acl: "aclrtGetGroupInfoDetail", rt: "rtGetGroupCount", helper: "npu_route_group_info_detail", guard: "groupInfo != NULL && attrValue != NULL && paramRetSize != NULL"},
	{acl: "aclrtMemPoolCreate", rt: "rtMemPoolCreate", helper: "npu_route_mem_pool_create", guard: "memPool != NULL && poolProps != NULL"},
	{acl: "aclrtGetErrorVerbose", rt: "rtsGetErrorVerbose", helper: "npu_route_get_error_verbose", guard: "errorInfo != NULL"},
	{acl: "aclrtRepairError", rt: "rtsRepairError", helper: "npu_route_repair_error", guard: "errorInfo != NULL"},
	{acl: "aclrtGetMemUceInfo", rt: "rtGetMemUceInfo", helper: "npu_route_get_mem_uce_info",
		guard: "memUceInfoArray != NULL && arraySize != 0 && retSize != NULL"},
	{acl: "aclrtMemUceRepair", rt: "rtMemUceRepair", helper: "npu_route_mem_uce_repair",
		guard: "memUceInfoArray != NULL && arraySize != 0 && arraySize <= RT_MAX_RECORD_PA_NUM_PER_DEV"},
	{acl: "aclrtGetDeviceUtilizationRate", rt: "rtGetAllUtilizations", helper: "npu_route_device_utilization", guard: "utilizationInfo != NULL"},
}

// routeOf returns the route of an ACL symbol and its slot.
func routeOf(name string) (route, int, bool) {
	for i, r := range routes {
		if r.acl == name {
			return r, i, true
		}
	}
	return route{}, 0, false
}

// genRouteTable writes npu_route_names and npu_route_fns (stack.h).
func genRouteTable(b *bytes.Buffer) {
	b.WriteString("\n/* The rt* calls of ACL functions that cross into libruntime.so in the\n" +
		" * split layout (shimgen's routes); stack.c fills npu_route_fns with the\n" +
		" * interposed definitions it finds (route i is named at npu_route_offs[i]). */\n")
	offs := writeNames(b, "npu_route_names", len(routes), func(i int) string { return routes[i].rt })
	b.WriteString("const uint32_t npu_route_offs[] = {\n")
	for _, o := range offs {
		fmt.Fprintf(b, "    %d,\n", o)
	}
	b.WriteString("};\n")
	fmt.Fprintf(b, "const int npu_route_n = %d;\n", len(routes))
	fmt.Fprintf(b, "void *npu_route_fns[%d];\n", len(routes))
}

// A taken route hands the ACL work to the rt* side: the emu_ body of a
// routed ACL symbol stores its arguments and a thunk (the ACL function's
// own body, emu_direct_) in npu_routed_pending (stack.h) and calls the
// interposed rt* definition; when the interposer forwards, the rt* shim
// that the route targets finds the pending call and runs the thunk instead
// of its own rt* work. So a forwarding interposer changes nothing the
// program sees (the ACL function's results, codes and messages are its
// own), while one that refuses returns its own answer, as on the real
// split stack, where the ACL implementation's work is this rt* call.

// routeThunk writes the argument record and the thunk of a routed symbol.
func routeThunk(s abi.Symbol, slot int, ps []param) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n/* The ACL work of %s when its route comes back through an interposer. */\n", s.Name)
	fmt.Fprintf(&b, "struct npu_route_args_%d {\n    npu_routed h;\n", slot)
	for _, p := range ps {
		t := p.typ
		if p.array {
			t += "*"
		}
		fmt.Fprintf(&b, "    %s %s;\n", t, p.name)
	}
	b.WriteString("};\n")
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = "a->" + p.name
	}
	fmt.Fprintf(&b, "static int32_t npu_route_thunk_%d(npu_routed *h) {\n", slot)
	if len(ps) > 0 {
		fmt.Fprintf(&b, "    struct npu_route_args_%d *a = (struct npu_route_args_%d *)h;\n", slot, slot)
	} else {
		b.WriteString("    (void)h;\n")
	}
	fmt.Fprintf(&b, "    return (int32_t)emu_direct_%s(%s);\n}\n", s.Name, strings.Join(names, ", "))
	return b.String()
}

// routeTarget reports whether an rt* symbol is the target of a route.
func routeTarget(name string) bool {
	for _, r := range routes {
		if r.rt == name {
			return true
		}
	}
	return false
}

// routeTake is the first statement of the emu_ body of a route's rt* target
// (idx: its index in abi.Symbols).
func routeTake(idx int) string {
	return fmt.Sprintf("    if (__builtin_expect(npu_routed_pending != NULL, 0) && npu_routed_pending->rt == %d) /* a routed ACL call, forwarded */\n"+
		"        return (rtError_t)npu_route_take();\n", idx)
}

// routeCheck is the first statement of the emu_ body of a routed symbol:
// with the route set and the guard true, the call goes to the interposed
// rt* definition with the ACL arguments and thunk pending.
func routeCheck(r route, slot int, ps []param) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
	}
	args := r.args
	if args == "" && !r.noArgs {
		args = strings.Join(names, ", ")
	}
	cond := fmt.Sprintf("__builtin_expect(npu_route_fns[%d] != NULL, 0)", slot)
	if r.guard != "" {
		cond += " && (" + r.guard + ")"
	}
	call := fmt.Sprintf("((__typeof__(&%s))npu_route_fns[%d])(%s)", r.rt, slot, args)
	if r.helper != "" {
		call = fmt.Sprintf("%s(npu_route_fns[%d], %s)", r.helper, slot, args)
	}
	rec := fmt.Sprintf("{{%d, npu_route_thunk_%d}", abi.SymbolIndex(r.rt), slot)
	for _, n := range names {
		rec += ", " + n
	}
	rec += "}"
	return fmt.Sprintf("    if (%s) { /* split layout, %s interposed */\n"+
		"        struct npu_route_args_%d a = %s;\n"+
		"        npu_routed_pending = &a.h;\n"+
		"        aclError r = (aclError)%s;\n"+
		"        npu_routed_pending = NULL;\n"+
		"        return r;\n"+
		"    }\n", cond, r.rt, slot, rec, call)
}

// goRouted are the ACL functions whose rt* call is made in Go (acl/stack.go,
// acl/peer_driver.go, rt/stack): they do work of their own around it.
var goRouted = map[string]bool{
	"aclrtMalloc": true, "aclrtMallocAlign32": true, "aclrtMallocCached": true, "aclrtMallocWithCfg": true,
	"aclrtFree": true, "aclrtGetMemInfo": true,
	"aclrtDeviceCanAccessPeer": true, "aclrtDeviceEnablePeerAccess": true, "aclrtDeviceDisablePeerAccess": true,
	"aclrtDevicePeerAccessStatus": true,
	"aclrtMallocPhysical":         true,
}

// unrouted are the one-call rows of acl-to-rt.tsv whose rt* function npuemu
// implements but whose ACL call still binds inside npuemu in the split
// layout, and why (docs/stack.md, "What binds where today").
var unrouted = map[string]string{
	"aclrtCreateGroupInfo":                 "fills ACL's own aclrtGroupInfo object and returns a pointer: no code to carry a hook's answer",
	"aclrtGetSocName":                      "returns a string cached once per process: no code to carry a hook's answer",
	"aclrtReserveMemAddressNoUCMemory":     "ACL checks the whole-GiB size and the SoC first; how it marks the reservation no-UC for rtReserveMemAddress is not in the spec",
	"aclrtSetExceptionInfoCallback":        "the module name ACL registers its callback under with rtRegTaskFailCallbackByModule is not in the spec",
	"aclrtExceptionInfoCallbackRegister":   "the module name ACL registers its callback under with rtRegTaskFailCallbackByModule is not in the spec",
	"aclrtExceptionInfoCallbackUnregister": "the module name ACL registers its callback under with rtRegTaskFailCallbackByModule is not in the spec",
}
