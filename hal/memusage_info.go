package hal

import (
	"fmt"

	"github.com/npuemu/npuemu/abi"
)

// halGetMemUsageInfo: the per-module device memory the device model
// accounts (emu.Device.NoteUsage / MemUsage), the same records
// aclrtGetMemUsageInfo reads, so both APIs answer alike. Decisions where
// the documentation gives only the prototype and struct mem_module_usage
// (docs/hal.md, "Memory usage per module"):
//   - one record per module that has held memory on the device, by current
//     usage descending (then peak descending, then module id), at most
//     in_num; *out_num is the number written;
//   - name is the module's name from hal_pkg/common_pkg.h less its
//     _MODULE_ID suffix ("APP", "RUNTIME", ...), MODULE_<id> for an id the
//     header does not name; cur_mem_size and mem_peak_size are bytes;
//     reserved is zeroed;
//   - NULL mem_usage or out_num, or in_num 0, is DRV_ERROR_INVALID_VALUE
//     (as aclrtGetMemUsageInfo refuses inputNum 0); a device nobody has
//     opened has used nothing (*out_num 0).

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

// ModuleName is the name of driver module id m as the usage records give
// it: "APP" for APP_MODULE_ID, MODULE_<m> for an id the header does not
// name.
func ModuleName(m uint16) string {
	if n, ok := moduleNames[m]; ok {
		return n
	}
	return fmt.Sprintf("MODULE_%d", m)
}

// GetMemUsageInfo implements halGetMemUsageInfo: out is the caller's
// array of in_num records (nil for NULL).
func GetMemUsageInfo(dev uint32, out []MemModuleUsage, outNum *uint64) error {
	const fn = "halGetMemUsageInfo"
	switch {
	case out == nil:
		return nullArg(fn, "mem_usage")
	case outNum == nil:
		return nullArg(fn, "out_num")
	case len(out) == 0:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: in_num must not be 0", fn)
	}
	n, err := nodeDevice(fn, dev)
	if err != nil {
		return err
	}
	recs := n.Opened(int(dev)).MemUsage() // nil device: nothing used
	k := min(len(recs), len(out))
	for i := range k {
		out[i] = MemModuleUsage{Cur_mem_size: recs[i].Cur, Mem_peak_size: recs[i].Peak}
		copy(out[i].Name[:len(out[i].Name)-1], ModuleName(recs[i].Module))
	}
	*outNum = uint64(k)
	return nil
}
