package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// External allocators (acl_rt_allocator.h): an application describes its
// own device-memory allocator (an object and four callbacks) and registers
// it for a stream. The runtime only keeps the registration; the consumers
// (operator and dynamic-shape model execution, outside the runtime
// library) fetch it with aclrtAllocatorGetByStream and call the callbacks
// themselves. npuemu has no such consumer, so nothing here calls them.

// AllocatorCreateDesc implements aclrtAllocatorCreateDesc.
func AllocatorCreateDesc(t *core.Thread) core.Handle {
	d := &core.AllocatorDesc{}
	h := core.AllocDescs.Add(d)
	d.Parts.Desc = h
	return h
}

// AllocatorDestroyDesc implements aclrtAllocatorDestroyDesc. Streams that
// registered the description keep their snapshot.
func AllocatorDestroyDesc(t *core.Thread, h core.Handle) error {
	const fn = "aclrtAllocatorDestroyDesc"
	if _, err := core.ResolveAllocDesc(fn, h); err != nil {
		return err
	}
	core.AllocDescs.Remove(h)
	return nil
}

// AllocatorSetPart implements the aclrtAllocatorSet*ToDesc family: part
// is one of AllocatorObj..AllocatorGetAddrFromBlock; v must not be NULL.
func AllocatorSetPart(t *core.Thread, fn string, h core.Handle, part int, v uintptr) error {
	d, err := core.ResolveAllocDesc(fn, h)
	if err != nil {
		return err
	}
	if v == 0 {
		what := "func"
		if part == core.AllocatorObj {
			what = "allocator"
		}
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s must not be NULL", fn, what)
	}
	d.Mu.Lock()
	defer d.Mu.Unlock()
	switch part {
	case core.AllocatorObj:
		d.Parts.Obj = v
	case core.AllocatorAlloc:
		d.Parts.Alloc = v
	case core.AllocatorFree:
		d.Parts.Free = v
	case core.AllocatorAllocAdvise:
		d.Parts.AllocAdvise = v
	case core.AllocatorGetAddrFromBlock:
		d.Parts.GetAddrFromBlock = v
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown allocator part %d", fn, part)
	}
	return nil
}

// AllocatorRegister implements aclrtAllocatorRegister: the description
// must carry the object and the alloc, free and getAddrFromBlock
// callbacks (allocAdvise is optional); a later registration for the same
// stream replaces this one.
func AllocatorRegister(t *core.Thread, sh core.Handle, dh core.Handle) error {
	const fn = "aclrtAllocatorRegister"
	d, err := core.ResolveAllocDesc(fn, dh)
	if err != nil {
		return err
	}
	s, err := core.AllocatorStream(t, fn, sh)
	if err != nil {
		return err
	}
	d.Mu.Lock()
	p := d.Parts
	d.Mu.Unlock()
	for _, m := range []struct {
		v    uintptr
		what string
	}{{p.Obj, "allocator object (aclrtAllocatorSetObjToDesc)"}, {p.Alloc, "alloc function"}, {p.Free, "free function"}, {p.GetAddrFromBlock, "getAddrFromBlock function"}} {
		if m.v == 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: the description has no %s", fn, m.what)
		}
	}
	core.AllocRegs.Mu.Lock()
	defer core.AllocRegs.Mu.Unlock()
	if s.Dead.Load() {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: stream %d was destroyed", fn, s.ID)
	}
	if core.AllocRegs.M == nil {
		core.AllocRegs.M = map[*core.Stream]core.AllocatorParts{}
	}
	core.AllocRegs.M[s] = p
	return nil
}

// AllocatorGetByStream implements aclrtAllocatorGetByStream. A stream
// without a registration yields zero (NULL) parts.
func AllocatorGetByStream(t *core.Thread, sh core.Handle, out *core.AllocatorParts) error {
	const fn = "aclrtAllocatorGetByStream"
	s, err := core.AllocatorStream(t, fn, sh)
	if err != nil {
		return err
	}
	core.AllocRegs.Mu.Lock()
	*out = core.AllocRegs.M[s]
	core.AllocRegs.Mu.Unlock()
	return nil
}

// AllocatorUnregister implements aclrtAllocatorUnregister: a stream with
// no registration (never registered, already unregistered, or destroyed)
// is a success, as documented.
func AllocatorUnregister(t *core.Thread, sh core.Handle) error {
	const fn = "aclrtAllocatorUnregister"
	if sh == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL", fn)
	}
	s, err := core.Streams.Get(sh)
	if err != nil {
		if k, _, _ := sh.Parts(); k == core.KindStream {
			return nil // a destroyed stream's registration went with it
		}
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	core.AllocRegs.Mu.Lock()
	delete(core.AllocRegs.M, s)
	core.AllocRegs.Mu.Unlock()
	return nil
}
