package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Cache maintenance (aclrtCmo*, the CMO family of 11-06_CMO_memory_operation).
// The documentation: a task on a stream that acts on the cache in front of
// the device's own memory, only ACL_RT_CMO_TYPE_PREFETCH supported, on
// Atlas A2/A3 and Ascend 950 only. npuemu's device memory has no such
// cache: the task keeps its place in the stream's order (later tasks wait
// for it) and changes no data. What is checked is what the documentation
// states: the range lies in one allocation of the stream's device, the type
// is PREFETCH. The barrier variants are Ascend 310B only (support table).
//
// The descriptor of aclrtCmoSetDesc / aclrtCmoAsyncWithDesc is npuemu's own
// layout, cmoDescSize bytes of device memory: a magic, the address and the
// size; the task reads it when it runs, as the device would.

const (
	cmoDescMagic = 0x3130_4f4d_4355_504e // "NPUCMO01"
)

// cmoType checks the aclrtCmoType argument.
func cmoType(fn string, typ int32) error {
	switch typ {
	case abi.ACL_RT_CMO_TYPE_PREFETCH:
		return nil
	case abi.ACL_RT_CMO_TYPE_WRITEBACK, abi.ACL_RT_CMO_TYPE_INVALID, abi.ACL_RT_CMO_TYPE_FLUSH:
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: cmoType %d: only ACL_RT_CMO_TYPE_PREFETCH is supported (documented)", fn, typ)
	}
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: cmoType %d is not an aclrtCmoType", fn, typ)
}

// cmoRange checks that [src, src+size) is device memory of device d,
// inside one allocation.
func cmoRange(fn, what string, d *core.Device, src uintptr, size uint64) error {
	if src == 0 || size == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s must not be NULL and its size not 0", fn, what)
	}
	p, err := core.Classify(fn, what, src)
	if err != nil {
		return err
	}
	switch {
	case p.Class != core.Devmem:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s %#x is not device memory", fn, what, src)
	case p.Dev != d:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s %#x is memory of device %d; only the current device %d (documented)", fn, what, src, p.Dev.ID, d.ID)
	case p.Room < size:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s %#x..+%d runs past the end of its allocation (%d bytes left)", fn, what, src, size, p.Room)
	}
	return nil
}

// cmoStream resolves the stream and checks the family.
func cmoStream(t *core.Thread, fn string, sh core.Handle) (*core.Stream, error) {
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// CmoAsync implements aclrtCmoAsync.
func CmoAsync(t *core.Thread, src uintptr, size uint64, typ int32, sh core.Handle) error {
	const fn = "aclrtCmoAsync"
	s, err := cmoStream(t, fn, sh)
	if err != nil {
		return err
	}
	if err := cmoType(fn, typ); err != nil {
		return err
	}
	if err := cmoRange(fn, "src", s.Ctx.Dev, src, size); err != nil {
		return err
	}
	return s.Submit(t, fn, tsfw.HostTask(func() error { return nil }))
}

// CmoGetDescSize implements aclrtCmoGetDescSize.
func CmoGetDescSize(t *core.Thread, size *uint64) error {
	const fn = "aclrtCmoGetDescSize"
	if size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be NULL", fn)
	}
	if _, err := core.Current(t, fn); err != nil {
		return err
	}
	*size = core.CmoDescSize
	return nil
}

// CmoSetDesc implements aclrtCmoSetDesc: it writes the descriptor of
// [src, src+size) into the device memory at desc.
func CmoSetDesc(t *core.Thread, desc, src uintptr, size uint64) error {
	const fn = "aclrtCmoSetDesc"
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	if err := cmoRange(fn, "cmoDesc", c.Dev, desc, core.CmoDescSize); err != nil {
		return err
	}
	if err := cmoRange(fn, "src", c.Dev, src, size); err != nil {
		return err
	}
	writeCmoDesc(desc, core.CmoDesc{Magic: cmoDescMagic, Src: uint64(src), Size: size})
	return nil
}

// CmoAsyncWithDesc implements aclrtCmoAsyncWithDesc: the task reads the
// descriptor when the stream reaches it; a descriptor that aclrtCmoSetDesc
// did not write is the task's (asynchronous) error.
func CmoAsyncWithDesc(t *core.Thread, desc uintptr, typ int32, sh core.Handle, reserve uintptr) error {
	const fn = "aclrtCmoAsyncWithDesc"
	s, err := cmoStream(t, fn, sh)
	if err != nil {
		return err
	}
	if reserve != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: reserve must be NULL", fn)
	}
	if err := cmoType(fn, typ); err != nil {
		return err
	}
	if err := cmoRange(fn, "cmoDesc", s.Ctx.Dev, desc, core.CmoDescSize); err != nil {
		return err
	}
	return s.Submit(t, fn, tsfw.HostTask(func() error {
		if d := readCmoDesc(desc); d.Magic != cmoDescMagic {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: the descriptor at %#x was not set by aclrtCmoSetDesc", fn, desc)
		}
		return nil
	}))
}
