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
	// Host memory registration (rt/stack/host.go).
	"rtsHostRegister":          {"halHostRegister"},
	"rtHostRegisterV2":         {"halHostRegister"},
	"rtsHostUnregister":        {"halHostUnregisterEx"},
	"rtHostMemMapCapabilities": {"halHostRegisterCapabilities"},
	// IPC shared memory (rt/stack/host.go).
	"rtsIpcMemGetExportKey": {"halShmemCreateHandle", "halShmemSetAttribute"},
	"rtsIpcMemSetImportPid": {"halShmemSetPidHandle"},
	"rtsIpcMemImportByKey":  {"halShmemOpenHandle"},
	"rtsIpcMemClose":        {"halShmemCloseHandle", "halShmemDestroyHandle"},
	"rtIpcSetMemoryAttr":    {"halShmemSetAttribute"},
}

// NotCrossed lists the driver calls of rt-to-hal.tsv that npuemu's runtime
// does not make through the driver's symbols, with why. A driver call
// named here is not made by any rt* function; a pair can also be excused
// alone (NotCrossedPairs).
var NotCrossed = map[string]string{
	// Host memory registration and IPC shared memory (rt/stack/host.go).
	"halHostUnregister":         "rtsHostUnregister unregisters with halHostUnregisterEx, naming the map type the range was registered with (HOST_MEM_MAP_DEV or HOST_MEM_MAP_DMA), which halHostUnregister cannot; and npuemu's runtime registers no host memory of its own, so context, device and stream teardown (rtDeviceReset, rtStreamDestroy, ...) has nothing to unregister",
	"halShmemOpenHandleByDevId": "rtsIpcMemImportByKey opens the memory for the exporter's device (halShmemOpenHandle): every emulated device reaches it, so no per-device open is needed, with or without ENABLE_PEER_ACCESS",
	"halShmemOpenHandleV2":      "not in npuemu's HAL; halShmemOpenHandle already opens one name as often as asked",
	"halShmemInfoGet":           "not in npuemu's HAL; the import needs no exporter's device id (see halShmemOpenHandleByDevId)",
	"halShmemSetPodPid":         "not in npuemu's HAL; rtIpcMemImportPidInterServer refuses before the driver (one server is modelled, no super-pod device ids)",
}

// NotCrossedPairs excuses one (rt* function, driver call) pair of
// rt-to-hal.tsv, keyed "rtX halY", with why.
var NotCrossedPairs = map[string]string{
	// halHostRegister under the vendor runtime's own queue setup
	// (NpuDriver::PcieHostRegister), rt/stack/host.go.
	"rtBinaryUnLoad halHostRegister":                   runtimeHostQueues,
	"rtCtxCreateEx halHostRegister":                    runtimeHostQueues,
	"rtGetDevMsg halHostRegister":                      runtimeHostQueues,
	"rtGetFuncBySymbol halHostRegister":                runtimeHostQueues,
	"rtGetFuncHandleFromExceptionInfo halHostRegister": runtimeHostQueues,
	"rtLaunchKernelWithArgsArray halHostRegister":      runtimeHostQueues,
	"rtLaunchSIMTKernelWithArgsArray halHostRegister":  runtimeHostQueues,
	"rtLaunchSIMTKernelWithHostArgs halHostRegister":   runtimeHostQueues,
	"rtModelExecute halHostRegister":                   runtimeHostQueues,
	"rtSetDevice halHostRegister":                      runtimeHostQueues,
	"rtSetDeviceWithoutTsd halHostRegister":            runtimeHostQueues,
	"rtSnapShotProcessRestore halHostRegister":         runtimeHostQueues,
	"rtStreamBeginCapture halHostRegister":             runtimeHostQueues,
	"rtStreamBeginCaptureToModel halHostRegister":      runtimeHostQueues,
	"rtStreamCreate halHostRegister":                   runtimeHostQueues,
	"rtStreamEndCapture halHostRegister":               runtimeHostQueues,
	"rtsBinaryGetDevAddress halHostRegister":           runtimeHostQueues,
	"rtsFuncGetByEntry halHostRegister":                runtimeHostQueues,
	"rtsFuncGetByName halHostRegister":                 runtimeHostQueues,
	"rtsModelAbort halHostRegister":                    runtimeHostQueues,
	"rtsModelExecute halHostRegister":                  runtimeHostQueues,
	"rtsModelLoadComplete halHostRegister":             runtimeHostQueues,
	"rtsRegisterCpuFunc halHostRegister":               runtimeHostQueues,
	"rtsStreamCreate halHostRegister":                  runtimeHostQueues,
	"[submit-task] halHostRegister":                    runtimeHostQueues,
}
