package hal

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
)

// The HAL support table: one entry per driver symbol of abi.Symbols (Lib
// "hal", and "dsmi" for libdrvdsmi_host.so, which npuemu does not ship
// yet), printed by `npuemu compat` and used by libfake's unsupported shims,
// whose calls return the entry's drvError_t. It is written as a
// default per area plus per-symbol overrides; when a libfake export lands,
// flip its symbol with one line in symbolRules, e.g.
//
//	"drvGetDevNum": supported("number of emulated devices"),

// rule is the status of a symbol or of an area's symbols.
type rule struct {
	status abi.Status
	note   string
}

func supported(note string) rule { return rule{status: abi.Supported, note: note} }
func partial(note string) rule   { return rule{status: abi.Partial, note: note} }

// notImplemented answers DRV_ERROR_NOT_SUPPORT, the driver's code for an
// operation it does not provide.
func notImplemented(note string) rule { return rule{status: abi.Unsupported, note: note} }

var (
	_ = supported
	_ = partial
)

const (
	memoryWork = "not implemented yet: HAL memory, VMM, sharing and UVM are SVM/HAL issue #5"
	deviceWork = "not implemented yet: HAL device queries (applications reach devices through ACL)"
	dsmiWork   = "not shipped yet: npuemu has no libdrvdsmi_host.so; `npuemu info` shows the node"
)

// areaRules is the default rule of every HAL area.
var areaRules = map[string]rule{
	"mem":    notImplemented(memoryWork),
	"device": notImplemented(deviceWork),
	"dsmi":   notImplemented(dsmiWork),
}

// symbolRules overrides areaRules for single symbols.
var symbolRules = map[string]rule{
	"drvGetDevNum":             supported("number of emulated devices (NPUEMU_DEVICES)"),
	"drvGetDevIDs":             supported("ids 0..n-1; physical ids equal logical ids"),
	"drvGetDeviceLocalIDs":     supported("ids 0..n-1; physical ids equal logical ids"),
	"drvDeviceGetPhyIdByIndex": supported("identity: physical ids equal logical ids"),
	"drvDeviceGetIndexByPhyId": supported("identity: physical ids equal logical ids"),
	"drvGetPlatformInfo":       supported("1: npuemu always runs on the host side"),
	"halGetAPIVersion":         supported("__HAL_API_VERSION of the headers"),
	"halGetDeviceInfo":         partial("core counts, frequency, VERSION, PHY_CHIP_ID, RUN_MACH, ADDR_MODE, PRODUCT_TYPE, HD_CONNECT_TYPE, ...; other documented pairs DRV_ERROR_NOT_SUPPORT (docs/hal.md)"),
	"halGetSocVersion":         supported("the SoC name, e.g. Ascend910B3"),
	"halGetChipInfo":           supported("type Ascend, name without the prefix, version V1"),
	"halGetDevNumEx":           supported("hw_type 0: NPUs; 1: Kunpeng (none)"),
	"halGetVdevNum":            supported("0: devices are never split"),
	"halSupportFeature":        supported("false for every feature npuemu does not provide (all, for now)"),
	"halResourceInfoQuery":     partial("stream/event/notify capacities of the SoC; usedNum counts events only"),
	"halGetDeviceSplitMode":    supported("VMNG_NORMAL_NONE_SPLIT_MODE"),
	"halMemAlloc":              partial("MEM_DEV and MEM_HOST; SVM/UVM/host-agent/DVPP/reserve kinds DRV_ERROR_NOT_SUPPORT (SVM memory not implemented yet)"),
	"halMemFree":               supported("halMemAlloc memory only; ACL allocations are refused"),
	"halMemGetInfo":            partial("DDR/HBM size types; the pool is reported as normal pages; NUMA/address-check types DRV_ERROR_NOT_SUPPORT"),
	"halMemGetInfoEx":          partial("as halMemGetInfo"),
	"drvMemcpy":                supported("synchronous, direction from the addresses, on the device's SDMA model"),
	"halMemcpy":                partial("device-to-host only, as the header documents"),
	"halSdmaCopy":              supported("not on Ascend950, not between devices (as documented)"),
	"drvMemsetD8":              supported("synchronous byte memset"),
	"drvMemGetAttribute":       partial("DV_MEM_LOCK_DEV / DV_MEM_LOCK_HOST; no SVM or user-malloc attributes"),
	"halMemGetAddressRange":    supported("device and pinned host allocations"),
}

var support = sync.OnceValues(func() ([]abi.Entry, map[string]int) {
	var list []abi.Entry
	index := map[string]int{}
	for _, s := range abi.Symbols {
		if s.Lib != "hal" && s.Lib != "dsmi" {
			continue
		}
		r, ok := symbolRules[s.Name]
		if !ok {
			r, ok = areaRules[s.Area]
		}
		if !ok {
			// A new area without a rule: TestSupportRules fails.
			r = notImplemented("no support rule for area " + s.Area)
		}
		e := abi.Entry{Symbol: s.Name, Lib: s.Lib, Area: s.Area, Status: r.status, Note: r.note}
		if r.status == abi.Unsupported {
			e.Code = int32(abi.DRV_ERROR_NOT_SUPPORT)
		}
		index[s.Name] = len(list)
		list = append(list, e)
	}
	return list, index
})

// Support returns the driver support table: one entry per HAL and DSMI
// symbol, in the order of abi.Symbols. The caller must not modify it.
func Support() []abi.Entry {
	list, _ := support()
	return list
}

// SupportOf returns the support entry of the HAL or DSMI symbol name.
func SupportOf(name string) (abi.Entry, bool) {
	list, index := support()
	i, ok := index[name]
	if !ok {
		return abi.Entry{}, false
	}
	return list[i], true
}
