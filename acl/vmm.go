package acl

import (
	"fmt"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// Virtual memory management (aclrtReserveMemAddress, aclrtMallocPhysical,
// aclrtMapMem, ...; semantics.md §11) over the node's emu.VMM, the model
// the HAL's halMem* VMM calls use too. The ACL layer checks what the
// runtime checks before calling the driver (NULL pointers, zero sizes,
// reserved arguments → ACL_ERROR_INVALID_PARAM) and converts the driver's
// answers the way the runtime does (DRV_ERROR_INVALID_VALUE → 107000,
// DRV_ERROR_INVALID_HANDLE → 107017, DRV_ERROR_OUT_OF_MEMORY → 207001, ...).
// An aclrtDrvMemHandle is the driver handle itself.

// The runtime's user-address window for aclrtReserveMemAddress.
const (
	tib             = uint64(1) << 40
	reserveUserLow  = 16 * tib
	reserveUserHigh = 24 * tib
)

// reserveFlags are the flag bits the driver understands (page type in bits
// 0-1, device-share and remote-map bits); the runtime passes them down.
const reserveFlags = 3 | abi.MEM_RSV_TYPE_DEVICE_SHARE | abi.MEM_RSV_TYPE_REMOTE_MAP

// physProps remembers the aclrtPhysicalMemProp each handle was created
// with, so that aclrtMemGetAllocationPropertiesFromHandle gives it back
// unchanged (the driver keeps only page and memory type). physProps.mu is a
// leaf lock.
var physProps struct {
	mu sync.Mutex
	m  map[uint64]PhysicalMemProp
}

// theVMM returns the node's VMM.
func theVMM(fn string) (*emu.VMM, error) {
	_, n, err := core.SoC(fn)
	if err != nil {
		return nil, err
	}
	return n.VMM(), nil
}

// ReserveMemAddress implements aclrtReserveMemAddress (noUC false) and
// aclrtReserveMemAddressNoUCMemory (noUC true: sizes in whole GiB, Atlas A3
// only).
func ReserveMemAddress(t *core.Thread, out *uintptr, size, alignment uint64, expect uintptr, flags uint64, noUC bool) error {
	fn := "aclrtReserveMemAddress"
	if noUC {
		fn = "aclrtReserveMemAddressNoUCMemory"
	}
	switch {
	case out == nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: virPtr must not be NULL", fn)
	case size == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	case flags&^reserveFlags != 0 || flags&3 >= abi.MEM_MAX_PAGE_TYPE:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: unknown bits or page type", fn, flags)
	}
	s, _, err := core.SoC(fn)
	if err != nil {
		return err
	}
	if noUC {
		if size%core.GiB != 0 {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: size %#x is not a multiple of 1 GiB", fn, size)
		}
	} else if expect != 0 {
		if s.Family == emu.Family950 {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: expectPtr must be NULL on %s", fn, s.Name)
		}
		if uint64(expect) < reserveUserLow || uint64(expect)+size > reserveUserHigh {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: expectPtr %#x (%#x bytes) is outside the user window 16 TB..24 TB", fn, expect, size)
		}
	}
	// rtReserveMemAddress's work is the driver's halMemAddressReserve
	// (the flags are its flag word), across the library boundary.
	var p uintptr
	if err := stack.AddressReserve(&p, size, alignment, expect, flags); err != nil {
		return core.DriverErr(fn, err)
	}
	registerReservation(p, size)
	*out = p
	return nil
}

// ReleaseMemAddress implements aclrtReleaseMemAddress: every mapping of the
// range must be unmapped first.
func ReleaseMemAddress(t *core.Thread, p uintptr) error {
	const fn = "aclrtReleaseMemAddress"
	if p == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: virPtr must not be NULL", fn)
	}
	if _, err := theVMM(fn); err != nil {
		return err
	}
	// halMemAddressFree across the library boundary (rtReleaseMemAddress).
	return core.DriverErr(fn, core.UnregisterIf(core.TableReservations, uint64(p), stack.AddressFree(p)))
}

// physPropOf checks an aclrtPhysicalMemProp and converts it.
func physPropOf(fn string, p *PhysicalMemProp) (emu.PhysProp, error) {
	switch p.HandleType {
	case abi.ACL_MEM_HANDLE_TYPE_NONE:
	case abi.ACL_MEM_HANDLE_TYPE_POSIX:
		return emu.PhysProp{}, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: prop handleType POSIX is not supported (only ACL_MEM_HANDLE_TYPE_NONE)", fn)
	default:
		return emu.PhysProp{}, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: prop handleType %d is not an aclrtMemHandleType", fn, p.HandleType)
	}
	if p.AllocationType != abi.ACL_MEM_ALLOCATION_TYPE_PINNED {
		return emu.PhysProp{}, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: prop allocationType %d: only ACL_MEM_ALLOCATION_TYPE_PINNED", fn, p.AllocationType)
	}
	s, _, err := core.SoC(fn)
	if err != nil {
		return emu.PhysProp{}, err
	}
	pg, mt, err := memAttrInfo(fn, p.MemAttr, s)
	if err != nil {
		return emu.PhysProp{}, err
	}
	out := emu.PhysProp{PageType: pg, MemType: mt, Module: appModule}
	switch p.Location.Type {
	case abi.ACL_MEM_LOCATION_TYPE_DEVICE:
		if err := core.CheckDeviceID(fn, int32(p.Location.Id)); err != nil {
			return out, err
		}
		out.Dev = int(p.Location.Id)
	case abi.ACL_MEM_LOCATION_TYPE_HOST:
		out.Host = true
	case abi.ACL_MEM_LOCATION_TYPE_HOST_NUMA:
		out.Host, out.NUMA = true, true
	default:
		return out, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: prop location type %d: DEVICE, HOST or HOST_NUMA", fn, p.Location.Type)
	}
	return out, nil
}

// MallocPhysical implements aclrtMallocPhysical: size must be a multiple
// of the granularity (aclrtMemGetAllocationGranularity); device memory
// counts against the device's capacity like aclrtMalloc. Its work is
// rtMallocPhysical over the rtDrvMemProp_t built from prop (acl-to-rt.tsv):
// in the split layout with rtMallocPhysical interposed, the call goes there
// (rt/stack); otherwise it is MallocPhysicalWork.
func MallocPhysical(t *core.Thread, out *uint64, size uint64, prop *PhysicalMemProp, flags uint64) error {
	const fn = "aclrtMallocPhysical"
	if f := stack.RT.MallocPhysical; f != nil && out != nil && prop != nil && size != 0 && flags == 0 {
		p, err := physPropOf(fn, prop)
		if err != nil {
			return err
		}
		hp := hal.PropOf(p) // rtDrvMemProp_t has drv_mem_prop's layout
		return f(out, size, &hp, flags)
	}
	return MallocPhysicalWork(t, fn, out, size, prop, flags, appModule)
}

// appModule is the module ACL's allocations are charged to (APP): the ACL
// prop has no module field.
const appModule = 33

// MallocPhysicalWork is aclrtMallocPhysical's work, which rtMallocPhysical
// shares (fn names the API called; module is the one charged: APP for ACL,
// the rtDrvMemProp_t's module_id for rtMallocPhysical).
func MallocPhysicalWork(t *core.Thread, fn string, out *uint64, size uint64, prop *PhysicalMemProp, flags uint64, module uint32) error {
	switch {
	case out == nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle must not be NULL", fn)
	case prop == nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: prop must not be NULL", fn)
	case size == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	case flags != 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: must be 0", fn, flags)
	}
	p, err := physPropOf(fn, prop)
	if err != nil {
		return err
	}
	p.Module = module
	if _, err := theVMM(fn); err != nil {
		return err
	}
	// The runtime's work is the driver's halMemCreate (rtMallocPhysical
	// builds the drv_mem_prop), across the library boundary (rt/stack);
	// the driver charges the allocation to the module (hal/memusage.go).
	hp := hal.PropOf(p)
	var h uint64
	if err := stack.MemCreate(&h, size, &hp, 0); err != nil {
		return core.DriverErr(fn, err)
	}
	physProps.mu.Lock()
	if physProps.m == nil {
		physProps.m = map[uint64]PhysicalMemProp{}
	}
	physProps.m[h] = *prop
	physProps.mu.Unlock()
	registerPhysical(h, size, p)
	*out = h
	return nil
}

// FreePhysical implements aclrtFreePhysical: one reference of the handle;
// memory still mapped is released when its last mapping goes.
func FreePhysical(t *core.Thread, h uint64) error {
	const fn = "aclrtFreePhysical"
	if h == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle must not be NULL", fn)
	}
	v, err := theVMM(fn)
	if err != nil {
		return err
	}
	if _, _, err := v.Prop(h); err != nil {
		return core.WrapWithAPI(fn, err) // not a handle: refused before the driver call
	}
	// halMemRelease across the library boundary (rt/stack), which also
	// drops the driver's charge once the last reference goes.
	if err := stack.MemRelease(h); err != nil {
		return core.DriverErr(fn, err)
	}
	if _, _, err := v.Prop(h); err != nil {
		core.Unregister(core.TableVMMHandles, h)
		physProps.mu.Lock()
		delete(physProps.m, h)
		physProps.mu.Unlock()
	}
	return nil
}

// MapMem implements aclrtMapMem and aclrtMemMapNoAccess (noAccess).
func MapMem(t *core.Thread, va uintptr, size, offset, h, flags uint64, noAccess bool) error {
	fn := "aclrtMapMem"
	if noAccess {
		fn = "aclrtMemMapNoAccess"
	}
	switch {
	case va == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: virPtr must not be NULL", fn)
	case h == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle must not be NULL", fn)
	case size == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	case flags != 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: must be 0", fn, flags)
	}
	v, err := theVMM(fn)
	if err != nil {
		return err
	}
	if noAccess { // no driver call maps without access: the model's own
		return core.WrapWithAPI(fn, v.Map(va, size, offset, h, true))
	}
	// halMemMap across the library boundary (rtMapMem).
	return core.DriverErr(fn, stack.MemMap(va, size, offset, h, 0))
}

// UnmapMem implements aclrtUnmapMem.
func UnmapMem(t *core.Thread, va uintptr) error {
	const fn = "aclrtUnmapMem"
	if va == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: virPtr must not be NULL", fn)
	}
	if _, err := theVMM(fn); err != nil {
		return err
	}
	// halMemUnmap across the library boundary (rtUnmapMem).
	return core.DriverErr(fn, stack.MemUnmap(va))
}

// driverLocation converts an access location (HOST, or DEVICE with its id
// checked) to the driver's drv_mem_location.
func driverLocation(fn string, l MemLocation) (hal.MemLocation, error) {
	switch l.Type {
	case abi.ACL_MEM_LOCATION_TYPE_HOST:
		return hal.MemLocation{Id: l.Id, Side: abi.MEM_HOST_SIDE}, nil
	case abi.ACL_MEM_LOCATION_TYPE_DEVICE:
		if err := core.CheckKnownDeviceID(fn, int32(l.Id)); err != nil { // rtMemSetAccess/GetAccess do not ask the driver's count
			return hal.MemLocation{}, err
		}
		return hal.MemLocation{Id: l.Id, Side: abi.MEM_DEV_SIDE}, nil
	}
	return hal.MemLocation{}, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: location type %d: HOST or DEVICE", fn, l.Type)
}

// aclPropOfDriver converts the driver's drv_mem_prop of a handle to the
// aclrtPhysicalMemProp aclrtMemGetAllocationPropertiesFromHandle reports
// for a handle it has no creation record of.
func aclPropOfDriver(p hal.MemProp) PhysicalMemProp {
	e := emu.PhysProp{Dev: int(p.Devid), Host: p.Side != abi.MEM_DEV_SIDE, NUMA: p.Side == abi.MEM_HOST_NUMA_SIDE, MemType: emu.MemHBM}
	switch p.Pg_type {
	case abi.MEM_GIANT_PAGE_TYPE:
		e.PageType = emu.PageGiant
	case abi.MEM_HUGE_PAGE_TYPE:
		e.PageType = emu.PageHuge
	default:
		e.PageType = emu.PageNormal
	}
	if p.Mem_type == abi.MEM_P2P_HBM_TYPE || p.Mem_type == abi.MEM_P2P_DDR_TYPE {
		e.MemType = emu.MemP2PHBM
	}
	return aclPropOf(e)
}

// MemSetAccess implements aclrtMemSetAccess: va and size are one whole
// mapping; the flags are ACL_RT_MEM_ACCESS_FLAGS_READWRITE.
func MemSetAccess(t *core.Thread, va uintptr, size uint64, desc []MemAccessDesc) error {
	const fn = "aclrtMemSetAccess"
	switch {
	case va == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: virPtr must not be NULL", fn)
	case size == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	case len(desc) == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: desc must not be NULL and count not 0", fn)
	}
	ds := make([]hal.MemAccessDesc, len(desc))
	for i, d := range desc {
		if d.Flags != abi.ACL_RT_MEM_ACCESS_FLAGS_READWRITE {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: desc[%d].flags %d: only ACL_RT_MEM_ACCESS_FLAGS_READWRITE", fn, i, d.Flags)
		}
		l, err := driverLocation(fn, d.Location)
		if err != nil {
			return err
		}
		ds[i] = hal.MemAccessDesc{Type: abi.MEM_ACCESS_TYPE_READWRITE, Location: l}
	}
	if _, err := theVMM(fn); err != nil {
		return err
	}
	// halMemSetAccess across the library boundary (rtMemSetAccess).
	return core.DriverErr(fn, stack.SetAccess(va, size, ds))
}

// MemGetAccess implements aclrtMemGetAccess: the access location has to
// va's mapping; a location never granted access reads
// MEM_ACCESS_TYPE_MAX, as the driver reports it.
func MemGetAccess(t *core.Thread, va uintptr, loc *MemLocation, flags *uint64) error {
	const fn = "aclrtMemGetAccess"
	if va == 0 || loc == nil || flags == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: virPtr, location and flag must not be NULL", fn)
	}
	l, err := driverLocation(fn, *loc)
	if err != nil {
		return err
	}
	if _, err := theVMM(fn); err != nil {
		return err
	}
	// halMemGetAccess across the library boundary (rtMemGetAccess); the
	// driver's drv_mem_access_type values are the aclrtMemAccessFlags
	// (MEM_ACCESS_TYPE_MAX for a location never granted access).
	var f uint64
	if err := stack.GetAccess(va, &l, &f); err != nil {
		return core.DriverErr(fn, err)
	}
	*flags = f
	return nil
}

// MemGetAllocationGranularity implements aclrtMemGetAllocationGranularity:
// 2 MiB for device memory, 1 GiB for 1 GiB pages, the host page for host
// normal pages with MINIMUM.
func MemGetAllocationGranularity(t *core.Thread, prop *PhysicalMemProp, option uint32, g *uint64) error {
	const fn = "aclrtMemGetAllocationGranularity"
	if prop == nil || g == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: prop and granularity must not be NULL", fn)
	}
	if option != abi.ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM && option != abi.ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: option %d is neither MINIMUM nor RECOMMENDED", fn, option)
	}
	p, err := physPropOf(fn, prop)
	if err != nil {
		return err
	}
	// halMemGetAllocationGranularity across the library boundary
	// (rtMemGetAllocationGranularity); the option values are the driver's.
	hp := hal.PropOf(p)
	var v uint64
	if err := stack.AllocationGranularity(&hp, option, &v); err != nil {
		return core.DriverErr(fn, err)
	}
	*g = v
	return nil
}

// MemRetainAllocationHandle implements aclrtMemRetainAllocationHandle:
// the handle of the allocation mapped at va, with one more reference that
// needs its own aclrtFreePhysical.
func MemRetainAllocationHandle(t *core.Thread, va uintptr, out *uint64) error {
	const fn = "aclrtMemRetainAllocationHandle"
	if va == 0 || out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: virPtr and handle must not be NULL", fn)
	}
	if _, err := theVMM(fn); err != nil {
		return err
	}
	// halMemRetainAllocationHandle across the library boundary
	// (rtMemRetainAllocationHandle).
	var h uint64
	if err := stack.RetainAllocationHandle(&h, va); err != nil {
		return core.DriverErr(fn, err)
	}
	*out = h
	return nil
}

// MemGetAllocationPropertiesFromHandle implements
// aclrtMemGetAllocationPropertiesFromHandle.
func MemGetAllocationPropertiesFromHandle(t *core.Thread, h uint64, out *PhysicalMemProp) error {
	const fn = "aclrtMemGetAllocationPropertiesFromHandle"
	if h == 0 || out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle and prop must not be NULL", fn)
	}
	if _, err := theVMM(fn); err != nil {
		return err
	}
	// halMemGetAllocationPropertiesFromHandle across the library boundary
	// (rtMemGetAllocationPropertiesFromHandle): the driver says whether h
	// is a live handle and, for one this process did not create (an
	// imported handle), what it is.
	var hp hal.MemProp
	if err := stack.AllocationPropertiesFromHandle(&hp, h); err != nil {
		return core.DriverErr(fn, err)
	}
	physProps.mu.Lock()
	saved, ok := physProps.m[h]
	physProps.mu.Unlock()
	if ok {
		*out = saved
		return nil
	}
	*out = aclPropOfDriver(hp)
	return nil
}

// MemGetAddressRange implements aclrtMemGetAddressRange: base and
// page-rounded size of the aclrtMalloc / aclrtMallocHost block or mapped
// VMM range holding ptr. pbase and psize may each be NULL.
func MemGetAddressRange(t *core.Thread, ptr uintptr, pbase *uintptr, psize *uint64) error {
	const fn = "aclrtMemGetAddressRange"
	if ptr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	if _, _, err := core.SoC(fn); err != nil {
		return err
	}
	// halMemGetAddressRange across the library boundary
	// (rtMemGetAddressRange): the driver's block, page-rounded.
	return core.DriverErr(fn, stack.AddressRange(ptr, pbase, psize))
}

// registerPhysical records the VMM physical handle h (aclrtMallocPhysical).
func registerPhysical(h, size uint64, p emu.PhysProp) {
	rec := core.Record{ID: h, Device: p.Dev, Summary: fmt.Sprintf("handle %#x: %d bytes of device memory", h, size)}
	if p.Host {
		rec.Device = core.ProcessWide
		rec.Summary = fmt.Sprintf("handle %#x: %d bytes of host memory", h, size)
	}
	core.Register(core.TableVMMHandles, rec)
}

// registerImported records the VMM handle h imported from shareable
// handle share (aclrtMemImportFromShareableHandle*); it is released with
// aclrtFreePhysical like an allocated one.
func registerImported(h, share, size uint64, dev int) {
	core.Register(core.TableVMMHandles, core.Record{ID: h, Device: dev,
		Summary: fmt.Sprintf("handle %#x: imported from shareable handle %#x, %d bytes", h, share, size)})
}

// registerReservation records the address range [va, va+size)
// (aclrtReserveMemAddress).
func registerReservation(va uintptr, size uint64) {
	core.Register(core.TableReservations, core.Record{ID: uint64(va), Device: core.ProcessWide, Summary: fmt.Sprintf("%#x: %d bytes of address space", va, size)})
}
