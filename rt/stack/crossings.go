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
	"rtMalloc":          {"halMemAlloc"},
	"rtFree":            {"halMemFree"},
	"rtFreeWithDevSync": {"halMemFree"},
	"rtMemGetInfoEx":    {"halMemGetInfo"},
	// Peer access.
	"rtEnableP2P":           {"halDeviceEnableP2P"},
	"rtDisableP2P":          {"halDeviceDisableP2P"},
	"rtDeviceCanAccessPeer": {"halDeviceCanAccessPeer"},
	// Information.
	"rtGetMemUsageInfo": {"halGetMemUsageInfo", "drvGetDevNum"},
	"rtGetDeviceInfo":   {"halGetDeviceInfo", "drvGetDevNum"},
	// Physical memory, reservations and mappings.
	"rtMallocPhysical":    {"halMemCreate", "drvGetDevNum"},
	"rtFreePhysical":      {"halMemRelease"},
	"rtReserveMemAddress": {"halMemAddressReserve"},
	"rtReleaseMemAddress": {"halMemAddressFree"},
	"rtMapMem":            {"halMemMap"},
	"rtUnmapMem":          {"halMemUnmap"},
	// Mbufs (rt/stack/mbuf.go).
	"rtMbufAlloc":           {"halMbufAlloc"},
	"rtMbufFree":            {"halMbufFree"},
	"rtMbufGetBuffAddr":     {"halMbufGetBuffAddr"},
	"rtMbufGetBuffSize":     {"halMbufGetBuffSize"},
	"rtMbufGetDataLen":      {"halMbufGetDataLen"},
	"rtMbufSetDataLen":      {"halMbufSetDataLen"},
	"rtMbufGetPrivInfo":     {"halMbufGetPrivInfo"},
	"rtMbufCopyBufRef":      {"halMbufCopyRef"},
	"rtMbufChainAppend":     {"halMbufChainAppend"},
	"rtMbufChainGetMbufNum": {"halMbufChainGetMbufNum"},
	"rtMbufChainGetMbuf":    {"halMbufChainGetMbuf"},
	// The synchronous copies and fill (rt/stack/copy.go; rtMemcpy's
	// driver call depends on the direction, docs/stack.md).
	"rtMemcpy":   {"halSdmaCopy", "halMemcpy", "drvMemcpy"},
	"rtMemset":   {"drvMemsetD8"},
	"rtMemcpy2d": {"halMemcpy2D"},
	// VMM queries, sharing, managed memory, host pointers (rt/stack/vmm.go).
	"rtMemSetAccess":                         {"halMemSetAccess"},
	"rtMemGetAccess":                         {"halMemGetAccess"},
	"rtMemGetAllocationGranularity":          {"halMemGetAllocationGranularity", "drvGetDevNum"},
	"rtMemRetainAllocationHandle":            {"halMemRetainAllocationHandle"},
	"rtMemGetAddressRange":                   {"halMemGetAddressRange"},
	"rtMemGetAllocationPropertiesFromHandle": {"halMemGetAllocationPropertiesFromHandle"},
	"rtMemMapSelectedLink":                   {"halMemGetAddressRange", "halMemRetainAllocationHandle", "halMemMap", "halMemRelease"},
	"rtsMemExportToShareableHandle":          {"halMemExportToShareableHandle"},
	"rtMemExportToShareableHandleV2":         {"halMemExportToShareableHandleV2"},
	"rtMemImportFromShareableHandle":         {"halMemImportFromShareableHandle", "drvGetDevNum"},
	"rtMemImportFromShareableHandleV2":       {"halMemImportFromShareableHandleV2", "drvGetDevNum"},
	"rtMemSetPidToShareableHandle":           {"halMemSetPidToShareableHandle"},
	"rtMemSetPidToShareableHandleV2":         {"halMemSetPidToShareableHandle"},
	"rtMemManagedAdvise":                     {"halMemManagedAdvise", "drvGetDevNum"},
	"rtMemManagedGetAttr":                    {"halMemManagedRangeGetAttributes"},
	"rtMemManagedGetAttrs":                   {"halMemManagedRangeGetAttributes"},
	"rtHostGetDevicePointer":                 {"halMemHostGetDevPointer"},
	// Host memory registration and IPC shared memory (rt/stack/host.go).
	"rtsHostRegister":          {"halHostRegister"},
	"rtHostRegisterV2":         {"halHostRegister"},
	"rtsHostUnregister":        {"halHostUnregisterEx"},
	"rtHostMemMapCapabilities": {"halHostRegisterCapabilities", "drvGetDevNum"},
	"rtsIpcMemGetExportKey":    {"halShmemCreateHandle", "halShmemSetAttribute"},
	"rtsIpcMemSetImportPid":    {"halShmemSetPidHandle"},
	"rtsIpcMemImportByKey":     {"halShmemOpenHandle"},
	"rtsIpcMemClose":           {"halShmemCloseHandle", "halShmemDestroyHandle"},
	"rtIpcSetMemoryAttr":       {"halShmemSetAttribute"},
	// The driver's information calls (rt/stack/info.go): the device count
	// is asked in one place (core.DeviceCount), by every device-id check of
	// the functions whose rows list drvGetDevNum; the SoC name once per
	// process (core.SocName).
	"rtGetDeviceCount":               {"drvGetDevNum"},
	"rtSetDevice":                    {"drvGetDevNum"},
	"rtSetDeviceWithoutTsd":          {"drvGetDevNum"},
	"rtDeviceReset":                  {"drvGetDevNum"},
	"rtDeviceResetWithoutTsd":        {"drvGetDevNum"},
	"rtDeviceResetForce":             {"drvGetDevNum"},
	"rtCtxCreateEx":                  {"drvGetDevNum"},
	"rtsGetPrimaryCtxState":          {"drvGetDevNum"},
	"rtDeviceStatusQuery":            {"drvGetDevNum"},
	"rtDeviceTaskAbort":              {"drvGetDevNum"},
	"rtSetDefaultDeviceId":           {"drvGetDevNum"},
	"rtGetFaultEvent":                {"drvGetDevNum"},
	"rtsGetErrorVerbose":             {"drvGetDevNum"},
	"rtsRepairError":                 {"drvGetDevNum"},
	"rtGetMemUceInfo":                {"drvGetDevNum"},
	"rtMemUceRepair":                 {"drvGetDevNum"},
	"rtsSetDeviceResLimit":           {"drvGetDevNum"},
	"rtsGetDeviceResLimit":           {"drvGetDevNum"},
	"rtsResetDeviceResLimit":         {"drvGetDevNum"},
	"rtsDeviceGetCapability":         {"drvGetDevNum"},
	"rtsDeviceGetInfo":               {"drvGetDevNum", "drvDeviceGetPhyIdByIndex", "halGetDeviceSplitMode", "halMemGetInfo"},
	"rtDeviceGetPCIBusId":            {"drvGetDevNum"},
	"rtDeviceGetByPCIBusId":          {"drvGetDevNum"},
	"rtGetDeviceUuid":                {"drvGetDevNum"},
	"rtMemManagedPrefetchAsync":      {"drvGetDevNum"},
	"rtMemManagedPrefetchBatchAsync": {"drvGetDevNum"},
	"rtMemPrefetchToDevice":          {"drvGetDevNum"},
	"rtsGetLogicDevIdByUserDevId":    {"drvGetDevNum"},
	"rtGetDevicePhyIdByIndex":        {"drvDeviceGetPhyIdByIndex"},
	"rtsGetPhyDevIdByLogicDevId":     {"drvDeviceGetPhyIdByIndex"},
	"rtsGetLogicDevIdByPhyDevId":     {"drvDeviceGetIndexByPhyId"},
	"rtGetRunMode":                   {"drvGetPlatformInfo"},
	"rtGetSocVersion":                {"halGetSocVersion"},
	"rtsEventGetAvailNum":            {"halResourceInfoQuery"},
	"rtsStreamGetAvailableNum":       {"halResourceInfoQuery"},
}

// NotCrossed says, per driver function, why npuemu's runtime does not
// make it through the driver's symbols in the rows of rt-to-hal.tsv that
// Crossings does not list (for a driver function Crossings never names:
// in any row). A single pair can be excused alone (NotCrossedPairs).
// TestEveryVendorCrossingIsAccounted (rt/stack) requires every row's
// driver call npuemu implements to be crossed or excused.
var NotCrossed = map[string]string{
	// Memory the runtime keeps for itself.
	"halMemAlloc": "made where Crossings lists it: the device memory an rt* allocation hands to the program, so a quota hook sees all of it. " +
		"The vendor's other rows allocate the runtime's own device buffers (kernel argument blocks, binaries, event, notify and stream resources, " +
		"capture and model memory), which npuemu's model keeps in host memory; host and managed allocations (rtMallocHost, rtsMallocHost, " +
		"rtMemAllocManaged) are the host's and the SVM model's (docs/svm.md), not the driver's device memory",
	"halMemFree": "made where Crossings lists it: freeing what an rt* allocation handed out; the vendor's other rows free the runtime's own " +
		"buffers (see halMemAlloc), which npuemu does not allocate from the driver",
	"halMemAdvise": "the vendor advises the device memory of its loaded kernel binaries and argument blocks; npuemu runs kernels as host code " +
		"and has no such memory",
	"halMemCreate": "made where Crossings lists it (physical memory the program asks for); the vendor's rtEventCreateExWithFlag backs " +
		"inter-process events with VMM memory of its own, npuemu's events are model objects",
	"halMemRelease": "made where Crossings lists it; in the event, callback, host-function and subscription rows the vendor releases VMM " +
		"memory of its own (see halMemCreate)",
	"halMemAddressReserve": "made where Crossings lists it; the event rows back events with VMM memory of the vendor runtime's own (see halMemCreate), " +
		"and npuemu's memory pools reserve nothing up front (acl/mempool.go): their blocks come from the allocator as aclrtMalloc's",
	"halMemAddressFree": "made where Crossings lists it; see halMemAddressReserve",
	"halMemMap":         "made where Crossings lists it; see halMemCreate (events)",
	"halMemUnmap":       "made where Crossings lists it; see halMemCreate",
	"halMemGetInfo": "made where Crossings lists it (rtMemGetInfoEx, rtsDeviceGetInfo's total memory); npuemu's memory pools reserve nothing " +
		"when created (rtMemPoolCreate) and rtsCheckMemType classifies addresses from npuemu's own allocation records",
	"halGetDeviceInfo": "made where Crossings lists it (rtGetDeviceInfo, whose answer is the driver's (module, info) value); in the other rows " +
		"the vendor runtime reads device facts while opening a device or context, or for utilization, sharing, UCE repair and capabilities, " +
		"which npuemu's runtime answers from its SoC catalogue and device model",
	"halDeviceEnableP2P": "made where Crossings lists it (the peer-access switch the program turns on); the vendor's import rows also open " +
		"the link to the exporting device, npuemu's imports map the exporter's memory without changing the switch",
	// The synchronous copy family (rt/stack/copy.go).
	"halSdmaCopy": whyCopyCall, "halMemcpy": whyCopyCall, "drvMemcpy": whyCopyCall,
	"drvMemsetD8": "made where Crossings lists it (rtMemset, the synchronous fill); in the other rows " + whyInternalClear,
	"halMemcpy2D": "made where Crossings lists it (rtMemcpy2d); rtMemcpy2dAsync: " + whyQueuedCopy,
	// The pointer-kind query before copies (rt/stack/copy.go).
	"drvMemGetAttribute": "npuemu's runtime classifies pointers from its own allocation records, which also give the bytes left in the allocation, tell pinned from managed memory and refuse a freed device address (none of which drvMemGetAttribute answers), before copies, fills and in rtsPointerGetAttributes alike; it never asks the driver",
	// VMM queries, sharing, managed memory, host pointers (rt/stack/vmm.go).
	"halMemShareHandleSetAttribute": "not in npuemu's driver (no libascend_hal.so symbol; hal-api.md names it only as the NO_WLIST alternative to a pid whitelist): DISABLE_PID_VALIDATION is the export's own flag, which halMemExportToShareableHandle(V2) takes",
	"halMemTransShareableHandle":    "not in npuemu's driver (hal-api.md lists no such symbol): it converts FABRIC handles between servers, which npuemu refuses (ACL_ERROR_RT_FEATURE_NOT_SUPPORT) before any driver call",
	"halMemShareHandleInfoGet":      "not in npuemu's driver (hal-api.md lists no such symbol): the exporter's physical device of a handle; npuemu's import takes devId as given (physical ids are logical ids)",
	"halGetHostID":                  "not in npuemu's driver (hal-api.md lists no such symbol): a host id for FABRIC handles across servers, which npuemu refuses",
	"drvMemPrefetchToDevice":        "npuemu's rtMemPrefetchToDevice (aclrtMemP2PMap's step) gives the peer device a mapping of managed pages (svm MapPeer, docs/svm.md) and only checks device memory; the driver call migrates the pages to the device (hal-api.md), different work, so it is not made",
	// The driver's information calls (rt/stack/info.go).
	"drvGetPlatformInfo":       "made where Crossings lists it (rtGetRunMode); in the other rows " + whyNoDeviceSide,
	"drvDeviceGetPhyIdByIndex": "made where Crossings lists it; in the other rows " + whyDriverIndex,
	"drvDeviceGetIndexByPhyId": "made where Crossings lists it; in the other rows " + whyDriverIndex,
	"halGetAPIVersion":         "rtsDeviceGetCapability answers from the SoC catalogue (neither documented feature is modelled); no path of npuemu's runtime depends on the driver's API version",
	"halGetDeviceInfoByBuff":   "npuemu's driver does not implement it (hal/support.go: no documented (module, info) pair or buffer layout), so rtGetDeviceUuid, rtDeviceGetPCIBusId, rtDeviceGetByPCIBusId, rtsGetErrorVerbose and rtGetMemUceInfo stay answered by the runtime (commit f4d6fbb): a driver that cannot answer cannot carry the work",
	"halSetDeviceInfoByBuff":   "npuemu's driver does not implement it (no settable pair is documented); rtDeviceL2CacheFlush has no L2 to flush and checks its arguments only",
	"halGetChipCapability":     "npuemu's driver does not implement it (hal/support.go: struct halCapabilityInfo's fields are not explained), so npuemu's runtime has no answer to ask for",
	"drvMemDeviceOpen":         whyNoDriverOpen,
	"drvMemDeviceClose":        whyNoDriverOpen,
	"halSupportFeature":        "npuemu's driver answers false for every feature (hal/device.go) and npuemu's runtime takes no branch on any of them: a probe whose answer is not used is not made",
	// Host memory registration and IPC shared memory (rt/stack/host.go).
	"halHostRegister":           "made where Crossings lists it (the program's registrations); in the other rows " + whyRuntimeHostQueues,
	"halHostUnregister":         "rtsHostUnregister unregisters with halHostUnregisterEx, naming the map type the range was registered with (HOST_MEM_MAP_DEV or HOST_MEM_MAP_DMA), which halHostUnregister cannot; in the teardown rows " + whyRuntimeHostQueues,
	"halShmemOpenHandleByDevId": "rtsIpcMemImportByKey opens the memory for the exporter's device (halShmemOpenHandle): every emulated device reaches it, so no per-device open is needed, with or without ENABLE_PEER_ACCESS",
	"halShmemOpenHandleV2":      "not in npuemu's HAL; halShmemOpenHandle already opens one name as often as asked",
	"halShmemInfoGet":           "not in npuemu's HAL; the import needs no exporter's device id (see halShmemOpenHandleByDevId)",
	"halShmemSetPodPid":         "not in npuemu's HAL; rtIpcMemImportPidInterServer refuses before the driver (one server is modelled, no super-pod device ids)",
}

// NotCrossedPairs excuses one (rt* function, driver call) pair of
// rt-to-hal.tsv, keyed "rtX halY", with why.
var NotCrossedPairs = map[string]string{
	// VMM queries, sharing, managed memory, host pointers (rt/stack/vmm.go).
	"rtMemExportToShareableHandleV2 halMemExportToShareableHandle":     "npuemu's V2 export makes halMemExportToShareableHandleV2 for the DEFAULT share type (the handle in a struct MemShareHandle)",
	"rtMemImportFromShareableHandleV2 halMemImportFromShareableHandle": "npuemu's V2 import makes halMemImportFromShareableHandleV2 for the DEFAULT share type",
	"rtEventCreateExWithFlag halMemGetAllocationGranularity":           "npuemu's IPC events are shared through the node's event table (acl/ipcevent_node.go), not through VMM memory exported by the driver",
	"rtEventCreateExWithFlag halMemExportToShareableHandle":            "npuemu's IPC events are not built on shareable VMM memory (see rtEventCreateExWithFlag halMemGetAllocationGranularity)",
	"rtEventCreateExWithFlag halMemSetAccess":                          "npuemu's IPC events are not built on shareable VMM memory (see rtEventCreateExWithFlag halMemGetAllocationGranularity)",
	"rtIpcOpenEventHandle halMemGetAllocationGranularity":              "npuemu's IPC events are not built on shareable VMM memory (see rtEventCreateExWithFlag halMemGetAllocationGranularity)",
	"rtIpcOpenEventHandle halMemImportFromShareableHandle":             "npuemu's IPC events are not built on shareable VMM memory (see rtEventCreateExWithFlag halMemGetAllocationGranularity)",
	"rtMemPoolCreate halMemGetAllocationGranularity":                   "npuemu's pools reserve nothing at creation (maxSize only bounds later allocations), so no reservation granularity is needed",
	"rtMemcpyAsync halMemHostGetDevPointer":                            "npuemu's devices reach registered host memory at its host address (the device pointer is the host pointer): a copy needs no translation",
	"rtMemcpyAsyncEx halMemHostGetDevPointer":                          "as rtMemcpyAsync: no address translation for registered host memory",
	"rtMemcpyAsyncWithOffset halMemHostGetDevPointer":                  "as rtMemcpyAsync: no address translation for registered host memory",
	"rtsMemcpyBatchAsync halMemHostGetDevPointer":                      "as rtMemcpyAsync: no address translation for registered host memory",
	// The driver's information calls (rt/stack/info.go).
	"rtCheckArchCompatibility drvGetDevNum":     "compares NPU architectures from the SoC catalogue: no device is named, no count is needed",
	"rtCheckArchCompatibility halGetSocVersion": "compares NPU architectures from the SoC catalogue, not the reported name",
	"rtGetSocVersion drvGetDevNum":              "asks the SoC name of device 0, which every node has",
	"rtsGetUserDevIdByLogicDevId drvGetDevNum":  "the runtime's ASCEND_RT_VISIBLE_DEVICES table alone maps a physical id to a user id (acl/devid.go logicToUser); no count is needed",
}
