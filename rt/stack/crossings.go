package stack

import "slices"

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
	"rtGetMemUsageInfo": {"halGetMemUsageInfo"},
	"rtGetDeviceInfo":   {"halGetDeviceInfo"},
	// Physical memory, reservations and mappings.
	"rtMallocPhysical":    {"halMemCreate"},
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
	"rtMemGetAllocationGranularity":          {"halMemGetAllocationGranularity"},
	"rtMemRetainAllocationHandle":            {"halMemRetainAllocationHandle"},
	"rtMemGetAddressRange":                   {"halMemGetAddressRange"},
	"rtMemGetAllocationPropertiesFromHandle": {"halMemGetAllocationPropertiesFromHandle"},
	"rtMemMapSelectedLink":                   {"halMemGetAddressRange", "halMemRetainAllocationHandle", "halMemMap", "halMemRelease"},
	"rtsMemExportToShareableHandle":          {"halMemExportToShareableHandle"},
	"rtMemExportToShareableHandleV2":         {"halMemExportToShareableHandleV2"},
	"rtMemImportFromShareableHandle":         {"halMemImportFromShareableHandle"},
	"rtMemImportFromShareableHandleV2":       {"halMemImportFromShareableHandleV2"},
	"rtMemSetPidToShareableHandle":           {"halMemSetPidToShareableHandle"},
	"rtMemSetPidToShareableHandleV2":         {"halMemSetPidToShareableHandle"},
	"rtMemManagedAdvise":                     {"halMemManagedAdvise"},
	"rtMemManagedGetAttr":                    {"halMemManagedRangeGetAttributes"},
	"rtMemManagedGetAttrs":                   {"halMemManagedRangeGetAttributes"},
	"rtHostGetDevicePointer":                 {"halMemHostGetDevPointer"},
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
}

// The driver's information calls (rt/stack/info.go; helper halinfo).
// Decisions: the device count is asked in one place, core.DeviceCount
// (rt/core/devcount.go), by every device-id check of the functions whose
// rows list drvGetDevNum; the SoC name is asked once per process (per
// node) and kept (rt/core/socname.go), so only the first of rtGetSocVersion
// / aclrtGetSocName in a process makes the call.
func init() {
	for rt, drv := range map[string][]string{
		"rtGetDeviceCount":                 {"drvGetDevNum"},
		"rtSetDevice":                      {"drvGetDevNum"},
		"rtSetDeviceWithoutTsd":            {"drvGetDevNum"},
		"rtDeviceReset":                    {"drvGetDevNum"},
		"rtDeviceResetWithoutTsd":          {"drvGetDevNum"},
		"rtDeviceResetForce":               {"drvGetDevNum"},
		"rtCtxCreateEx":                    {"drvGetDevNum"},
		"rtsGetPrimaryCtxState":            {"drvGetDevNum"},
		"rtDeviceStatusQuery":              {"drvGetDevNum"},
		"rtDeviceTaskAbort":                {"drvGetDevNum"},
		"rtSetDefaultDeviceId":             {"drvGetDevNum"},
		"rtGetFaultEvent":                  {"drvGetDevNum"},
		"rtsGetErrorVerbose":               {"drvGetDevNum"},
		"rtsRepairError":                   {"drvGetDevNum"},
		"rtGetMemUceInfo":                  {"drvGetDevNum"},
		"rtMemUceRepair":                   {"drvGetDevNum"},
		"rtsSetDeviceResLimit":             {"drvGetDevNum"},
		"rtsGetDeviceResLimit":             {"drvGetDevNum"},
		"rtsResetDeviceResLimit":           {"drvGetDevNum"},
		"rtsDeviceGetCapability":           {"drvGetDevNum"},
		"rtsDeviceGetInfo":                 {"drvGetDevNum", "drvDeviceGetPhyIdByIndex", "halGetDeviceSplitMode"},
		"rtDeviceGetPCIBusId":              {"drvGetDevNum"},
		"rtDeviceGetByPCIBusId":            {"drvGetDevNum"},
		"rtGetDeviceUuid":                  {"drvGetDevNum"},
		"rtHostMemMapCapabilities":         {"drvGetDevNum"},
		"rtMallocPhysical":                 {"drvGetDevNum"},
		"rtMemGetAllocationGranularity":    {"drvGetDevNum"},
		"rtMemImportFromShareableHandle":   {"drvGetDevNum"},
		"rtMemImportFromShareableHandleV2": {"drvGetDevNum"},
		"rtMemManagedAdvise":               {"drvGetDevNum"},
		"rtMemManagedPrefetchAsync":        {"drvGetDevNum"},
		"rtMemManagedPrefetchBatchAsync":   {"drvGetDevNum"},
		"rtMemPrefetchToDevice":            {"drvGetDevNum"},
		"rtsGetLogicDevIdByUserDevId":      {"drvGetDevNum"},
		"rtGetMemUsageInfo":                {"drvGetDevNum"},
		"rtGetDeviceInfo":                  {"drvGetDevNum"},
		"rtGetDevicePhyIdByIndex":          {"drvDeviceGetPhyIdByIndex"},
		"rtsGetPhyDevIdByLogicDevId":       {"drvDeviceGetPhyIdByIndex"},
		"rtsGetLogicDevIdByPhyDevId":       {"drvDeviceGetIndexByPhyId"},
		"rtGetRunMode":                     {"drvGetPlatformInfo"},
		"rtGetSocVersion":                  {"halGetSocVersion"},
		"rtsEventGetAvailNum":              {"halResourceInfoQuery"},
		"rtsStreamGetAvailableNum":         {"halResourceInfoQuery"},
	} {
		Crossings[rt] = addDrv(Crossings[rt], drv...)
	}
	const (
		noDeviceSide = "npuemu runs on the host side only (drvGetPlatformInfo answers 1): no path of npuemu's runtime branches on the platform, so it asks only where it reports it (rtGetRunMode)"
		noChipCap    = "npuemu's driver does not implement halGetChipCapability (hal/support.go: struct halCapabilityInfo's fields are not explained), so npuemu's runtime has no answer to ask for"
		driverIndex  = "npuemu's driver takes the device index where the vendor's takes the physical id, and its physical ids are its indexes (hal/device.go), so no translation is asked"
		noOpen       = "the driver's open/close pair (drvMemDeviceOpen/drvMemDeviceClose) has no counterpart in npuemu's runtime: its device open is the node's (rt/core openDeviceLocked), which needs no driver handle"
	)
	for drv, why := range map[string]string{
		"halGetAPIVersion":       "rtsDeviceGetCapability answers from the SoC catalogue (neither documented feature is modelled); no path of npuemu's runtime depends on the driver's API version",
		"halGetDeviceInfoByBuff": "npuemu's driver does not implement it (hal/support.go: no documented (module, info) pair or buffer layout), so rtGetDeviceUuid, rtDeviceGetPCIBusId, rtDeviceGetByPCIBusId, rtsGetErrorVerbose and rtGetMemUceInfo stay answered by the runtime (commit f4d6fbb): a driver that cannot answer cannot carry the work",
		"halSetDeviceInfoByBuff": "npuemu's driver does not implement it (no settable pair is documented); rtDeviceL2CacheFlush has no L2 to flush and checks its arguments only",
		"halGetChipCapability":   noChipCap,
		"drvMemDeviceOpen":       noOpen,
		"drvMemDeviceClose":      noOpen,
		"halSupportFeature":      "npuemu's driver answers false for every feature (hal/device.go) and npuemu's runtime takes no branch on any of them: a probe whose answer is not used is not made",
	} {
		NotCrossed[drv] = why
	}
	for pair, why := range map[string]string{
		"rtCheckArchCompatibility drvGetDevNum":                     "compares NPU architectures from the SoC catalogue: no device is named, no count is needed",
		"rtCheckArchCompatibility halGetSocVersion":                 "compares NPU architectures from the SoC catalogue, not the reported name",
		"rtGetSocVersion drvGetDevNum":                              "asks the SoC name of device 0, which every node has",
		"rtsGetUserDevIdByLogicDevId drvGetDevNum":                  "the runtime's ASCEND_RT_VISIBLE_DEVICES table alone maps a physical id to a user id (acl/devid.go logicToUser); no count is needed",
		"rtGetDeviceInfo drvDeviceGetPhyIdByIndex":                  driverIndex,
		"rtsDeviceGetCapability drvDeviceGetPhyIdByIndex":           driverIndex,
		"rtSetDevice drvDeviceGetPhyIdByIndex":                      driverIndex,
		"rtSetDeviceWithoutTsd drvDeviceGetPhyIdByIndex":            driverIndex,
		"rtCtxCreateEx drvDeviceGetPhyIdByIndex":                    driverIndex,
		"rtMemUceRepair drvDeviceGetPhyIdByIndex":                   driverIndex,
		"rtsRepairError drvDeviceGetPhyIdByIndex":                   driverIndex,
		"rtIpcOpenEventHandle drvDeviceGetPhyIdByIndex":             driverIndex,
		"rtIpcOpenEventHandle drvDeviceGetIndexByPhyId":             driverIndex,
		"rtMemImportFromShareableHandle drvDeviceGetPhyIdByIndex":   driverIndex,
		"rtMemImportFromShareableHandle drvDeviceGetIndexByPhyId":   driverIndex,
		"rtMemImportFromShareableHandleV2 drvDeviceGetPhyIdByIndex": driverIndex,
		"rtMemImportFromShareableHandleV2 drvDeviceGetIndexByPhyId": driverIndex,
		"rtMemPrefetchToDevice drvDeviceGetIndexByPhyId":            driverIndex,
		"rtsIpcMemImportByKey drvDeviceGetPhyIdByIndex":             driverIndex,
		"rtsIpcMemImportByKey drvDeviceGetIndexByPhyId":             driverIndex,
		"rtsNotifyImportByKey drvDeviceGetPhyIdByIndex":             driverIndex,
		"rtsNotifyImportByKey drvDeviceGetIndexByPhyId":             driverIndex,
		"rtsNotifyCreate drvDeviceGetPhyIdByIndex":                  driverIndex,
		"rtsNotifyWaitAndReset drvDeviceGetPhyIdByIndex":            driverIndex,
		"rtModelExecute drvDeviceGetPhyIdByIndex":                   driverIndex,
		"rtSnapShotProcessRestore drvDeviceGetPhyIdByIndex":         driverIndex,
		"rtStreamAddCondTask drvDeviceGetPhyIdByIndex":              driverIndex,
		"rtStreamEndCapture drvDeviceGetPhyIdByIndex":               driverIndex,
		"rtsActiveStream drvDeviceGetPhyIdByIndex":                  driverIndex,
		"rtsEndGraph drvDeviceGetPhyIdByIndex":                      driverIndex,
		"rtBinaryUnLoad drvGetPlatformInfo":                         noDeviceSide,
		"rtCtxCreateEx drvGetPlatformInfo":                          noDeviceSide,
		"rtDeviceCanAccessPeer drvGetPlatformInfo":                  noDeviceSide,
		"rtGetFuncBySymbol drvGetPlatformInfo":                      noDeviceSide,
		"rtGetFuncHandleFromExceptionInfo drvGetPlatformInfo":       noDeviceSide,
		"rtGetGroupCount drvGetPlatformInfo":                        noDeviceSide,
		"rtGetGroupInfo drvGetPlatformInfo":                         noDeviceSide,
		"rtSetGroup drvGetPlatformInfo":                             noDeviceSide,
		"rtLaunchKernelWithArgsArray drvGetPlatformInfo":            noDeviceSide,
		"rtModelExecute drvGetPlatformInfo":                         noDeviceSide,
		"rtSetDevice drvGetPlatformInfo":                            noDeviceSide,
		"rtSetDeviceWithoutTsd drvGetPlatformInfo":                  noDeviceSide,
		"rtSnapShotProcessRestore drvGetPlatformInfo":               noDeviceSide,
		"rtStreamBeginCapture drvGetPlatformInfo":                   noDeviceSide,
		"rtStreamBeginCaptureToModel drvGetPlatformInfo":            noDeviceSide,
		"rtStreamCreate drvGetPlatformInfo":                         noDeviceSide,
		"rtStreamEndCapture drvGetPlatformInfo":                     noDeviceSide,
		"rtsFuncGetByName drvGetPlatformInfo":                       noDeviceSide,
		"rtsModelAbort drvGetPlatformInfo":                          noDeviceSide,
		"rtsModelExecute drvGetPlatformInfo":                        noDeviceSide,
		"rtsModelLoadComplete drvGetPlatformInfo":                   noDeviceSide,
		"rtsRegisterCpuFunc drvGetPlatformInfo":                     noDeviceSide,
		"rtsStreamCreate drvGetPlatformInfo":                        noDeviceSide,
	} {
		NotCrossedPairs[pair] = why
	}
}

// addDrv appends the driver calls of more that list lacks.
func addDrv(list []string, more ...string) []string {
	for _, d := range more {
		if !slices.Contains(list, d) {
			list = append(list, d)
		}
	}
	return list
}
