// Package stack models where the emulated libraries meet: which calls
// between the ACL surface, the runtime's rt* layer and the driver HAL cross
// a library boundary on the real CANN stack, and, for each such call, the
// definition it reaches when another library interposed the symbol
// (LD_PRELOAD). It holds no behaviour of its own. crossings.go accounts
// for every driver call of the vendor's runtime (rt-to-hal.tsv): made
// through the driver's symbols here, or why not.
//
// Layouts (NPUEMU_STACK):
//
//   - merged (default; CANN 8.x, whose spec we emulate): the ACL
//     implementation lives inside libruntime.so, linked -Bsymbolic, so
//     aclrt* → rt* calls bind internally; rt* → hal*/drv* calls cross into
//     libascend_hal.so.
//   - split (earlier releases): libascendcl.so calls libruntime.so's rt*
//     across the boundary too.
//
// rt* calls made by other libraries reach our exported symbols through the
// dynamic linker in both layouts, so they are always interposable.
//
// The decision is made once, by libfake's C constructor (stack.c), which
// looks each boundary symbol up in the global scope and compares the
// result with our own definition. libfake then sets the matching field of
// RT or HAL below to a trampoline that calls the foreign definition. A nil
// field means "call directly": the fast path is a nil check.
//
// Must not: import acl or rt (both import it); do work of its own.
package stack

import "github.com/npuemu/npuemu/hal"

// Layout is the library layout being emulated.
type Layout int

const (
	Merged Layout = iota // aclrt* inside libruntime.so; only rt*→hal* crosses
	Split                // libascendcl.so separate: aclrt*→rt* crosses as well
)

func (l Layout) String() string {
	if l == Split {
		return "split"
	}
	return "merged"
}

// Current is the layout chosen at load (libfake sets it from NPUEMU_STACK
// before the first call).
var Current = Merged

// RTCalls are the aclrt* → rt* calls the ACL surface makes through the
// runtime's exported symbols. Each field is nil unless the layout is split
// and another library interposed that rt* symbol; the field then calls the
// interposed definition, whose integer result comes back as an error with
// that code (nil for 0). Handles are the C values (aclrtStream == rtStream_t).
type RTCalls struct {
	Malloc                   func(out *uintptr, size uint64, typ uint32, module uint16) error
	Free                     func(p uintptr) error
	MemGetInfoEx             func(typ uint32, free, total *uint64) error
	StreamCreate             func(out *uintptr, priority int32) error
	LaunchKernelByFuncHandle func(fh uintptr, blocks uint32, args uintptr, size uint32, stream uintptr) error
	// The peer-access calls (acl-to-rt.tsv): aclrtDeviceEnablePeerAccess is
	// rtGetDevice, rtGetDevicePhyIdByIndex(peer), rtEnableP2P; Disable the
	// same with rtDisableP2P; aclrtDeviceCanAccessPeer is
	// rtGetDevicePhyIdByIndex(peer), rtDeviceCanAccessPeer;
	// aclrtDevicePeerAccessStatus is rtsGetP2PStatus.
	GetDevice             func(dev *int32) error
	GetDevicePhyIDByIndex func(index uint32, phy *uint32) error
	DeviceCanAccessPeer   func(can *int32, dev, peerPhy uint32) error
	EnableP2P             func(dev, peerPhy, flag uint32) error
	DisableP2P            func(dev, peerPhy uint32) error
	GetP2PStatus          func(dev, peerPhy uint32, status *uint32) error
	// aclrtMallocPhysical is rtMallocPhysical over the rtDrvMemProp_t it
	// builds (drv_mem_prop's layout: hal.MemProp).
	MallocPhysical func(out *uint64, size uint64, prop *hal.MemProp, flags uint64) error
}

// RT is set once at load; see RTCalls.
var RT RTCalls

// HALCalls are the rt* → hal* calls the runtime makes through the driver's
// exported symbols (they cross in both layouts). A nil field calls the hal
// package directly; a set field calls an interposed definition and returns
// its drvError_t as an error (nil for DRV_ERROR_NONE).
type HALCalls struct {
	MemAlloc   func(pp *uintptr, size, flag uint64) error
	MemFree    func(p uintptr) error
	MemGetInfo func(dev, typ uint32, info *hal.MemPhyInfo) error
	// The peer-to-peer switch (rtEnableP2P, rtDisableP2P,
	// rtDeviceCanAccessPeer and the aclrt*PeerAccess calls above them).
	DeviceEnableP2P     func(dev, peer, flag uint32) error
	DeviceDisableP2P    func(dev, peer, flag uint32) error
	DeviceCanAccessPeer func(can *int32, dev, peer uint32) error
	// The information queries (rtGetMemUsageInfo and aclrtGetMemUsageInfo
	// under it; rtGetDeviceInfo).
	GetMemUsageInfo func(dev uint32, out []hal.MemModuleUsage, n *uint64) error
	GetDeviceInfo   func(dev uint32, module, info int32, val *int64) error
	// Physical memory (rtMallocPhysical, rtFreePhysical and the aclrt*
	// calls over them).
	MemCreate  func(ph *uint64, size uint64, prop *hal.MemProp, flag uint64) error
	MemRelease func(h uint64) error
	// Address reservations and mappings (rtReserveMemAddress,
	// rtReleaseMemAddress, rtMapMem, rtUnmapMem and the aclrt* calls).
	AddressReserve func(pp *uintptr, size, alignment uint64, addr uintptr, flag uint64) error
	AddressFree    func(p uintptr) error
	MemMap         func(p uintptr, size, offset, h, flag uint64) error
	MemUnmap       func(p uintptr) error
	// The driver's synchronous copies and fill (rt/stack/copy.go):
	// rtMemcpy's halSdmaCopy, halMemcpy and drvMemcpy, rtMemset's
	// drvMemsetD8, rtMemcpy2d's halMemcpy2D, and the aclrt* calls over
	// them. SyncCopy is set when any of the three copy calls is
	// interposed: the synchronous copy then goes through the driver's
	// calls; otherwise it stays on the device model directly.
	SdmaCopy  func(dst uintptr, dstSize uint64, src uintptr, n uint64) error
	HalMemcpy func(dst uintptr, dstSize uint64, src uintptr, n uint64, info *hal.MemcpyInfo) error
	DrvMemcpy func(dst uintptr, destMax uint64, src uintptr, n uint64) error
	MemsetD8  func(dst uintptr, destMax uint64, value byte, n uint64) error
	Memcpy2D  func(p *hal.Memcpy2D) error
	SyncCopy  bool
	// VMM queries, sharing, managed memory and host pointers (rt/stack/vmm.go:
	// rtMemSetAccess, rtMemGetAccess, rtMemGetAllocationGranularity,
	// rtMemRetainAllocationHandle, rtMemGetAddressRange,
	// rtMemGetAllocationPropertiesFromHandle, the shareable-handle calls,
	// rtMemManagedAdvise, rtMemManagedGetAttr(s), rtHostGetDevicePointer and
	// the aclrt* calls over them).
	SetAccess                      func(p uintptr, size uint64, desc []hal.MemAccessDesc) error
	GetAccess                      func(p uintptr, loc *hal.MemLocation, flags *uint64) error
	AllocationGranularity          func(prop *hal.MemProp, option uint32, g *uint64) error
	RetainAllocationHandle         func(ph *uint64, p uintptr) error
	AddressRange                   func(p uintptr, pbase *uintptr, psize *uint64) error
	AllocationPropertiesFromHandle func(prop *hal.MemProp, h uint64) error
	ExportToShareableHandle        func(h uint64, typ uint32, flags uint64, out *uint64) error
	ExportToShareableHandleV2      func(h uint64, typ uint32, flags uint64, out *hal.MemShareHandle) error
	ImportFromShareableHandle      func(s uint64, dev uint32, out *uint64) error
	ImportFromShareableHandleV2    func(typ uint32, sh *hal.MemShareHandle, dev uint32, out *uint64) error
	SetPidToShareableHandle        func(s uint64, pids []int32) error
	ManagedAdvise                  func(p uintptr, size uint64, advise uint32, l hal.UVMLocation) error
	ManagedRangeGetAttributes      func(data [][]byte, attrs []uint32, p uintptr, count uint64) error
	HostGetDevPointer              func(src uintptr, dev uint32, dst *uintptr) error
	// The driver's information calls (rt/stack/info.go): the device count,
	// the id maps, the platform, the SoC name, resource capacities.
	GetDevNum             func(num *uint32) error
	DeviceGetPhyIDByIndex func(index uint32, phy *uint32) error
	DeviceGetIndexByPhyID func(phy uint32, index *uint32) error
	GetPlatformInfo       func(info *uint32) error
	GetSocVersion         func(dev uint32, buf []byte) error
	ResourceInfoQuery     func(dev, ts uint32, typ int32, out *hal.ResourceInfo) error
	GetDeviceSplitMode    func(dev uint32, mode *uint32) error
	// Host memory registration and IPC shared memory (rt/stack/host.go:
	// rtsHostRegister, rtHostRegisterV2, rtsHostUnregister,
	// rtHostMemMapCapabilities, the rtsIpcMem* calls, rtIpcSetMemoryAttr
	// and the aclrt* calls over them).
	HostRegister             func(src uintptr, size uint64, flag, dev uint32, dst *uintptr) error
	HostUnregisterEx         func(src uintptr, dev, flag uint32) error
	HostRegisterCapabilities func(dev, acc uint32, out *uint32) error
	ShmemCreateHandle        func(vptr uintptr, size uint64, nameLen uint32) (string, error)
	ShmemSetAttribute        func(name string, typ uint32, attr uint64) error
	ShmemSetPidHandle        func(name string, pids []int32) error
	ShmemOpenHandle          func(name string, out *uintptr) error
	ShmemCloseHandle         func(vptr uintptr) error
	ShmemDestroyHandle       func(name string) error
}

// HAL is set once at load; see HALCalls.
var HAL HALCalls

// MemAlloc is halMemAlloc as the runtime calls it.
func MemAlloc(pp *uintptr, size, flag uint64) error {
	if f := HAL.MemAlloc; f != nil {
		return f(pp, size, flag)
	}
	return hal.MemAlloc(pp, size, flag)
}

// MemFree is halMemFree as the runtime calls it.
func MemFree(p uintptr) error {
	if f := HAL.MemFree; f != nil {
		return f(p)
	}
	return hal.MemFree(p)
}

// MemGetInfo is halMemGetInfo as the runtime calls it.
func MemGetInfo(dev, typ uint32, info *hal.MemPhyInfo) error {
	if f := HAL.MemGetInfo; f != nil {
		return f(dev, typ, info)
	}
	return hal.MemGetInfo("halMemGetInfo", dev, typ, info)
}

// DeviceEnableP2P is halDeviceEnableP2P as the runtime calls it.
func DeviceEnableP2P(dev, peer, flag uint32) error {
	if f := HAL.DeviceEnableP2P; f != nil {
		return f(dev, peer, flag)
	}
	return hal.DeviceEnableP2P(dev, peer, flag)
}

// DeviceDisableP2P is halDeviceDisableP2P as the runtime calls it.
func DeviceDisableP2P(dev, peer, flag uint32) error {
	if f := HAL.DeviceDisableP2P; f != nil {
		return f(dev, peer, flag)
	}
	return hal.DeviceDisableP2P(dev, peer, flag)
}

// DeviceCanAccessPeer is halDeviceCanAccessPeer as the runtime calls it.
func DeviceCanAccessPeer(can *int32, dev, peer uint32) error {
	if f := HAL.DeviceCanAccessPeer; f != nil {
		return f(can, dev, peer)
	}
	return hal.DeviceCanAccessPeer(can, dev, peer)
}

// GetMemUsageInfo is halGetMemUsageInfo as the runtime calls it.
func GetMemUsageInfo(dev uint32, out []hal.MemModuleUsage, n *uint64) error {
	if f := HAL.GetMemUsageInfo; f != nil {
		return f(dev, out, n)
	}
	return hal.GetMemUsageInfo(dev, out, n)
}

// GetDeviceInfo is halGetDeviceInfo as the runtime calls it.
func GetDeviceInfo(dev uint32, module, info int32, val *int64) error {
	if f := HAL.GetDeviceInfo; f != nil {
		return f(dev, module, info, val)
	}
	return hal.DeviceInfo(dev, module, info, val)
}

// MemCreate is halMemCreate as the runtime calls it.
func MemCreate(ph *uint64, size uint64, prop *hal.MemProp, flag uint64) error {
	if f := HAL.MemCreate; f != nil {
		return f(ph, size, prop, flag)
	}
	return hal.MemCreate(ph, size, prop, flag)
}

// MemRelease is halMemRelease as the runtime calls it.
func MemRelease(h uint64) error {
	if f := HAL.MemRelease; f != nil {
		return f(h)
	}
	return hal.MemRelease(h)
}

// AddressReserve is halMemAddressReserve as the runtime calls it.
func AddressReserve(pp *uintptr, size, alignment uint64, addr uintptr, flag uint64) error {
	if f := HAL.AddressReserve; f != nil {
		return f(pp, size, alignment, addr, flag)
	}
	return hal.AddressReserve(pp, size, alignment, addr, flag)
}

// AddressFree is halMemAddressFree as the runtime calls it.
func AddressFree(p uintptr) error {
	if f := HAL.AddressFree; f != nil {
		return f(p)
	}
	return hal.AddressFree(p)
}

// MemMap is halMemMap as the runtime calls it.
func MemMap(p uintptr, size, offset, h, flag uint64) error {
	if f := HAL.MemMap; f != nil {
		return f(p, size, offset, h, flag)
	}
	return hal.MemMap(p, size, offset, h, flag)
}

// MemUnmap is halMemUnmap as the runtime calls it.
func MemUnmap(p uintptr) error {
	if f := HAL.MemUnmap; f != nil {
		return f(p)
	}
	return hal.MemUnmap(p)
}
