package hal

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// Host memory registration (halHostRegister family) over emu.VMM: the
// device address of registered memory is its host address (the emulated
// devices share this process's page tables; see docs/vmm.md).

const (
	regTypeMask = 1<<abi.MEM_PROC_TYPE_BIT - 1 // map type in the low bits
	regProcMask = 0xFFF << abi.MEM_PROC_TYPE_BIT &^ abi.MEM_REGISTER_READ_ONLY
)

// regType checks the map type of a register/unregister flag word.
func regType(fn string, flag uint32) error {
	switch t := flag & regTypeMask; t {
	case abi.HOST_MEM_MAP_DEV, abi.HOST_MEM_MAP_DEV_V2, abi.HOST_MEM_MAP_DMA:
		return nil
	case abi.HOST_SVM_MAP_DEV, abi.DEV_SVM_MAP_HOST, abi.DEV_MEM_MAP_HOST, abi.HOST_IO_MAP_DEV:
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: map type %d: only host memory for the device (HOST_MEM_MAP_DEV, _V2, HOST_MEM_MAP_DMA) is modelled", fn, t)
	default:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: map type %d out of range (0..%d)", fn, t, abi.HOST_REGISTER_MAX_TPYE-1)
	}
}

// HostRegister implements halHostRegister.
func HostRegister(src uintptr, size uint64, flag, dev uint32, dst *uintptr) error {
	const fn = "halHostRegister"
	switch {
	case src == 0:
		return nullArg(fn, "src_ptr")
	case dst == nil:
		return nullArg(fn, "dst_ptr")
	case flag&abi.MEM_REGISTER_READ_ONLY != 0:
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: MEM_REGISTER_READ_ONLY: device-only write protection is not modelled (host and devices share the page tables)", fn)
	case flag&^(regTypeMask|regProcMask) != 0:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: flag %#x has unknown bits", fn, flag)
	}
	if err := regType(fn, flag); err != nil {
		return err
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	// HOST_MEM_MAP_DMA page-locks the memory for the copy engines without
	// giving it a device address (halMemHostGetDevPointer refuses it); the
	// other map types map it for the device.
	p, err := v.HostRegister(src, size, int(dev), flag, flag&regTypeMask != abi.HOST_MEM_MAP_DMA)
	if err != nil {
		return wrap(fn, err)
	}
	*dst = p
	return nil
}

// HostUnregister implements halHostUnregister and halHostUnregisterEx
// (withFlag: flag carries the map type registered).
func HostUnregister(fn string, src uintptr, dev, flag uint32, withFlag bool) error {
	if src == 0 {
		return nullArg(fn, "src_ptr")
	}
	if withFlag {
		if err := regType(fn, flag); err != nil {
			return err
		}
	}
	n, err := nodeDevice(fn, dev)
	if err != nil {
		return err
	}
	return wrap(fn, n.VMM().HostUnregister(src, int(dev)))
}

// HostGetDevPointer implements halMemHostGetDevPointer.
func HostGetDevPointer(src uintptr, dev uint32, dst *uintptr) error {
	const fn = "halMemHostGetDevPointer"
	switch {
	case src == 0:
		return nullArg(fn, "src_ptr")
	case dst == nil:
		return nullArg(fn, "dst_ptr")
	}
	n, err := nodeDevice(fn, dev)
	if err != nil {
		return err
	}
	p, err := n.VMM().HostDevPointer(src, int(dev))
	if err != nil {
		return wrap(fn, err)
	}
	*dst = p
	return nil
}

// HostRegisterCapabilities implements halHostRegisterCapabilities: 1
// (HOST_MEM_MAP_SUPPORTED) for the engines that reach registered memory.
func HostRegisterCapabilities(dev, acc uint32, out *uint32) error {
	const fn = "halHostRegisterCapabilities"
	if out == nil {
		return nullArg(fn, "mem_map_cap")
	}
	if acc >= abi.DRV_ACC_MODULE_TYPE_MAX {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: acc_module_type %d out of range (0..%d)", fn, acc, abi.DRV_ACC_MODULE_TYPE_MAX-1)
	}
	if _, err := nodeDevice(fn, dev); err != nil {
		return err
	}
	*out = abi.HOST_MEM_MAP_NOT_SUPPORTED
	if accEngines[acc].ReachesHostMemory() {
		*out = abi.HOST_MEM_MAP_SUPPORTED
	}
	return nil
}

// accEngines decodes drvAccModuleType into the model's engines.
var accEngines = [abi.DRV_ACC_MODULE_TYPE_MAX]emu.Engine{
	abi.DRV_ACC_MODULE_TYPE_STARS:   emu.EngineTaskScheduler,
	abi.DRV_ACC_MODULE_TYPE_AICPU:   emu.EngineAICPU,
	abi.DRV_ACC_MODULE_TYPE_AIC:     emu.EngineAICore,
	abi.DRV_ACC_MODULE_TYPE_AIV:     emu.EngineVectorCore,
	abi.DRV_ACC_MODULE_TYPE_PCIEDMA: emu.EnginePCIeDMA,
	abi.DRV_ACC_MODULE_TYPE_RDMA:    emu.EngineRDMA,
	abi.DRV_ACC_MODULE_TYPE_SDMA:    emu.EngineSDMA,
	abi.DRV_ACC_MODULE_TYPE_DVPP:    emu.EngineDVPP,
	abi.DRV_ACC_MODULE_TYPE_UDMA:    emu.EngineUDMA,
	abi.DRV_ACC_MODULE_TYPE_CCU:     emu.EngineCCU,
}
