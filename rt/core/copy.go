package core

import (
	"fmt"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// PtrClass is what an address is, as far as copies care.
type PtrClass int

const (
	Pageable   PtrClass = iota // host memory the runtime did not allocate
	Pinned                     // aclrtMallocHost memory
	Devmem                     // HBM of some device
	Managedmem                 // aclrtMemAllocManaged memory (managed.go): host-side for directions
)

func (c PtrClass) String() string {
	switch c {
	case Pinned:
		return "pinned host memory"
	case Devmem:
		return "device memory"
	case Managedmem:
		return "managed memory"
	}
	return "pageable host memory"
}

// BatchAttr is the part of an aclrtMemcpyBatchAttr the runtime reads: the
// location types (aclrtMemLocationType) and ids of the destination and
// source of a range of items.
type BatchAttr struct {
	DstType, DstID uint32
	SrcType, SrcID uint32
}

// BatchItem is one copy of a batch.
type BatchItem struct {
	Dst, Src       uintptr
	DestMax, Count uint64
}

// PtrInfo classifies one copy operand.
type PtrInfo struct {
	Class PtrClass
	Dev   *Device // devmem only
	Room  uint64  // bytes from the address to the end of its allocation; 0 = unknown (pageable)
}

func (p PtrInfo) Host() bool { return p.Class != Devmem }

// Classify finds out what addr is; an address inside a device's HBM range
// but outside every allocation is an error.
func Classify(fn, what string, addr uintptr) (PtrInfo, error) {
	n := Runtime.Node.Load()
	if n == nil {
		return PtrInfo{Class: Pageable}, nil
	}
	if d := DeviceOf(addr); d != nil {
		base, req, ok := d.Emu.HBM.Find(addr)
		if ok {
			d.AllocMu.RLock()
			a, ok2 := d.Allocs[base]
			d.AllocMu.RUnlock()
			if ok2 && uint64(addr-base) < a.Size {
				return PtrInfo{Class: Devmem, Dev: d, Room: a.Size - uint64(addr-base)}, nil
			}
			if !ok2 && !IsDeferred(d, base) { // a HAL (halMemAlloc) block: device memory all the same
				return PtrInfo{Class: Devmem, Dev: d, Room: req - uint64(addr-base)}, nil
			}
		}
		err := deviceOOB(fn, what, addr, addr, // memprotect.go
			fmt.Sprintf("%s %#x is in device %d's memory but not inside any live allocation", what, addr, d.ID))
		if SanitizerState != nil {
			sanitizeRefused(fn, what, addr, err)
		}
		return PtrInfo{}, err
	}
	if base, size, ok := n.Host().Find(addr); ok {
		return PtrInfo{Class: Pinned, Room: size - uint64(addr-base)}, nil
	}
	if g := n.LoadedSVM(); g != nil {
		if base, size, ok := g.Lookup(addr); ok {
			return PtrInfo{Class: Managedmem, Room: size - uint64(addr-base)}, nil
		}
	}
	return classifyMapped(fn, what, n, addr)
}

// CheckRoom refuses a copy that would run past the end of an allocation.
func CheckRoom(fn, what string, addr uintptr, p PtrInfo, count uint64) error {
	if p.Room != 0 && count > p.Room {
		var err error
		if p.Class == Devmem {
			err = deviceOOB(fn, what, addr, addr+uintptr(p.Room), // memprotect.go
				fmt.Sprintf("%d bytes at %s %#x overrun its allocation (%d bytes left)", count, what, addr, p.Room))
		} else {
			err = abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
				"%s: %d bytes at %s %#x overrun its allocation (%d bytes left)", fn, count, what, addr, p.Room)
		}
		if SanitizerState != nil {
			sanitizeRefused(fn, what, addr, err)
		}
		return err
	}
	return nil
}

// peerEnabled reports whether copies between devices a and b are allowed:
// peer access enabled in either direction (the driver's switch,
// peer_driver.go).
func peerEnabled(a, b *Device) bool { return DriverPeer(a.ID, b.ID) }

// copyPlan is the resolved direction of one copy.
type copyPlan struct {
	Dir tsfw.CopyDir
	Dev *Device // the device whose engines do the copy
}

// PlanCopy infers the direction of a copy from its operands.
func PlanCopy(fn string, ctx *Context, dst, src PtrInfo) (copyPlan, error) {
	switch {
	case dst.Host() && src.Host():
		return copyPlan{tsfw.HostToHost, ctx.Dev}, nil
	case dst.Class == Devmem && src.Host():
		return copyPlan{tsfw.HostToDevice, dst.Dev}, nil
	case dst.Host() && src.Class == Devmem:
		return copyPlan{tsfw.DeviceToHost, src.Dev}, nil
	case dst.Dev == src.Dev:
		return copyPlan{tsfw.DeviceToDevice, src.Dev}, nil
	}
	if !peerEnabled(src.Dev, dst.Dev) {
		return copyPlan{}, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"%s: copy from device %d to device %d needs peer access (aclrtDeviceEnablePeerAccess)", fn, src.Dev.ID, dst.Dev.ID)
	}
	return copyPlan{tsfw.PeerToPeer, src.Dev}, nil
}

// CopyOperands classifies and bounds-checks both operands of a copy.
func CopyOperands(fn string, dst, src uintptr, count uint64) (PtrInfo, PtrInfo, error) {
	di, err := Classify(fn, "dst", dst)
	if err != nil {
		return di, di, err
	}
	si, err := Classify(fn, "src", src)
	if err != nil {
		return di, si, err
	}
	if err := CheckRoom(fn, "dst", dst, di, count); err != nil {
		return di, si, err
	}
	if err := CheckRoom(fn, "src", src, si, count); err != nil {
		return di, si, err
	}
	return di, si, nil
}

// SameDevice refuses device operands of a device other than the stream's,
// unless peer access connects them.
func SameDevice(fn string, s *Stream, ops ...PtrInfo) error {
	for _, o := range ops {
		if o.Class == Devmem && o.Dev != s.Ctx.Dev && !peerEnabled(o.Dev, s.Ctx.Dev) {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
				"%s: device %d memory used on a stream of device %d without peer access", fn, o.Dev.ID, s.Ctx.Dev.ID)
		}
	}
	return nil
}

// WaitPageable waits until everything submitted to s so far (the copy just
// queued included) has completed: pageable host memory makes an async call
// synchronous.
func WaitPageable(s *Stream, fn string) error {
	if err := pageableGuard(s, fn); err != nil {
		return err
	}
	if err := s.SQ.Synchronize(-1); err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: stream %d: %s", fn, s.ID, abi.MessageOf(err))
	}
	return nil
}
