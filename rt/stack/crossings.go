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
}

// NotCrossed lists the driver calls of rt-to-hal.tsv that npuemu's runtime
// does not make through the driver's symbols, with why. A driver call
// named here is not made by any rt* function; a pair can also be excused
// alone (NotCrossedPairs).
var NotCrossed = map[string]string{}

// NotCrossedPairs excuses one (rt* function, driver call) pair of
// rt-to-hal.tsv, keyed "rtX halY", with why.
var NotCrossedPairs = map[string]string{}

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
