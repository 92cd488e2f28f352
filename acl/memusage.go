package acl

import (
	"fmt"
	"sort"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// Per-module device-memory accounting for aclrtGetMemUsageInfo. Charged:
// aclrtMalloc* blocks (page-rounded, to the moduleId of aclrtMallocWithCfg,
// APP by default), memory-pool reservations (APP), VMM physical device
// memory of aclrtMallocPhysical (the prop's module: APP, the ACL prop has
// no module field) from the allocation to aclrtFreePhysical, and device
// memory of halMemAlloc (page-rounded, to the module id of bits 56–63 of
// its flag word) through the node's platform (emu.Platform.NoteUsage), which
// libfake's platform sets to NoteDeviceUsage. Host and managed memory are not device memory and are
// not counted.

// MemUsageInfo is aclrtMemUsageInfo (112 bytes).
type MemUsageInfo struct {
	Name     [32]byte
	Cur      uint64
	Peak     uint64
	Reserved [8]uint64
}

type modUsage struct{ cur, peak uint64 }

// memUsage holds the counters per emulated device and module. They are
// keyed by the emu device, which the ACL runtime and the HAL share, so
// memory of both surfaces adds up; devices of a closed node (aclFinalize)
// are dropped at the next query. Lock order: rt.mu → memPool.mu →
// memUsage.mu (leaf).
var memUsage struct {
	mu sync.Mutex
	m  map[*emu.Device]map[uint16]*modUsage
}

// noteUsage charges delta bytes (negative: released) to module on d.
func noteUsage(d *device, module uint16, delta int64) { NoteDeviceUsage(d.emu, module, delta) }

// NoteDeviceUsage charges delta bytes (negative: released) of device
// memory to module on d; the HAL reports halMemAlloc memory through it.
func NoteDeviceUsage(d *emu.Device, module uint16, delta int64) {
	if d == nil || delta == 0 {
		return
	}
	memUsage.mu.Lock()
	defer memUsage.mu.Unlock()
	if memUsage.m == nil {
		memUsage.m = map[*emu.Device]map[uint16]*modUsage{}
	}
	mods := memUsage.m[d]
	if mods == nil {
		mods = map[uint16]*modUsage{}
		memUsage.m[d] = mods
	}
	u := mods[module]
	if u == nil {
		u = &modUsage{}
		mods[module] = u
	}
	if delta < 0 {
		u.cur -= min(u.cur, uint64(-delta))
	} else {
		u.cur += uint64(delta)
		u.peak = max(u.peak, u.cur)
	}
}

// mallocModule returns the moduleId of an aclrtMallocWithCfg config
// (APP when absent).
func mallocModule(attrs []MallocConfigAttr) uint16 {
	m := uint16(abi.APP_MODULE_ID)
	for _, a := range attrs {
		if a.Attr == abi.ACL_RT_MEM_ATTR_MODULE_ID {
			m = uint16(a.Value)
		}
	}
	return m
}

// moduleNames names the driver's module ids (hal_pkg/common_pkg.h, less
// the _MODULE_ID suffix).
var moduleNames = map[uint16]string{
	abi.UNKNOWN_MODULE_ID: "UNKNOWN", abi.IDEDD_MODULE_ID: "IDEDD", abi.IDEDH_MODULE_ID: "IDEDH",
	abi.HCCL_HAL_MODULE_ID: "HCCL_HAL", abi.FMK_MODULE_ID: "FMK", abi.HIAIENGINE_MODULE_ID: "HIAIENGINE",
	abi.DVPP_MODULE_ID: "DVPP", abi.RUNTIME_MODULE_ID: "RUNTIME", abi.CCE_MODULE_ID: "CCE",
	abi.HLT_MODULE_ID: "HLT", abi.DEVMM_MODULE_ID: "DEVMM", abi.TSDRV_MODULE_ID: "TSDRV",
	abi.LIBMEDIA_MODULE_ID: "LIBMEDIA", abi.CCECPU_MODULE_ID: "CCECPU", abi.ASCENDDK_MODULE_ID: "ASCENDDK",
	abi.HCCP_SCHE_MODULE_ID: "HCCP_SCHE", abi.HCCP_HAL_MODULE_ID: "HCCP_HAL", abi.ROCE_MODULE_ID: "ROCE",
	abi.TEFUSION_MODULE_ID: "TEFUSION", abi.PROFILING_MODULE_ID: "PROFILING", abi.DP_MODULE_ID: "DP",
	abi.APP_MODULE_ID: "APP", abi.TSDUMP_MODULE_ID: "TSDUMP", abi.AICPU_MODULE_ID: "AICPU",
	abi.AICPU_SCHE_MODULE_ID: "AICPU_SCHE", abi.TDT_MODULE_ID: "TDT", abi.FE_MODULE_ID: "FE",
	abi.MD_MODULE_ID: "MD", abi.MB_MODULE_ID: "MB", abi.ME_MODULE_ID: "ME", abi.GE_MODULE_ID: "GE",
	abi.ASCENDCL_MODULE_ID: "ASCENDCL", abi.PROCMGR_MODULE_ID: "PROCMGR", abi.AIVECTOR_MODULE_ID: "AIVECTOR",
	abi.TBE_MODULE_ID: "TBE", abi.FV_MODULE_ID: "FV", abi.TUNE_MODULE_ID: "TUNE", abi.HSS_MODULE_ID: "HSS",
	abi.FFTS_MODULE_ID: "FFTS", abi.OP_MODULE_ID: "OP", abi.UDF_MODULE_ID: "UDF", abi.HICAID_MODULE_ID: "HICAID",
	abi.TSYNC_MODULE_ID: "TSYNC", abi.AUDIO_MODULE_ID: "AUDIO", abi.TPRT_MODULE_ID: "TPRT",
	abi.ASCENDCKERNEL_MODULE_ID: "ASCENDCKERNEL", abi.ASYS_MODULE_ID: "ASYS", abi.ATRACE_MODULE_ID: "ATRACE",
	abi.RTC_MODULE_ID: "RTC", abi.SYSMONITOR_MODULE_ID: "SYSMONITOR", abi.AML_MODULE_ID: "AML",
	abi.MBUFF_MODULE_ID: "MBUFF", abi.CUSTOM_SCHE_MODULE_ID: "CUSTOM_SCHE",
}

func moduleName(m uint16) string {
	if n, ok := moduleNames[m]; ok {
		return n
	}
	return fmt.Sprintf("MODULE_%d", m)
}

// GetMemUsageInfo implements aclrtGetMemUsageInfo: one record per module
// that has held memory on the device, by current usage descending (then
// peak descending, then module id), at most len(out); *n is the number
// written. A device the runtime has not opened has used nothing.
func GetMemUsageInfo(t *Thread, devID int32, out []MemUsageInfo, n *uint64) error {
	const fn = "aclrtGetMemUsageInfo"
	if len(out) == 0 || n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memUsageInfo and outputNum must not be NULL and inputNum not 0", fn)
	}
	if _, _, err := soc(fn); err != nil {
		return err
	}
	if err := checkDeviceID(fn, devID); err != nil {
		return err
	}
	type rec struct {
		id uint16
		u  modUsage
	}
	var recs []rec
	node := rt.node.Load()
	var d *emu.Device
	if node != nil {
		d = node.Opened(int(devID))
	}
	memUsage.mu.Lock()
	for old := range memUsage.m { // devices of a closed node
		if node == nil || node.Opened(old.ID) != old {
			delete(memUsage.m, old)
		}
	}
	for id, u := range memUsage.m[d] {
		recs = append(recs, rec{id, *u})
	}
	memUsage.mu.Unlock()
	sort.Slice(recs, func(i, j int) bool {
		a, b := recs[i], recs[j]
		if a.u.cur != b.u.cur {
			return a.u.cur > b.u.cur
		}
		if a.u.peak != b.u.peak {
			return a.u.peak > b.u.peak
		}
		return a.id < b.id
	})
	k := min(len(recs), len(out))
	for i := range k {
		out[i] = MemUsageInfo{Cur: recs[i].u.cur, Peak: recs[i].u.peak}
		copy(out[i].Name[:len(out[i].Name)-1], moduleName(recs[i].id))
	}
	*n = uint64(k)
	return nil
}

// vmmCharge is what an aclrtMallocPhysical handle charged.
type vmmCharge struct {
	d      *emu.Device
	module uint16
	size   uint64
}

// vmmUsage maps the live aclrtMallocPhysical handles of device memory to
// their charge; handles of a closed node are dropped at the next charge.
var vmmUsage struct {
	mu   sync.Mutex
	node *emu.Node
	m    map[uint64]vmmCharge
}

// chargePhysical charges a new VMM physical allocation h of size bytes to
// the module of its prop; host memory is not device memory.
func chargePhysical(h, size uint64, p emu.PhysProp) {
	n := rt.node.Load()
	if p.Host || n == nil {
		return
	}
	d := n.Opened(p.Dev)
	if d == nil {
		return
	}
	c := vmmCharge{d: d, module: uint16(p.Module), size: size}
	vmmUsage.mu.Lock()
	if vmmUsage.node != n {
		vmmUsage.node, vmmUsage.m = n, map[uint64]vmmCharge{}
	}
	vmmUsage.m[h] = c
	vmmUsage.mu.Unlock()
	NoteDeviceUsage(c.d, c.module, int64(c.size))
}

// dischargePhysical releases the charge of handle h once its last
// reference is gone (imported handles charged nothing: the memory is the
// exporter's).
func dischargePhysical(h uint64) {
	vmmUsage.mu.Lock()
	c, ok := vmmUsage.m[h]
	delete(vmmUsage.m, h)
	vmmUsage.mu.Unlock()
	if ok {
		NoteDeviceUsage(c.d, c.module, -int64(c.size))
	}
}
