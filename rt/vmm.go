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
	ap, err := physProp(fn, p)
	if err != nil {
		return err
	}
	return wrap(fn, acl.MallocPhysicalWork(t, fn, out, size, &ap, flags, p.Module_id))
}

// physProp converts a driver memory property to aclrtPhysicalMemProp.
func physProp(fn string, p *DrvMemProp) (acl.PhysicalMemProp, error) {
	attr, err := memAttr(fn, p)
	if err != nil {
		return acl.PhysicalMemProp{}, err
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
		return acl.PhysicalMemProp{}, invalid(fn, "prop side %d is not a drv_mem_side", p.Side)
	}
	return ap, nil
}

// FreePhysical implements rtFreePhysical.
func FreePhysical(t *core.Thread, h uint64) error {
	if h == 0 {
		return invalid("rtFreePhysical", "handle must not be NULL")
	}
	return wrap("rtFreePhysical", acl.FreePhysical(t, h))
}

// aclLocation converts an rtMemLocation (HOST or DEVICE; the other
// rtMemLocationType values name no place access is granted to).
func aclLocation(fn string, l MemLocation) (acl.MemLocation, error) {
	switch l.Type {
	case abi.RT_MEMORY_LOC_HOST:
		return acl.MemLocation{Id: l.Id, Type: abi.ACL_MEM_LOCATION_TYPE_HOST}, nil
	case abi.RT_MEMORY_LOC_DEVICE:
		return acl.MemLocation{Id: l.Id, Type: abi.ACL_MEM_LOCATION_TYPE_DEVICE}, nil
	}
	return acl.MemLocation{}, invalid(fn, "location type %d: RT_MEMORY_LOC_HOST or RT_MEMORY_LOC_DEVICE", l.Type)
}

// ReserveMemAddress implements rtReserveMemAddress: a virtual range of
// size bytes; flags are the driver's (the page type in bits 0-1), as
// aclrtReserveMemAddress takes them.
func ReserveMemAddress(t *core.Thread, out *uintptr, size, alignment uint64, expect uintptr, flags uint64) error {
	const fn = "rtReserveMemAddress"
	if out == nil {
		return invalid(fn, "devPtr must not be NULL")
	}
	return wrap(fn, acl.ReserveMemAddress(t, out, size, alignment, expect, flags, false))
}

// ReleaseMemAddress implements rtReleaseMemAddress: every mapping of the
// range must be unmapped first.
func ReleaseMemAddress(t *core.Thread, p uintptr) error {
	const fn = "rtReleaseMemAddress"
	if p == 0 {
		return invalid(fn, "devPtr must not be NULL")
	}
	return wrap(fn, acl.ReleaseMemAddress(t, p))
}

// MapMem implements rtMapMem (noAccess false) and rtMemMapNoAccess: the
// physical allocation h from offset, over size bytes of a reservation.
func MapMem(t *core.Thread, va uintptr, size, offset, h, flags uint64, noAccess bool) error {
	fn := "rtMapMem"
	if noAccess {
		fn = "rtMemMapNoAccess"
	}
	if va == 0 || h == 0 {
		return invalid(fn, "devPtr and handle must not be NULL")
	}
	return wrap(fn, acl.MapMem(t, va, size, offset, h, flags, noAccess))
}

// UnmapMem implements rtUnmapMem.
func UnmapMem(t *core.Thread, va uintptr) error {
	const fn = "rtUnmapMem"
	if va == 0 {
		return invalid(fn, "devPtr must not be NULL")
	}
	return wrap(fn, acl.UnmapMem(t, va))
}

// MemSetAccess implements rtMemSetAccess: RT_MEM_ACCESS_FLAGS_READWRITE
// for each HOST or DEVICE location of desc over one whole mapping.
func MemSetAccess(t *core.Thread, va uintptr, size uint64, desc []MemAccessDesc) error {
	const fn = "rtMemSetAccess"
	if va == 0 || len(desc) == 0 {
		return invalid(fn, "virPtr must not be NULL, desc not NULL and count not 0")
	}
	ds := make([]acl.MemAccessDesc, len(desc))
	for i, d := range desc {
		if d.Flags != abi.RT_MEM_ACCESS_FLAGS_READWRITE {
			return invalid(fn, "desc[%d].flags %d: only RT_MEM_ACCESS_FLAGS_READWRITE", i, d.Flags)
		}
		l, err := aclLocation(fn, d.Location)
		if err != nil {
			return err
		}
		ds[i] = acl.MemAccessDesc{Flags: abi.ACL_RT_MEM_ACCESS_FLAGS_READWRITE, Location: l}
	}
	return wrap(fn, acl.MemSetAccess(t, va, size, ds))
}

// MemGetAccess implements rtMemGetAccess: the rtMemAccessFlags location
// has to va's mapping.
func MemGetAccess(t *core.Thread, va uintptr, loc *MemLocation, flags *uint64) error {
	const fn = "rtMemGetAccess"
	if va == 0 || loc == nil || flags == nil {
		return invalid(fn, "virPtr, location and flags must not be NULL")
	}
	l, err := aclLocation(fn, *loc)
	if err != nil {
		return err
	}
	var f uint64
	if err := acl.MemGetAccess(t, va, &l, &f); err != nil {
		return wrap(fn, err)
	}
	switch f {
	case abi.ACL_RT_MEM_ACCESS_FLAGS_NONE:
		f = abi.RT_MEM_ACCESS_FLAGS_NONE
	case abi.ACL_RT_MEM_ACCESS_FLAGS_READ:
		f = abi.RT_MEM_ACCESS_FLAGS_READ
	case abi.ACL_RT_MEM_ACCESS_FLAGS_READWRITE:
		f = abi.RT_MEM_ACCESS_FLAGS_READWRITE
	}
	*flags = f
	return nil
}

// MemGetAllocationGranularity implements rtMemGetAllocationGranularity.
func MemGetAllocationGranularity(t *core.Thread, p *DrvMemProp, option uint32, g *uint64) error {
	const fn = "rtMemGetAllocationGranularity"
	if p == nil || g == nil {
		return invalid(fn, "prop and granularity must not be NULL")
	}
	var o uint32
	switch option {
	case abi.RT_MEM_ALLOC_GRANULARITY_MINIMUM:
		o = abi.ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM
	case abi.RT_MEM_ALLOC_GRANULARITY_RECOMMENDED:
		o = abi.ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED
	default:
		return invalid(fn, "option %d is neither MINIMUM nor RECOMMENDED", option)
	}
	ap, err := physProp(fn, p)
	if err != nil {
		return err
	}
	return wrap(fn, acl.MemGetAllocationGranularity(t, &ap, o, g))
}

// MemRetainAllocationHandle implements rtMemRetainAllocationHandle: the
// handle mapped at va, with one more reference that needs its own
// rtFreePhysical.
func MemRetainAllocationHandle(t *core.Thread, va uintptr, out *uint64) error {
	const fn = "rtMemRetainAllocationHandle"
	if va == 0 || out == nil {
		return invalid(fn, "virPtr and handle must not be NULL")
	}
	return wrap(fn, acl.MemRetainAllocationHandle(t, va, out))
}

// MemGetAddressRange implements rtMemGetAddressRange: base and size of the
// device, pinned host or mapped virtual block holding ptr; pbase and psize
// may each be NULL.
func MemGetAddressRange(t *core.Thread, ptr uintptr, pbase *uintptr, psize *uint64) error {
	const fn = "rtMemGetAddressRange"
	if ptr == 0 {
		return invalid(fn, "ptr must not be NULL")
	}
	return wrap(fn, acl.MemGetAddressRange(t, ptr, pbase, psize))
}
