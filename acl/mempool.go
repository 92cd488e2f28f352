package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// MemPoolCreate implements aclrtMemPoolCreate. The pool reserves nothing
// up front; maxSize bounds what it may reserve.
func MemPoolCreate(t *core.Thread, out *core.Handle, props *MemPoolProps) error {
	const fn = "aclrtMemPoolCreate"
	if out == nil || props == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memPool and poolProps must not be NULL", fn)
	}
	switch {
	case props.AllocType != abi.ACL_MEM_ALLOCATION_TYPE_PINNED:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: allocType %d: only ACL_MEM_ALLOCATION_TYPE_PINNED (0)", fn, props.AllocType)
	case props.HandleType != abi.ACL_MEM_HANDLE_TYPE_NONE:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handleType %d: only ACL_MEM_HANDLE_TYPE_NONE (0)", fn, props.HandleType)
	case props.Location.Type != abi.ACL_MEM_LOCATION_TYPE_DEVICE:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: location type %d: only ACL_MEM_LOCATION_TYPE_DEVICE (1)", fn, props.Location.Type)
	case props.MaxSize == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: maxSize must not be 0", fn)
	}
	for _, b := range props.Reserved {
		if b != 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: reserved bytes must be zero", fn)
		}
	}
	if err := core.CheckKnownDeviceID(fn, int32(props.Location.Id)); err != nil { // rtMemPoolCreate does not ask the driver's count
		return err
	}
	d, err := core.OpenKnownDevice(fn, int32(props.Location.Id))
	if err != nil {
		return err
	}
	*out = core.NewMemPool(d, props.MaxSize).H
	return nil
}

// MemPoolDestroy implements aclrtMemPoolDestroy: idle memory goes back at
// once, blocks whose free is still queued when their stream reaches it.
// A pool with blocks still allocated is refused (their memory would be
// lost to the application).
func MemPoolDestroy(t *core.Thread, h core.Handle) error {
	const fn = "aclrtMemPoolDestroy"
	p, err := core.ResolvePool(fn, h)
	if err != nil {
		return err
	}
	return p.Destroy(fn)
}

// MemPoolAttrWidth returns the size in bytes of attribute attr's value
// (0 for an unknown attribute).
func MemPoolAttrWidth(attr int32) int {
	switch attr {
	case abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		return 4
	case abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH,
		abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
		return 8
	}
	return 0
}

// MemPoolSetAttr implements aclrtMemPoolSetAttr; v is the value read with
// MemPoolAttrWidth's width (nil: NULL value).
func MemPoolSetAttr(t *core.Thread, h core.Handle, attr int32, v *uint64) error {
	const fn = "aclrtMemPoolSetAttr"
	p, err := core.ResolvePool(fn, h)
	if err != nil {
		return err
	}
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	p.Mu.Lock()
	defer p.Mu.Unlock()
	switch attr {
	case abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		if *v > 1 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d: value %d: want 0 or 1", fn, attr, *v)
		}
		switch attr {
		case abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
			p.FollowEvents = uint32(*v)
		case abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
			p.Opportunistic = uint32(*v)
		default:
			p.InternalDeps = uint32(*v)
		}
	case abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
		p.Threshold = *v
	case abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
		if *v != 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d: a high watermark can only be reset (value 0), not set to %d", fn, attr, *v)
		}
		// The watermark restarts from the current level: it is the
		// highest level since the reset, and the current one is part of it.
		if attr == abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH {
			p.ReservedHigh = p.Reserved
		} else {
			p.UsedHigh = p.Used
		}
	case abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d is read-only", fn, attr)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtMemPoolAttr %d", fn, attr)
	}
	return nil
}

// MemPoolGetAttr implements aclrtMemPoolGetAttr.
func MemPoolGetAttr(t *core.Thread, h core.Handle, attr int32, v *uint64) error {
	const fn = "aclrtMemPoolGetAttr"
	p, err := core.ResolvePool(fn, h)
	if err != nil {
		return err
	}
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	p.Mu.Lock()
	defer p.Mu.Unlock()
	switch attr {
	case abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
		*v = uint64(p.FollowEvents)
	case abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
		*v = uint64(p.Opportunistic)
	case abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		*v = uint64(p.InternalDeps)
	case abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
		*v = p.Threshold
	case abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
		*v = p.Reserved
	case abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
		*v = p.ReservedHigh
	case abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
		*v = p.Used
	case abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
		*v = p.UsedHigh
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtMemPoolAttr %d", fn, attr)
	}
	return nil
}

// poolStream resolves the stream of MallocAsync/FreeAsync: it must belong
// to the pool's device and not be recording tasks (capture, model build,
// persistent). The specification says nothing of pool allocations inside a
// captured graph (when a replay allocates, what a recorded free does), so
// npuemu refuses them rather than invent graph-owned allocations.
func poolStream(t *core.Thread, fn string, sh core.Handle) (*core.Stream, error) {
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return nil, err
	}
	if core.RecorderOf(s) != nil || s.Flags&abi.ACL_STREAM_PERSISTENT != 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d records tasks (capture or model): stream-ordered allocation there is not supported by npuemu", fn, s.ID)
	}
	return s, nil
}

// MemPoolMallocAsync implements aclrtMemPoolMallocAsync: the address is
// returned at once; a block reused across streams makes the stream wait
// for the free first.
func MemPoolMallocAsync(t *core.Thread, out *uintptr, size uint64, h core.Handle, sh core.Handle) error {
	const fn = "aclrtMemPoolMallocAsync"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	if size == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	}
	p, err := core.ResolvePool(fn, h)
	if err != nil {
		return err
	}
	s, err := poolStream(t, fn, sh)
	if err != nil {
		return err
	}
	if s.Ctx.Dev != p.Dev {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d is on device %d, the pool on device %d", fn, s.ID, s.Ctx.Dev.ID, p.Dev.ID)
	}
	base, err := p.MallocAsync(t, fn, s, size)
	if err != nil {
		return err
	}
	*out = base
	return nil
}

// MemPoolFreeAsync implements aclrtMemPoolFreeAsync: the block returns to
// its pool when the stream reaches the free (and at once for later
// allocations on the same stream).
func MemPoolFreeAsync(t *core.Thread, ptr uintptr, sh core.Handle) error {
	const fn = "aclrtMemPoolFreeAsync"
	if ptr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	s, err := poolStream(t, fn, sh)
	if err != nil {
		return err
	}
	return core.FreeAsync(t, fn, s, ptr)
}

// MemPoolTrimTo implements aclrtMemPoolTrimTo: idle memory goes back to
// the device until the pool reserves at most minBytesToKeep bytes (or
// nothing idle is left), whatever the release threshold.
func MemPoolTrimTo(t *core.Thread, h core.Handle, keep uint64) error {
	const fn = "aclrtMemPoolTrimTo"
	p, err := core.ResolvePool(fn, h)
	if err != nil {
		return err
	}
	p.Trim(keep)
	return nil
}
