package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// Limits of aclrtMemcpy2dAsync.
const (
	max2DWidth  = 5000000
	max2DHeight = 5242880
)

// check2D validates a 2-D copy and its operands; done for an empty copy.
func check2D(fn string, dst uintptr, dpitch uint64, src uintptr, spitch, width, height uint64, kind int32, async bool) (bool, core.PtrInfo, core.PtrInfo, error) {
	var di, si core.PtrInfo
	if dst == 0 || src == 0 {
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dst and src must not be NULL", fn)
	}
	if width > dpitch || width > spitch {
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: width %d exceeds dpitch %d or spitch %d", fn, width, dpitch, spitch)
	}
	if async && (width > max2DWidth || height > max2DHeight) {
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: width %d / height %d exceed %d / %d", fn, width, height, max2DWidth, max2DHeight)
	}
	switch kind {
	case abi.ACL_MEMCPY_HOST_TO_DEVICE, abi.ACL_MEMCPY_DEVICE_TO_HOST, abi.ACL_MEMCPY_DEFAULT:
	case abi.ACL_MEMCPY_DEVICE_TO_DEVICE:
		if !async {
			return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: kind %d: only host-to-device and device-to-host", fn, kind)
		}
		if s, _, err := core.SoC(fn); err != nil {
			return false, di, si, err
		} else if s.Family != emu.Family950 && s.Family != emu.FamilyA3 && s.Family != emu.FamilyA2 {
			return false, di, si, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: device-to-device 2-D copies exist only on Ascend 950 and Atlas A2/A3, not on %s", fn, s.Name)
		}
	default:
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: kind %d is not accepted for 2-D copies", fn, kind)
	}
	if width == 0 || height == 0 {
		return true, di, si, nil
	}
	span := func(pitch uint64) uint64 { return (height-1)*pitch + width }
	var err error
	if di, err = core.Classify(fn, "dst", dst); err != nil {
		return false, di, si, err
	}
	if si, err = core.Classify(fn, "src", src); err != nil {
		return false, di, si, err
	}
	if err := core.CheckRoom(fn, "dst", dst, di, span(dpitch)); err != nil {
		return false, di, si, err
	}
	if err := core.CheckRoom(fn, "src", src, si, span(spitch)); err != nil {
		return false, di, si, err
	}
	if kind != abi.ACL_MEMCPY_DEFAULT {
		if err := core.KindMatches(fn, kind, di, si); err != nil {
			return false, di, si, err
		}
	} else if di.Host() == si.Host() && (!async || di.Host()) {
		return false, di, si, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: operands (dst %s, src %s) are not a host/device pair", fn, di.Class, si.Class)
	}
	return false, di, si, nil
}

// Memcpy2D implements aclrtMemcpy2d (synchronous, H2D / D2H).
func Memcpy2D(t *core.Thread, dst uintptr, dpitch uint64, src uintptr, spitch, width, height uint64, kind int32) error {
	const fn = "aclrtMemcpy2d"
	done, di, si, err := check2D(fn, dst, dpitch, src, spitch, width, height, kind, false)
	if done || err != nil {
		return err
	}
	if err := core.UnsafeGuard(t, fn); err != nil {
		return err
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	p, err := core.PlanCopy(fn, c, di, si)
	if err != nil {
		return err
	}
	if core.Sanitizing {
		core.SanitizeHost(t, fn, rows2D(dst, dpitch, width, height, sanitize.Write), rows2D(src, spitch, width, height, sanitize.Read))
	}
	if core.Copy2DThroughDriver() { // an interposed halMemcpy2D makes the copy
		return core.DriverCopy2D(fn, dst, dpitch, src, spitch, width, height, p.Dir)
	}
	for row := uint64(0); row < height; row++ {
		if err := p.Dev.Emu.TS.CopyNow(dst+uintptr(row*dpitch), src+uintptr(row*spitch), width, p.Dir); err != nil {
			return abi.Errorf(abi.CodeOf(err), "%s: row %d: %s", fn, row, abi.MessageOf(err))
		}
	}
	return nil
}

// Memcpy2DAsync implements aclrtMemcpy2dAsync (H2D, D2H, D2D).
func Memcpy2DAsync(t *core.Thread, dst uintptr, dpitch uint64, src uintptr, spitch, width, height uint64, kind int32, sh core.Handle) error {
	const fn = "aclrtMemcpy2dAsync"
	done, di, si, err := check2D(fn, dst, dpitch, src, spitch, width, height, kind, true)
	if done {
		return err
	}
	s, serr := core.ResolveStream(t, fn, sh)
	if err != nil {
		if serr == nil {
			_, err = core.QueueOOB(s, t, err) // memprotect.go
		}
		return err
	}
	if serr != nil {
		return serr
	}
	p, err := core.PlanCopy(fn, s.Ctx, di, si)
	if err != nil {
		return err
	}
	if err := core.SameDevice(fn, s, di, si); err != nil {
		return err
	}
	x := core.Queued{Counted: true}
	if core.Sanitizing {
		x.Acc = []sanitize.Access{rows2D(dst, dpitch, width, height, sanitize.Write), rows2D(src, spitch, width, height, sanitize.Read)}
	}
	if err := s.Queue(t, fn, tsfw.Copy2DTask(dst, dpitch, src, spitch, width, height, p.Dir), x); err != nil {
		return err
	}
	if di.Class == core.Pageable || si.Class == core.Pageable {
		return core.WaitPageable(s, fn)
	}
	return nil
}

// Memcpy implements aclrtMemcpy; the runtime does the work (core.Memcpy,
// which the rt* API calls too).
func Memcpy(t *core.Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32) error {
	return core.Memcpy(t, dst, destMax, src, count, kind)
}

// MemcpyAsync implements aclrtMemcpyAsync (and the deprecated
// aclrtMemcpyAsyncWithCondition); the runtime does the work
// (core.MemcpyAsync, which the rt* API calls too).
func MemcpyAsync(t *core.Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32, sh core.Handle) error {
	return core.MemcpyAsync(t, dst, destMax, src, count, kind, sh)
}

// Memset implements aclrtMemset; the runtime does the work (core.Memset,
// which the rt* API calls too).
func Memset(t *core.Thread, p uintptr, maxCount uint64, value int32, count uint64) error {
	return core.Memset(t, p, maxCount, value, count)
}

// MemsetAsync implements aclrtMemsetAsync; the runtime does the work
// (core.MemsetAsync, which the rt* API calls too).
func MemsetAsync(t *core.Thread, p uintptr, maxCount uint64, value int32, count uint64, sh core.Handle) error {
	return core.MemsetAsync(t, p, maxCount, value, count, sh)
}
