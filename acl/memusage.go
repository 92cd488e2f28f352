package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// Per-module device-memory accounting for aclrtGetMemUsageInfo, kept by
// the device model (emu.Device.NoteUsage / MemUsage) so that the runtime's
// and the driver's allocations add up. Charged here: aclrtMalloc* blocks
// (page-rounded, to the moduleId of aclrtMallocWithCfg, APP by default),
// memory-pool reservations (APP), VMM physical device memory of
// aclrtMallocPhysical (the prop's module: APP, the ACL prop has no module
// field) from the allocation to aclrtFreePhysical; the HAL charges
// halMemAlloc and halMemCreate memory itself. Host and managed memory are
// not device memory and are not counted.

// mallocModule returns the moduleId of an aclrtMallocWithCfg config
// (APP when absent).
func mallocModule(attrs []core.MallocConfigAttr) uint16 {
	m := uint16(abi.APP_MODULE_ID)
	for _, a := range attrs {
		if a.Attr == abi.ACL_RT_MEM_ATTR_MODULE_ID {
			m = uint16(a.Value)
		}
	}
	return m
}

// GetMemUsageInfo implements aclrtGetMemUsageInfo: one record per module
// that has held memory on the device, by current usage descending (then
// peak descending, then module id), at most len(out); *n is the number
// written. A device the runtime has not opened has used nothing.
func GetMemUsageInfo(t *core.Thread, devID int32, out []core.MemUsageInfo, n *uint64) error {
	const fn = "aclrtGetMemUsageInfo"
	if len(out) == 0 || n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memUsageInfo and outputNum must not be NULL and inputNum not 0", fn)
	}
	if _, _, err := core.SoC(fn); err != nil {
		return err
	}
	if err := core.CheckDeviceID(fn, devID); err != nil {
		return err
	}
	// The records come from the driver (rtGetMemUsageInfo calls
	// halGetMemUsageInfo across the library boundary: rt/stack).
	recs := make([]hal.MemModuleUsage, len(out))
	var k uint64
	if err := stack.GetMemUsageInfo(uint32(devID), recs, &k); err != nil {
		return abi.Errorf(abi.RTCodeOf(err), "%s: halGetMemUsageInfo: %s", fn, abi.MessageOf(err))
	}
	k = min(k, uint64(len(out)))
	for i := range k {
		out[i] = core.MemUsageInfo{Name: recs[i].Name, Cur: recs[i].Cur_mem_size, Peak: recs[i].Mem_peak_size}
	}
	*n = k
	return nil
}
