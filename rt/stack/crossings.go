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

// NotCrossed lists the driver calls of rt-to-hal.tsv that npuemu's runtime
// does not make through the driver's symbols, with why. A driver call
// named here is not made by any rt* function; a pair can also be excused
// alone (NotCrossedPairs).
var NotCrossed = map[string]string{
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
