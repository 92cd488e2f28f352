package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The runtime's stream-ordered memory pools (rtMemPool*). The pools are
// still package acl's (acl/mempool.go, core.MemPool); these translate the
// rt properties and give the results the runtime's codes. rtMemPoolAttr
// values are those of aclrtMemPoolAttr (rt-types.md, acl-constants.tsv), and
// so are the widths of their values (uint32_t for the reuse switches,
// uint64_t for the sizes).

// rtMemPoolProps (MemPoolProps, zmirrors.go): side is a drv_mem_side as
// in rtDrvMemProp_t (npuemu's decision: the field has that struct's name
// and place; only MEM_DEV_SIDE pools exist), devId the device, handleType
// RT_MEM_HANDLE_TYPE_NONE (pools are not shareable), reserve 0.

// MemPoolCreate implements rtMemPoolCreate: a pool on props.devId that may
// reserve up to maxSize bytes of device memory, as aclrtMemPoolCreate.
func MemPoolCreate(t *core.Thread, out *core.Handle, props *MemPoolProps) error {
	const fn = "rtMemPoolCreate"
	switch {
	case out == nil || props == nil:
		return invalid(fn, "memPool and poolProps must not be NULL")
	case props.Side != abi.MEM_DEV_SIDE:
		return invalid(fn, "side %d: only device pools (MEM_DEV_SIDE, 1)", props.Side)
	case props.HandleType != abi.RT_MEM_HANDLE_TYPE_NONE:
		return invalid(fn, "handleType %d: only RT_MEM_HANDLE_TYPE_NONE (0)", props.HandleType)
	case props.Reserve != 0:
		return invalid(fn, "reserve must be 0")
	}
	p := acl.MemPoolProps{
		AllocType:  abi.ACL_MEM_ALLOCATION_TYPE_PINNED,
		HandleType: abi.ACL_MEM_HANDLE_TYPE_NONE,
		Location:   acl.MemLocation{Id: props.DevId, Type: abi.ACL_MEM_LOCATION_TYPE_DEVICE},
		MaxSize:    props.MaxSize,
	}
	return wrap(fn, acl.MemPoolCreate(t, out, &p))
}

// MemPoolDestroy implements rtMemPoolDestroy: refused while blocks are
// still allocated from the pool.
func MemPoolDestroy(t *core.Thread, h core.Handle) error {
	return wrap("rtMemPoolDestroy", acl.MemPoolDestroy(t, h))
}

// MemPoolAttrWidth is the size in bytes of attribute attr's value (0: not
// an rtMemPoolAttr).
func MemPoolAttrWidth(attr int32) int { return acl.MemPoolAttrWidth(attr) }

// MemPoolSetAttr implements rtMemPoolSetAttr; v is the value read with
// MemPoolAttrWidth's width (nil: NULL value).
func MemPoolSetAttr(t *core.Thread, h core.Handle, attr int32, v *uint64) error {
	return wrap("rtMemPoolSetAttr", acl.MemPoolSetAttr(t, h, attr, v))
}

// MemPoolGetAttr implements rtMemPoolGetAttr.
func MemPoolGetAttr(t *core.Thread, h core.Handle, attr int32, v *uint64) error {
	return wrap("rtMemPoolGetAttr", acl.MemPoolGetAttr(t, h, attr, v))
}

// MemPoolMallocAsync implements rtMemPoolMallocAsync: size bytes from the
// pool, usable in stream order on stm.
func MemPoolMallocAsync(t *core.Thread, out *uintptr, size uint64, h, stm core.Handle) error {
	return wrap("rtMemPoolMallocAsync", acl.MemPoolMallocAsync(t, out, size, h, stm))
}

// MemPoolFreeAsync implements rtMemPoolFreeAsync: ptr goes back to its
// pool when stm reaches the free.
func MemPoolFreeAsync(t *core.Thread, p uintptr, stm core.Handle) error {
	return wrap("rtMemPoolFreeAsync", acl.MemPoolFreeAsync(t, p, stm))
}

// MemPoolTrimTo implements rtMemPoolTrimTo: idle memory beyond
// minBytesToKeep goes back to the device.
func MemPoolTrimTo(t *core.Thread, h core.Handle, keep uint64) error {
	return wrap("rtMemPoolTrimTo", acl.MemPoolTrimTo(t, h, keep))
}
