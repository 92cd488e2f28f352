package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// memAttr is the aclrtMemAttr that says what p says about pages and
// memory kind.
func memAttr(fn string, p *DrvMemProp) (uint32, error) {
	type key struct{ mem, pg uint32 }
	attrs := map[key]uint32{
		{abi.MEM_HBM_TYPE, abi.MEM_NORMAL_PAGE_TYPE}:     abi.ACL_HBM_MEM_NORMAL,
		{abi.MEM_HBM_TYPE, abi.MEM_HUGE_PAGE_TYPE}:       abi.ACL_HBM_MEM_HUGE,
		{abi.MEM_HBM_TYPE, abi.MEM_GIANT_PAGE_TYPE}:      abi.ACL_HBM_MEM_HUGE1G,
		{abi.MEM_DDR_TYPE, abi.MEM_NORMAL_PAGE_TYPE}:     abi.ACL_DDR_MEM_NORMAL,
		{abi.MEM_DDR_TYPE, abi.MEM_HUGE_PAGE_TYPE}:       abi.ACL_DDR_MEM_HUGE,
		{abi.MEM_P2P_HBM_TYPE, abi.MEM_NORMAL_PAGE_TYPE}: abi.ACL_HBM_MEM_P2P_NORMAL,
		{abi.MEM_P2P_HBM_TYPE, abi.MEM_HUGE_PAGE_TYPE}:   abi.ACL_HBM_MEM_P2P_HUGE,
		{abi.MEM_P2P_HBM_TYPE, abi.MEM_GIANT_PAGE_TYPE}:  abi.ACL_HBM_MEM_P2P_HUGE1G,
		{abi.MEM_P2P_DDR_TYPE, abi.MEM_NORMAL_PAGE_TYPE}: abi.ACL_DDR_MEM_P2P_NORMAL,
		{abi.MEM_P2P_DDR_TYPE, abi.MEM_HUGE_PAGE_TYPE}:   abi.ACL_DDR_MEM_P2P_HUGE,
	}
	a, ok := attrs[key{p.Mem_type, p.Pg_type}]
	if !ok {
		return 0, invalid(fn, "prop mem_type %d with pg_type %d is not a memory kind npuemu models", p.Mem_type, p.Pg_type)
	}
	return a, nil
}

// MallocPhysical implements rtMallocPhysical: a physical allocation of
// size bytes (a multiple of the granularity) with the driver's properties.
func MallocPhysical(t *core.Thread, out *uint64, size uint64, p *DrvMemProp, flags uint64) error {
	const fn = "rtMallocPhysical"
	if out == nil || p == nil {
		return invalid(fn, "handle and prop must not be NULL")
	}
	attr, err := memAttr(fn, p)
	if err != nil {
		return err
	}
	ap := acl.PhysicalMemProp{HandleType: abi.ACL_MEM_HANDLE_TYPE_NONE, AllocationType: abi.ACL_MEM_ALLOCATION_TYPE_PINNED, MemAttr: attr}
	ap.Location.Id = p.Devid
	switch p.Side {
	case abi.MEM_DEV_SIDE:
		ap.Location.Type = abi.ACL_MEM_LOCATION_TYPE_DEVICE
	case abi.MEM_HOST_SIDE:
		ap.Location.Type = abi.ACL_MEM_LOCATION_TYPE_HOST
	case abi.MEM_HOST_NUMA_SIDE:
		ap.Location.Type = abi.ACL_MEM_LOCATION_TYPE_HOST_NUMA
	default:
		return invalid(fn, "prop side %d is not a drv_mem_side", p.Side)
	}
	return wrap(fn, acl.MallocPhysical(t, out, size, &ap, flags))
}

// FreePhysical implements rtFreePhysical.
func FreePhysical(t *core.Thread, h uint64) error {
	if h == 0 {
		return invalid("rtFreePhysical", "handle must not be NULL")
	}
	return wrap("rtFreePhysical", acl.FreePhysical(t, h))
}
