package acl

import (
	"fmt"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
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
	var recs []emu.ModuleUsage
	if node := core.Runtime.Node.Load(); node != nil {
		recs = node.Opened(int(devID)).MemUsage() // nil device: nothing used
	}
	k := min(len(recs), len(out))
	for i := range k {
		out[i] = core.MemUsageInfo{Cur: recs[i].Cur, Peak: recs[i].Peak}
		copy(out[i].Name[:len(out[i].Name)-1], moduleName(recs[i].Module))
	}
	*n = uint64(k)
	return nil
}
