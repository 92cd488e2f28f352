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
var symbolRules = map[string]rule{}

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
