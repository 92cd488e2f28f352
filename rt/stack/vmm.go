package stack

import "github.com/npuemu/npuemu/hal"

// The driver calls of the VMM queries, physical-memory sharing, managed
// memory and mapped host memory, as the runtime makes them (rt-to-hal.tsv:
// rtMemSetAccess → halMemSetAccess, ..., rtHostGetDevicePointer →
// halMemHostGetDevPointer). A nil HALCalls field calls the hal package
// directly; a set one calls the interposed definition (libfake/stack_vmm.go).

// SetAccess is halMemSetAccess as the runtime calls it.
func SetAccess(p uintptr, size uint64, desc []hal.MemAccessDesc) error {
	if f := HAL.SetAccess; f != nil {
		return f(p, size, desc)
	}
	return hal.SetAccess(p, size, desc)
}

// GetAccess is halMemGetAccess as the runtime calls it.
func GetAccess(p uintptr, loc *hal.MemLocation, flags *uint64) error {
	if f := HAL.GetAccess; f != nil {
		return f(p, loc, flags)
	}
	return hal.GetAccess(p, loc, flags)
}

// AllocationGranularity is halMemGetAllocationGranularity as the runtime
// calls it.
func AllocationGranularity(prop *hal.MemProp, option uint32, g *uint64) error {
	if f := HAL.AllocationGranularity; f != nil {
		return f(prop, option, g)
	}
	return hal.AllocationGranularity(prop, option, g)
}

// RetainAllocationHandle is halMemRetainAllocationHandle as the runtime
// calls it.
func RetainAllocationHandle(ph *uint64, p uintptr) error {
	if f := HAL.RetainAllocationHandle; f != nil {
		return f(ph, p)
	}
	return hal.RetainAllocationHandle(ph, p)
}

// AddressRange is halMemGetAddressRange as the runtime calls it (pbase
// and psize may each be nil).
func AddressRange(p uintptr, pbase *uintptr, psize *uint64) error {
	if f := HAL.AddressRange; f != nil {
		return f(p, pbase, psize)
	}
	return hal.AddressRange(p, pbase, psize)
}

// AllocationPropertiesFromHandle is halMemGetAllocationPropertiesFromHandle
// as the runtime calls it.
func AllocationPropertiesFromHandle(prop *hal.MemProp, h uint64) error {
	if f := HAL.AllocationPropertiesFromHandle; f != nil {
		return f(prop, h)
	}
	return hal.AllocationPropertiesFromHandle(prop, h)
}

// ExportToShareableHandle is halMemExportToShareableHandle as the runtime
// calls it.
func ExportToShareableHandle(h uint64, typ uint32, flags uint64, out *uint64) error {
	if f := HAL.ExportToShareableHandle; f != nil {
		return f(h, typ, flags, out)
	}
	return hal.ExportToShareableHandle(h, typ, flags, out)
}

// ExportToShareableHandleV2 is halMemExportToShareableHandleV2 as the
// runtime calls it.
func ExportToShareableHandleV2(h uint64, typ uint32, flags uint64, out *hal.MemShareHandle) error {
	if f := HAL.ExportToShareableHandleV2; f != nil {
		return f(h, typ, flags, out)
	}
	return hal.ExportToShareableHandleV2(h, typ, flags, out)
}

// ImportFromShareableHandle is halMemImportFromShareableHandle as the
// runtime calls it.
func ImportFromShareableHandle(s uint64, dev uint32, out *uint64) error {
	if f := HAL.ImportFromShareableHandle; f != nil {
		return f(s, dev, out)
	}
	return hal.ImportFromShareableHandle(s, dev, out)
}

// ImportFromShareableHandleV2 is halMemImportFromShareableHandleV2 as the
// runtime calls it.
func ImportFromShareableHandleV2(typ uint32, sh *hal.MemShareHandle, dev uint32, out *uint64) error {
	if f := HAL.ImportFromShareableHandleV2; f != nil {
		return f(typ, sh, dev, out)
	}
	return hal.ImportFromShareableHandleV2(typ, sh, dev, out)
}

// SetPidToShareableHandle is halMemSetPidToShareableHandle as the runtime
// calls it.
func SetPidToShareableHandle(s uint64, pids []int32) error {
	if f := HAL.SetPidToShareableHandle; f != nil {
		return f(s, pids)
	}
	return hal.SetPidToShareableHandle(s, pids)
}

// ManagedAdvise is halMemManagedAdvise as the runtime calls it.
func ManagedAdvise(p uintptr, size uint64, advise uint32, l hal.UVMLocation) error {
	if f := HAL.ManagedAdvise; f != nil {
		return f(p, size, advise, l)
	}
	return hal.ManagedAdvise(p, size, advise, l)
}

// ManagedRangeGetAttributes is halMemManagedRangeGetAttributes as the
// runtime calls it: data[i] receives attrs[i].
func ManagedRangeGetAttributes(data [][]byte, attrs []uint32, p uintptr, count uint64) error {
	if f := HAL.ManagedRangeGetAttributes; f != nil {
		return f(data, attrs, p, count)
	}
	return hal.ManagedRangeGetAttributes(data, attrs, p, count)
}

// HostGetDevPointer is halMemHostGetDevPointer as the runtime calls it.
func HostGetDevPointer(src uintptr, dev uint32, dst *uintptr) error {
	if f := HAL.HostGetDevPointer; f != nil {
		return f(src, dev, dst)
	}
	return hal.HostGetDevPointer(src, dev, dst)
}
