package acl

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// External allocators (acl_rt_allocator.h): an application describes its
// own device-memory allocator (an object and four callbacks) and registers
// it for a stream. The runtime only keeps the registration; the consumers
// (operator and dynamic-shape model execution, outside the runtime
// library) fetch it with aclrtAllocatorGetByStream and call the callbacks
// themselves. npuemu has no such consumer, so nothing here calls them.

// allocatorDesc is one aclrtAllocatorDesc. mu guards parts.
type allocatorDesc struct {
	mu    sync.Mutex
	parts core.AllocatorParts
}

var allocDescs = core.NewTable[allocatorDesc](core.KindAllocDesc)

// AllocatorCreateDesc implements aclrtAllocatorCreateDesc.
func AllocatorCreateDesc(t *core.Thread) core.Handle {
	d := &allocatorDesc{}
	h := allocDescs.Add(d)
	d.parts.Desc = h
	return h
}

func resolveAllocDesc(fn string, h core.Handle) (*allocatorDesc, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: allocatorDesc must not be NULL", fn)
	}
	d, err := allocDescs.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %v", fn, err)
	}
	return d, nil
}

// AllocatorDestroyDesc implements aclrtAllocatorDestroyDesc. Streams that
// registered the description keep their snapshot.
func AllocatorDestroyDesc(t *core.Thread, h core.Handle) error {
	const fn = "aclrtAllocatorDestroyDesc"
	if _, err := resolveAllocDesc(fn, h); err != nil {
		return err
	}
	allocDescs.Remove(h)
	return nil
}

// AllocatorSetPart implements the aclrtAllocatorSet*ToDesc family: part
// is one of AllocatorObj..AllocatorGetAddrFromBlock; v must not be NULL.
func AllocatorSetPart(t *core.Thread, fn string, h core.Handle, part int, v uintptr) error {
	d, err := resolveAllocDesc(fn, h)
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
	d.mu.Lock()
	defer d.mu.Unlock()
	switch part {
	case core.AllocatorObj:
		d.parts.Obj = v
	case core.AllocatorAlloc:
		d.parts.Alloc = v
	case core.AllocatorFree:
		d.parts.Free = v
	case core.AllocatorAllocAdvise:
		d.parts.AllocAdvise = v
	case core.AllocatorGetAddrFromBlock:
		d.parts.GetAddrFromBlock = v
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown allocator part %d", fn, part)
	}
	return nil
}

// allocatorStream resolves the stream argument of Register/GetByStream:
// NULL is refused (a registration belongs to an explicit stream).
func allocatorStream(t *core.Thread, fn string, sh core.Handle) (*core.Stream, error) {
	if sh == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// AllocatorRegister implements aclrtAllocatorRegister: the description
// must carry the object and the alloc, free and getAddrFromBlock
// callbacks (allocAdvise is optional); a later registration for the same
// stream replaces this one.
func AllocatorRegister(t *core.Thread, sh core.Handle, dh core.Handle) error {
	const fn = "aclrtAllocatorRegister"
	d, err := resolveAllocDesc(fn, dh)
	if err != nil {
		return err
	}
	s, err := allocatorStream(t, fn, sh)
	if err != nil {
		return err
	}
	d.mu.Lock()
	p := d.parts
	d.mu.Unlock()
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
	s, err := allocatorStream(t, fn, sh)
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
