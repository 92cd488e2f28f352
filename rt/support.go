package rt

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
)

// The rt* support table: one entry per rt* symbol of abi.Symbols (the
// priority-A functions of rt-functions.tsv), printed by `npuemu compat`
// and used by libfake's unsupported shims, whose calls return the entry's
// code, ACL_ERROR_RT_FEATURE_NOT_SUPPORT: the runtime's own code for a
// feature it does not provide. A symbol is supported or partial exactly
// when libfake exports it (the consistency test checks).

type rule struct {
	status abi.Status
	note   string
}

func supported(note string) rule { return rule{status: abi.Supported, note: note} }
func partial(note string) rule   { return rule{status: abi.Partial, note: note} }

// unsupported is a function that fails with ACL_ERROR_RT_FEATURE_NOT_SUPPORT
// for a reason of its own (not its area's).
func unsupported(note string) rule { return rule{status: abi.Unsupported, note: note} }

// symbolRules are the implemented rt* functions.
var symbolRules = map[string]rule{
	"rtMalloc":                       supported("device memory from halMemAlloc (crosses into the driver: a halMemAlloc hook sees it); pages by RT_MEMORY_POLICY_* bits"),
	"rtFree":                         supported("rtMalloc/aclrtMalloc memory; halMemFree underneath"),
	"rtMemGetInfoEx":                 supported("halMemGetInfo underneath: free/total are the driver's normal plus huge pages"),
	"rtMemcpy":                       partial("kinds 0..3, RT_MEMCPY_HOST_TO_DEVICE_EX and RT_MEMCPY_DEFAULT; as aclrtMemcpy"),
	"rtMemcpyAsync":                  partial("kinds as rtMemcpy; as aclrtMemcpyAsync"),
	"rtSetDevice":                    supported("as aclrtSetDevice"),
	"rtGetDevice":                    supported("as aclrtGetDevice"),
	"rtDeviceReset":                  supported("as aclrtResetDevice"),
	"rtDeviceSynchronize":            supported("as aclrtSynchronizeDevice"),
	"rtGetDeviceCount":               supported("number of emulated devices"),
	"rtStreamCreate":                 supported("priority clamped as aclrtCreateStreamWithConfig"),
	"rtStreamDestroy":                supported("as aclrtDestroyStream"),
	"rtStreamSynchronize":            supported("as aclrtSynchronizeStream"),
	"rtStreamWaitEvent":              supported("as aclrtStreamWaitEvent"),
	"rtStreamGetCaptureInfo":         supported("as aclmdlRICaptureGetInfo"),
	"rtEventCreate":                  supported("default flags, as aclrtCreateEvent"),
	"rtEventDestroy":                 supported("as aclrtDestroyEvent"),
	"rtEventRecord":                  supported("as aclrtRecordEvent"),
	"rtEventReset":                   supported("as aclrtResetEvent"),
	"rtEventSynchronize":             supported("as aclrtSynchronizeEvent"),
	"rtEventQuery":                   supported("ACL_ERROR_RT_EVENT_NOT_COMPLETE until the recorded work completes; as aclrtQueryEvent (an event never recorded is complete)"),
	"rtEventQueryStatus":             supported("RT_EVENT_INIT / RT_EVENT_RECORDED"),
	"rtEventElapsedTime":             supported("as aclrtEventElapsedTime (virtual clock)"),
	"rtLaunchKernelByFuncHandleV3":   partial("argument blocks in device memory (isNoNeedH2DCopy = 1, as aclrtLaunchKernel passes) without tiling or host-input info; cfgInfo must be NULL"),
	"rtsLaunchKernelWithConfig":      supported("as aclrtLaunchKernelWithConfig (rtKernelLaunchCfg_t has its layout)"),
	"rtModelExecute":                 supported("flag 0; as aclmdlRIExecuteAsync"),
	"rtMallocPhysical":               partial("HBM/DDR (and P2P) memory on the device, host or host-NUMA side, as aclrtMallocPhysical; module_id is not charged separately"),
	"rtFreePhysical":                 supported("as aclrtFreePhysical"),
	"rtCtxCreateEx":                  partial("flags 0 (RT_CTX_NORMAL_MODE) only; as aclrtCreateContext"),
	"rtCtxDestroyEx":                 supported("as aclrtDestroyContext"),
	"rtCtxSetCurrent":                supported("as aclrtSetCurrentContext"),
	"rtCtxGetCurrent":                supported("as aclrtGetCurrentContext"),
	"rtStreamQuery":                  supported("ACL_ERROR_RT_STREAM_NOT_COMPLETE while tasks are pending"),
	"rtStreamSynchronizeWithTimeout": supported("milliseconds, -1 forever; as aclrtSynchronizeStreamWithTimeout"),
	"rtDeviceSynchronizeWithTimeout": supported("milliseconds, -1 forever; as aclrtSynchronizeDeviceWithTimeout"),
	"rtGetSocVersion":                supported("the emulated SoC's name"),
	"rtEventQueryWaitStatus":         supported("as aclrtQueryEventWaitStatus"),
	"rtMallocHost":                   supported("pinned host memory, as aclrtMallocHost"),
	"rtFreeHost":                     supported("as aclrtFreeHost"),
	"rtMemset":                       supported("the low byte of val; as aclrtMemset"),
	"rtMemsetAsync":                  supported("the low byte of val; as aclrtMemsetAsync"),
	"rtEnableP2P":                    supported("halDeviceEnableP2P underneath (the driver's switch, which ACL copies accept as peer access); flag not checked"),
	"rtDisableP2P":                   supported("halDeviceDisableP2P underneath; a pair not enabled ACL_ERROR_RT_PARAM_INVALID"),
	"rtDeviceCanAccessPeer":          supported("halDeviceCanAccessPeer underneath: 1 for distinct devices, 0 on 310B"),
	"rtsGetP2PStatus":                supported("1 while the driver's switch from devIdDes to phyIdSrc is on"),
	"rtGetDevicePhyIdByIndex":        supported("identity: physical ids equal logical ids"),
	"rtGetGroupCount":                supported("310P: as aclrtGetGroupCount (docs/groups.md)"),
	"rtSetGroup":                     supported("310P: as aclrtSetGroup"),
	"rtGetGroupInfo":                 supported("310P: groupId -1 fills every group (cnt >= the count), else the one group"),
	"rtMbufAlloc":                    supported("as aclrtAllocBuf"),
	"rtMbufFree":                     supported("as aclrtFreeBuf"),
	"rtMbufSetDataLen":               supported("as aclrtSetBufDataLen"),
	"rtMbufGetDataLen":               supported("as aclrtGetBufDataLen"),
	"rtMbufGetBuffAddr":              supported("the data area, as aclrtGetBufData"),
	"rtMbufGetBuffSize":              supported("the data area's size"),
	"rtMbufGetPrivInfo":              supported("the 96-byte user-data area (pinned host memory) that aclrtGet/SetBufUserData copy"),
	"rtMbufCopyBufRef":               supported("as aclrtCopyBufRef"),
	"rtMbufChainAppend":              supported("as aclrtAppendBufChain"),
	"rtMbufChainGetMbufNum":          supported("as aclrtGetBufChainNum"),
	"rtMbufChainGetMbuf":             supported("as aclrtGetBufFromChain"),
	"rtSnapShotProcessLock":          supported("950/A3/A2: the calling process, as aclrtSnapShotProcessLock"),
	"rtSnapShotProcessUnlock":        supported("950/A3/A2: as aclrtSnapShotProcessUnlock"),
	"rtSnapShotProcessBackup":        supported("950/A3/A2: as aclrtSnapShotProcessBackup"),
	"rtSnapShotProcessRestore":       supported("950/A3/A2: as aclrtSnapShotProcessRestore"),
	"rtSnapShotCallbackRegister":     supported("950/A3/A2: the same callbacks as aclrtSnapShotCallbackRegister"),
	"rtSnapShotCallbackUnregister":   supported("950/A3/A2: as aclrtSnapShotCallbackUnregister"),
	// event, notify, cntnotify, label, ipc-event (round 8)
	"rtEventCreateWithFlag":         supported("flags as aclrtCreateEventWithFlag (RT_EVENT_* bits share its values)"),
	"rtEventCreateExWithFlag":       supported("flags as aclrtCreateEventExWithFlag; RT_EVENT_IPC alone for rtIpcGetEventHandle"),
	"rtEventSynchronizeWithTimeout": supported("milliseconds, -1 forever; ACL_ERROR_RT_EVENT_SYNC_TIMEOUT when it expires"),
	"rtEventGetTimeStamp":           supported("microseconds of virtual time, as aclrtEventGetTimestamp"),
	"rtsEventGetId":                 supported("the event's hardware id, as aclrtGetEventId"),
	"rtsEventWait":                  supported("timeout in seconds, 0 = never; as aclrtStreamWaitEventWithTimeout"),
	"rtsEventGetAvailNum":           supported("free hardware event ids of the current device"),
	"rtEventRecordWithFlag":         supported("RT_EVENT_RECORD_DEFAULT / RT_EVENT_RECORD_EXTERNAL (capturing streams), as aclrtRecordEventWithFlag"),
	"rtStreamWaitEventWithFlag":     supported("RT_EVENT_WAIT_DEFAULT (seconds, 0 = never) / RT_EVENT_WAIT_EXTERNAL, as aclrtStreamWaitEventWithFlag"),
	"rtIpcGetEventHandle":           supported("events created with RT_EVENT_IPC, as aclrtIpcGetEventHandle"),
	"rtIpcOpenEventHandle":          supported("in this process or another on the node, as aclrtIpcOpenEventHandle"),
	"rtsNotifyCreate":               supported("RT_NOTIFY_FLAG_DEFAULT or RT_NOTIFY_FLAG_DOWNLOAD_TO_DEV, as aclrtCreateNotify"),
	"rtsNotifyDestroy":              supported("as aclrtDestroyNotify"),
	"rtsNotifyRecord":               supported("as aclrtRecordNotify"),
	"rtsNotifyWaitAndReset":         supported("timeout in seconds, 0 = forever; as aclrtWaitAndResetNotify"),
	"rtsNotifyGetId":                supported("as aclrtGetNotifyId"),
	"rtsNotifyBatchReset":           supported("as aclrtNotifyBatchReset"),
	"rtsNotifyGetExportKey":         supported("as aclrtNotifyGetExportKey"),
	"rtsNotifyImportByKey":          supported("as aclrtNotifyImportByKey"),
	"rtsNotifySetImportPid":         supported("as aclrtNotifySetImportPid"),
	"rtCntNotifyCreateServer":       supported("flags 0, as aclrtCntNotifyCreate"),
	"rtCntNotifyDestroy":            supported("as aclrtCntNotifyDestroy"),
	"rtsCntNotifyRecord":            supported("set/add/or/and, as aclrtCntNotifyRecord"),
	"rtsCntNotifyWaitWithTimeout":   supported("as aclrtCntNotifyWaitWithTimeout"),
	"rtsCntNotifyReset":             supported("as aclrtCntNotifyReset"),
	"rtsCntNotifyGetId":             supported("as aclrtCntNotifyGetId"),
	"rtsLabelCreate":                supported("as aclrtCreateLabel"),
	"rtsLabelDestroy":               supported("as aclrtDestroyLabel"),
	"rtsLabelSwitchListCreate":      supported("as aclrtCreateLabelList"),
	"rtsLabelSwitchListDestroy":     supported("as aclrtDestroyLabelList"),
	"rtsLabelSet":                   supported("streams bound to a model being built, as aclrtSetLabel"),
	"rtsLabelSwitchByIndex":         supported("as aclrtSwitchLabelByIndex"),
	// memcpy, memory, host-mem, managed, mempool, cmo (round 8)
	"rtMemcpy2d":                supported("host/device pairs, as aclrtMemcpy2d"),
	"rtMemcpy2dAsync":           supported("H2D, D2H, D2D in stream order, as aclrtMemcpy2dAsync"),
	"rtMemsetD32":               supported("aclrtMalloc/aclrtMallocHost memory, as aclrtMemsetD32"),
	"rtMemsetD32Async":          supported("device memory in stream order; host memory filled at the call"),
	"rtMallocCached":            supported("as rtMalloc: emulated device memory has no cache attribute"),
	"rtFreeWithDevSync":         supported("the owning device is synchronized, then as rtFree"),
	"rtFreeHostWithDevSync":     supported("every device is synchronized, then as rtFreeHost"),
	"rtGetMemUsageInfo":         supported("device memory per module, the records of aclrtGetMemUsageInfo"),
	"rtHostRegisterV2":          supported("MAPPED and PINNED; IOMEMORY/READONLY are reserved"),
	"rtsHostUnregister":         supported("either registration call's range, by its start"),
	"rtHostGetDevicePointer":    supported("flag 0: the device address of MAPPED host memory"),
	"rtMemAllocManaged":         supported("RT_MEMORY_ATTACH_GLOBAL only; as aclrtMemAllocManaged (docs/svm.md)"),
	"rtFlushCache":              partial("arguments checked; no cache to write back (emulated device memory is coherent with the host)"),
	"rtInvalidCache":            partial("arguments checked; no cache to drop (emulated device memory is coherent with the host)"),
	"rtMemPoolCreate":           supported("device pools (side MEM_DEV_SIDE, handleType NONE), as aclrtMemPoolCreate"),
	"rtMemPoolDestroy":          supported("refused while blocks are allocated, as aclrtMemPoolDestroy"),
	"rtMemPoolSetAttr":          supported("the aclrtMemPoolAttr values and widths (uint32_t switches, uint64_t sizes)"),
	"rtMemPoolGetAttr":          supported("as rtMemPoolSetAttr"),
	"rtMemPoolMallocAsync":      supported("stream-ordered allocation, as aclrtMemPoolMallocAsync"),
	"rtMemPoolFreeAsync":        supported("the block returns to its pool when the stream reaches the free"),
	"rtMemPoolTrimTo":           supported("as aclrtMemPoolTrimTo"),
	"rtCmoAsync":                partial("RT_CMO_PREFETCH only, ordered with the stream, changes no data (no cache); WRITEBACK/INVALID/FLUSH ACL_ERROR_RT_FEATURE_NOT_SUPPORT, as aclrtCmoAsync"),
	"rtsHostRegister":           partial("RT_HOST_REGISTER_MAPPED; the device pointer equals the host pointer; IOMEMORY/READONLY ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
	"rtMemManagedPrefetchAsync": supported("migrates at the call in stream order, as aclrtMemManagedPrefetchAsync (flags 0)"),
	// stream, device, context, timeout, res-limit (round 8)
	"rtStreamGetPriority":               supported("as aclrtStreamGetPriority"),
	"rtsStreamGetId":                    supported("as aclrtStreamGetId"),
	"rtsStreamGetAvailableNum":          supported("as aclrtGetStreamAvailableNum"),
	"rtsDeviceGetStreamPriorityRange":   supported("the emulated SoC's range, as aclrtDeviceGetStreamPriorityRange"),
	"rtStreamDestroyForce":              supported("as aclrtDestroyStreamForce"),
	"rtStreamSetMode":                   supported("RT_STREAM_FAILURE_MODE_*, settable once; as aclrtSetStreamFailureMode"),
	"rtStreamAbort":                     supported("as aclrtStreamAbort"),
	"rtsStreamStop":                     supported("as aclrtStreamStop"),
	"rtGetRunMode":                      supported("RT_RUN_MODE_ONLINE: the emulated devices are host-attached"),
	"rtDeviceStatusQuery":               supported("RT_DEVICE_STATUS_NORMAL: emulated devices do not fail"),
	"rtDeviceResetForce":                supported("as aclrtResetDeviceForce"),
	"rtDeviceGetBareTgid":               supported("the process id (no container namespace)"),
	"rtSetSysParamOpt":                  supported("process-wide, as aclrtSetSysParamOpt"),
	"rtGetSysParamOpt":                  supported("process-wide, 0 while unset; as aclrtGetSysParamOpt"),
	"rtsCtxGetCurrentDefaultStream":     supported("as aclrtCtxGetCurrentDefaultStream"),
	"rtsGetPrimaryCtxState":             supported("flags 0; as aclrtGetPrimaryCtxState"),
	"rtCtxSetSysParamOpt":               supported("as aclrtCtxSetSysParamOpt"),
	"rtCtxGetSysParamOpt":               supported("ACL_ERROR_RT_SYSPARAMOPT_NOT_SET while unset; as aclrtCtxGetSysParamOpt"),
	"rtSetOpWaitTimeOut":                supported("seconds, 0 = none; as aclrtSetOpWaitTimeout (refused on 310P)"),
	"rtSetOpExecuteTimeOut":             supported("seconds, 0 = the maximum; as aclrtSetOpExecuteTimeOut"),
	"rtsSetDeviceResLimit":              supported("as aclrtSetDeviceResLimit"),
	"rtsGetDeviceResLimit":              supported("as aclrtGetDeviceResLimit"),
	"rtsResetDeviceResLimit":            supported("as aclrtResetDeviceResLimit"),
	"rtsSetStreamResLimit":              supported("as aclrtSetStreamResLimit"),
	"rtsGetStreamResLimit":              supported("as aclrtGetStreamResLimit"),
	"rtsResetStreamResLimit":            supported("as aclrtResetStreamResLimit"),
	"rtsUseStreamResInCurrentThread":    supported("as aclrtUseStreamResInCurrentThread"),
	"rtsNotUseStreamResInCurrentThread": supported("as aclrtUnuseStreamResInCurrentThread"),
	"rtsGetResInCurrentThread":          supported("as aclrtGetResInCurrentThread"),
	"rtsStreamSetAttribute":             supported("rtStreamAttr/rtStreamAttrValue_t as aclrtSetStreamAttribute"),
	"rtsStreamGetAttribute":             supported("as aclrtGetStreamAttribute"),
	"rtsDeviceGetInfo":                  supported("rtDevAttr as aclrtGetDeviceInfo"),
	"rtGetAiCoreCount":                  supported("the emulated SoC's AI cores"),
	"rtGetDeviceUuid":                   supported("as aclrtDeviceGetUuid (950/A3/A2); answered by the runtime, not through halGetDeviceInfoByBuff (docs/hal.md), so a driver hook does not see it"),
	"rtsGetLogicDevIdByPhyDevId":        supported("as aclrtGetLogicDevIdByPhyDevId"),
	"rtsGetPhyDevIdByLogicDevId":        supported("as aclrtGetPhyDevIdByLogicDevId"),
	"rtsGetLogicDevIdByUserDevId":       supported("as aclrtGetLogicDevIdByUserDevId"),
	"rtsGetUserDevIdByLogicDevId":       supported("as aclrtGetUserDevIdByLogicDevId"),
	"rtCheckArchCompatibility":          supported("1 when omSocVersion's NPU architecture is the emulated SoC's; as aclrtCheckArchCompatibility"),
	"rtDeviceGetPCIBusId":               supported("as aclrtDeviceGetPCIBusId (950/A3/A2); answered by the runtime, not through halGetDeviceInfoByBuff (docs/hal.md)"),
	"rtDeviceGetByPCIBusId":             supported("as aclrtDeviceGetByPCIBusId (950/A3/A2)"),
	"rtDeviceSetLimit":                  partial("rtLimitType_t converted to aclrtDeviceLimit, as aclrtDeviceSetLimit; RT_LIMIT_TYPE_LOW_POWER_TIMEOUT is not modelled (ACL_ERROR_RT_FEATURE_NOT_SUPPORT)"),
	"rtDeviceGetLimit":                  partial("as aclrtDeviceGetLimit; RT_LIMIT_TYPE_LOW_POWER_TIMEOUT is not modelled"),
	"rtsActiveStream":                   supported("streams bound to a model run instance; as aclrtActiveStream"),
	"rtsSwitchStream":                   supported("falseStream NULL; as aclrtSwitchStream"),
	"rtDeviceTaskAbort":                 supported("abort callbacks PRE/POST around the abort; as aclrtDeviceTaskAbort (950/A3/A2)"),
	// capture (round 8)
	"rtStreamBeginCapture":        supported("rtStreamCaptureMode converted to aclmdlRICaptureMode; as aclmdlRICaptureBegin"),
	"rtStreamEndCapture":          supported("as aclmdlRICaptureEnd"),
	"rtThreadExchangeCaptureMode": supported("as aclmdlRICaptureThreadExchangeMode"),
	"rtsStreamBeginTaskGrp":       supported("as aclmdlRICaptureTaskGrpBegin"),
	"rtsStreamEndTaskGrp":         supported("as aclmdlRICaptureTaskGrpEnd"),
	"rtsStreamBeginTaskUpdate":    supported("as aclmdlRICaptureTaskUpdateBegin"),
	"rtsStreamEndTaskUpdate":      supported("as aclmdlRICaptureTaskUpdateEnd"),
	"rtModelGetStreams":           supported("as aclmdlRIGetStreams"),
	"rtModelDebugJsonPrint":       supported("flags are the ACL_MDLRI_DEBUG_JSON_PRINT_* ones; npuemu's JSON, as aclmdlRIDebugJsonPrint"),
	"rtModelUpdate":               supported("as aclmdlRIUpdate"),
	"rtModelDebugDotPrint":        supported("npuemu's text summary on stderr, as aclmdlRIDebugPrint"),
	// model (round 8)
	"rtsModelCreate":       supported("flag 0; as aclmdlRIBuildBegin"),
	"rtsModelBindStream":   supported("RT_MODEL_STREAM_FLAG_HEAD/_DEFAULT, persistent streams; as aclmdlRIBindStream"),
	"rtsEndGraph":          supported("as aclmdlRIEndTask"),
	"rtsModelLoadComplete": supported("reserve NULL; as aclmdlRIBuildEnd"),
	"rtsModelUnbindStream": supported("as aclmdlRIUnbindStream"),
	"rtsModelExecute":      supported("as aclmdlRIExecute"),
	"rtsModelAbort":        supported("as aclmdlRIAbort"),
	"rtModelDestroy":       supported("as aclmdlRIDestroy"),
	"rtsModelSetName":      supported("as aclmdlRISetName"),
	"rtsModelGetName":      supported("as aclmdlRIGetName"),
	"rtModelGetId":         supported("as aclmdlRIGetId"),
	// vmm (round 8)
	"rtReserveMemAddress":           supported("the driver's flags (page type in bits 0-1); as aclrtReserveMemAddress"),
	"rtReleaseMemAddress":           supported("every mapping must be unmapped first; as aclrtReleaseMemAddress"),
	"rtMapMem":                      supported("flags 0; mappings of one handle alias; as aclrtMapMem"),
	"rtMemMapNoAccess":              supported("mapped PROT_NONE until rtMemSetAccess; as aclrtMemMapNoAccess"),
	"rtUnmapMem":                    supported("as aclrtUnmapMem"),
	"rtMemSetAccess":                partial("RT_MEM_ACCESS_FLAGS_READWRITE for RT_MEMORY_LOC_HOST/DEVICE locations only; as aclrtMemSetAccess"),
	"rtMemGetAccess":                partial("RT_MEMORY_LOC_HOST/DEVICE locations; one never set reads MEM_ACCESS_TYPE_MAX"),
	"rtMemGetAllocationGranularity": supported("2 MiB, 1 GiB for giant pages, 4 KiB for host normal pages with MINIMUM"),
	"rtMemRetainAllocationHandle":   supported("each retain needs its own rtFreePhysical"),
	"rtMemGetAddressRange":          supported("device, pinned host and mapped VMM memory; as aclrtMemGetAddressRange"),
	// ipc (round 8)
	"rtsIpcMemGetExportKey": supported("a 65-byte key buffer; the processes of the node; as aclrtIpcMemGetExportKey"),
	"rtsIpcMemClose":        supported("imports first, then the export; as aclrtIpcMemClose"),
	"rtsIpcMemImportByKey":  supported("the exporter's pages at a new address; as aclrtIpcMemImportByKey"),
	"rtsIpcMemSetImportPid": supported("the pids importers are checked against; as aclrtIpcMemSetImportPid"),
	// exception, callback, overflow (round 8)
	"rtSubscribeReport":          supported("threads named by pthread id; one thread per stream, one device per thread; as aclrtSubscribeReport"),
	"rtUnSubscribeReport":        supported("callbacks handed over but not yet run are skipped; as aclrtUnSubscribeReport"),
	"rtProcessReport":            supported("serves the calling thread; timeout -1 or > 0 ms, expiry is ACL_ERROR_RT_REPORT_TIMEOUT; as aclrtProcessReport"),
	"rtCallbackLaunch":           supported("runs on the subscribed thread inside rtProcessReport; isBlock holds the stream until it has run; as aclrtLaunchCallback"),
	"rtsLaunchHostFunc":          supported("runs on a runtime goroutine; later tasks of the stream wait for it; as aclrtLaunchHostFunc"),
	"rtSetStreamOverflowSwitch":  supported("flags 0 (off) or 1 (on); as aclrtSetStreamOverflowSwitch"),
	"rtGetStreamOverflowSwitch":  supported("as aclrtGetStreamOverflowSwitch"),
	"rtGetDeviceSatStatus":       partial("copies the context's status word in stream order, as aclrtGetOverflowStatus; emulated kernels never report float overflow, so it stays 0 unless the application writes it"),
	"rtCleanDeviceSatStatus":     supported("clears the context's status word in stream order; as aclrtResetOverflowStatus"),
	"rtsCtxGetFloatOverflowAddr": supported("one 8-byte word of the device's HBM per context; as aclrtCtxGetFloatOverflowAddr"),
	"rtSubscribeHostFunc":        unsupported("no product supports it per the documentation (as aclrtSubscribeHostFunc)"),
	"rtProcessHostFunc":          unsupported("no product supports it per the documentation (as aclrtProcessHostFunc)"),
	"rtUnSubscribeHostFunc":      unsupported("no product supports it per the documentation (as aclrtUnSubscribeHostFunc)"),
	"rtGetLastError":             supported("RT_THREAD_LEVEL only (as aclrtGetLastError): the thread's last failure as an rt code, then cleared"),
	"rtPeekAtLastError":          supported("RT_THREAD_LEVEL only (as aclrtPeekAtLastError): the thread's last failure as an rt code, kept"),
	// capture, stream, stream-mem-op, misc (round 9)
	"rtModelCondHandleCreate":          partial("950/A3/A2; flag 0 or RT_COND_HANDLE_ASSIGN_DEFAULT; as aclmdlRICondHandleCreate (8-byte device word; IF: word != 0 runs sub-graph 0, else 1; SWITCH: out of range runs nothing; WHILE: while word != 0)"),
	"rtModelCondHandleGetCondPtr":      supported("950/A3/A2; the condition word's device address, as aclmdlRICondHandleGetCondPtr"),
	"rtStreamAddCondTask":              supported("950/A3/A2; rtCondTaskType_t converted; flags 0; as aclmdlRIAddCondTask"),
	"rtStreamBeginCaptureToModel":      supported("950/A3/A2; sub-graphs of rtStreamAddCondTask only; as aclmdlRICaptureToModelRIBegin"),
	"rtModelDestroyRegisterCallback":   supported("runs after the model is released; as aclmdlRIDestroyRegisterCallback"),
	"rtModelDestroyUnregisterCallback": supported("as aclmdlRIDestroyUnregisterCallback"),
	"rtStreamGetTasks":                 supported("950/A3/A2; streams of a ready model; as aclmdlRIGetTasksByStream"),
	"rtTaskGetType":                    supported("950/A3/A2; rtTaskType converted: kernels, event record/wait/reset, value write/wait; other tasks RT_TASK_DEFAULT"),
	"rtTaskGetSeqId":                   supported("950/A3/A2; 0-based position among the tasks of its stream"),
	"rtModelTaskGetParams":             partial("950/A3/A2; aclmdlRITaskParams' layout with an rtTaskType; kernel, event and value write/wait tasks filled in; opInfo not recorded"),
	"rtModelTaskSetParams":             partial("950/A3/A2; kernel and value write/wait tasks, effective at rtModelUpdate; event tasks refused; as aclmdlRITaskSetParams"),
	"rtModelKernelTaskGetAttribute":    supported("950/A3/A2; rtLaunchKernelAttrId converted; SCHEM_MODE, DYN_UBUF_SIZE, TIMEOUT, TIMEOUT_US, DATA_DUMP, ENABLE_PROFILING as aclmdlRIKernelTaskGetAttribute"),
	"rtModelTaskDisable":               supported("950/A3/A2; effective at rtModelUpdate; as aclmdlRITaskDisable"),
	"rtsLaunchUpdateTask":              supported("950/A3/A2/310P; RT_UPDATE_AIC_AIV_TASK of a model built on bound streams, as aclrtTaskUpdateAsync (RT_UPDATE_DSA_TASK: no random-number task is ever recorded)"),
	"rtStreamGetFlags":                 supported("the RT_STREAM_* bits of the creation flags (ACL_STREAM_DEVICE_USE_ONLY is RT_STREAM_CP_PROCESS_USE)"),
	"rtsStreamCreate":                  partial("RT_STREAM_CREATE_ATTR_FLAGS (RT_STREAM_* bits converted to the ACL flags) and _PRIORITY (clamped), as aclrtCreateStreamWithConfig; RT_STREAM_* bits without an ACL flag ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
	"rtStreamCreateWithConfig":         supported("flag numbered as ACL_STREAM_* (aclrtCreateStreamV2 passes it unchanged), priority clamped; the work area is not needed; as aclrtCreateStreamV2"),
	"rtsPersistentTaskClean":           partial("950/A3/A2; an unbound persistent stream holds no task; a bound stream's tasks belong to its model and are not removed (ACL_ERROR_RT_FEATURE_NOT_SUPPORT)"),
	"rtsValueWrite":                    supported("950/A3/A2; flag 0; as aclrtValueWrite"),
	"rtsValueWait":                     supported("950/A3/A2; flag numbered as ACL_STREAM_WAIT_VALUE_* (passed unchanged by aclrtValueWait); as aclrtValueWait"),
	"rtGetFaultEvent":                  supported("the emulated devices raise no DMS fault event: a valid query returns eventCount 0"),
	"rtEventWorkModeSet":               unsupported("the runtime's event work modes are undocumented (no RT_* mode value in the spec) and npuemu's events have one mode; aclInit's event-mode key is not honoured either"),
	"rtsGetHardwareSyncAddr":           unsupported("the cross-core hardware synchronisation area is not modelled: host kernels synchronise with host atomics (aclrtGetHardwareSyncAddr refuses too)"),
	"rtsProfTrace":                     unsupported("no stream-ordered profiling trace task is emulated: nothing would receive the record (aclrtProfTrace refuses too)"),
}

// areaNotes say why the rest of an area is not there yet.
var areaNotes = map[string]string{
	"kernel": "not implemented yet by npuemu's rt layer: kernels are launched by function handle (rtLaunchKernelByFuncHandleV3, rtsLaunchKernelWithConfig); stub registration (rtFunctionRegister, rtKernelLaunchWithFlagV2), tiling-key entries (rtKernelLaunchWithHandleV2) and AI CPU kernels by name (rtAicpuKernelLaunch*) are not modelled",
}

const otherNote = "not implemented yet by npuemu's rt layer (docs/stack.md lists what is); the aclrt* function of the same family works"

var support = sync.OnceValue(func() *abi.Table {
	return abi.NewTable(func(s abi.Symbol) bool { return s.Lib == "rt" }, func(s abi.Symbol) abi.Entry {
		r, ok := symbolRules[s.Name]
		if !ok {
			note := areaNotes[s.Area]
			if note == "" {
				note = otherNote
			}
			return abi.Entry{Status: abi.Unsupported, Note: note, Code: int32(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)}
		}
		if r.status == abi.Unsupported {
			return abi.Entry{Status: r.status, Note: r.note, Code: int32(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)}
		}
		return abi.Entry{Status: r.status, Note: r.note}
	})
})

// Support returns the rt* support table in the order of abi.Symbols. The
// caller must not modify it.
func Support() []abi.Entry { return support().Entries() }

// SupportOf returns the entry of the rt* symbol name.
func SupportOf(name string) (abi.Entry, bool) { return support().Of(name) }
