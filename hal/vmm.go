package hal

import (
	"encoding/binary"
	"os"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// Virtual memory management and physical-memory sharing through the HAL
// (hal-api.md §3.4): thin argument checks over the node's emu.VMM, which
// ACL's aclrtReserveMemAddress family uses as well, so handles and
// addresses are interchangeable between the two surfaces. Handles are
// opaque non-pointer values.

func vmm(fn string) (*emu.VMM, error) {
	n, err := node(fn)
	if err != nil {
		return nil, err
	}
	return n.VMM(), nil
}

// wrap prefixes a model error with the function name.
func wrap(fn string, err error) error {
	if err == nil {
		return nil
	}
	return abi.DrvErrorf(abi.DrvCodeOf(err), "%s: %s", fn, message(err))
}

// physProp converts and checks a drv_mem_prop.
func physProp(fn string, p *MemProp) (emu.PhysProp, error) {
	if p == nil {
		return emu.PhysProp{}, nullArg(fn, "prop")
	}
	out := emu.PhysProp{Dev: int(p.Devid), Module: p.Module_id}
	switch p.Side {
	case abi.MEM_HOST_SIDE:
		out.Host = true
	case abi.MEM_HOST_NUMA_SIDE:
		out.Host, out.NUMA = true, true
	case abi.MEM_DEV_SIDE:
	default:
		return out, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: prop side %d out of range (0..%d)", fn, p.Side, abi.MEM_MAX_SIDE-1)
	}
	if p.Pg_type >= abi.MEM_MAX_PAGE_TYPE {
		return out, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: prop pg_type %d out of range (0..%d)", fn, p.Pg_type, abi.MEM_MAX_PAGE_TYPE-1)
	}
	if p.Mem_type >= abi.MEM_MAX_TYPE {
		return out, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: prop mem_type %d out of range (0..%d)", fn, p.Mem_type, abi.MEM_MAX_TYPE-1)
	}
	out.PageType, out.MemType = pageKind(p.Pg_type), memKind(p.Mem_type)
	return out, nil
}

// reserveFlags are the bits halMemAddressReserve understands: the page type
// (bits 0-1) and the share/remote-map bits. Devices of one node share this
// process's address space, so a range is visible to all of them anyway.
const reserveFlags = 3 | abi.MEM_RSV_TYPE_DEVICE_SHARE | abi.MEM_RSV_TYPE_REMOTE_MAP

// AddressReserve implements halMemAddressReserve.
func AddressReserve(pp *uintptr, size, alignment uint64, addr uintptr, flag uint64) error {
	const fn = "halMemAddressReserve"
	if pp == nil {
		return nullArg(fn, "ptr")
	}
	if flag&^reserveFlags != 0 || flag&3 >= abi.MEM_MAX_PAGE_TYPE {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: flag %#x: unknown bits or page type", fn, flag)
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	p, err := v.Reserve(size, alignment, addr, pageKind(uint32(flag&3)) == emu.PageGiant)
	if err != nil {
		return wrap(fn, err)
	}
	*pp = p
	return nil
}

// AddressFree implements halMemAddressFree.
func AddressFree(p uintptr) error {
	const fn = "halMemAddressFree"
	if p == 0 {
		return nullArg(fn, "ptr")
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	return wrap(fn, v.Free(p))
}

// MemCreate implements halMemCreate.
func MemCreate(ph *uint64, size uint64, prop *MemProp, flag uint64) error {
	const fn = "halMemCreate"
	if ph == nil {
		return nullArg(fn, "handle")
	}
	p, err := physProp(fn, prop)
	if err != nil {
		return err
	}
	if flag != 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: flag %#x: must be 0", fn, flag)
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	h, err := v.Create(size, p)
	if err != nil {
		return wrap(fn, err)
	}
	if n, err := node(fn); err == nil {
		chargeCreated(n, h, size, p) // per-module accounting (memusage.go)
	}
	*ph = h
	return nil
}

// MemRelease implements halMemRelease.
func MemRelease(h uint64) error {
	const fn = "halMemRelease"
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	if err := v.Release(h); err != nil {
		return wrap(fn, err)
	}
	if _, _, err := v.Prop(h); err != nil { // the last reference went
		dischargeCreated(h)
	}
	return nil
}

// RetainAllocationHandle implements halMemRetainAllocationHandle.
func RetainAllocationHandle(ph *uint64, p uintptr) error {
	const fn = "halMemRetainAllocationHandle"
	if ph == nil {
		return nullArg(fn, "handle")
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	h, err := v.Retain(p)
	if err != nil {
		return wrap(fn, err)
	}
	*ph = h
	return nil
}

// MemMap implements halMemMap.
func MemMap(p uintptr, size, offset, h, flag uint64) error {
	const fn = "halMemMap"
	if p == 0 {
		return nullArg(fn, "ptr")
	}
	if flag != 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: flag %#x: must be 0", fn, flag)
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	return wrap(fn, v.Map(p, size, offset, h, false))
}

// MemUnmap implements halMemUnmap.
func MemUnmap(p uintptr) error {
	const fn = "halMemUnmap"
	if p == 0 {
		return nullArg(fn, "ptr")
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	return wrap(fn, v.Unmap(p))
}

func location(fn string, l MemLocation) (emu.Location, error) {
	switch l.Side {
	case abi.MEM_HOST_SIDE, abi.MEM_HOST_NUMA_SIDE:
		return emu.Location{Host: true, ID: int(l.Id)}, nil
	case abi.MEM_DEV_SIDE:
		return emu.Location{ID: int(l.Id)}, nil
	}
	return emu.Location{}, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: location side %d out of range (0..%d)", fn, l.Side, abi.MEM_MAX_SIDE-1)
}

// SetAccess implements halMemSetAccess.
func SetAccess(p uintptr, size uint64, desc []MemAccessDesc) error {
	const fn = "halMemSetAccess"
	if p == 0 {
		return nullArg(fn, "ptr")
	}
	if len(desc) == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: desc must not be NULL and count not 0", fn)
	}
	ds := make([]emu.AccessDesc, len(desc))
	for i, d := range desc {
		l, err := location(fn, d.Location)
		if err != nil {
			return err
		}
		ds[i] = emu.AccessDesc{Flags: access(d.Type), Loc: l}
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	return wrap(fn, v.SetAccess(p, size, ds))
}

// GetAccess implements halMemGetAccess: location is read, flags written.
func GetAccess(p uintptr, loc *MemLocation, flags *uint64) error {
	const fn = "halMemGetAccess"
	switch {
	case p == 0:
		return nullArg(fn, "ptr")
	case loc == nil:
		return nullArg(fn, "location")
	case flags == nil:
		return nullArg(fn, "flags")
	}
	l, err := location(fn, *loc)
	if err != nil {
		return err
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	a, err := v.GetAccess(p, l)
	if err != nil {
		return wrap(fn, err)
	}
	*flags = accessType(a)
	return nil
}

// AllocationGranularity implements halMemGetAllocationGranularity.
func AllocationGranularity(prop *MemProp, option uint32, g *uint64) error {
	const fn = "halMemGetAllocationGranularity"
	if g == nil {
		return nullArg(fn, "granularity")
	}
	p, err := physProp(fn, prop)
	if err != nil {
		return err
	}
	if option >= abi.MEM_ALLOC_GRANULARITY_INVALID {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: option %d is neither MINIMUM nor RECOMMENDED", fn, option)
	}
	*g = p.Granularity(option == abi.MEM_ALLOC_GRANULARITY_MINIMUM)
	return nil
}

// PropOf converts a model property back to drv_mem_prop (what the runtime
// passes to halMemCreate for aclrtMallocPhysical/rtMallocPhysical).
func PropOf(p emu.PhysProp) MemProp {
	out := MemProp{Side: abi.MEM_DEV_SIDE, Devid: uint32(p.Dev), Module_id: p.Module, Pg_type: pgType(p.PageType), Mem_type: memType(p.MemType)}
	switch {
	case p.NUMA:
		out.Side = abi.MEM_HOST_NUMA_SIDE
	case p.Host:
		out.Side = abi.MEM_HOST_SIDE
	}
	return out
}

// AllocationPropertiesFromHandle implements
// halMemGetAllocationPropertiesFromHandle.
func AllocationPropertiesFromHandle(prop *MemProp, h uint64) error {
	const fn = "halMemGetAllocationPropertiesFromHandle"
	if prop == nil {
		return nullArg(fn, "prop")
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	p, _, err := v.Prop(h)
	if err != nil {
		return wrap(fn, err)
	}
	*prop = PropOf(p)
	return nil
}

// shareFlags: 0 keeps the pid whitelist, 1 disables it (the value ACL's
// ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION passes down).
func exportHandle(fn string, h uint64, typ uint32, flags uint64) (uint64, error) {
	switch typ {
	case abi.MEM_HANDLE_TYPE_NONE:
	case abi.MEM_HANDLE_TYPE_FABRIC, abi.MEM_HANDLE_TYPE_POSIX:
		return 0, abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: handle type %d: only MEM_HANDLE_TYPE_NONE (sharing inside one server) is modelled", fn, typ)
	default:
		return 0, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: handle type %d out of range", fn, typ)
	}
	if flags > 1 {
		return 0, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: flags %#x: 0 (pid whitelist) or 1 (no pid validation)", fn, flags)
	}
	v, err := vmm(fn)
	if err != nil {
		return 0, err
	}
	s, err := v.Export(h, flags == 1)
	return s, wrap(fn, err)
}

// ExportToShareableHandle implements halMemExportToShareableHandle.
func ExportToShareableHandle(h uint64, typ uint32, flags uint64, out *uint64) error {
	const fn = "halMemExportToShareableHandle"
	if out == nil {
		return nullArg(fn, "shareable_handle")
	}
	s, err := exportHandle(fn, h, typ, flags)
	if err != nil {
		return err
	}
	*out = s
	return nil
}

// ExportToShareableHandleV2 implements halMemExportToShareableHandleV2.
func ExportToShareableHandleV2(h uint64, typ uint32, flags uint64, out *MemShareHandle) error {
	const fn = "halMemExportToShareableHandleV2"
	if out == nil {
		return nullArg(fn, "share_handle")
	}
	s, err := exportHandle(fn, h, typ, flags)
	if err != nil {
		return err
	}
	*out = MemShareHandle{}
	binary.LittleEndian.PutUint64(out.Share_info[:8], s)
	return nil
}

func importHandle(fn string, s uint64, dev uint32, out *uint64) error {
	if out == nil {
		return nullArg(fn, "handle")
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	h, err := v.Import(s, int(dev), int32(os.Getpid()))
	if err != nil {
		return wrap(fn, err)
	}
	*out = h
	return nil
}

// ImportFromShareableHandle implements halMemImportFromShareableHandle.
// Importing in the exporting process itself works (npuemu has one
// process); the whitelist is checked against this process's pid.
func ImportFromShareableHandle(s uint64, dev uint32, out *uint64) error {
	return importHandle("halMemImportFromShareableHandle", s, dev, out)
}

// ImportFromShareableHandleV2 implements halMemImportFromShareableHandleV2.
func ImportFromShareableHandleV2(typ uint32, sh *MemShareHandle, dev uint32, out *uint64) error {
	const fn = "halMemImportFromShareableHandleV2"
	if sh == nil {
		return nullArg(fn, "share_handle")
	}
	if typ != abi.MEM_HANDLE_TYPE_NONE {
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: handle type %d: only MEM_HANDLE_TYPE_NONE is modelled", fn, typ)
	}
	return importHandle(fn, binary.LittleEndian.Uint64(sh.Share_info[:8]), dev, out)
}

// SetPidToShareableHandle implements halMemSetPidToShareableHandle.
func SetPidToShareableHandle(s uint64, pids []int32) error {
	const fn = "halMemSetPidToShareableHandle"
	if len(pids) == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: pid must not be NULL and pid_num not 0", fn)
	}
	v, err := vmm(fn)
	if err != nil {
		return err
	}
	return wrap(fn, v.SetSharePids(s, pids))
}
