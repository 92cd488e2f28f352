package stack

// Crossings lists, per rt* function, the driver calls (hal*/drv*) its
// npuemu implementation makes through the driver's exported symbols — the
// calls a hook on libascend_hal.so sees, in both layouts. Every pair is a
// row of rt-to-hal.tsv (the vendor's runtime makes the same call).
// TestSplitLayoutForwardingHook (conformance) checks it both ways: each
// pair is seen by a forwarding hook in some case, and every driver call a
// hooked rt* function is seen to make is listed here.
//
// Keep one line per rt* function, sorted within its family.
var Crossings = map[string][]string{
	// Device memory.
	"rtMalloc":       {"halMemAlloc"},
	"rtFree":         {"halMemFree"},
	"rtMemGetInfoEx": {"halMemGetInfo"},
	// Peer access.
	"rtEnableP2P":           {"halDeviceEnableP2P"},
	"rtDisableP2P":          {"halDeviceDisableP2P"},
	"rtDeviceCanAccessPeer": {"halDeviceCanAccessPeer"},
	// Information.
	"rtGetMemUsageInfo": {"halGetMemUsageInfo"},
	"rtGetDeviceInfo":   {"halGetDeviceInfo"},
	// Physical memory, reservations and mappings.
	"rtMallocPhysical":    {"halMemCreate"},
	"rtFreePhysical":      {"halMemRelease"},
	"rtReserveMemAddress": {"halMemAddressReserve"},
	"rtReleaseMemAddress": {"halMemAddressFree"},
	"rtMapMem":            {"halMemMap"},
	"rtUnmapMem":          {"halMemUnmap"},
	// The synchronous copies and fill (rt/stack/copy.go; rtMemcpy's
	// driver call depends on the direction, docs/stack.md).
	"rtMemcpy":   {"halSdmaCopy", "halMemcpy", "drvMemcpy"},
	"rtMemset":   {"drvMemsetD8"},
	"rtMemcpy2d": {"halMemcpy2D"},
}

// NotCrossed lists the driver calls of rt-to-hal.tsv that npuemu's runtime
// does not make through the driver's symbols, with why. A driver call
// named here is not made by any rt* function; a pair can also be excused
// alone (NotCrossedPairs).
var NotCrossed = map[string]string{
	// The pointer-kind query before copies (rt/stack/copy.go).
	"drvMemGetAttribute": "npuemu's runtime classifies pointers from its own allocation records, which also give the bytes left in the allocation, tell pinned from managed memory and refuse a freed device address (none of which drvMemGetAttribute answers), before copies, fills and in rtsPointerGetAttributes alike; it never asks the driver",
}

// NotCrossedPairs excuses one (rt* function, driver call) pair of
// rt-to-hal.tsv, keyed "rtX halY", with why.
var NotCrossedPairs = map[string]string{
	// The synchronous copy family (rt/stack/copy.go): rtMemcpy's copy and rtMemset's and
	// rtMemcpy2d's are the only work of it npuemu's runtime does.
	"rtAicpuKernelLaunchWithFlag halSdmaCopy": whyInternalCopy, "rtAicpuKernelLaunchWithFlag halMemcpy": whyInternalCopy, "rtAicpuKernelLaunchWithFlag drvMemcpy": whyInternalCopy,
	"rtBinaryGetGlobal halSdmaCopy": whyInternalCopy, "rtBinaryGetGlobal halMemcpy": whyInternalCopy, "rtBinaryGetGlobal drvMemcpy": whyInternalCopy,
	"rtBinaryLoadWithoutTilingKey halSdmaCopy": whyInternalCopy, "rtBinaryLoadWithoutTilingKey halMemcpy": whyInternalCopy, "rtBinaryLoadWithoutTilingKey drvMemcpy": whyInternalCopy,
	"rtBinaryUnLoad halSdmaCopy": whyInternalCopy, "rtBinaryUnLoad halMemcpy": whyInternalCopy, "rtBinaryUnLoad drvMemcpy": whyInternalCopy,
	"rtCallbackLaunch halSdmaCopy": whyInternalCopy, "rtCallbackLaunch halMemcpy": whyInternalCopy, "rtCallbackLaunch drvMemcpy": whyInternalCopy,
	"rtCtxCreateEx halSdmaCopy": whyInternalCopy, "rtCtxCreateEx halMemcpy": whyInternalCopy, "rtCtxCreateEx drvMemcpy": whyInternalCopy,
	"rtDeviceTaskAbort halSdmaCopy": whyInternalCopy, "rtDeviceTaskAbort halMemcpy": whyInternalCopy, "rtDeviceTaskAbort drvMemcpy": whyInternalCopy,
	"rtEventElapsedTime halSdmaCopy": whyInternalCopy, "rtEventElapsedTime halMemcpy": whyInternalCopy, "rtEventElapsedTime drvMemcpy": whyInternalCopy,
	"rtEventGetTimeStamp halSdmaCopy": whyInternalCopy, "rtEventGetTimeStamp halMemcpy": whyInternalCopy, "rtEventGetTimeStamp drvMemcpy": whyInternalCopy,
	"rtGetFuncBySymbol halSdmaCopy": whyInternalCopy, "rtGetFuncBySymbol halMemcpy": whyInternalCopy, "rtGetFuncBySymbol drvMemcpy": whyInternalCopy,
	"rtGetFuncHandleFromExceptionInfo halSdmaCopy": whyInternalCopy, "rtGetFuncHandleFromExceptionInfo halMemcpy": whyInternalCopy, "rtGetFuncHandleFromExceptionInfo drvMemcpy": whyInternalCopy,
	"rtKernelLaunchWithFlagV2 halSdmaCopy": whyInternalCopy, "rtKernelLaunchWithFlagV2 halMemcpy": whyInternalCopy, "rtKernelLaunchWithFlagV2 drvMemcpy": whyInternalCopy,
	"rtKernelLaunchWithHandleV2 halSdmaCopy": whyInternalCopy, "rtKernelLaunchWithHandleV2 halMemcpy": whyInternalCopy, "rtKernelLaunchWithHandleV2 drvMemcpy": whyInternalCopy,
	"rtLaunchKernelByFuncHandleV3 halSdmaCopy": whyInternalCopy, "rtLaunchKernelByFuncHandleV3 halMemcpy": whyInternalCopy, "rtLaunchKernelByFuncHandleV3 drvMemcpy": whyInternalCopy,
	"rtLaunchKernelWithArgsArray halSdmaCopy": whyInternalCopy, "rtLaunchKernelWithArgsArray halMemcpy": whyInternalCopy, "rtLaunchKernelWithArgsArray drvMemcpy": whyInternalCopy,
	"rtMemcpyAsync halSdmaCopy": whyQueuedCopy, "rtMemcpyAsync halMemcpy": whyQueuedCopy, "rtMemcpyAsync drvMemcpy": whyQueuedCopy,
	"rtMemcpyAsyncEx halSdmaCopy": whyQueuedCopy, "rtMemcpyAsyncEx halMemcpy": whyQueuedCopy, "rtMemcpyAsyncEx drvMemcpy": whyQueuedCopy,
	"rtMemcpyAsyncWithOffset halSdmaCopy": whyQueuedCopy, "rtMemcpyAsyncWithOffset halMemcpy": whyQueuedCopy, "rtMemcpyAsyncWithOffset drvMemcpy": whyQueuedCopy,
	"rtMemPoolFreeAsync halSdmaCopy": whyInternalCopy, "rtMemPoolFreeAsync halMemcpy": whyInternalCopy, "rtMemPoolFreeAsync drvMemcpy": whyInternalCopy,
	"rtMemPoolMallocAsync halSdmaCopy": whyInternalCopy, "rtMemPoolMallocAsync halMemcpy": whyInternalCopy, "rtMemPoolMallocAsync drvMemcpy": whyInternalCopy,
	"rtMemsetD32 halSdmaCopy": whyWordFill, "rtMemsetD32 halMemcpy": whyWordFill, "rtMemsetD32 drvMemcpy": whyWordFill,
	"rtMemsetD32Async halSdmaCopy": whyQueuedCopy, "rtMemsetD32Async halMemcpy": whyQueuedCopy, "rtMemsetD32Async drvMemcpy": whyQueuedCopy,
	"rtModelExecute halSdmaCopy": whyInternalCopy, "rtModelExecute halMemcpy": whyInternalCopy, "rtModelExecute drvMemcpy": whyInternalCopy,
	"rtModelTaskSetParams halSdmaCopy": whyInternalCopy, "rtModelTaskSetParams halMemcpy": whyInternalCopy, "rtModelTaskSetParams drvMemcpy": whyInternalCopy,
	"rtModelUpdate halSdmaCopy": whyInternalCopy, "rtModelUpdate halMemcpy": whyInternalCopy, "rtModelUpdate drvMemcpy": whyInternalCopy,
	"rtsActiveStream halSdmaCopy": whyInternalCopy, "rtsActiveStream halMemcpy": whyInternalCopy, "rtsActiveStream drvMemcpy": whyInternalCopy,
	"rtSetDevice halSdmaCopy": whyInternalCopy, "rtSetDevice halMemcpy": whyInternalCopy, "rtSetDevice drvMemcpy": whyInternalCopy,
	"rtSetDeviceWithoutTsd halSdmaCopy": whyInternalCopy, "rtSetDeviceWithoutTsd halMemcpy": whyInternalCopy, "rtSetDeviceWithoutTsd drvMemcpy": whyInternalCopy,
	"rtsEventWait halSdmaCopy": whyInternalCopy, "rtsEventWait halMemcpy": whyInternalCopy, "rtsEventWait drvMemcpy": whyInternalCopy,
	"rtsFuncGetAddr halSdmaCopy": whyInternalCopy, "rtsFuncGetAddr halMemcpy": whyInternalCopy, "rtsFuncGetAddr drvMemcpy": whyInternalCopy,
	"rtsFuncGetByName halSdmaCopy": whyInternalCopy, "rtsFuncGetByName halMemcpy": whyInternalCopy, "rtsFuncGetByName drvMemcpy": whyInternalCopy,
	"rtsLabelSwitchByIndex halSdmaCopy": whyInternalCopy, "rtsLabelSwitchByIndex halMemcpy": whyInternalCopy, "rtsLabelSwitchByIndex drvMemcpy": whyInternalCopy,
	"rtsLaunchCmoAddrTask halSdmaCopy": whyInternalCopy, "rtsLaunchCmoAddrTask halMemcpy": whyInternalCopy, "rtsLaunchCmoAddrTask drvMemcpy": whyInternalCopy,
	"rtsLaunchHostFunc halSdmaCopy": whyInternalCopy, "rtsLaunchHostFunc halMemcpy": whyInternalCopy, "rtsLaunchHostFunc drvMemcpy": whyInternalCopy,
	"rtsLaunchKernelWithConfig halSdmaCopy": whyInternalCopy, "rtsLaunchKernelWithConfig halMemcpy": whyInternalCopy, "rtsLaunchKernelWithConfig drvMemcpy": whyInternalCopy,
	"rtsLaunchKernelWithDevArgs halSdmaCopy": whyInternalCopy, "rtsLaunchKernelWithDevArgs halMemcpy": whyInternalCopy, "rtsLaunchKernelWithDevArgs drvMemcpy": whyInternalCopy,
	"rtsLaunchKernelWithHostArgs halSdmaCopy": whyInternalCopy, "rtsLaunchKernelWithHostArgs halMemcpy": whyInternalCopy, "rtsLaunchKernelWithHostArgs drvMemcpy": whyInternalCopy,
	"rtsLaunchRandomNumTask halSdmaCopy": whyInternalCopy, "rtsLaunchRandomNumTask halMemcpy": whyInternalCopy, "rtsLaunchRandomNumTask drvMemcpy": whyInternalCopy,
	"rtsLaunchUpdateTask halSdmaCopy": whyInternalCopy, "rtsLaunchUpdateTask halMemcpy": whyInternalCopy, "rtsLaunchUpdateTask drvMemcpy": whyInternalCopy,
	"rtsMemcpyAsyncWithDesc halSdmaCopy": whyQueuedCopy, "rtsMemcpyAsyncWithDesc halMemcpy": whyQueuedCopy, "rtsMemcpyAsyncWithDesc drvMemcpy": whyQueuedCopy,
	"rtsMemcpyBatchAsync halSdmaCopy": whyQueuedCopy, "rtsMemcpyBatchAsync halMemcpy": whyQueuedCopy, "rtsMemcpyBatchAsync drvMemcpy": whyQueuedCopy,
	"rtsModelAbort halSdmaCopy": whyInternalCopy, "rtsModelAbort halMemcpy": whyInternalCopy, "rtsModelAbort drvMemcpy": whyInternalCopy,
	"rtsModelCreate halSdmaCopy": whyInternalCopy, "rtsModelCreate halMemcpy": whyInternalCopy, "rtsModelCreate drvMemcpy": whyInternalCopy,
	"rtsModelExecute halSdmaCopy": whyInternalCopy, "rtsModelExecute halMemcpy": whyInternalCopy, "rtsModelExecute drvMemcpy": whyInternalCopy,
	"rtsModelLoadComplete halSdmaCopy": whyInternalCopy, "rtsModelLoadComplete halMemcpy": whyInternalCopy, "rtsModelLoadComplete drvMemcpy": whyInternalCopy,
	"rtSnapShotProcessBackup halSdmaCopy": whyInternalCopy, "rtSnapShotProcessBackup halMemcpy": whyInternalCopy, "rtSnapShotProcessBackup drvMemcpy": whyInternalCopy,
	"rtSnapShotProcessRestore halSdmaCopy": whyInternalCopy, "rtSnapShotProcessRestore halMemcpy": whyInternalCopy, "rtSnapShotProcessRestore drvMemcpy": whyInternalCopy,
	"rtsRegisterCpuFunc halSdmaCopy": whyInternalCopy, "rtsRegisterCpuFunc halMemcpy": whyInternalCopy, "rtsRegisterCpuFunc drvMemcpy": whyInternalCopy,
	"rtsSetCmoDesc halSdmaCopy": whyInternalCopy, "rtsSetCmoDesc halMemcpy": whyInternalCopy, "rtsSetCmoDesc drvMemcpy": whyInternalCopy,
	"rtsSetMemcpyDesc halSdmaCopy": whyInternalCopy, "rtsSetMemcpyDesc halMemcpy": whyInternalCopy, "rtsSetMemcpyDesc drvMemcpy": whyInternalCopy,
	"rtsStreamCreate halSdmaCopy": whyInternalCopy, "rtsStreamCreate halMemcpy": whyInternalCopy, "rtsStreamCreate drvMemcpy": whyInternalCopy,
	"rtsSwitchStream halSdmaCopy": whyInternalCopy, "rtsSwitchStream halMemcpy": whyInternalCopy, "rtsSwitchStream drvMemcpy": whyInternalCopy,
	"rtStreamAbort halSdmaCopy": whyInternalCopy, "rtStreamAbort halMemcpy": whyInternalCopy, "rtStreamAbort drvMemcpy": whyInternalCopy,
	"rtStreamAddCondTask halSdmaCopy": whyInternalCopy, "rtStreamAddCondTask halMemcpy": whyInternalCopy, "rtStreamAddCondTask drvMemcpy": whyInternalCopy,
	"rtStreamBeginCapture halSdmaCopy": whyInternalCopy, "rtStreamBeginCapture halMemcpy": whyInternalCopy, "rtStreamBeginCapture drvMemcpy": whyInternalCopy,
	"rtStreamBeginCaptureToModel halSdmaCopy": whyInternalCopy, "rtStreamBeginCaptureToModel halMemcpy": whyInternalCopy, "rtStreamBeginCaptureToModel drvMemcpy": whyInternalCopy,
	"rtStreamCreate halSdmaCopy": whyInternalCopy, "rtStreamCreate halMemcpy": whyInternalCopy, "rtStreamCreate drvMemcpy": whyInternalCopy,
	"rtStreamEndCapture halSdmaCopy": whyInternalCopy, "rtStreamEndCapture halMemcpy": whyInternalCopy, "rtStreamEndCapture drvMemcpy": whyInternalCopy,
	"rtStreamWaitEvent halSdmaCopy": whyInternalCopy, "rtStreamWaitEvent halMemcpy": whyInternalCopy, "rtStreamWaitEvent drvMemcpy": whyInternalCopy,
	"rtStreamWaitEventWithFlag halSdmaCopy": whyInternalCopy, "rtStreamWaitEventWithFlag halMemcpy": whyInternalCopy, "rtStreamWaitEventWithFlag drvMemcpy": whyInternalCopy,
	"rtsValueWait halSdmaCopy": whyInternalCopy, "rtsValueWait halMemcpy": whyInternalCopy, "rtsValueWait drvMemcpy": whyInternalCopy,
	"rtSymbolLookup halSdmaCopy": whyInternalCopy, "rtSymbolLookup halMemcpy": whyInternalCopy, "rtSymbolLookup drvMemcpy": whyInternalCopy,
	"rtBinaryUnLoad drvMemsetD8":                   whyInternalClear,
	"rtCtxCreateEx drvMemsetD8":                    whyInternalClear,
	"rtDeviceTaskAbort drvMemsetD8":                whyInternalClear,
	"rtEventCreateExWithFlag drvMemsetD8":          whyInternalClear,
	"rtEventRecord drvMemsetD8":                    whyInternalClear,
	"rtEventRecordWithFlag drvMemsetD8":            whyInternalClear,
	"rtGetFuncBySymbol drvMemsetD8":                whyInternalClear,
	"rtGetFuncHandleFromExceptionInfo drvMemsetD8": whyInternalClear,
	"rtLaunchKernelWithArgsArray drvMemsetD8":      whyInternalClear,
	"rtModelCondHandleCreate drvMemsetD8":          whyInternalClear,
	"rtModelExecute drvMemsetD8":                   whyInternalClear,
	"rtSetDevice drvMemsetD8":                      whyInternalClear,
	"rtSetDeviceWithoutTsd drvMemsetD8":            whyInternalClear,
	"rtsFuncGetByName drvMemsetD8":                 whyInternalClear,
	"rtsLabelSwitchListCreate drvMemsetD8":         whyInternalClear,
	"rtsModelAbort drvMemsetD8":                    whyInternalClear,
	"rtsModelCreate drvMemsetD8":                   whyInternalClear,
	"rtsModelExecute drvMemsetD8":                  whyInternalClear,
	"rtsModelLoadComplete drvMemsetD8":             whyInternalClear,
	"rtSnapShotProcessRestore drvMemsetD8":         whyInternalClear,
	"rtsRegisterCpuFunc drvMemsetD8":               whyInternalClear,
	"rtsStreamCreate drvMemsetD8":                  whyInternalClear,
	"rtStreamAbort drvMemsetD8":                    whyInternalClear,
	"rtStreamAddCondTask drvMemsetD8":              whyInternalClear,
	"rtStreamBeginCapture drvMemsetD8":             whyInternalClear,
	"rtStreamBeginCaptureToModel drvMemsetD8":      whyInternalClear,
	"rtStreamCreate drvMemsetD8":                   whyInternalClear,
	"rtStreamEndCapture drvMemsetD8":               whyInternalClear,
	"rtStreamSynchronize drvMemsetD8":              whyInternalClear,
	"rtStreamSynchronizeWithTimeout drvMemsetD8":   whyInternalClear,
	"rtMemcpy2dAsync halMemcpy2D":                  whyQueuedCopy,
}
