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
func areaRules() map[string]rule {
	m := map[string]rule{
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
		"dump":          notImplemented("not implemented: the documented dumps are of models loaded with aclmdlLoad* (dump_list), single operators run with aclop* (dump_op_switch) and exception/overflow operators, none of which npuemu runs; for a kernel launched by handle (DATA_DUMP) the documentation gives the directory layout but neither the dump files' content format nor the tensors' shape/dtype/format (docs/dump.md)"),
		"snapshot":      notImplemented("not implemented: process snapshot/restore of device state is out of scope"),
		"mbuf":          noFeature("reserved: the documentation marks the Mbuf API as not supported yet"),
		"group":         noFeature("Ascend 310P only (core groups); not modelled by npuemu"),
	}
	profAreaRules(m)
	return m
}

// symbolRules overrides areaRules for single symbols: what libfake
// implements, and what the doc support lists (support_* columns of
// acl-functions.tsv) deny to the Atlas A2 SoCs npuemu emulates by default.
func symbolRules() map[string]rule {
	m := map[string]rule{
		// Implemented in libfake.
		"aclGetRecentErrMsg":   supported("message of the last failures, cleared by reading; per thread, or process-wide with err_msg_mode \"1\""),
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
		"aclrtGetDeviceUtilizationRate":     partial("memory from HBM use, cube/vector from the cores running kernel blocks at the call (not averaged over a window); AI CPU 0"),
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
		"aclrtSetDeviceResLimit":            supported("caps the cores a later kernel uses at once: more waves, longer virtual duration"),
		"aclrtGetDeviceResLimit":            supported("ACL runtime core (acl package)"),
		"aclrtResetDeviceResLimit":          supported("ACL runtime core (acl package)"),
		"aclrtGetResInCurrentThread":        supported("the limits of the stream the thread uses, else the device's, else the hardware count"),
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
		"aclrtCreateEventExWithFlag":        partial("ACL_EVENT_IPC events are shared within one process only (docs/events.md)"),
		"aclrtDestroyEvent":                 supported("ACL runtime core (acl package)"),
		"aclrtRecordEvent":                  supported("ACL runtime core (acl package)"),
		"aclrtRecordEventWithFlag":          supported("950/A3/A2 as documented; ACL_EVENT_RECORD_EXTERNAL records into a capture as an external dependency"),
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
		"aclrtStreamWaitEventWithTimeout":   supported("an expired wait is the stream's asynchronous error, ACL_ERROR_RT_WAIT_TIMEOUT (docs/events.md)"),
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
		"aclrtPointerGetAttributes":         supported("device, ACL host, managed (the device holding the page) and unregistered memory"),
		"aclrtMemAllocManaged":              supported("svm Space at the managed window, 2 MiB pages, oversubscription evicts LRU pages (docs/svm.md)"),
		"aclrtMemManagedAdvise":             supported("read-mostly, preferred location, accessed-by (docs/svm.md)"),
		"aclrtMemManagedPrefetchAsync":      supported("migrates at the call in stream order; the time is charged on the stream"),
		"aclrtMemManagedPrefetchBatchAsync": supported("as aclrtMemManagedPrefetchAsync, locations by index ranges"),
		"aclrtMemManagedGetAttr":            partial("READ_MOSTLY, PREFERRED_LOCATION(_TYPE/_ID), ACCESSED_BY; reserved LAST_PREFETCH_* ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
		"aclrtMemManagedGetAttrs":           partial("as aclrtMemManagedGetAttr"),
		"aclrtMemP2PMap":                    supported("managed pages get a peer mapping (remote access, no fault); device memory is checked only: an enabled peer reaches it already (docs/svm.md)"),
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

		// The rest of the kernel area: acl/kernel_launch.go, acl/kernel_query.go, libfake/kernel_launch.go.
		"aclrtLaunchKernelV2":                  supported("argsData in device memory is read in place when the kernel runs, host memory is copied at the call"),
		"aclrtLaunchKernelWithHostArgs":        supported("blob copied at the call; each placeholder slot receives the address of its data in the copy"),
		"aclrtLaunchKernelWithArgsArray":       partial("needs the kernel table to declare its parameters (num_params, param_sizes); func is a function handle or a kernel entry address"),
		"aclrtFunctionGetParamCount":           partial("from the kernel table's num_params; kernels that do not declare it fail with ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
		"aclrtFunctionGetParamInfo":            partial("from the kernel table's num_params and param_sizes (8 bytes each when absent), packed as aclrtKernelArgsAppend packs"),
		"aclrtFunctionGetAvailDynUbufPerBlock": supported("0: npuemu kernels are not SIMT kernels"),
		"aclrtGetFunctionSize":                 partial("code size of the host entry point from the object's symbol table; 0 for a stripped object"),
		"aclrtGetFuncBySymbol":                 partial("the symbol of an npuemu kernel is its entry point in a loaded binary (aclrtGetFunctionAddr)"),
		"aclrtBinaryGetGlobal":                 partial("exported variables of the host kernel object: host memory the kernels use directly"),
		"aclrtCreateBinary":                    supported("keeps a reference to the caller's bytes until aclrtBinaryLoad copies them"),
		"aclrtDestroyBinary":                   supported("kernels (acl/kernel_query.go)"),
		"aclrtBinaryLoad":                      partial("aclrtBinaryLoadFromData of the bytes: npuemu kernel binaries only"),
		"aclrtRegisterCpuFunc":                 partial("npuemu binaries are AI Core binaries: ACL_ERROR_RT_PARAM_INVALID, as documented for those"),
		"aclrtBinaryGetDevAddress":             noFeature("a host kernel binary is mapped by the host's dynamic loader and never copied to device memory, so it has no device address"),
		"aclrtGetHardwareSyncAddr":             noFeature("the cross-core hardware synchronisation area is not modelled: host kernels synchronise with host atomics"),

		// Resource limits (issue #4): acl/kernel_reslimit.go.
		"aclrtSetStreamResLimit":             supported("applies to launches by threads that use the stream (aclrtUseStreamResInCurrentThread)"),
		"aclrtGetStreamResLimit":             supported("the stream's limit, else the device's, else the hardware count"),
		"aclrtResetStreamResLimit":           supported("resource limits (acl/kernel_reslimit.go)"),
		"aclrtUseStreamResInCurrentThread":   supported("the thread's later launches follow the stream's limits on the stream's device"),
		"aclrtUnuseStreamResInCurrentThread": supported("a stream the thread does not use is ACL_ERROR_INVALID_PARAM"),

		// Callbacks, exceptions and built-in tasks (issue #4): acl/{callback,exception,builtin}.go, libfake/{callback,exccb,callback_builtin}.go; docs/callbacks.md.
		"aclrtLaunchHostFunc":                  supported("runs on a runtime goroutine; later tasks of the stream wait for it"),
		"aclrtLaunchCallback":                  supported("runs on the subscribed thread inside aclrtProcessReport"),
		"aclrtSubscribeReport":                 supported("one thread per stream, one device per thread, at most 1024 threads"),
		"aclrtUnSubscribeReport":               supported("callbacks handed over but not yet run are skipped"),
		"aclrtProcessReport":                   supported("event-driven wait; expiry is ACL_ERROR_RT_REPORT_TIMEOUT"),
		"aclrtSetExceptionInfoCallback":        supported("called for every asynchronous task failure, before the synchronising call returns"),
		"aclrtExceptionInfoCallbackRegister":   supported("called for every asynchronous task failure, before the synchronising call returns"),
		"aclrtExceptionInfoCallbackUnregister": supported("callbacks/exceptions (acl package)"),
		"aclrtGetTaskIdFromExceptionInfo":      supported("callbacks/exceptions (acl package)"),
		"aclrtGetStreamIdFromExceptionInfo":    supported("callbacks/exceptions (acl package)"),
		"aclrtGetThreadIdFromExceptionInfo":    partial("npuemu's thread number of the last thread that issued a tracked task to the stream, 0 if none"),
		"aclrtGetDeviceIdFromExceptionInfo":    supported("callbacks/exceptions (acl package)"),
		"aclrtGetErrorCodeFromExceptionInfo":   supported("callbacks/exceptions (acl package)"),
		"aclrtGetThreadLastTaskId":             supported("async copies and memsets, kernel launches, host functions, callbacks and built-in tasks carry task ids; event and notify tasks are not counted"),
		"aclrtStreamAbort":                     partial("queued tasks are discarded and a waiting task is cancelled; a copy or kernel already running finishes"),
		"aclrtStreamStop":                      partial("the stream drops its queued tasks and refuses new ones until destroyed"),
		"aclrtValueWrite":                      supported("8-byte atomic write on an SDMA engine; recorded (ACL_MODEL_RI_TASK_VALUE_WRITE) in captures and bound streams"),
		"aclrtValueWait":                       supported("re-checks on every completion of the device, else on a backoff timer (docs/callbacks.md); recorded (ACL_MODEL_RI_TASK_VALUE_WAIT) in captures and bound streams, replays block their stream (docs/capture.md)"),
		"aclrtReduceAsync":                     partial("the result of ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL (1 where equal, else 0) is npuemu's reading; integer sums wrap"),
		"aclrtRandomNumAsync":                  partial("Philox4x32-10; the value conversions are npuemu's (docs/callbacks.md); randomParaAddr is not used"),

		// The rest of the exception and symbol areas (issue #4): acl/{exception,symbol,taskabort,uce}.go,
		// libfake/{exccb,symbol,taskabort}.go; docs/callbacks.md, docs/kernels.md.
		"aclrtGetArgsFromExceptionInfo":       supported("the argument block the failing kernel was launched with, as the kernel saw it; ACL_ERROR_RT_PARAM_INVALID for an exception that is not a kernel's"),
		"aclrtGetFuncHandleFromExceptionInfo": supported("the function handle the failing kernel was launched with (also for model run instance replays)"),
		"aclrtBinarySetExceptionCallback":     supported("called for exceptions of the binary's kernels after the process-wide callbacks; last call wins, NULL removes"),
		"aclrtGetSymbolAddress":               supported("a symbol is the address of a variable the loaded kernel object exports; kernels use it in place, so it is its own device address"),
		"aclrtGetSymbolSize":                  supported("from the object's ELF symbol table, as aclrtBinaryGetGlobal"),
		"aclrtMemcpyToSymbol":                 partial("host or device source; managed memory refused (ACL_ERROR_RT_FEATURE_NOT_SUPPORT)"),
		"aclrtMemcpyToSymbolAsync":            partial("a copy task of the stream like aclrtMemcpyAsync; managed memory refused"),
		"aclrtMemcpyFromSymbol":               partial("host or device destination; managed memory refused (ACL_ERROR_RT_FEATURE_NOT_SUPPORT)"),
		"aclrtMemcpyFromSymbolAsync":          partial("a copy task of the stream like aclrtMemcpyAsync; managed memory refused"),
		"aclrtDeviceTaskAbort":                partial("aclrtStreamAbort on every stream of the device between the PRE and POST callbacks; a copy or kernel already running finishes, timeout only validated"),
		"aclrtSetDeviceTaskAbortCallback":     supported("one callback per regName (NULL removes); a non-zero result fails aclrtDeviceTaskAbort with ACL_ERROR_RT_DEVICE_TASK_ABORT"),
		"aclrtGetMemUceInfo":                  supported("the emulated HBM has no ECC errors: always an empty list (retSize 0)"),
		"aclrtMemUceRepair":                   supported("no range is ever reported, so every range is ACL_ERROR_RT_PARAM_INVALID"),
		"aclrtRepairError":                    supported("ACL_RT_NO_ERROR (what aclrtGetErrorVerbose reports) needs no repair; any other error type was never raised: ACL_ERROR_RT_PARAM_INVALID"),
		"aclrtTaskUpdateAsync":                supported("AIC/AIV kernel tasks of a model run instance built on bound streams, named by the id aclrtGetThreadLastTaskId reported (the task's sequence id on its stream); function entry and numBlocks read from device memory when the update runs on execStream; random-number tasks are never recorded in npuemu"),

		// Events, notifies, labels and stream control (issue #6 part 1): acl/{event_flag_timeout_ipc,notify,cntnotify,label,streamctl}.go; docs/events.md.
		"aclrtStreamWaitEventWithFlag":  supported("950/A3/A2 as documented; ACL_EVENT_WAIT_EXTERNAL waits on an external record inside a capture"),
		"aclrtSetOpWaitTimeout":         supported("applies to later aclrtStreamWaitEvent waits; expiry is ACL_ERROR_RT_WAIT_TIMEOUT at the next synchronisation"),
		"aclrtSetOpExecuteTimeOut":      supported("seconds, 0 or above the SoC maximum = the maximum; kernels launched without a TIMEOUT/TIMEOUT_US attribute fail with ACL_ERROR_RT_AICORE_TIMEOUT when they run longer (wall time of the host kernel)"),
		"aclrtGetOpExecuteTimeout":      supported("the configured value or the SoC's documented default, in ms"),
		"aclrtSetOpExecuteTimeOutV2":    notImplemented("needs the hardware tick of aclrtGetOpTimeOutInterval, which the documentation does not give per SoC"),
		"aclrtGetOpTimeOutInterval":     notImplemented("the documentation does not give the hardware tick per SoC"),
		"aclrtIpcGetEventHandle":        supported("across the processes of the node: the 64-byte handle names the node's event entry (docs/node.md)"),
		"aclrtIpcOpenEventHandle":       supported("across the processes of the node: wait, synchronise and aclrtQueryEventStatus; only the exporter records"),
		"aclrtCreateNotify":             supported("ids from the device's notify table, sized per SoC"),
		"aclrtDestroyNotify":            supported("queued records and waits still act on the notify"),
		"aclrtRecordNotify":             supported("the notify may live on another device than the stream"),
		"aclrtWaitAndResetNotify":       supported("one record releases one wait; timeout in s (0 = forever), expiry is ACL_ERROR_RT_WAIT_TIMEOUT at the next synchronisation"),
		"aclrtGetNotifyId":              supported("events/notifies (acl package)"),
		"aclrtNotifyBatchReset":         supported("resets from the host at once; 950/A3/A2 as documented"),
		"aclrtNotifyGetExportKey":       supported("across the processes of the node: the key names the node's notify entry (docs/node.md)"),
		"aclrtNotifySetImportPid":       partial("at most 16 pids per notify across processes (docs/node.md)"),
		"aclrtNotifyImportByKey":        supported("any process of the node; one record releases one wait wherever it is"),
		"aclrtCntNotifyCreate":          supported("Ascend 950 only, as documented: other SoCs get ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
		"aclrtCntNotifyDestroy":         supported("Ascend 950 only, as documented"),
		"aclrtCntNotifyRecord":          supported("Ascend 950 only, as documented; set, add (wrapping), or, and"),
		"aclrtCntNotifyWaitWithTimeout": supported("Ascend 950 only, as documented; LESS/BIGGER read as count < value / count > value (the documentation leaves the direction open)"),
		"aclrtCntNotifyReset":           supported("Ascend 950 only, as documented"),
		"aclrtCntNotifyGetId":           supported("Ascend 950 only, as documented"),
		"aclrtCreateLabel":              supported("65535 per process"),
		"aclrtDestroyLabel":             supported("events/notifies (acl package)"),
		"aclrtCreateLabelList":          supported("1..65535 labels of one context"),
		"aclrtDestroyLabelList":         supported("events/notifies (acl package)"),
		"aclrtSetLabel":                 supported("a position on a stream bound to a model run instance being built (docs/capture.md)"),
		"aclrtSwitchLabelByIndex":       supported("inside built model run instances: index read at execution time (docs/capture.md)"),
		"aclrtActiveStream":             supported("inside built model run instances: each activation runs the stream once from its first task (docs/capture.md)"),
		"aclrtSwitchStream":             supported("inside built model run instances: operands compared at execution time (docs/capture.md)"),
		"aclrtPersistentTaskClean":      partial("an unbound persistent stream holds no task; the tasks of a bound stream belong to its model run instance and are not removed"),

		// Model run instances and capture (issue #6 part 2): acl/{capture,mdlri,mdlri_info}.go, libfake/mdlri.go; docs/capture.md.
		"aclmdlRICaptureBegin":              supported("GLOBAL, THREAD_LOCAL and RELAXED; tasks are recorded as descriptors, other streams join through captured event records"),
		"aclmdlRICaptureEnd":                supported("ends the capture whatever the outcome; 507903 if invalidated, 107025 if a joined stream did not rejoin"),
		"aclmdlRICaptureGetInfo":            supported("model run instances (acl package)"),
		"aclmdlRICaptureThreadExchangeMode": supported("per-thread mode, GLOBAL by default"),
		"aclmdlRIExecuteAsync":              supported("replays the recorded descriptors in one submission; executions of one instance never overlap"),
		"aclmdlRIExecute":                   supported("runs on the instance's own stream and waits (ms, -1 forever)"),
		"aclmdlRIDestroy":                   supported("waits for the instance's last execution, then calls the destroy callbacks"),
		"aclmdlRIAbort":                     supported("built instances: queued tasks of their streams are discarded; captured instances are refused as documented"),
		"aclmdlRIBuildBegin":                supported("model run instances (acl package)"),
		"aclmdlRIBindStream":                supported("ACL_STREAM_PERSISTENT streams only, one instance per stream"),
		"aclmdlRIEndTask":                   supported("model run instances (acl package)"),
		"aclmdlRIBuildEnd":                  supported("HEAD streams start each execution, DEFAULT streams when activated (docs/capture.md)"),
		"aclmdlRIUnbindStream":              supported("the instance keeps the tasks recorded on the stream"),
		"aclmdlRIGetStreams":                supported("captured instances: the streams created at aclmdlRICaptureEnd, origin first"),
		"aclmdlRIGetTasksByStream":          supported("model run instances (acl package)"),
		"aclmdlRITaskGetType":               supported("kernels, event record/wait/reset and aclrtValueWrite/aclrtValueWait have their types; copies, memsets, host functions and other built-in SDMA tasks have none of their own in aclmdlRITaskType: ACL_MODEL_RI_TASK_DEFAULT"),
		"aclmdlRITaskGetSeqId":              supported("0-based position among the tasks of its stream"),
		"aclmdlRITaskGetParams":             partial("kernel, event and value write/wait tasks filled in; opInfo not recorded"),
		"aclmdlRITaskSetParams":             partial("kernel (function, arguments, numBlocks) and value write/wait tasks (address, value, condition), effective at aclmdlRIUpdate; event tasks refused: they stand for the instance's own events (docs/capture.md)"),
		"aclmdlRITaskDisable":               supported("effective at aclmdlRIUpdate; a disabled event task keeps ordering its streams"),
		"aclmdlRIUpdate":                    supported("model run instances (acl package)"),
		"aclmdlRISetName":                   supported("truncated to 511 bytes"),
		"aclmdlRIGetName":                   supported("model run instances (acl package)"),
		"aclmdlRIGetId":                     supported("model run instances (acl package)"),
		"aclmdlRIDestroyRegisterCallback":   supported("called after the instance is released"),
		"aclmdlRIDestroyUnregisterCallback": supported("model run instances (acl package)"),
		"aclmdlRIDebugJsonPrint":            partial("npuemu's own JSON (streams, tasks, cross-stream dependencies, task groups); a directory path gets modelRI_<id>.json"),
		"aclmdlRIDebugPrint":                supported("text summary on stderr"),
		"aclmdlRICaptureTaskGrpBegin":       supported("model run instances (acl package)"),
		"aclmdlRICaptureTaskGrpEnd":         supported("model run instances (acl package)"),
		"aclmdlRICaptureTaskUpdateBegin":    supported("the stream records instead of running until TaskUpdateEnd"),
		"aclmdlRICaptureTaskUpdateEnd":      supported("same number and kinds of tasks required (107040 otherwise); effective for later executions"),
		"aclmdlRIKernelTaskGetAttribute":    supported("SCHEM_MODE, DYN_UBUF_SIZE, TIMEOUT, TIMEOUT_US, DATA_DUMP and ENABLE_PROFILING as the launch gave them (defaults otherwise); ENGINE_TYPE, BLOCKDIM_OFFSET and BLOCK_TASK_PREFETCH are the documented exclusions"),
		"aclmdlRICondHandleCreate":          partial("8-byte device word; ASSIGN_DEFAULT writes the default at the start of each execution; IF: word != 0 → sub-graph 0, else 1; SWITCH: out of range runs nothing; WHILE: while word != 0"),
		"aclmdlRICondHandleGetCondPtr":      supported("model run instances (acl package)"),
		"aclmdlRIAddCondTask":               supported("the word is read when the replay reaches the node; the chosen sub-graph runs before the stream goes on"),
		"aclmdlRICaptureToModelRIBegin":     supported("sub-graphs of aclmdlRIAddCondTask only; they die with their parent"),

		// No product supports these (support lists all N).
		"aclrtCreateStreamConfigHandle":  supported("acl/streamcfg.go; the documentation lists no product for it, so the real runtime may refuse it"),
		"aclrtDestroyStreamConfigHandle": supported("acl/streamcfg.go; the documentation lists no product for it, so the real runtime may refuse it"),
		"aclrtSetStreamConfigOpt":        partial("acl/streamcfg.go; WORK_ADDR_PTR/WORK_SIZE are stored but unused; the documentation lists no product for it"),
		"aclrtCreateStreamV2":            supported("acl/streamcfg.go: like aclrtCreateStreamWithConfig; the documentation lists no product for it"),
		"aclrtSetStreamOverflowSwitch":   supported("acl/overflow.go (same setting as the FLOAT_OVERFLOW_CHECK stream attribute)"),
		"aclrtGetStreamOverflowSwitch":   supported("acl/overflow.go"),
		"aclrtGetOverflowStatus":         partial("acl/overflow.go: copies the context's status word in stream order; emulated kernels never report float overflow, so it stays 0 unless the application writes it"),
		"aclrtResetOverflowStatus":       supported("acl/overflow.go: clears the context's status word in stream order"),
		"aclrtCtxGetFloatOverflowAddr":   supported("acl/overflow.go: one 8-byte word of the device's HBM per context"),
		"aclrtRegStreamStateCallback":    supported("rt/core/statecb.go: CREATE_POST / DESTROY_PRE for explicit and default streams, called with no runtime lock held"),
		"aclrtRegDeviceStateCallback":    supported("rt/core/statecb.go: SET_PRE/SET_POST around aclrtSetDevice, RESET_PRE/RESET_POST around aclrtResetDevice(Force)"),
		"aclrtSetOpExecuteTimeOutWithMs": noFeature("no product supports it per the documentation"),
		"aclrtSubscribeHostFunc":         noFeature("no product supports it per the documentation"),
		"aclrtProcessHostFunc":           noFeature("no product supports it per the documentation"),
		"aclrtUnSubscribeHostFunc":       noFeature("no product supports it per the documentation"),

		// Reserved by the documentation.
		"aclrtBinaryGetFunctionByEntry": noFeature("reserved: the documentation marks it as not supported yet"),

		// Ascend 950 only.
		"aclrtLaunchSIMTKernelWithArgsArray": noFeature("Ascend 950 only per the documentation (SIMT kernels)"),
		"aclrtLaunchSIMTKernelWithHostArgs":  noFeature("Ascend 950 only per the documentation (SIMT kernels)"),

		// Atlas A3 only.
		"aclrtIpcMemImportPidInterServer":    noFeature("Atlas A3 only per the documentation (inter-server IPC)"),
		"aclrtNotifySetImportPidInterServer": noFeature("Atlas A3 only per the documentation (inter-server IPC)"),
		"aclrtMemMapSelectedLink":            noFeature("Atlas A3 only per the documentation (SIO/HCCS link selection)"),

		// Ascend 310B only.
		"aclrtCmoAsyncWithBarrier": noFeature("Ascend 310B only per the documentation"),
		"aclrtCmoWaitBarrier":      noFeature("Ascend 310B only per the documentation"),
		// Cache maintenance (acl/cmo.go): Atlas A2/A3 and Ascend 950.
		"aclrtCmoAsync":         supported("PREFETCH only (documented); ordered with the stream, changes no data: npuemu's device memory has no cache"),
		"aclrtCmoGetDescSize":   supported("npuemu's descriptor is 32 bytes"),
		"aclrtCmoSetDesc":       supported("writes npuemu's descriptor into the device memory given"),
		"aclrtCmoAsyncWithDesc": supported("PREFETCH only; the task reads the descriptor when it runs"),

		// Declared in the header but undocumented.
		"aclrtGetFloatOverflowStatus":      notImplemented("undocumented (header only); use aclrtGetOverflowStatus"),
		"aclrtResetFloatOverflowStatus":    notImplemented("undocumented (header only); use aclrtResetOverflowStatus"),
		"aclrtNpuGetFloatOverFlowStatus":   notImplemented("undocumented (header only); use aclrtGetOverflowStatus"),
		"aclrtNpuClearFloatOverFlowStatus": notImplemented("undocumented (header only); use aclrtResetOverflowStatus"),
		"aclrtDeviceL2CacheFlush":          notImplemented("undocumented (header only)"),
		"aclrtMemMapSetLink":               notImplemented("undocumented (header only)"),

		// VMM, IPC memory and host registration (issue #5 part 3): acl/vmm*.go, acl/hostreg.go; docs/vmm.md.
		"aclrtReserveMemAddress":                    supported("its own PROT_NONE range; expectPtr in the 16–24 TB window (docs/vmm.md)"),
		"aclrtReserveMemAddressNoUCMemory":          supported("Atlas A3 only; sizes in whole GiB"),
		"aclrtReleaseMemAddress":                    supported("every mapping must be unmapped first"),
		"aclrtMallocPhysical":                       supported("a memory file per allocation, charged to the device's capacity (host memory for HOST locations)"),
		"aclrtFreePhysical":                         supported("memory still mapped is released at its last unmap"),
		"aclrtMapMem":                               supported("the allocation's file mapped over the reservation: mappings of one handle alias"),
		"aclrtMemMapNoAccess":                       supported("mapped PROT_NONE until aclrtMemSetAccess"),
		"aclrtUnmapMem":                             supported("the reservation's placeholder comes back"),
		"aclrtMemSetAccess":                         supported("READWRITE per location; protection is the union over locations"),
		"aclrtMemGetAccess":                         supported("a location never set reads MEM_ACCESS_TYPE_MAX"),
		"aclrtMemGetAllocationGranularity":          supported("2 MiB, 1 GiB for HUGE1G, 4 KiB for host normal pages with MINIMUM"),
		"aclrtMemRetainAllocationHandle":            supported("each retain needs its own aclrtFreePhysical"),
		"aclrtMemGetAllocationPropertiesFromHandle": supported("the prop the handle was created with"),
		"aclrtMemGetAddressRange":                   supported("aclrtMalloc, aclrtMallocHost, HAL and mapped VMM memory"),
		"aclrtMemExportToShareableHandle":           supported("across the processes of the node: the handle names the node's entry (docs/node.md)"),
		"aclrtMemExportToShareableHandleV2":         partial("DEFAULT share type, across the processes of the node; FABRIC ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
		"aclrtMemImportFromShareableHandle":         supported("any process of the node: the exporter's very pages; the whitelist is checked against the importer's pid"),
		"aclrtMemImportFromShareableHandleV2":       partial("DEFAULT share type, any process of the node, on the current device"),
		"aclrtMemSetPidToShareableHandle":           supported("the whitelist importers are checked against"),
		"aclrtMemSetPidToShareableHandleV2":         supported("DEFAULT share type"),
		"aclrtIpcMemGetExportKey":                   supported("65-byte keys of a device allocation (its start address, as halShmemCreateHandle requires), in the node's table: any process of the node imports (docs/node.md)"),
		"aclrtIpcMemSetImportPid":                   supported("the whitelist importers are checked against"),
		"aclrtIpcMemSetAttr":                        supported("Atlas A3 only; ACCESS_LINK recorded, every link reaches the same memory"),
		"aclrtIpcMemImportByKey":                    supported("any process of the node: the exporter's very pages mapped at a new address; whitelist checked against the importer's pid"),
		"aclrtIpcMemClose":                          supported("closes this process's imports of the key first, then the export"),
		"aclrtHostRegister":                         partial("ACL_HOST_REGISTER_MAPPED; the device pointer equals the host pointer; IOMEMORY/READONLY ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
		"aclrtHostRegisterV2":                       supported("MAPPED and PINNED; IOMEMORY/READONLY are reserved"),
		"aclrtHostGetDevicePointer":                 supported("the host pointer itself (shared page tables)"),
		"aclrtHostUnregister":                       supported("host memory registration (acl/hostreg.go)"),
		"aclrtHostMemMapCapabilities":               supported("AI Core/Vector/AI CPU/STARS/SDMA/PCIe DMA reach host memory; RDMA, DVPP, UDMA, CCU not modelled"),

		// Runtime loose ends: acl/{databuffer,topo}.go.
		"aclCreateDataBuffer":                  supported("host-side {address, size} descriptor; any address and size (an empty tensor is NULL, 0); no aclInit needed"),
		"aclDestroyDataBuffer":                 supported("the described memory is not freed; NULL or stale → ACL_ERROR_INVALID_PARAM"),
		"aclUpdateDataBuffer":                  supported("replaces address and size; NULL or stale → ACL_ERROR_INVALID_PARAM"),
		"aclGetDataBufferAddr":                 supported("NULL for a NULL or stale buffer (message in aclGetRecentErrMsg)"),
		"aclGetDataBufferSize":                 supported("size truncated to uint32_t; 0 for a NULL or stale buffer"),
		"aclGetDataBufferSizeV2":               supported("0 for a NULL or stale buffer (message in aclGetRecentErrMsg)"),
		"aclrtGetDevicesTopo":                  supported("npuemu's wiring per family (docs/runtime.md): A2/950 HCCS, A3 SIO within a chip else HCCS_SW, A1 HCCS per group of 4 else SYS, 310P PHB, 310B SYS"),
		"aclrtSetTsDevice":                     partial("ACL_TS_ID_AICORE/AIVECTOR accepted, others refused; one task scheduler serves both on every emulated SoC, so the choice changes nothing"),
		"aclrtMallocForTaskScheduler":          supported("device memory as aclrtMallocWithCfg (the emulated scheduler reads HBM like any engine); free with aclrtFree"),
		"aclrtDeviceGetHostAtomicCapabilities": notImplemented("the spec defines the operation and capability enums but not which atomics each SoC supports over PCIe; npuemu does not invent that table"),
		"aclrtDeviceGetP2PAtomicCapabilities":  notImplemented("the spec defines the operation and capability enums but not which atomics each SoC supports between devices; npuemu does not invent that table"),

		// Issue #3 loose ends: acl/{devid,memsetd32,initcb,batchcopy,taskinfo_memtype}.go.
		"aclrtGetLogicDevIdByUserDevId": supported("physical id of a user id (ASCEND_RT_VISIBLE_DEVICES renumbers; no container: logical == physical)"),
		"aclrtGetUserDevIdByLogicDevId": supported("user id of a visible logical (== physical) id"),
		"aclrtGetLogicDevIdByPhyDevId":  supported("its \"logic\" id is the user id (spec §2): user id of a visible physical id"),
		"aclrtGetPhyDevIdByLogicDevId":  supported("its \"logic\" id is the user id (spec §2): physical id of a user id"),
		"aclrtGetUserDevIdByPhyDevId":   supported("user id of a visible physical id (ASCEND_RT_VISIBLE_DEVICES)"),
		"aclrtGetPhyDevIdByUserDevId":   supported("physical id of a user id (ASCEND_RT_VISIBLE_DEVICES)"),
		"aclrtDeviceGetPCIBusId":        partial("physical device i is on bus 0x3d+i (\"0000:3d:00.0\" for device 0); 950/A3/A2 only"),
		"aclrtDeviceGetByPCIBusId":      partial("inverse of aclrtDeviceGetPCIBusId's numbering; 950/A3/A2 only"),
		"aclrtDeviceGetUuid":            partial("name-based (SHA-1) UUID of SoC name and physical device id: stable, distinct per device; 950/A3/A2 only"),
		"aclrtMemsetD32":                supported("aclrtMalloc/aclrtMallocHost memory only"),
		"aclrtMemsetD32Async":           supported("device memory in stream order; host memory filled synchronously"),
		"aclInitCallbackRegister":       supported("runs after a successful aclInit (at once when already initialised), outside the runtime lock"),
		"aclInitCallbackUnRegister":     supported("init/finalize hooks (acl/initcb.go)"),
		"aclFinalizeCallbackRegister":   supported("runs at the start of aclFinalize and of the aclFinalizeReference that drops the last reference, outside the runtime lock"),
		"aclFinalizeCallbackUnRegister": supported("init/finalize hooks (acl/initcb.go)"),
		"aclrtMemcpyBatch":              supported("items copied one after another through the aclrtMemcpy path"),
		"aclrtMemcpyBatchV2":            supported("items copied one after another through the aclrtMemcpy path"),
		"aclrtMemcpyBatchAsync":         supported("items queued one after another through the aclrtMemcpyAsync path"),
		"aclrtMemcpyBatchAsyncV2":       supported("items queued one after another through the aclrtMemcpyAsync path"),
		"aclrtCacheLastTaskOpInfo":      partial("validated and kept per thread; no profiler or error report reads it"),
		"aclrtCacheLastTaskExtendInfo":  partial("validated, truncated to 4 KiB and kept per thread; no profiler or error report reads it"),
		"aclrtCheckMemType":             partial("all device memory is DEV; no DVPP or reserved pools"),
		"aclrtProfTrace":                notImplemented("profiling is not emulated: there is no profiler to receive the trace record"),
		"aclrtGetMemUsageInfo":          supported("device memory per module: aclrtMalloc* (moduleId, APP by default), pool reservations and aclrtMallocPhysical (APP), halMemAlloc (flag module id) and halMemCreate (prop module)"),

		// Runtime memory loose ends: acl/{allocator,mempool,memcpydesc,memusage}.go.
		"aclrtAllocatorCreateDesc":                    supported("description handles (acl/allocator.go)"),
		"aclrtAllocatorDestroyDesc":                   supported("streams keep the snapshot they registered"),
		"aclrtAllocatorSetObjToDesc":                  supported("NULL refused"),
		"aclrtAllocatorSetAllocFuncToDesc":            supported("NULL refused"),
		"aclrtAllocatorSetFreeFuncToDesc":             supported("NULL refused"),
		"aclrtAllocatorSetAllocAdviseFuncToDesc":      supported("NULL refused; optional at registration"),
		"aclrtAllocatorSetGetAddrFromBlockFuncToDesc": supported("NULL refused"),
		"aclrtAllocatorRegister":                      supported("last registration per stream wins, dropped with the stream; nothing in npuemu calls the callbacks: their users (operator and dynamic-shape model execution) fetch them with aclrtAllocatorGetByStream and are not part of the runtime"),
		"aclrtAllocatorGetByStream":                   supported("every registered part; NULL parts for a stream without registration"),
		"aclrtAllocatorUnregister":                    supported("unknown or destroyed stream: success"),
		"aclrtMemPoolCreate":                          supported("Atlas A2 only; reserves device memory on demand up to maxSize"),
		"aclrtMemPoolDestroy":                         supported("refused while blocks are allocated; queued frees release their memory when reached"),
		"aclrtMemPoolSetAttr":                         supported("REUSE_FOLLOW_EVENT_DEPENDENCIES follows record/wait chains between streams; RELEASE_THRESHOLD applies at stream, device and event synchronisation"),
		"aclrtMemPoolGetAttr":                         supported("REUSE_* default 1, RELEASE_THRESHOLD 0; reserved/used current and high watermarks"),
		"aclrtMemPoolMallocAsync":                     partial("not on streams that record tasks (capture, model build, persistent): ACL_ERROR_RT_FEATURE_NOT_SUPPORT, as pool allocation inside a captured graph is undocumented"),
		"aclrtMemPoolFreeAsync":                       partial("the block returns to the pool when the stream reaches the free; not on streams that record tasks (capture, model build, persistent): pool frees inside a captured graph are undocumented"),
		"aclrtMemPoolTrimTo":                          supported("idle blocks go back to HBM, largest first; blocks whose free is still queued stay"),
		"aclrtGetMemcpyDescSize":                      supported("64 bytes for ACL_MEMCPY_INNER_DEVICE_TO_DEVICE"),
		"aclrtSetMemcpyDesc":                          supported("descriptor, source and destination in one device's memory"),
		"aclrtMemcpyAsyncWithDesc":                    supported("the descriptor is read when the stream reaches the copy"),
		"aclrtMemcpyAsyncWithOffset":                  supported("both base addresses are read when the stream reaches the copy; the address cells are device or pinned host memory"),

		// Core groups (310P only, the spec's support column): acl/group.go, docs/groups.md.
		"aclrtGetGroupCount":      supported("310P only: NPUEMU_CORE_GROUPS groups per device (default 1, the whole device); other SoCs ACL_ERROR_RT_FEATURE_NOT_SUPPORT"),
		"aclrtCreateGroupInfo":    supported("310P only: room for the device's groups, zero until aclrtGetAllGroupInfo; NULL on error"),
		"aclrtDestroyGroupInfo":   supported("310P only: NULL or stale ACL_ERROR_INVALID_PARAM"),
		"aclrtGetAllGroupInfo":    supported("310P only: AI Cores, vector cores, AI CPUs and SDMA engines split evenly, ASQNUM 32 per group"),
		"aclrtGetGroupInfoDetail": supported("310P only: every aclrtGroupAttr, an int each (paramRetSize 4)"),
		"aclrtSetGroup":           supported("310P only: the current context's later kernels use at most the group's AI Cores and vector cores; unknown id ACL_ERROR_RT_GROUP_NOT_CREATE"),

		// Shared buffers: acl/mbuf.go, docs/groups.md. The vendor marks the API reserved; npuemu implements its descriptions.
		"aclrtAllocBuf":        supported("vendor-reserved API, implemented (docs/groups.md): data area in the node's pinned host memory; data length starts at the whole area"),
		"aclrtFreeBuf":         supported("vendor-reserved API, implemented (docs/groups.md): a chain's head frees the chain; a data area goes with its last head; an appended member alone is refused"),
		"aclrtGetBufData":      supported("vendor-reserved API, implemented (docs/groups.md): the data area's address and size"),
		"aclrtGetBufDataLen":   supported("vendor-reserved API, implemented (docs/groups.md): the valid data length"),
		"aclrtSetBufDataLen":   supported("vendor-reserved API, implemented (docs/groups.md): 0..the data area's size"),
		"aclrtGetBufUserData":  supported("vendor-reserved API, implemented (docs/groups.md): a 96-byte user-data area per head (size > 0, size + offset <= 96)"),
		"aclrtSetBufUserData":  supported("vendor-reserved API, implemented (docs/groups.md): a 96-byte user-data area per head (size > 0, size + offset <= 96)"),
		"aclrtCopyBufRef":      supported("vendor-reserved API, implemented (docs/groups.md): a new head over the same data area (data length and user data copied)"),
		"aclrtAppendBufChain":  supported("vendor-reserved API, implemented (docs/groups.md): an mbuf in no chain joins the end of a head's chain"),
		"aclrtGetBufChainNum":  supported("vendor-reserved API, implemented (docs/groups.md): head included"),
		"aclrtGetBufFromChain": supported("vendor-reserved API, implemented (docs/groups.md): index 0 is the head"),

		// Process snapshots (950/A3/A2 only): acl/snapshot.go, docs/groups.md.
		"aclrtSnapShotProcessLock":        supported("950/A3/A2 only; the calling process's pid; LOCK_PRE callbacks, then every opened device drains; task submission is not blocked while locked"),
		"aclrtSnapShotProcessUnlock":      supported("950/A3/A2 only; UNLOCK_POST callbacks"),
		"aclrtSnapShotProcessBackup":      supported("950/A3/A2 only; while locked: the content of every ACL device allocation to host memory (managed, VMM and HAL memory not included)"),
		"aclrtSnapShotProcessRestore":     supported("950/A3/A2 only; while locked, after a backup: each backed-up allocation that still exists gets its content back"),
		"aclrtSnapShotCallbackRegister":   supported("950/A3/A2 only; called per opened device in registration order; non-zero return ACL_ERROR_SNAPSHOT_CALLBACK_FAILED"),
		"aclrtSnapShotCallbackUnregister": supported("950/A3/A2 only"),
	}
	profSymbolRules(m)
	return m
}

var support = sync.OnceValue(func() *abi.Table {
	symbols, areas := symbolRules(), areaRules()
	return abi.NewTable(func(s abi.Symbol) bool { return s.Lib == "acl" }, func(s abi.Symbol) abi.Entry {
		r, ok := symbols[s.Name]
		if !ok {
			r, ok = areas[s.Area]
		}
		if !ok {
			// A new area in the spec without a rule: TestSupportRules fails.
			r = notImplemented("no support rule for area " + s.Area)
		}
		e := abi.Entry{Status: r.status, Note: r.note}
		if r.status == abi.Unsupported {
			e.Code = int32(r.code)
		}
		return e
	})
})

// Support returns the ACL support table: one entry per ACL symbol, in the
// order of abi.Symbols. The caller must not modify it.
func Support() []abi.Entry { return support().Entries() }

// SupportOf returns the support entry of the ACL symbol name.
func SupportOf(name string) (abi.Entry, bool) { return support().Of(name) }
