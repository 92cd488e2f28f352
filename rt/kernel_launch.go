package rt

import (
	"encoding/binary"
	"math"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// The runtime's launches with an rtArgsEx_t (round 9): one launch path for
// rtLaunchKernelByFuncHandleV3, the stub launches (rtKernelLaunch*,
// kernel_launch_stub.go) and the tiling-key launches
// (rtKernelLaunchWithHandle*). rtArgsEx_t says where the argument block is:
//
//   - isNoNeedH2DCopy = 1: args is device memory of the stream's device,
//     which the kernel reads in place when it runs (as aclrtLaunchKernel);
//     hostInputInfo and tiling offsets are the caller's business then;
//   - isNoNeedH2DCopy = 0: args is host memory, copied at the call (the
//     runtime's host-to-device copy of the block); each hostInputInfo entry
//     and, with hasTiling, the tiling offsets name an 8-byte address slot
//     (addrOffset / tilingAddrOffset) that receives the address of data
//     inside the copy (dataOffset / tilingDataOffset), as the runtime
//     patches in the device address of the data it copied.
//
// rtTaskCfgInfo_t becomes the launch attributes aclrtLaunchKernelWithConfig
// takes (taskCfgAttrs). rtSmDesc_t (L2 preload control) is accepted and
// has no effect: npuemu models no L2 cache.

// ArgsEx is an rtArgsEx_t read by libfake. Host returns the argsSize bytes
// at Args, read in place (a launch copies what it keeps); it is called only
// for host memory or device memory the launch has checked.
type ArgsEx struct {
	Args      uintptr
	Size      uint32
	Host      func() []byte
	HostInput []core.PlaceHolder
	HasTiling bool
	TilingAddrOffset,
	TilingDataOffset uint32
	NoCopy bool // isNoNeedH2DCopy
}

// TaskCfg is an rtTaskCfgInfo_t.
type TaskCfg struct {
	Qos, PartID, SchemMode uint8
	D2DCross               bool
	BlockDimOffset         uint32
	DumpFlag               uint8
	NeverTimeout           uint8
	EnableProfiling        uint8
	LocalMemorySize        uint32
}

func u8Attr(id int32, v uint8) core.LaunchAttr {
	a := core.LaunchAttr{ID: id}
	a.Value[0] = v
	return a
}

func u32Attr(id int32, v uint32) core.LaunchAttr {
	a := core.LaunchAttr{ID: id}
	binary.LittleEndian.PutUint32(a.Value[:4], v)
	return a
}

// taskCfgAttrs turns a task config into launch attributes: schemMode,
// dumpflag, enableProfiling and blockDimOffset are the attributes of the
// same names (checked as aclrtLaunchKernelWithConfig checks them);
// neverTimeout lifts the execution timeout; qos, partId and d2dCrossFlag
// (bus QoS and partitions) have no effect on the emulator; a non-zero
// localMemorySize is for SIMT kernels of the Ascend 950, which npuemu does
// not model. nil: no attributes.
func taskCfgAttrs(fn string, c *TaskCfg) ([]core.LaunchAttr, error) {
	if c == nil {
		return nil, nil
	}
	if c.LocalMemorySize != 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: cfgInfo->localMemorySize %d: SIMT local memory (Ascend 950) is not modelled by npuemu", fn, c.LocalMemorySize)
	}
	attrs := []core.LaunchAttr{
		u8Attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, c.SchemMode),
		u8Attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, c.DumpFlag),
		u8Attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, c.EnableProfiling),
		u32Attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, c.BlockDimOffset),
	}
	switch c.NeverTimeout {
	case 0:
	case 1:
		a := core.LaunchAttr{ID: abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US}
		binary.LittleEndian.PutUint64(a.Value[:8], math.MaxUint64)
		attrs = append(attrs, a)
	default:
		return nil, invalid(fn, "cfgInfo->neverTimeout %d: want 0 or 1", c.NeverTimeout)
	}
	return attrs, nil
}

// placeholders are the address slots of a host argument block.
func (a *ArgsEx) placeholders() []core.PlaceHolder {
	if !a.HasTiling {
		return a.HostInput
	}
	return append(a.HostInput[:len(a.HostInput):len(a.HostInput)], core.PlaceHolder{AddrOffset: a.TilingAddrOffset, DataOffset: a.TilingDataOffset})
}

// recode gives err, an error of rt/core whose message already names the
// rt function (core takes fn), the rt code.
func recode(err error) error {
	if err == nil {
		return nil
	}
	return abi.Errorf(abi.RTCodeOf(err), "%s", message(err))
}

// launchArgsEx launches f with the argument block a describes.
func launchArgsEx(t *core.Thread, fn string, f *core.Function, blocks uint32, a *ArgsEx, attrs []core.LaunchAttr, sh core.Handle) error {
	if a == nil {
		return invalid(fn, "argsInfo must not be NULL")
	}
	if a.Size > 0 && a.Args == 0 {
		return invalid(fn, "argsInfo->args must not be NULL when argsSize is %d", a.Size)
	}
	var phs []core.PlaceHolder
	if !a.NoCopy {
		phs = a.placeholders()
		for i, p := range phs {
			if uint64(p.AddrOffset)+8 > uint64(a.Size) || p.DataOffset >= a.Size {
				return invalid(fn, "address slot %d (addrOffset %d, dataOffset %d) lies outside the %d-byte argument block", i, p.AddrOffset, p.DataOffset, a.Size)
			}
		}
	}
	s, cfg, err := core.LaunchTarget(t, fn, blocks, sh, attrs)
	if err != nil {
		return recode(err)
	}
	switch {
	case a.Size == 0:
		l := core.GetLaunch(s, f.Bin.Host, 0)
		l.Args, l.Size = 0, 0
		return recode(core.SubmitImage(t, fn, s, f, l, nil, blocks, cfg, 0))
	case a.NoCopy:
		units, ok := core.DeviceArgs(fn, s, f, a.Args, uint64(a.Size))
		if !ok {
			return invalid(fn, "argsInfo->args %#x..+%d (isNoNeedH2DCopy = 1) is not inside one allocation of device %d's memory", a.Args, a.Size, s.Ctx.Dev.ID)
		}
		l := core.GetLaunch(s, f.Bin.Host, 0)
		l.Args, l.Size = a.Args, uint64(a.Size)
		return recode(core.SubmitImage(t, fn, s, f, l, nil, blocks, cfg, units))
	}
	l := core.GetLaunch(s, f.Bin.Host, int(a.Size))
	img := l.Buf[core.LaunchHeader : core.LaunchHeader+int(a.Size)]
	copy(img, a.Host())
	l.Args, l.Size = l.Addr+core.LaunchHeader, uint64(a.Size)
	for _, p := range phs {
		binary.LittleEndian.PutUint64(img[p.AddrOffset:], uint64(l.Args)+uint64(p.DataOffset))
	}
	return recode(core.SubmitImage(t, fn, s, f, l, img, blocks, cfg, core.UnitsOf(f, img)))
}

// LaunchKernelByFuncHandleV3 implements rtLaunchKernelByFuncHandleV3: the
// function's launch with an rtArgsEx_t (device or host argument block) and
// an optional task config.
func LaunchKernelByFuncHandleV3(t *core.Thread, fh core.Handle, blocks uint32, a *ArgsEx, sh core.Handle, c *TaskCfg) error {
	const fn = "rtLaunchKernelByFuncHandleV3"
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return recode(err)
	}
	attrs, err := taskCfgAttrs(fn, c)
	if err != nil {
		return err
	}
	return launchArgsEx(t, fn, f, blocks, a, attrs, sh)
}

// LaunchKernelWithConfig implements rtsLaunchKernelWithConfig: the
// function's launch with an argument handle and launch attributes
// (rtKernelLaunchCfg_t has aclrtLaunchKernelCfg's layout).
func LaunchKernelWithConfig(t *core.Thread, f core.Handle, blocks uint32, s core.Handle, attrs []core.LaunchAttr, args core.Handle) error {
	return wrap("rtsLaunchKernelWithConfig", core.LaunchKernelWithConfig(t, f, blocks, s, attrs, args))
}
