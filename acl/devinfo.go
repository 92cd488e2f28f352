package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// GetDeviceInfo implements aclrtGetDeviceInfo. SIMT attributes (202–212)
// read 0 except on 950, whose SIMT figures npuemu does not model; the
// 950-only attributes 408/409 fail elsewhere; SuperPOD ids exist on A3
// only.
func GetDeviceInfo(t *core.Thread, id uint32, attr int32, value *int64) error {
	const fn = "aclrtGetDeviceInfo"
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	d, err := core.OpenDevice(fn, int32(id))
	if err != nil {
		return err
	}
	s := d.Emu.SoC
	is950 := s.Family == emu.Family950
	notHere := func() error {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: attribute %d is not available on %s", fn, attr, s.Name)
	}
	var v int64
	switch attr {
	case abi.ACL_DEV_ATTR_AICPU_CORE_NUM:
		v = int64(s.AICPUs)
	case abi.ACL_DEV_ATTR_AICORE_CORE_NUM:
		v = int64(s.AICores)
	case abi.ACL_DEV_ATTR_CUBE_CORE_NUM:
		v = int64(s.CubeCores)
	case abi.ACL_DEV_ATTR_VECTOR_CORE_NUM:
		v = int64(s.VectorCores)
	case abi.ACL_DEV_ATTR_WARP_SIZE, abi.ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE, abi.ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE,
		abi.ACL_DEV_ATTR_MAX_GRID_DIM_X, abi.ACL_DEV_ATTR_MAX_GRID_DIM_Y, abi.ACL_DEV_ATTR_MAX_GRID_DIM_Z,
		abi.ACL_DEV_ATTR_MAX_BLOCK_PER_GRID, abi.ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK,
		abi.ACL_DEV_ATTR_MAX_BLOCK_DIM_X, abi.ACL_DEV_ATTR_MAX_BLOCK_DIM_Y, abi.ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
		if is950 {
			return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: SIMT attribute %d is not modelled by npuemu", fn, attr)
		}
		v = 0
	case abi.ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
		// The driver's answer (halMemGetInfo through its exported
		// symbol): a quota hook's total is what the program reads.
		total, err := core.DeviceMemTotal(fn, d)
		if err != nil {
			return err
		}
		v = int64(total)
	case abi.ACL_DEV_ATTR_L2_CACHE_SIZE:
		v = int64(s.L2Bytes)
	case abi.ACL_DEV_ATTR_SMP_ID, abi.ACL_DEV_ATTR_MAINBOARD_ID:
		v = 0
	case abi.ACL_DEV_ATTR_IS_VIRTUAL:
		// A device split into virtual ones is virtual: the driver's
		// halGetDeviceSplitMode (through its exported symbol, rt/stack).
		var mode uint32
		if err := stack.GetDeviceSplitMode(id, &mode); err != nil {
			return core.DriverErr(fn, err)
		}
		if mode != abi.VMNG_NORMAL_NONE_SPLIT_MODE {
			v = 1
		}
	case abi.ACL_DEV_ATTR_PHY_CHIP_ID:
		// The driver's physical id (drvDeviceGetPhyIdByIndex), renamed by
		// the node's table (devid.go).
		var p int32
		if err := userToPhy(fn, "deviceId", int32(id), &p); err != nil {
			return err
		}
		v = int64(p)
	case abi.ACL_DEV_ATTR_SUPER_POD_DEVICE_ID, abi.ACL_DEV_ATTR_SUPER_POD_SERVER_ID, abi.ACL_DEV_ATTR_SUPER_POD_ID:
		if s.Family != emu.FamilyA3 {
			return notHere()
		}
		if attr == abi.ACL_DEV_ATTR_SUPER_POD_DEVICE_ID {
			v = int64(id)
		}
	case abi.ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
		if is950 {
			return notHere()
		}
		v = 0
	case abi.ACL_DEV_ATTR_HD_CONNECT_TYPE:
		if !is950 {
			return notHere()
		}
		v = abi.ACL_HOST_DEVICE_CONNECT_TYPE_PCIE
	case abi.ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
		if !is950 {
			return notHere()
		}
		v = abi.ACL_DEVICE_FORM_FACTOR_PCIE_CARD
	case abi.ACL_DEV_ATTR_NPU_ARCH:
		v = int64(s.NpuArch)
	default:
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: unknown aclrtDevAttr %d", fn, attr)
	}
	*value = v
	return nil
}

// GetDeviceCapabilityLegacy implements aclGetDeviceCapability (acl_base_rt.h).
func GetDeviceCapabilityLegacy(t *core.Thread, id uint32, info int32, value *int64) error {
	const fn = "aclGetDeviceCapability"
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	if err := core.CheckDeviceID(fn, int32(id)); err != nil {
		return err
	}
	s, _, err := core.SoC(fn)
	if err != nil {
		return err
	}
	switch info {
	case abi.ACL_DEVICE_INFO_AI_CORE_NUM:
		*value = int64(s.AICores)
	case abi.ACL_DEVICE_INFO_VECTOR_CORE_NUM:
		*value = int64(s.VectorCores)
	case abi.ACL_DEVICE_INFO_L2_SIZE:
		*value = int64(s.L2Bytes)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclDeviceInfo %d", fn, info)
	}
	return nil
}

// GetDeviceCapability implements aclrtGetDeviceCapability: 0/1 per
// feature. Neither documented feature (TS task update of AIC/AIV tasks,
// cross-device memory-queue events) is modelled, so both read
// ACL_DEV_FEATURE_NOT_SUPPORT.
func GetDeviceCapability(t *core.Thread, id int32, feature int32, value *int32) error {
	const fn = "aclrtGetDeviceCapability"
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	if err := core.CheckDeviceID(fn, id); err != nil {
		return err
	}
	switch feature {
	case abi.ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, abi.ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV:
		*value = abi.ACL_DEV_FEATURE_NOT_SUPPORT
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtDevFeatureType %d", fn, feature)
	}
	return nil
}

// GetDeviceUtilizationRate implements aclrtGetDeviceUtilizationRate: memory
// utilisation from HBM use; cube/vector from the cores running kernel
// blocks at the call (acl/kernel_reslimit.go), vector −1 on SoCs without
// separate vector cores; AI CPU 0 (no AI CPU tasks are emulated).
func GetDeviceUtilizationRate(t *core.Thread, id int32, u *UtilizationInfo) error {
	const fn = "aclrtGetDeviceUtilizationRate"
	if u == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: utilizationInfo must not be NULL", fn)
	}
	if u.UtilizationExtend != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: utilizationExtend must be NULL", fn)
	}
	d, err := core.OpenKnownDevice(fn, id) // rtGetAllUtilizations does not ask the driver's count
	if err != nil {
		return err
	}
	h := d.Emu.HBM
	mem := int32(0)
	if total := h.Total(); total > 0 {
		mem = int32(h.Used() * 100 / total)
	}
	cube, vec := coreUtilization(d)
	*u = UtilizationInfo{CubeUtilization: cube, VectorUtilization: vec, AicpuUtilization: 0, MemoryUtilization: mem}
	return nil
}

// SetDeviceSatMode implements aclrtSetDeviceSatMode (affects later streams).
func SetDeviceSatMode(t *core.Thread, mode int32) error {
	const fn = "aclrtSetDeviceSatMode"
	s, _, err := core.SoC(fn)
	if err != nil {
		return err
	}
	switch mode {
	case abi.ACL_RT_OVERFLOW_MODE_SATURATION:
		if s.Family == emu.Family950 {
			return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s supports only INF/NAN mode", fn, s.Name)
		}
	case abi.ACL_RT_OVERFLOW_MODE_INFNAN:
		if !infNanCapable(s) {
			return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s supports only saturation mode", fn, s.Name)
		}
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtFloatOverflowMode %d", fn, mode)
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	core.Runtime.SatMode, core.Runtime.SatIsSet = mode, true
	return nil
}

func infNanCapable(s emu.SoC) bool {
	return s.Family == emu.FamilyA2 || s.Family == emu.FamilyA3 || s.Family == emu.Family950
}

// GetDeviceSatMode implements aclrtGetDeviceSatMode: INF/NAN by default on
// A2/A3/950, saturation elsewhere.
func GetDeviceSatMode(t *core.Thread, mode *int32) error {
	const fn = "aclrtGetDeviceSatMode"
	if mode == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: mode must not be NULL", fn)
	}
	s, _, err := core.SoC(fn)
	if err != nil {
		return err
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	switch {
	case core.Runtime.SatIsSet:
		*mode = core.Runtime.SatMode
	case infNanCapable(s):
		*mode = abi.ACL_RT_OVERFLOW_MODE_INFNAN
	default:
		*mode = abi.ACL_RT_OVERFLOW_MODE_SATURATION
	}
	return nil
}

// Device limits (aclrtDeviceLimit) defaults and ranges.
const (
	defaultSIMDStack  = 32768
	defaultSIMDPrintf = 32768
)

// DeviceSetLimit implements aclrtDeviceSetLimit (process-wide; SIMT limits
// exist on 950 only).
func DeviceSetLimit(t *core.Thread, limit int32, value uint64) error {
	const fn = "aclrtDeviceSetLimit"
	s, _, err := core.SoC(fn)
	if err != nil {
		return err
	}
	switch limit {
	case abi.ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE:
		maxStack := uint64(196608)
		if s.Family == emu.Family950 {
			maxStack = 131072
		}
		if value > maxStack {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: SIMD stack size %d exceeds %d on %s", fn, value, maxStack, s.Name)
		}
		if value <= 32*core.KiB {
			value = 32 * core.KiB
		} else {
			value = core.AlignUp(value, 16*core.KiB)
		}
	case abi.ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
		if value < 1024 || value > 67108864 || value%8 != 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: SIMD printf FIFO size %d: want a multiple of 8 in [1024, 67108864]", fn, value)
		}
	case abi.ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, abi.ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, abi.ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE:
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: SIMT limit %d is not available on %s", fn, limit, s.Name)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtDeviceLimit %d", fn, limit)
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if core.Runtime.Limits == nil {
		core.Runtime.Limits = map[int32]uint64{}
	}
	core.Runtime.Limits[limit] = value
	return nil
}

// DeviceGetLimit implements aclrtDeviceGetLimit.
func DeviceGetLimit(t *core.Thread, limit int32, value *uint64) error {
	const fn = "aclrtDeviceGetLimit"
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	s, _, err := core.SoC(fn)
	if err != nil {
		return err
	}
	var def uint64
	switch limit {
	case abi.ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE:
		def = defaultSIMDStack
	case abi.ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
		def = defaultSIMDPrintf
	case abi.ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, abi.ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE, abi.ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE:
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: SIMT limit %d is not available on %s", fn, limit, s.Name)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtDeviceLimit %d", fn, limit)
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	if v, ok := core.Runtime.Limits[limit]; ok {
		def = v
	}
	*value = def
	return nil
}

// hardwareCores is a device's core count per aclrtDevResLimitType.
func hardwareCores(s emu.SoC, typ int32) (uint32, bool) {
	switch typ {
	case abi.ACL_RT_DEV_RES_CUBE_CORE:
		return uint32(s.CubeCores), true
	case abi.ACL_RT_DEV_RES_VECTOR_CORE:
		return uint32(s.VectorCores), true
	}
	return 0, false
}

// SetDeviceResLimit implements aclrtSetDeviceResLimit: 1..hardware cores,
// recorded for later launches.
func SetDeviceResLimit(t *core.Thread, id int32, typ int32, value uint32) error {
	const fn = "aclrtSetDeviceResLimit"
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	d, err := core.DeviceLocked(fn, id)
	if err != nil {
		return err
	}
	hw, ok := hardwareCores(d.Emu.SoC, typ)
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtDevResLimitType %d", fn, typ)
	}
	if value == 0 || value > hw {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %d cores: want 1..%d", fn, value, hw)
	}
	d.ResLimit[typ] = value
	core.NoteResLimit()
	return nil
}

// GetDeviceResLimit implements aclrtGetDeviceResLimit: the hardware count
// unless set.
func GetDeviceResLimit(t *core.Thread, id int32, typ int32, value *uint32) error {
	const fn = "aclrtGetDeviceResLimit"
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	d, err := core.DeviceLocked(fn, id)
	if err != nil {
		return err
	}
	return deviceResLimitLocked(fn, d, typ, value)
}

// deviceResLimit is the device-level limit of d, a device the caller
// already holds (its current context's or its stream's): no device-id
// check, so no driver call (rtsGetResInCurrentThread and
// rtsGetStreamResLimit ask none, rt-to-hal.tsv).
func deviceResLimit(fn string, d *core.Device, typ int32, value *uint32) error {
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	return deviceResLimitLocked(fn, d, typ, value)
}

// deviceResLimitLocked reads d's limit of typ. Precondition: Runtime.Mu
// held.
func deviceResLimitLocked(fn string, d *core.Device, typ int32, value *uint32) error {
	hw, ok := hardwareCores(d.Emu.SoC, typ)
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtDevResLimitType %d", fn, typ)
	}
	if v, ok := d.ResLimit[typ]; ok {
		hw = v
	}
	*value = hw
	return nil
}

// ResetDeviceResLimit implements aclrtResetDeviceResLimit.
func ResetDeviceResLimit(t *core.Thread, id int32) error {
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	d, err := core.DeviceLocked("aclrtResetDeviceResLimit", id)
	if err != nil {
		return err
	}
	d.ResLimit = map[int32]uint32{}
	return nil
}

// GetResInCurrentThread implements aclrtGetResInCurrentThread: the limit
// in force for the thread's current device: the one of the stream the
// thread uses (acl/kernel_reslimit.go), else the device-level one.
func GetResInCurrentThread(t *core.Thread, typ int32, value *uint32) error {
	const fn = "aclrtGetResInCurrentThread"
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	if v, ok := threadResLimit(t, c.Dev, typ); ok {
		*value = v
		return nil
	}
	return deviceResLimit(fn, c.Dev, typ, value)
}
