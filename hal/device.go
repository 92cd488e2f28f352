package hal

import (
	"runtime"
	"strings"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// Device enumeration and information (hal-api.md §4). Logical and physical
// device ids are the same on an emulated node (no container remapping), so
// the id translations are the identity over 0..DeviceCount-1.

// PlatformHost is drvGetPlatformInfo's answer on the host side: npuemu runs
// where the application runs, which is always the host.
const PlatformHost = 1

// GetDevNum implements drvGetDevNum.
func GetDevNum(num *uint32) error {
	const fn = "drvGetDevNum"
	if num == nil {
		return nullArg(fn, "num_dev")
	}
	n, err := node(fn)
	if err != nil {
		return err
	}
	*num = uint32(n.DeviceCount())
	return nil
}

// GetDevIDs implements drvGetDevIDs (fn "drvGetDevIDs", physical ids) and
// drvGetDeviceLocalIDs (logical ids), which agree on an emulated node. out
// is the caller's array (nil for NULL); it must hold every device.
func GetDevIDs(fn string, out []uint32) error {
	if out == nil {
		return nullArg(fn, "devices")
	}
	n, err := node(fn)
	if err != nil {
		return err
	}
	c := n.DeviceCount()
	if len(out) < c {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: len %d is less than the %d devices of the node", fn, len(out), c)
	}
	for i := range c {
		out[i] = uint32(i)
	}
	return nil
}

// PhyIDByIndex implements drvDeviceGetPhyIdByIndex.
func PhyIDByIndex(index uint32, phy *uint32) error {
	const fn = "drvDeviceGetPhyIdByIndex"
	if phy == nil {
		return nullArg(fn, "phyId")
	}
	if _, err := nodeDevice(fn, index); err != nil {
		return err
	}
	*phy = index
	return nil
}

// IndexByPhyID implements drvDeviceGetIndexByPhyId.
func IndexByPhyID(phy uint32, index *uint32) error {
	const fn = "drvDeviceGetIndexByPhyId"
	if index == nil {
		return nullArg(fn, "devIndex")
	}
	if _, err := nodeDevice(fn, phy); err != nil {
		return err
	}
	*index = phy
	return nil
}

// PlatformInfo implements drvGetPlatformInfo.
func PlatformInfo(info *uint32) error {
	if info == nil {
		return nullArg("drvGetPlatformInfo", "info")
	}
	*info = PlatformHost
	return nil
}

// HALAPIVersion is __HAL_API_VERSION of ascend_hal_base.h,
// (major << 16) | (minor << 8) | patch. The generated abi constant starts
// with "__" and so is not exported to Go; libfake checks this copy against
// the header at compile time.
const HALAPIVersion = 0x07<<16 | 0x24<<8 | 0x18

// APIVersion implements halGetAPIVersion: the version of the headers npuemu
// is built from.
func APIVersion(v *int32) error {
	if v == nil {
		return nullArg("halGetAPIVersion", "halAPIVersion")
	}
	*v = HALAPIVersion
	return nil
}

// archType is the `arch` field of INFO_TYPE_VERSION: the platform ini's
// Arch_type per family (hal-api.md §4.1; that the two are equal is
// unconfirmed). 950 has no recorded value.
var archType = map[string]int64{
	emu.FamilyA2: 4, emu.FamilyA3: 4, emu.FamilyA1: 3, emu.Family310B: 2, emu.Family310P: 1, emu.Family950: 0,
}

// hardwareVersion is INFO_TYPE_VERSION: (arch << 16) | (chip << 8) | version,
// with the SoC's runtime chip id and version VER_NA (0).
func hardwareVersion(s emu.SoC) int64 {
	return archType[s.Family]<<16 | int64(s.ChipType)<<8
}

// productType is INFO_TYPE_PRODUCT_TYPE: 310P parts are PCIe cards, 310B
// parts boards; servers are "A+K" on an Arm host and "A+X" otherwise.
func productType(s emu.SoC) int64 {
	switch s.Family {
	case emu.Family310P:
		return abi.HAL_PRODUCT_TYPE_PCIE_CARD
	case emu.Family310B:
		return abi.HAL_PRODUCT_TYPE_EVB
	}
	if runtime.GOARCH == "arm64" {
		return abi.HAL_PRODUCT_TYPE_A_K
	}
	return abi.HAL_PRODUCT_TYPE_A_X
}

// envASIC is INFO_TYPE_ENV's value for production silicon (the runtime's
// 0 FPGA, 1 EMU, 2 ESL, 3 ASIC): an application must behave as on real
// chips, so npuemu does not call itself an emulation platform here.
const envASIC = 3

// documentedInfo lists the (module, info) pairs of hal-api.md §4.1: a pair
// in this set that deviceInfo does not answer is DRV_ERROR_NOT_SUPPORT (the
// real driver knows it, npuemu does not model it); any other pair is
// DRV_ERROR_INVALID_VALUE.
var documentedInfo = map[int32][]int32{
	abi.MODULE_TYPE_SYSTEM: {abi.INFO_TYPE_ENV, abi.INFO_TYPE_VERSION, abi.INFO_TYPE_MASTERID, abi.INFO_TYPE_CORE_NUM,
		abi.INFO_TYPE_SYS_COUNT, abi.INFO_TYPE_MONOTONIC_RAW, abi.INFO_TYPE_PHY_CHIP_ID, abi.INFO_TYPE_PHY_DIE_ID,
		abi.INFO_TYPE_HOST_OSC_FREQUE, abi.INFO_TYPE_DEV_OSC_FREQUE, abi.INFO_TYPE_SDID, abi.INFO_TYPE_SERVER_ID,
		abi.INFO_TYPE_SCALE_TYPE, abi.INFO_TYPE_SUPER_POD_ID, abi.INFO_TYPE_ADDR_MODE, abi.INFO_TYPE_RUN_MACH,
		abi.INFO_TYPE_MAINBOARD_ID, abi.INFO_TYPE_CUST_OP_ENHANCE, abi.INFO_TYPE_HD_CONNECT_TYPE, abi.INFO_TYPE_PRODUCT_TYPE,
		abi.INFO_TYPE_CHASSIS_ID, abi.INFO_TYPE_SUPER_POD_TYPE, abi.INFO_TYPE_BOARD_ID, abi.INFO_TYPE_VNIC_IP,
		abi.INFO_TYPE_SPOD_VNIC_IP, abi.INFO_TYPE_SLOT_ID, abi.INFO_TYPE_SWPLUGIN_UPGRADE_POLICY, abi.INFO_TYPE_SUPER_POD_INTERCON_TYPE},
	abi.MODULE_TYPE_AICPU: {abi.INFO_TYPE_CORE_NUM, abi.INFO_TYPE_OS_SCHED, abi.INFO_TYPE_IN_USED, abi.INFO_TYPE_ERROR_MAP,
		abi.INFO_TYPE_ID, abi.INFO_TYPE_OCCUPY, abi.INFO_TYPE_PF_CORE_NUM, abi.INFO_TYPE_PF_OCCUPY, abi.INFO_TYPE_UTILIZATION,
		abi.INFO_TYPE_WORK_MODE},
	abi.MODULE_TYPE_CCPU: {abi.INFO_TYPE_CORE_NUM, abi.INFO_TYPE_ID, abi.INFO_TYPE_OCCUPY, abi.INFO_TYPE_IP,
		abi.INFO_TYPE_ENDIAN, abi.INFO_TYPE_OS_SCHED},
	abi.MODULE_TYPE_DCPU: {abi.INFO_TYPE_CORE_NUM, abi.INFO_TYPE_OS_SCHED},
	abi.MODULE_TYPE_AICORE: {abi.INFO_TYPE_CORE_NUM, abi.INFO_TYPE_CORE_NUM_LEVEL, abi.INFO_TYPE_IN_USED,
		abi.INFO_TYPE_ERROR_MAP, abi.INFO_TYPE_ID, abi.INFO_TYPE_FREQUE, abi.INFO_TYPE_FREQUE_LEVEL,
		abi.INFO_TYPE_UTILIZATION, abi.INFO_TYPE_DIE_NUM},
	abi.MODULE_TYPE_VECTOR_CORE: {abi.INFO_TYPE_CORE_NUM, abi.INFO_TYPE_FREQUE, abi.INFO_TYPE_UTILIZATION},
	abi.MODULE_TYPE_TSCPU:       {abi.INFO_TYPE_CORE_NUM, abi.INFO_TYPE_OS_SCHED, abi.INFO_TYPE_FFTS_TYPE},
	abi.MODULE_TYPE_PCIE:        {abi.INFO_TYPE_ID},
	abi.MODULE_TYPE_HOST_AICPU:  {abi.INFO_TYPE_CORE_NUM, abi.INFO_TYPE_OCCUPY, abi.INFO_TYPE_WORK_MODE, abi.INFO_TYPE_FREQUE},
	abi.MODULE_TYPE_HCOM_CPU:    {abi.INFO_TYPE_CORE_NUM},
}

// infoKey is one (module, info) pair.
type infoKey struct{ module, info int32 }

// deviceInfo answers the pairs npuemu models from the SoC catalogue; ok is
// false for the others.
func deviceInfo(s emu.SoC, dev uint32, module, info int32) (v int64, ok bool) {
	ok = true
	switch (infoKey{module, info}) {
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_ENV}:
		v = envASIC
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_VERSION}:
		v = hardwareVersion(s)
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_CORE_NUM}, // task schedulers per device
		infoKey{abi.MODULE_TYPE_TSCPU, abi.INFO_TYPE_CORE_NUM}:
		v = 1
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_PHY_CHIP_ID}:
		v = int64(dev)
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_PHY_DIE_ID},
		infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_MAINBOARD_ID}:
		v = 0
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_ADDR_MODE}:
		v = abi.ADDR_MODE_INDEPENDENT
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_RUN_MACH}:
		v = abi.RUN_MACHINE_PHYCICAL
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_HD_CONNECT_TYPE}:
		v = abi.HOST_DEVICE_CONNECT_TYPE_PCIE
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_PRODUCT_TYPE}:
		v = productType(s)
	case infoKey{abi.MODULE_TYPE_SYSTEM, abi.INFO_TYPE_SERVER_ID}:
		// One emulated server: id 0 (the runtime asks on every SoC).
		v = 0
	case infoKey{abi.MODULE_TYPE_AICPU, abi.INFO_TYPE_CORE_NUM},
		infoKey{abi.MODULE_TYPE_AICPU, abi.INFO_TYPE_PF_CORE_NUM}:
		v = int64(s.AICPUs)
	case infoKey{abi.MODULE_TYPE_AICPU, abi.INFO_TYPE_OCCUPY},
		infoKey{abi.MODULE_TYPE_AICPU, abi.INFO_TYPE_PF_OCCUPY}:
		// Bitmap of the AI CPUs given to applications: all of them.
		v = int64(1)<<s.AICPUs - 1
	case infoKey{abi.MODULE_TYPE_AICORE, abi.INFO_TYPE_CORE_NUM}:
		v = int64(s.AICores)
	case infoKey{abi.MODULE_TYPE_AICORE, abi.INFO_TYPE_FREQUE},
		infoKey{abi.MODULE_TYPE_VECTOR_CORE, abi.INFO_TYPE_FREQUE}:
		v = int64(s.CubeMHz)
	case infoKey{abi.MODULE_TYPE_AICORE, abi.INFO_TYPE_DIE_NUM}:
		v = 1
	case infoKey{abi.MODULE_TYPE_VECTOR_CORE, abi.INFO_TYPE_CORE_NUM}:
		v = int64(s.VectorCores)
	default:
		ok = false
	}
	return v, ok
}

// DeviceInfo implements halGetDeviceInfo.
func DeviceInfo(dev uint32, module, info int32, value *int64) error {
	const fn = "halGetDeviceInfo"
	if value == nil {
		return nullArg(fn, "value")
	}
	n, err := nodeDevice(fn, dev)
	if err != nil {
		return err
	}
	if v, ok := deviceInfo(n.SoC(), dev, module, info); ok {
		*value = v
		return nil
	}
	for _, i := range documentedInfo[module] {
		if i == info {
			return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT,
				"%s: module %d info %d is not modelled by npuemu", fn, module, info)
		}
	}
	return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: module %d has no info type %d", fn, module, info)
}

// SocVersion implements halGetSocVersion: the SoC name, NUL-terminated, in
// buf (nil for NULL), which must hold it.
func SocVersion(dev uint32, buf []byte) error {
	const fn = "halGetSocVersion"
	if buf == nil {
		return nullArg(fn, "socVersion")
	}
	n, err := nodeDevice(fn, dev)
	if err != nil {
		return err
	}
	name := n.SoC().Name
	if len(buf) < len(name)+1 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: len %d cannot hold %q and its NUL (%d bytes)", fn, len(buf), name, len(name)+1)
	}
	copy(buf, name)
	buf[len(name)] = 0
	return nil
}

// GetChipInfo implements halGetChipInfo: type "Ascend", the SoC name
// without that prefix ("910B3"), version "V1" (the format npu-smi shows;
// unconfirmed by the spec).
func GetChipInfo(dev uint32, out *ChipInfo) error {
	const fn = "halGetChipInfo"
	if out == nil {
		return nullArg(fn, "chipInfo")
	}
	n, err := nodeDevice(fn, dev)
	if err != nil {
		return err
	}
	*out = ChipInfo{}
	copy(out.Type[:31], "Ascend")
	copy(out.Name[:31], strings.TrimPrefix(n.SoC().Name, "Ascend"))
	copy(out.Version[:31], "V1")
	return nil
}

// Device kinds of halGetDevNumEx.
const (
	hwDavinci = 0
	hwKunpeng = 1
)

// DevNumEx implements halGetDevNumEx: hw_type 0 counts NPUs (as
// drvGetDevNum), 1 counts Kunpeng devices, of which a node has none.
func DevNumEx(hwType uint32, num *uint32) error {
	const fn = "halGetDevNumEx"
	if num == nil {
		return nullArg(fn, "devNum")
	}
	switch hwType {
	case hwDavinci:
		n, err := node(fn)
		if err != nil {
			return err
		}
		*num = uint32(n.DeviceCount())
	case hwKunpeng:
		*num = 0
	default:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: hw_type %d is neither 0 (davinci) nor 1 (kunpeng)", fn, hwType)
	}
	return nil
}

// VdevNum implements halGetVdevNum: npuemu never splits devices into
// virtual ones.
func VdevNum(num *uint32) error {
	const fn = "halGetVdevNum"
	if num == nil {
		return nullArg(fn, "num_dev")
	}
	if _, err := node(fn); err != nil {
		return err
	}
	*num = 0
	return nil
}

// DeviceSplitMode implements halGetDeviceSplitMode: every device is whole.
func DeviceSplitMode(dev uint32, mode *uint32) error {
	const fn = "halGetDeviceSplitMode"
	if mode == nil {
		return nullArg(fn, "mode")
	}
	if _, err := nodeDevice(fn, dev); err != nil {
		return err
	}
	*mode = abi.VMNG_NORMAL_NONE_SPLIT_MODE
	return nil
}

// features says, per drvFeature_t, whether npuemu provides it. Each is
// false until the work it names exists: user-malloc attributes, batch
// copies, host UVA, VMM and registration queries belong to the SVM work;
// the TS/DMS/APM ones have no emulated counterpart.
var features = [abi.FEATURE_MAX]bool{}

// SupportFeature implements halSupportFeature. An invalid device or
// feature answers false with an error for the recent-error message.
func SupportFeature(dev uint32, feature int32) (bool, error) {
	const fn = "halSupportFeature"
	if _, err := nodeDevice(fn, dev); err != nil {
		return false, err
	}
	if feature < 0 || feature >= abi.FEATURE_MAX {
		return false, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: feature %d out of range (0..%d)", fn, feature, abi.FEATURE_MAX-1)
	}
	return features[feature], nil
}

// ResourceInfoQuery implements halResourceInfoQuery for the stream, event
// and notify ids of the device's one task scheduler (tsId 0). UsedNum is
// exact for events (the scheduler's id pool); stream and notify ids are
// allocated above the driver model and read 0.
func ResourceInfoQuery(dev, ts uint32, typ int32, out *ResourceInfo) error {
	const fn = "halResourceInfoQuery"
	if out == nil {
		return nullArg(fn, "info")
	}
	n, err := nodeDevice(fn, dev)
	if err != nil {
		return err
	}
	if ts != 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: tsId %d: a device has one task scheduler (tsId 0)", fn, ts)
	}
	s := n.SoC()
	r := ResourceInfo{}
	switch typ {
	case abi.DRV_RESOURCE_STREAM_ID:
		r.Capacity = uint32(s.MaxStreams)
	case abi.DRV_RESOURCE_EVENT_ID:
		r.Capacity = uint32(s.MaxEvents)
		if d := n.Opened(int(dev)); d != nil {
			r.UsedNum = uint32(d.TS.EventsInUse())
		}
	case abi.DRV_RESOURCE_NOTIFY_ID:
		r.Capacity = uint32(s.MaxNotifies)
	case abi.DRV_RESOURCE_MODEL_ID, abi.DRV_RESOURCE_CMO_ID, abi.DRV_RESOURCE_SQ_ID, abi.DRV_RESOURCE_CQ_ID, abi.DRV_RESOURCE_CNT_NOTIFY_ID:
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: resource type %d is not modelled by npuemu", fn, typ)
	default:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: resource type %d out of range (0..%d)", fn, typ, abi.DRV_RESOURCE_INVALID_ID-1)
	}
	*out = r
	return nil
}
