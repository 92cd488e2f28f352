package hal

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// The VMM and shared-memory enums of the HAL, decoded into emu's own kinds
// (emu/vmm_kinds.go; the model knows no API enum, docs/internals.md) and
// encoded back where a value returns to the program.
//
// Page and memory types are range-checked (physProp, AddressReserve) before
// they are decoded. An access type or a shared-memory attribute the driver
// does not know is not refused here: it reaches the model as a value of the
// same number, outside the model's kinds, which the model refuses in its
// own order of checks with that number in its message, as it did before
// these kinds existed (so a call wrong in two ways gets the same code).

// pageKind decodes a drv_mem_pg_type below MEM_MAX_PAGE_TYPE.
func pageKind(v uint32) emu.PageKind {
	switch v {
	case abi.MEM_NORMAL_PAGE_TYPE:
		return emu.PageNormal
	case abi.MEM_HUGE_PAGE_TYPE:
		return emu.PageHuge
	case abi.MEM_GIANT_PAGE_TYPE:
		return emu.PageGiant
	}
	return emu.PageKinds // none: the model refuses it
}

// pgType encodes a page kind as drv_mem_pg_type.
func pgType(k emu.PageKind) uint32 {
	switch k {
	case emu.PageHuge:
		return abi.MEM_HUGE_PAGE_TYPE
	case emu.PageGiant:
		return abi.MEM_GIANT_PAGE_TYPE
	}
	return abi.MEM_NORMAL_PAGE_TYPE
}

// memKinds pairs drv_mem_type values with emu's memory kinds.
var memKinds = []struct {
	drv uint32
	k   emu.MemKind
}{
	{abi.MEM_HBM_TYPE, emu.MemHBM},
	{abi.MEM_DDR_TYPE, emu.MemDDR},
	{abi.MEM_P2P_HBM_TYPE, emu.MemP2PHBM},
	{abi.MEM_P2P_DDR_TYPE, emu.MemP2PDDR},
	{abi.MEM_TS_DDR_TYPE, emu.MemTSDDR},
}

// memKind decodes a drv_mem_type below MEM_MAX_TYPE.
func memKind(v uint32) emu.MemKind {
	for _, m := range memKinds {
		if m.drv == v {
			return m.k
		}
	}
	return emu.MemKinds // none: the model refuses it
}

// memType encodes a memory kind as drv_mem_type.
func memType(k emu.MemKind) uint32 {
	for _, m := range memKinds {
		if m.k == k {
			return m.drv
		}
	}
	return abi.MEM_HBM_TYPE
}

// access decodes a drv_mem_access_type (see above for the values it does
// not know).
func access(v uint32) emu.Access {
	switch v {
	case abi.MEM_ACCESS_TYPE_NONE:
		return emu.AccessNone
	case abi.MEM_ACCESS_TYPE_READ:
		return emu.AccessRead
	case abi.MEM_ACCESS_TYPE_READWRITE:
		return emu.AccessReadWrite
	}
	return emu.Access(v)
}

// accessType encodes an access as halMemGetAccess reports it: a location
// never given access reads MEM_ACCESS_TYPE_MAX.
func accessType(a emu.Access) uint64 {
	switch a {
	case emu.AccessNone:
		return abi.MEM_ACCESS_TYPE_NONE
	case emu.AccessRead:
		return abi.MEM_ACCESS_TYPE_READ
	case emu.AccessReadWrite:
		return abi.MEM_ACCESS_TYPE_READWRITE
	}
	return abi.MEM_ACCESS_TYPE_MAX
}

// shmemAttr decodes an enum ShmemAttrType (see above for the values it
// does not know).
func shmemAttr(v uint32) emu.ShmemAttr {
	switch v {
	case abi.SHMEM_ATTR_TYPE_MEM_MAP:
		return emu.ShmemMapRoute
	case abi.SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER:
		return emu.ShmemNoWhitelist
	}
	return emu.ShmemAttr(v)
}

// shmemWhitelist pairs the values of SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER
// with emu's, and mapRoutes the MEM_MAP_* routes with emu's.
var (
	shmemWhitelist = [][2]uint64{
		{abi.SHMEM_WLIST_ENABLE, emu.ShmemWhitelistOn},
		{abi.SHMEM_NO_WLIST_ENABLE, emu.ShmemWhitelistOff},
	}
	mapRoutes = [][2]uint64{
		{abi.MEM_MAP_DEFAULT_PATH, emu.RouteDefault},
		{abi.MEM_MAP_EXBUS, emu.RouteExbus},
		{abi.MEM_MAP_UB_ONE_PORT_PATH, emu.RouteUBOnePort},
		{abi.MEM_MAP_UB_MULTI_PORT_PATH, emu.RouteUBMultiPort},
	}
)

// shmemValues returns the value table of attribute a (nil for an attribute
// the model does not know).
func shmemValues(a emu.ShmemAttr) [][2]uint64 {
	switch a {
	case emu.ShmemNoWhitelist:
		return shmemWhitelist
	case emu.ShmemMapRoute:
		return mapRoutes
	}
	return nil
}

// shmemValue decodes the value of attribute a (see above for the values it
// does not know).
func shmemValue(a emu.ShmemAttr, v uint64) uint64 {
	for _, p := range shmemValues(a) {
		if p[0] == v {
			return p[1]
		}
	}
	return v
}

// shmemValueOf encodes the value of attribute a for halShmemGetAttribute.
func shmemValueOf(a emu.ShmemAttr, v uint64) uint64 {
	for _, p := range shmemValues(a) {
		if p[1] == v {
			return p[0]
		}
	}
	return v
}
