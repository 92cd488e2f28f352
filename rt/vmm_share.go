package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// Sharing physical allocations between the processes of the node (the
// aclrtMem{Export,Import}*ShareableHandle*, aclrtMemSetPidToShareableHandle*
// callers; docs/vmm.md), reading a handle's properties back, and mapping
// through a chosen link (Atlas A3). rtDrvMemHandleType and
// rtMemSharedHandleType have the ACL values; a DEFAULT shareable handle is
// a uint64_t, which the V2 calls pass by address.

// MemExportToShareableHandle implements rtsMemExportToShareableHandle:
// handleType RT_MEM_HANDLE_TYPE_NONE, flags DEFAULT (0) or
// DISABLE_PID_VALIDATION (1), as aclrtMemExportToShareableHandle.
func MemExportToShareableHandle(t *core.Thread, h uint64, handleType uint32, flags uint64, out *uint64) error {
	const fn = "rtsMemExportToShareableHandle"
	if h == 0 || out == nil {
		return invalid(fn, "handle and shareableHandle must not be NULL")
	}
	return wrap(fn, acl.MemExportToShareableHandle(t, fn, h, handleType, flags, out))
}

// MemExportToShareableHandleV2 implements rtMemExportToShareableHandleV2:
// shareType RT_MEM_SHARE_HANDLE_TYPE_DEFAULT (the uint64_t handle is
// written at out); FABRIC handles cross servers, which npuemu does not
// model (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
func MemExportToShareableHandleV2(t *core.Thread, h uint64, shareType uint32, flags uint64, out *uint64) error {
	const fn = "rtMemExportToShareableHandleV2"
	if err := acl.CheckShareType(fn, shareType); err != nil {
		return wrap(fn, err)
	}
	if h == 0 || out == nil {
		return invalid(fn, "handle and shareableHandle must not be NULL")
	}
	return wrap(fn, acl.MemExportToShareableHandle(t, fn, h, abi.ACL_MEM_HANDLE_TYPE_NONE, flags, out))
}

// MemImportFromShareableHandle implements rtMemImportFromShareableHandle:
// a handle on the exporter's allocation for device devId, in this process
// or another one of the node.
func MemImportFromShareableHandle(t *core.Thread, share uint64, dev int32, out *uint64) error {
	const fn = "rtMemImportFromShareableHandle"
	if out == nil {
		return invalid(fn, "handle must not be NULL")
	}
	if dev < 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d", fn, dev)
	}
	return wrap(fn, acl.MemImportFromShareableHandle(t, fn, share, dev, 0, out))
}

// MemImportFromShareableHandleV2 implements
// rtMemImportFromShareableHandleV2: share (nil for NULL) points at a
// DEFAULT shareable handle; flags are the import flags of
// aclrtMemImportFromShareableHandleV2; devId is explicit here (the ACL
// call passes the current device).
func MemImportFromShareableHandleV2(t *core.Thread, share *uint64, shareType uint32, flags uint64, dev int32, out *uint64) error {
	const fn = "rtMemImportFromShareableHandleV2"
	if err := acl.CheckShareType(fn, shareType); err != nil {
		return wrap(fn, err)
	}
	if share == nil || out == nil {
		return invalid(fn, "shareableHandle and handle must not be NULL")
	}
	if dev < 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d", fn, dev)
	}
	return wrap(fn, acl.MemImportFromShareableHandle(t, fn, *share, dev, flags, out))
}

// MemSetPidToShareableHandle implements rtMemSetPidToShareableHandle: the
// processes allowed to import share.
func MemSetPidToShareableHandle(t *core.Thread, share uint64, pids []int32) error {
	const fn = "rtMemSetPidToShareableHandle"
	if len(pids) == 0 {
		return invalid(fn, "pid must not be NULL and pidNum must be > 0")
	}
	return wrap(fn, acl.MemSetPidToShareableHandle(t, fn, share, pids))
}

// MemSetPidToShareableHandleV2 implements rtMemSetPidToShareableHandleV2
// (share nil for NULL; DEFAULT share type).
func MemSetPidToShareableHandleV2(t *core.Thread, share *uint64, shareType uint32, pids []int32) error {
	const fn = "rtMemSetPidToShareableHandleV2"
	if err := acl.CheckShareType(fn, shareType); err != nil {
		return wrap(fn, err)
	}
	if share == nil || len(pids) == 0 {
		return invalid(fn, "shareableHandle and pid must not be NULL and pidNum must be > 0")
	}
	return wrap(fn, acl.MemSetPidToShareableHandle(t, fn, *share, pids))
}

// MemGetAllocationPropertiesFromHandle implements
// rtMemGetAllocationPropertiesFromHandle: the driver's properties of h
// (halMemGetAllocationPropertiesFromHandle across the library boundary):
// side, device, memory and page type, and the module it is charged to
// (rtMallocPhysical's module_id, APP for aclrtMallocPhysical).
func MemGetAllocationPropertiesFromHandle(t *core.Thread, h uint64, out *DrvMemProp) error {
	const fn = "rtMemGetAllocationPropertiesFromHandle"
	if h == 0 || out == nil {
		return invalid(fn, "handle and prop must not be NULL")
	}
	if _, _, err := core.SoC(fn); err != nil {
		return wrap(fn, err)
	}
	var hp hal.MemProp
	if err := stack.AllocationPropertiesFromHandle(&hp, h); err != nil {
		return wrap(fn, err)
	}
	*out = DrvMemProp{Side: hp.Side, Devid: hp.Devid, Module_id: hp.Module_id, Pg_type: hp.Pg_type, Mem_type: hp.Mem_type, Reserve: hp.Reserve}
	return nil
}

// MemMapSelectedLink implements rtMemMapSelectedLink: the reservation at
// dst maps the physical memory mapped at src (the start of a mapping,
// size bytes: every mapping of [src, src+size) at the same offset), over
// link linkIdx (RT_MEM_LINK_IDX_0 SIO, RT_MEM_LINK_IDX_1 HCCS). Atlas A3
// only: the runtime refuses it elsewhere with
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT. Every link reaches the same memory in
// npuemu, so the link is checked and not recorded; each mapping at dst
// needs its own rtUnmapMem.
func MemMapSelectedLink(t *core.Thread, dst uintptr, size uint64, src uintptr, link uint32) error {
	const fn = "rtMemMapSelectedLink"
	if dst == 0 || src == 0 || size == 0 {
		return invalid(fn, "virPtrDst and virPtrSrc must not be NULL and size must not be 0")
	}
	if link != abi.RT_MEM_LINK_IDX_0 && link != abi.RT_MEM_LINK_IDX_1 {
		return invalid(fn, "linkIdx %d: RT_MEM_LINK_IDX_0 (SIO) or RT_MEM_LINK_IDX_1 (HCCS)", link)
	}
	soc, _, err := core.SoC(fn)
	if err != nil {
		return wrap(fn, err)
	}
	if soc.Family != emu.FamilyA3 {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: link selection (SIO/HCCS) exists on Atlas A3 only, not on %s", fn, soc.Name)
	}
	var done []uintptr
	undo := func(err error) error {
		for _, va := range done {
			_ = acl.UnmapMem(t, va)
		}
		return wrap(fn, err)
	}
	for off := uint64(0); off < size; {
		var base uintptr
		var n uint64
		if err := acl.MemGetAddressRange(t, src+uintptr(off), &base, &n); err != nil {
			return undo(err)
		}
		if base != src+uintptr(off) || off+n > size {
			return undo(invalid(fn, "[virPtrSrc, +size) must be whole mappings: %#x is inside the block %#x..+%#x", src+uintptr(off), base, n))
		}
		var h uint64
		if err := acl.MemRetainAllocationHandle(t, base, &h); err != nil {
			return undo(err)
		}
		err := acl.MapMem(t, dst+uintptr(off), n, 0, h, 0, false)
		_ = acl.FreePhysical(t, h) // the mapping holds its own reference
		if err != nil {
			return undo(err)
		}
		done = append(done, dst+uintptr(off))
		off += n
	}
	return nil
}
