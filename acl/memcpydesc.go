package acl

import (
	"runtime/debug"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Descriptor copies: aclrtSetMemcpyDesc writes a copy description into
// device memory, aclrtMemcpyAsyncWithDesc queues a copy that reads it when
// the stream reaches it; aclrtMemcpyAsyncWithOffset reads its two base
// addresses through pointers at execution time too. Both exist so that
// device work (or a captured model replayed later) can change what is
// copied after the task was queued; only same-device copies
// (ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) are allowed.

// memcpyDescSize is what aclrtGetMemcpyDescSize reports: npuemu's layout
// is four little-endian uint64 — magic, src, dst, count — padded to one
// 64-byte record.
const memcpyDescSize = 64

// memcpyDescMagic marks a descriptor written by aclrtSetMemcpyDesc.
const memcpyDescMagic = 0x4353_4544_4d45_4d4e // "NMEMDESC"

func innerD2D(fn string, kind int32) error {
	if kind != abi.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: kind %d: only ACL_MEMCPY_INNER_DEVICE_TO_DEVICE (6)", fn, kind)
	}
	return nil
}

// GetMemcpyDescSize implements aclrtGetMemcpyDescSize.
func GetMemcpyDescSize(t *core.Thread, kind int32, size *uint64) error {
	const fn = "aclrtGetMemcpyDescSize"
	if size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: descSize must not be NULL", fn)
	}
	if err := innerD2D(fn, kind); err != nil {
		return err
	}
	*size = memcpyDescSize
	return nil
}

// devOperand classifies addr as device memory with at least n bytes from
// it on device d (nil: any device); it returns the device.
func devOperand(fn, what string, addr uintptr, n uint64, d *core.Device) (*core.Device, error) {
	p, err := core.Classify(fn, what, addr)
	if err != nil {
		return nil, err
	}
	if p.Class != core.Devmem {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s %#x is %s, not device memory", fn, what, addr, p.Class)
	}
	if d != nil && p.Dev != d {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s %#x is memory of device %d, not of device %d", fn, what, addr, p.Dev.ID, d.ID)
	}
	if err := core.CheckRoom(fn, what, addr, p, n); err != nil {
		return nil, err
	}
	return p.Dev, nil
}

// SetMemcpyDesc implements aclrtSetMemcpyDesc: src, dst and the
// descriptor are memory of one device; the descriptor is written at once.
func SetMemcpyDesc(t *core.Thread, desc uintptr, kind int32, src, dst uintptr, count uint64, config bool) error {
	const fn = "aclrtSetMemcpyDesc"
	if desc == 0 || src == 0 || dst == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: desc, srcAddr and dstAddr must not be NULL", fn)
	}
	if config {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: config is reserved and must be NULL", fn)
	}
	if err := innerD2D(fn, kind); err != nil {
		return err
	}
	if _, err := core.Current(t, fn); err != nil {
		return err
	}
	d, err := devOperand(fn, "desc", desc, memcpyDescSize, nil)
	if err != nil {
		return err
	}
	if _, err := devOperand(fn, "srcAddr", src, count, d); err != nil {
		return err
	}
	if _, err := devOperand(fn, "dstAddr", dst, count, d); err != nil {
		return err
	}
	for i, v := range [memcpyDescSize / 8]uint64{memcpyDescMagic, uint64(src), uint64(dst), count} {
		pokeU64(desc+uintptr(8*i), v)
	}
	return nil
}

// MemcpyAsyncWithDesc implements aclrtMemcpyAsyncWithDesc. The descriptor
// is read when the stream reaches the task; a descriptor that is not one
// (or names memory no longer valid) fails the stream asynchronously.
func MemcpyAsyncWithDesc(t *core.Thread, desc uintptr, kind int32, sh core.Handle) error {
	const fn = "aclrtMemcpyAsyncWithDesc"
	if desc == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: desc must not be NULL", fn)
	}
	if err := innerD2D(fn, kind); err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	d := s.Ctx.Dev
	if _, err := devOperand(fn, "desc", desc, memcpyDescSize, d); err != nil {
		return err
	}
	return s.SubmitTask(t, fn, tsfw.HostTask(faultSafe(fn, func() error {
		if core.PeekU64(desc) != memcpyDescMagic {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x holds no descriptor written by aclrtSetMemcpyDesc", fn, desc)
		}
		src, dst, count := uintptr(core.PeekU64(desc+8)), uintptr(core.PeekU64(desc+16)), core.PeekU64(desc+24)
		return d2dNow(fn, d, dst, src, count)
	})))
}

// faultSafe turns a memory fault while fn reads an address the
// application freed after queueing into the stream's error.
func faultSafe(fn string, body func() error) func() error {
	return func() (err error) {
		old := debug.SetPanicOnFault(true)
		defer func() {
			debug.SetPanicOnFault(old)
			if r := recover(); r != nil {
				err = abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the descriptor or an address cell is no longer readable: %v", fn, r)
			}
		}()
		return body()
	}
}

// d2dNow copies count bytes between two places of device d's memory,
// checked when the copy runs.
func d2dNow(fn string, d *core.Device, dst, src uintptr, count uint64) error {
	if count == 0 {
		return nil
	}
	if _, err := devOperand(fn, "src", src, count, d); err != nil {
		return err
	}
	if _, err := devOperand(fn, "dst", dst, count, d); err != nil {
		return err
	}
	if err := d.Emu.TS.CopyNow(dst, src, count, tsfw.DeviceToDevice); err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	return nil
}

// MemcpyAsyncWithOffset implements aclrtMemcpyAsyncWithOffset: *dst and
// *src (pointer cells in device or pinned host memory) are read when the
// stream reaches the task, and the copy goes from *src+srcOffset to
// *dst+dstOffset.
func MemcpyAsyncWithOffset(t *core.Thread, dstCell uintptr, destMax, dstOff uint64, srcCell uintptr, count, srcOff uint64, kind int32, sh core.Handle) error {
	const fn = "aclrtMemcpyAsyncWithOffset"
	if count == 0 {
		return nil
	}
	if dstCell == 0 || srcCell == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dst and src must not be NULL", fn)
	}
	if err := innerD2D(fn, kind); err != nil {
		return err
	}
	if destMax == 0 || count > destMax {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: count %d exceeds destMax %d", fn, count, destMax)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	d := s.Ctx.Dev
	for _, c := range []struct {
		what string
		addr uintptr
	}{{"dst", dstCell}, {"src", srcCell}} {
		p, err := core.Classify(fn, c.what, c.addr)
		if err != nil {
			return err
		}
		if p.Class != core.Devmem && p.Class != core.Pinned {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s %#x is %s: the address cell must be device or pinned host memory", fn, c.what, c.addr, p.Class)
		}
		if p.Class == core.Devmem && p.Dev != d {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s %#x is memory of device %d, the stream's device is %d", fn, c.what, c.addr, p.Dev.ID, d.ID)
		}
		if err := core.CheckRoom(fn, c.what, c.addr, p, 8); err != nil {
			return err
		}
	}
	return s.SubmitTask(t, fn, tsfw.HostTask(faultSafe(fn, func() error {
		dst := uintptr(core.PeekU64(dstCell)) + uintptr(dstOff)
		src := uintptr(core.PeekU64(srcCell)) + uintptr(srcOff)
		return d2dNow(fn, d, dst, src, count)
	})))
}
