package core

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/stack"
	"github.com/npuemu/npuemu/tsfw"
)

// The synchronous copies through the driver's calls (rt-to-hal.tsv:
// rtMemcpy → NpuDriver::MemCopySync → halSdmaCopy / halMemcpy /
// drvMemcpy; rtMemset → drvMemsetD8; rtMemcpy2d → halMemcpy2D). They are
// taken when a library interposed the driver's symbol (rt/stack): the
// runtime has made its checks (operands, peer access, managed memory,
// sanitizer) and the driver call does the copy, on the same device model
// and at the same point as the direct path, so the ordering is the
// synchronous copy's (no implicit synchronisation with any stream). When
// nothing is interposed the callers copy on the model directly and never
// come here. A driver error is converted to the rt code (rt-types.md
// §8.4), as the runtime's other crossings convert it.

// driverCopy makes the copy planned by p with the driver call the
// runtime's synchronous copy makes for its direction (docs/stack.md):
// device to host is halMemcpy (the one direction its header documents,
// from the source's device); device to device on one device is
// halSdmaCopy, except on Ascend 950, which has none; everything else
// (host to device, host to host, between two devices, device to device on
// 950) is drvMemcpy, which copies in any direction.
func driverCopy(fn string, dst uintptr, destMax uint64, src uintptr, count uint64, p copyPlan) error {
	var err error
	switch {
	case p.Dir == tsfw.DeviceToHost:
		info := hal.MemcpyInfo{Dir: abi.DRV_MEMCPY_DEVICE_TO_HOST, Devid: uint32(p.Dev.Emu.ID)}
		err = stack.HalMemcpy(dst, destMax, src, count, &info)
	case p.Dir == tsfw.DeviceToDevice && p.Dev.Emu.SoC.Family != emu.Family950:
		err = stack.SdmaCopy(dst, destMax, src, count)
	default:
		err = stack.DrvMemcpy(dst, destMax, src, count)
	}
	return DriverErr(fn, err)
}

// driverMemset is the synchronous fill through drvMemsetD8.
func driverMemset(fn string, p uintptr, destMax uint64, value byte, count uint64) error {
	return DriverErr(fn, stack.MemsetD8(p, destMax, value, count))
}

// Copy2DThroughDriver reports whether the synchronous 2-D copy goes
// through the driver's halMemcpy2D (a library interposed it).
func Copy2DThroughDriver() bool { return stack.HAL.Memcpy2D != nil }

// DriverCopy2D makes a synchronous 2-D copy of direction dir through
// halMemcpy2D (DEVMM_MEMCPY2D_SYNC), calling it again while it reports
// progress (fixed_size) short of width*height, as its header asks.
func DriverCopy2D(fn string, dst uintptr, dpitch uint64, src uintptr, spitch, width, height uint64, dir tsfw.CopyDir) error {
	m := hal.Memcpy2D{Type: abi.DEVMM_MEMCPY2D_SYNC, Copy2d: hal.Mem2D{
		Dst: dst, Dpitch: dpitch, Src: src, Spitch: spitch, Width: width, Height: height, Direction: drvKind(dir)}}
	total := width * height // the caller checked the geometry
	for m.Copy2d.Fixed_size < total {
		before := m.Copy2d.Fixed_size
		if err := stack.Memcpy2D(&m); err != nil {
			return DriverErr(fn, err)
		}
		if m.Copy2d.Fixed_size <= before {
			return abi.Errorf(abi.ACL_ERROR_RT_DRV_INTERNAL_ERROR,
				"%s: halMemcpy2D succeeded without progress (fixed_size %d of %d bytes)", fn, m.Copy2d.Fixed_size, total)
		}
	}
	return nil
}

// drvKind is the drvMemcpyKind_t of a copy direction.
func drvKind(dir tsfw.CopyDir) uint32 {
	switch dir {
	case tsfw.HostToHost:
		return abi.DRV_MEMCPY_HOST_TO_HOST
	case tsfw.HostToDevice:
		return abi.DRV_MEMCPY_HOST_TO_DEVICE
	case tsfw.DeviceToHost:
		return abi.DRV_MEMCPY_DEVICE_TO_HOST
	}
	return abi.DRV_MEMCPY_DEVICE_TO_DEVICE
}

// DriverErr is the rt error of fn for a driver call's error (nil stays
// nil): the driver's code converted as rt-types.md §8.4 says.
func DriverErr(fn string, err error) error {
	if err == nil {
		return nil
	}
	return abi.Errorf(abi.RTCodeOf(err), "%s: %s", fn, abi.MessageOf(err))
}
