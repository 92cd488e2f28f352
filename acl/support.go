package acl

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
)

// The ACL support table: one entry per ACL symbol of abi.Symbols, printed by
// `npuemu compat` and used by libfake's unsupported shims. It is written as
// a default per area plus per-symbol overrides; Support expands it into one
// explicit entry per symbol. When a libfake export lands, flip its symbol by
// adding one line to symbolRules, e.g.
//
//	"aclrtSetDevice": supported("binds the thread to the device's primary context"),
//
// A test checks that a symbol is supported/partial exactly when libfake
// exports it.

// rule is the status of a symbol or of an area's symbols.
type rule struct {
	status abi.Status
	code   abi.Code
	note   string
}

func supported(note string) rule { return rule{status: abi.Supported, note: note} }
func partial(note string) rule   { return rule{status: abi.Partial, note: note} }

// notImplemented is an API npuemu has not implemented (yet).
func notImplemented(note string) rule {
	return rule{status: abi.Unsupported, code: abi.ACL_ERROR_API_NOT_SUPPORT, note: note}
}

// noFeature is a feature the emulated SoCs do not have, so the real runtime
// on the same hardware would refuse it too.
func noFeature(note string) rule {
	return rule{status: abi.Unsupported, code: abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, note: note}
}

const (
	coreWork    = "not implemented yet (ACL runtime core)"
	kernelsWork = "not implemented yet: kernels, callbacks and exceptions are kernels issue #4"
	svmWork     = "not implemented yet: managed, VMM, host and HAL memory are SVM/HAL issue #5"
	eventsWork  = "not implemented yet: capture, labels, notifies and IPC events are events/capture issue #6"
)

// areaRules is the default rule of every area of acl-functions.tsv.
var areaRules = map[string]rule{
	"init":          notImplemented(coreWork),
	"device":        notImplemented(coreWork),
	"context":       notImplemented(coreWork),
	"stream":        notImplemented(coreWork),
	"event":         notImplemented(coreWork),
	"memory":        notImplemented(coreWork),
	"memcpy":        notImplemented(coreWork),
	"databuffer":    notImplemented(coreWork),
	"version":       notImplemented(coreWork),
	"misc":          notImplemented(coreWork),
	"timeout":       notImplemented(coreWork),
	"res-limit":     notImplemented(coreWork),
	"kernel":        notImplemented(kernelsWork),
	"callback":      notImplemented(kernelsWork),
	"exception":     notImplemented(kernelsWork),
	"exec":          notImplemented(kernelsWork),
	"symbol":        notImplemented(kernelsWork),
	"overflow":      notImplemented(kernelsWork),
	"stream-mem-op": notImplemented(kernelsWork),
	"managed":       notImplemented(svmWork),
	"vmm":           notImplemented(svmWork),
	"vmm-ipc":       notImplemented(svmWork),
	"host-mem":      notImplemented(svmWork),
	"ipc":           notImplemented(svmWork),
	"allocator":     notImplemented(svmWork),
	"mempool":       notImplemented(svmWork),
	"capture":       notImplemented(eventsWork),
	"label":         notImplemented(eventsWork),
	"notify":        notImplemented(eventsWork),
	"cntnotify":     notImplemented(eventsWork),
	"ipc-event":     notImplemented(eventsWork),
	"ipc-notify":    notImplemented(eventsWork),
	"cmo":           notImplemented("not implemented: cache maintenance has nothing to act on in an emulated HBM"),
	"dump":          notImplemented("not implemented: model dump belongs to the model runtime, which npuemu does not provide"),
	"snapshot":      notImplemented("not implemented: process snapshot/restore of device state is out of scope"),
	"mbuf":          noFeature("reserved: the documentation marks the Mbuf API as not supported yet"),
	"group":         noFeature("Ascend 310P only (core groups); not modelled by npuemu"),
}

// symbolRules overrides areaRules for single symbols: what libfake
// implements, and what the doc support lists (support_* columns of
// acl-functions.tsv) deny to the Atlas A2 SoCs npuemu emulates by default.
var symbolRules = map[string]rule{
	// Implemented in libfake.
	"aclGetRecentErrMsg":   supported("per-thread message of the last failure, cleared by reading; the process-wide err_msg_mode is not modelled"),
	"aclrtGetLastError":    supported("ACL_RT_THREAD_LEVEL only, as documented"),
	"aclrtPeekAtLastError": supported("ACL_RT_THREAD_LEVEL only, as documented"),
	"aclAppLog":            supported("written to stderr with level, function, file and line; messages over 1024 bytes are truncated with a marker"),

	// ACL runtime core (issue #3): acl/{init,device,devinfo,context,stream,event,memory,copy,misc}.go.
	"aclInit":                           partial("JSON validated (depth ≤ 10); defaultDevice and err_msg_mode honoured, other keys (dump, StackSize, ...) accepted without effect"),
	"aclFinalize":                       supported("ACL runtime core (acl package)"),
	"aclFinalizeReference":              supported("ACL runtime core (acl package)"),
	"aclrtGetVersion":                   supported("ACL runtime core (acl package)"),
	"aclsysGetVersionStr":               partial("reports the emulated CANN install (docs/runtime.md)"),
	"aclsysGetVersionNum":               partial("reports the emulated CANN install (docs/runtime.md)"),
	"aclsysGetCANNVersion":              partial("reports the emulated CANN install (docs/runtime.md)"),
	"aclFloat16ToFloat":                 supported("ACL runtime core (acl package)"),
	"aclFloatToFloat16":                 supported("ACL runtime core (acl package)"),
	"aclDataTypeSize":                   supported("ACL runtime core (acl package)"),
	"aclGetCannAttributeList":           supported("ACL runtime core (acl package)"),
	"aclGetCannAttribute":               supported("ACL runtime core (acl package)"),
	"aclrtGetSocName":                   supported("ACL runtime core (acl package)"),
	"aclrtSetDevice":                    supported("ACL runtime core (acl package)"),
	"aclrtResetDevice":                  supported("ACL runtime core (acl package)"),
	"aclrtResetDeviceForce":             supported("ACL runtime core (acl package)"),
	"aclrtGetDevice":                    supported("ACL runtime core (acl package)"),
	"aclrtGetDeviceCount":               supported("ACL runtime core (acl package)"),
	"aclrtGetRunMode":                   supported("ACL runtime core (acl package)"),
	"aclrtSynchronizeDevice":            supported("ACL runtime core (acl package)"),
	"aclrtSynchronizeDeviceWithTimeout": supported("ACL runtime core (acl package)"),
	"aclrtQueryDeviceStatus":            supported("ACL runtime core (acl package)"),
	"aclrtGetDeviceInfo":                partial("SIMT attributes of the 950 are not modelled"),
	"aclGetDeviceCapability":            supported("ACL runtime core (acl package)"),
	"aclrtGetDeviceCapability":          partial("neither documented feature is modelled: both read 0"),
	"aclrtGetDeviceUtilizationRate":     partial("memory from HBM use; cube/vector/AI CPU read 0 until kernels run"),
	"aclrtDeviceGetStreamPriorityRange": supported("ACL runtime core (acl package)"),
	"aclrtDeviceCanAccessPeer":          supported("ACL runtime core (acl package)"),
	"aclrtDeviceEnablePeerAccess":       supported("ACL runtime core (acl package)"),
	"aclrtDeviceDisablePeerAccess":      supported("ACL runtime core (acl package)"),
	"aclrtDevicePeerAccessStatus":       supported("ACL runtime core (acl package)"),
	"aclrtDeviceGetBareTgid":            supported("ACL runtime core (acl package)"),
	"aclrtCheckArchCompatibility":       supported("ACL runtime core (acl package)"),
	"aclrtGetErrorVerbose":              partial("the emulated hardware raises no errors: always ACL_RT_NO_ERROR"),
	"aclrtSetDeviceSatMode":             supported("ACL runtime core (acl package)"),
	"aclrtGetDeviceSatMode":             supported("ACL runtime core (acl package)"),
	"aclrtDeviceSetLimit":               partial("recorded; SIMT limits are 950-only"),
	"aclrtDeviceGetLimit":               supported("ACL runtime core (acl package)"),
	"aclrtSetDeviceResLimit":            partial("recorded; launches do not honour it yet"),
	"aclrtGetDeviceResLimit":            supported("ACL runtime core (acl package)"),
	"aclrtResetDeviceResLimit":          supported("ACL runtime core (acl package)"),
	"aclrtGetResInCurrentThread":        partial("device-level limits only (stream-level limits not modelled)"),
	"aclrtSetSysParamOpt":               supported("ACL runtime core (acl package)"),
	"aclrtGetSysParamOpt":               supported("ACL runtime core (acl package)"),
	"aclrtCreateContext":                supported("ACL runtime core (acl package)"),
	"aclrtDestroyContext":               supported("ACL runtime core (acl package)"),
	"aclrtSetCurrentContext":            supported("ACL runtime core (acl package)"),
	"aclrtGetCurrentContext":            supported("ACL runtime core (acl package)"),
	"aclrtCtxGetCurrentDefaultStream":   supported("ACL runtime core (acl package)"),
	"aclrtGetPrimaryCtxState":           supported("ACL runtime core (acl package)"),
	"aclrtCtxSetSysParamOpt":            supported("ACL runtime core (acl package)"),
	"aclrtCtxGetSysParamOpt":            supported("ACL runtime core (acl package)"),
	"aclrtCreateStream":                 supported("ACL runtime core (acl package)"),
	"aclrtCreateStreamWithConfig":       supported("ACL runtime core (acl package)"),
	"aclrtDestroyStream":                supported("ACL runtime core (acl package)"),
	"aclrtDestroyStreamForce":           supported("ACL runtime core (acl package)"),
	"aclrtSynchronizeStream":            supported("ACL runtime core (acl package)"),
	"aclrtSynchronizeStreamWithTimeout": supported("ACL runtime core (acl package)"),
	"aclrtStreamQuery":                  supported("ACL runtime core (acl package)"),
	"aclrtStreamGetId":                  supported("ACL runtime core (acl package)"),
	"aclrtStreamGetPriority":            supported("ACL runtime core (acl package)"),
	"aclrtStreamGetFlags":               supported("ACL runtime core (acl package)"),
	"aclrtGetStreamAvailableNum":        supported("ACL runtime core (acl package)"),
	"aclrtSetStreamFailureMode":         supported("after a task failure in ACL_STOP_ON_FAILURE mode every stream of the context drops its queue and refuses new tasks (acl/exception.go)"),
	"aclrtSetStreamAttribute":           partial("recorded; a priority change does not re-prioritise the stream's queue"),
	"aclrtGetStreamAttribute":           supported("ACL runtime core (acl package)"),
	"aclrtCreateEvent":                  supported("ACL runtime core (acl package)"),
	"aclrtCreateEventWithFlag":          supported("ACL runtime core (acl package)"),
	"aclrtCreateEventExWithFlag":        partial("ACL_EVENT_IPC events are not implemented"),
	"aclrtDestroyEvent":                 supported("ACL runtime core (acl package)"),
	"aclrtRecordEvent":                  supported("ACL runtime core (acl package)"),
	"aclrtRecordEventWithFlag":          partial("ACL_EVENT_RECORD_EXTERNAL needs capture (not implemented)"),
	"aclrtResetEvent":                   supported("ACL runtime core (acl package)"),
	"aclrtQueryEvent":                   supported("ACL runtime core (acl package)"),
	"aclrtQueryEventStatus":             supported("ACL runtime core (acl package)"),
	"aclrtSynchronizeEvent":             supported("ACL runtime core (acl package)"),
	"aclrtSynchronizeEventWithTimeout":  supported("ACL runtime core (acl package)"),
	"aclrtEventElapsedTime":             supported("ACL runtime core (acl package)"),
	"aclrtEventGetTimestamp":            supported("ACL runtime core (acl package)"),
	"aclrtStreamWaitEvent":              supported("ACL runtime core (acl package)"),
	"aclrtGetEventId":                   supported("ACL runtime core (acl package)"),
	"aclrtQueryEventWaitStatus":         supported("ACL runtime core (acl package)"),
	"aclrtMemFlush":                     supported("no-op in this runtime version, as documented; arguments checked"),
	"aclrtMemInvalidate":                supported("no-op in this runtime version, as documented; arguments checked"),
	"aclrtStreamWaitEventWithTimeout":   partial("the wait is queued like aclrtStreamWaitEvent; its timeout is validated but never expires"),
	"aclrtGetEventAvailNum":             supported("ACL runtime core (acl package)"),
	"aclrtMalloc":                       supported("ACL runtime core (acl package)"),
	"aclrtMallocCached":                 supported("ACL runtime core (acl package)"),
	"aclrtMallocAlign32":                supported("ACL runtime core (acl package)"),
	"aclrtMallocWithCfg":                supported("ACL runtime core (acl package)"),
	"aclrtFree":                         supported("ACL runtime core (acl package)"),
	"aclrtFreeWithDevSync":              supported("ACL runtime core (acl package)"),
	"aclrtMallocHost":                   supported("ACL runtime core (acl package)"),
	"aclrtMallocHostWithCfg":            partial("cfg (vaFlag) is ignored"),
	"aclrtFreeHost":                     supported("ACL runtime core (acl package)"),
	"aclrtFreeHostWithDevSync":          supported("ACL runtime core (acl package)"),
	"aclrtGetMemInfo":                   supported("ACL runtime core (acl package)"),
	"aclrtPointerGetAttributes":         partial("device, ACL host and unregistered memory; managed (UVM) memory belongs to the SVM work"),
	"aclrtMemcpy":                       supported("ACL runtime core (acl package)"),
	"aclrtMemcpyAsync":                  supported("ACL runtime core (acl package)"),
	"aclrtMemcpyAsyncWithCondition":     supported("ACL runtime core (acl package)"),
	"aclrtMemset":                       supported("ACL runtime core (acl package)"),
	"aclrtMemsetAsync":                  supported("ACL runtime core (acl package)"),
	"aclrtMemcpy2d":                     supported("ACL runtime core (acl package)"),
	"aclrtMemcpy2dAsync":                supported("ACL runtime core (acl package)"),

	// Kernels (issue #4): acl/kernel.go, acl/args.go, libfake/kernel.go; docs/kernels.md.
	"aclrtBinaryLoadFromFile":             partial("npuemu kernel binaries only (host shared objects exporting npuemu_kernel_table, docs/kernels.md); lazy load and magic options accepted, CPU kernel mode refused"),
	"aclrtBinaryLoadFromData":             partial("npuemu kernel binaries only, loaded through a memfd (docs/kernels.md)"),
	"aclrtBinaryUnLoad":                   supported("handles die at once; the shared object closes after its last queued launch"),
	"aclrtBinaryGetFunction":              supported("looks the name up in the binary's kernel table"),
	"aclrtFunctionGetBinary":              supported("kernels (acl/kernel.go)"),
	"aclrtGetFunctionName":                supported("kernels (acl/kernel.go)"),
	"aclrtGetFunctionAddr":                supported("the host entry point stands for the cube/vector part its kind declares"),
	"aclrtGetFunctionAttribute":           supported("kind, cube:vector ratio and schedule mode from the kernel table"),
	"aclrtKernelArgsInit":                 supported("handles live until the binary is unloaded"),
	"aclrtKernelArgsInitByUserMem":        supported("the handle memory holds a magic and the runtime handle"),
	"aclrtKernelArgsGetHandleMemSize":     supported("16 bytes"),
	"aclrtKernelArgsGetMemSize":           supported("the 8-byte-rounded parameter size: placeholder data lives in runtime buffers"),
	"aclrtKernelArgsAppend":               supported("each parameter at the next multiple of 8 bytes, at most 128"),
	"aclrtKernelArgsAppendPlaceHolder":    supported("kernels (acl/args.go)"),
	"aclrtKernelArgsGetPlaceHolderBuffer": supported("data copied after the parameters at each launch, slot patched with its address"),
	"aclrtKernelArgsParaUpdate":           supported("kernels (acl/args.go)"),
	"aclrtKernelArgsFinalize":             supported("kernels (acl/args.go)"),
	"aclrtLaunchKernelWithConfig":         partial("schedule mode, timeouts (checked when the kernel ends) and 310P engine type honoured; prefetch/dump/profiling accepted without effect; dynamic UB and blockDim offset refused"),
	"aclrtLaunchKernel":                   supported("argsData must lie in one allocation of the stream's device; read in place when the kernel runs"),

	// Callbacks, exceptions and built-in tasks (issue #4): acl/{callback,exception,builtin}.go, libfake/{callback,exccb,callback_builtin}.go; docs/callbacks.md.
	"aclrtLaunchHostFunc":                   supported("runs on a runtime goroutine; later tasks of the stream wait for it"),
	"aclrtLaunchCallback":                   supported("runs on the subscribed thread inside aclrtProcessReport"),
	"aclrtSubscribeReport":                  supported("one thread per stream, one device per thread, at most 1024 threads"),
	"aclrtUnSubscribeReport":                supported("callbacks handed over but not yet run are skipped"),
	"aclrtProcessReport":                    supported("event-driven wait; expiry is ACL_ERROR_RT_REPORT_TIMEOUT"),
	"aclrtSetExceptionInfoCallback":         supported("called for every asynchronous task failure, before the synchronising call returns"),
	"aclrtExceptionInfoCallbackRegister":    supported("called for every asynchronous task failure, before the synchronising call returns"),
	"aclrtExceptionInfoCallbackUnregister":  supported("callbacks/exceptions (acl package)"),
	"aclrtGetTaskIdFromExceptionInfo":       supported("callbacks/exceptions (acl package)"),
	"aclrtGetStreamIdFromExceptionInfo":     supported("callbacks/exceptions (acl package)"),
	"aclrtGetThreadIdFromExceptionInfo":     partial("npuemu's thread number of the last thread that issued a tracked task to the stream, 0 if none"),
	"aclrtGetDeviceIdFromExceptionInfo":     supported("callbacks/exceptions (acl package)"),
	"aclrtGetErrorCodeFromExceptionInfo":    supported("callbacks/exceptions (acl package)"),
	"aclrtGetThreadLastTaskId":              partial("tracked for host functions, callbacks and built-in tasks; copies, memsets and kernels are not tracked yet"),
	"aclrtStreamAbort":                      partial("queued tasks are discarded and a waiting task is cancelled; a copy or kernel already running finishes"),
	"aclrtStreamStop":                       partial("the stream drops its queued tasks and refuses new ones until destroyed"),
	"aclrtValueWrite":                       supported("8-byte atomic write on an SDMA engine"),
	"aclrtValueWait":                        supported("re-checks on every completion of the device, else on a backoff timer (docs/callbacks.md)"),
	"aclrtReduceAsync":                      partial("the result of ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL (1 where equal, else 0) is npuemu's reading; integer sums wrap"),
	"aclrtRandomNumAsync":                   partial("Philox4x32-10; the value conversions are npuemu's (docs/callbacks.md); randomParaAddr is not used"),

	// No product supports these (support lists all N).
	"aclrtCreateStreamConfigHandle":  noFeature("no product supports it per the documentation"),
	"aclrtDestroyStreamConfigHandle": noFeature("no product supports it per the documentation"),
	"aclrtSetStreamConfigOpt":        noFeature("no product supports it per the documentation"),
	"aclrtCreateStreamV2":            noFeature("no product supports it per the documentation"),
	"aclrtSetOpExecuteTimeOutWithMs": noFeature("no product supports it per the documentation"),
	"aclrtSubscribeHostFunc":         noFeature("no product supports it per the documentation"),
	"aclrtProcessHostFunc":           noFeature("no product supports it per the documentation"),
	"aclrtUnSubscribeHostFunc":       noFeature("no product supports it per the documentation"),

	// Reserved by the documentation.
	"aclrtBinaryGetFunctionByEntry": noFeature("reserved: the documentation marks it as not supported yet"),

	// Ascend 950 only.
	"aclrtCntNotifyCreate":               noFeature("Ascend 950 only per the documentation; the emulated SoCs lack count notifies"),
	"aclrtCntNotifyDestroy":              noFeature("Ascend 950 only per the documentation; the emulated SoCs lack count notifies"),
	"aclrtCntNotifyRecord":               noFeature("Ascend 950 only per the documentation; the emulated SoCs lack count notifies"),
	"aclrtCntNotifyWaitWithTimeout":      noFeature("Ascend 950 only per the documentation; the emulated SoCs lack count notifies"),
	"aclrtCntNotifyReset":                noFeature("Ascend 950 only per the documentation; the emulated SoCs lack count notifies"),
	"aclrtCntNotifyGetId":                noFeature("Ascend 950 only per the documentation; the emulated SoCs lack count notifies"),
	"aclrtLaunchSIMTKernelWithArgsArray": noFeature("Ascend 950 only per the documentation (SIMT kernels)"),
	"aclrtLaunchSIMTKernelWithHostArgs":  noFeature("Ascend 950 only per the documentation (SIMT kernels)"),

	// Atlas A3 only.
	"aclrtIpcMemSetAttr":                 noFeature("Atlas A3 only per the documentation"),
	"aclrtIpcMemImportPidInterServer":    noFeature("Atlas A3 only per the documentation (inter-server IPC)"),
	"aclrtNotifySetImportPidInterServer": noFeature("Atlas A3 only per the documentation (inter-server IPC)"),
	"aclrtReserveMemAddressNoUCMemory":   noFeature("Atlas A3 only per the documentation"),
	"aclrtMemMapSelectedLink":            noFeature("Atlas A3 only per the documentation (SIO/HCCS link selection)"),

	// Ascend 310B only.
	"aclrtCmoAsyncWithBarrier": noFeature("Ascend 310B only per the documentation"),
	"aclrtCmoWaitBarrier":      noFeature("Ascend 310B only per the documentation"),

	// Declared in the header but undocumented.
	"aclrtGetFloatOverflowStatus":      notImplemented("undocumented (header only); use aclrtGetOverflowStatus"),
	"aclrtResetFloatOverflowStatus":    notImplemented("undocumented (header only); use aclrtResetOverflowStatus"),
	"aclrtNpuGetFloatOverFlowStatus":   notImplemented("undocumented (header only); use aclrtGetOverflowStatus"),
	"aclrtNpuClearFloatOverFlowStatus": notImplemented("undocumented (header only); use aclrtResetOverflowStatus"),
	"aclrtDeviceL2CacheFlush":          notImplemented("undocumented (header only)"),
	"aclrtMemMapSetLink":               notImplemented("undocumented (header only)"),
}

var support = sync.OnceValues(func() ([]abi.Entry, map[string]int) {
	var list []abi.Entry
	index := map[string]int{}
	for _, s := range abi.Symbols {
		if s.Lib != "acl" {
			continue
		}
		r, ok := symbolRules[s.Name]
		if !ok {
			r, ok = areaRules[s.Area]
		}
		if !ok {
			// A new area in the spec without a rule: TestSupportRules fails.
			r = notImplemented("no support rule for area " + s.Area)
		}
		e := abi.Entry{Symbol: s.Name, Lib: s.Lib, Area: s.Area, Status: r.status, Note: r.note}
		if r.status == abi.Unsupported {
			e.Code = int32(r.code)
		}
		index[s.Name] = len(list)
		list = append(list, e)
	}
	return list, index
})

// Support returns the ACL support table: one entry per ACL symbol, in the
// order of abi.Symbols. The caller must not modify it.
func Support() []abi.Entry {
	list, _ := support()
	return list
}

// SupportOf returns the support entry of the ACL symbol name.
func SupportOf(name string) (abi.Entry, bool) {
	list, index := support()
	i, ok := index[name]
	if !ok {
		return abi.Entry{}, false
	}
	return list[i], true
}
