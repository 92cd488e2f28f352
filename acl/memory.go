package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// policy flags aclrtMallocWithCfg accepts on top of a base policy.
const policyFlags = abi.ACL_MEM_TYPE_LOW_BAND_WIDTH | abi.ACL_MEM_TYPE_HIGH_BAND_WIDTH | abi.ACL_MEM_ACCESS_USER_SPACE_READONLY

// Malloc implements aclrtMalloc, aclrtMallocCached (identical),
// aclrtMallocAlign32 and aclrtMallocWithCfg.
func Malloc(t *core.Thread, out *uintptr, size uint64, policy uint32, o core.MallocOpts) error {
	fn := o.Fn
	if fn == "" {
		fn = "aclrtMalloc"
	}
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devPtr must not be NULL", fn)
	}
	if size == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	}
	if err := checkAllocSize(fn, size); err != nil {
		return err
	}
	if err := checkMallocPolicy(fn, policy); err != nil {
		return err
	}
	base := policy &^ policyFlags
	if o.WithCfg {
		base = policy &^ policyFlags
		if f := policy & (abi.ACL_MEM_TYPE_LOW_BAND_WIDTH | abi.ACL_MEM_TYPE_HIGH_BAND_WIDTH); f == abi.ACL_MEM_TYPE_LOW_BAND_WIDTH|abi.ACL_MEM_TYPE_HIGH_BAND_WIDTH {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: policy %#x: LOW_BAND_WIDTH and HIGH_BAND_WIDTH are exclusive", fn, policy)
		}
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	d := c.Dev
	for _, a := range o.CfgAttrs {
		switch a.Attr {
		case abi.ACL_RT_MEM_ATTR_DEVICE_ID:
			if int32(uint32(a.Value)) != d.ID {
				return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: cfg deviceId %d is not the current device %d", fn, uint32(a.Value), d.ID)
			}
		case abi.ACL_RT_MEM_ATTR_MODULE_ID, abi.ACL_RT_MEM_ATTR_VA_FLAG, abi.ACL_RT_MEM_ATTR_RSV:
		default:
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtMallocAttrType %d", fn, a.Attr)
		}
	}
	soc := d.Emu.SoC
	giant := base == abi.ACL_MEM_MALLOC_HUGE1G_ONLY || base == abi.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P
	if giant && soc.Family != "A2" && soc.Family != "A3" {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: 1 GiB huge pages (policy %d) exist only on Atlas A2/A3, not on %s", fn, base, soc.Name)
	}
	usable := core.AlignUp(size, 32)
	if soc.MallocPadding && !o.Align32 && !giant {
		usable += 32
	}
	if err := core.FaultMalloc(fn, d.ID, size); err != nil { // faults.go
		return err
	}
	var addr uintptr
	if err := below().Malloc(t, &addr, usable, rtMemType(base), mallocModule(o.CfgAttrs)); err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: %d bytes (%d with padding) on device %d: %s", fn, size, usable, d.ID, abi.MessageOf(err))
	}
	if core.Sanitizing {
		core.SanitizerState.Forget(addr) // a new allocation starts unwritten
	}
	*out = addr
	return nil
}

// rtMemType is the rtMemType_t aclrtMalloc passes to rtMalloc for a policy
// (acl-to-rt.tsv): the matching RT_MEMORY_POLICY_* bit, RT_MEMORY_DEFAULT
// for anything else.
func rtMemType(policy uint32) uint32 {
	switch policy {
	case abi.ACL_MEM_MALLOC_HUGE_FIRST:
		return abi.RT_MEMORY_POLICY_HUGE_PAGE_FIRST
	case abi.ACL_MEM_MALLOC_HUGE_ONLY:
		return abi.RT_MEMORY_POLICY_HUGE_PAGE_ONLY
	case abi.ACL_MEM_MALLOC_NORMAL_ONLY:
		return abi.RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY
	case abi.ACL_MEM_MALLOC_HUGE_FIRST_P2P:
		return abi.RT_MEMORY_POLICY_HUGE_PAGE_FIRST_P2P
	case abi.ACL_MEM_MALLOC_HUGE_ONLY_P2P:
		return abi.RT_MEMORY_POLICY_HUGE_PAGE_ONLY_P2P
	case abi.ACL_MEM_MALLOC_NORMAL_ONLY_P2P:
		return abi.RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY_P2P
	case abi.ACL_MEM_MALLOC_HUGE1G_ONLY:
		return abi.RT_MEMORY_POLICY_HUGE1G_PAGE_ONLY
	case abi.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P:
		return abi.RT_MEMORY_POLICY_HUGE1G_PAGE_ONLY_P2P
	}
	return abi.RT_MEMORY_DEFAULT
}

// Free implements aclrtFree (sync false) and aclrtFreeWithDevSync.
func Free(t *core.Thread, p uintptr, sync bool) error {
	fn := "aclrtFree"
	if sync {
		fn = "aclrtFreeWithDevSync"
	}
	if p == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devPtr must not be NULL", fn)
	}
	d := core.DeviceOf(p)
	if d == nil {
		if handled, err := core.FreeManaged(fn, p); handled {
			return err
		}
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is not device memory allocated by aclrtMalloc", fn, p)
	}
	d.AllocMu.RLock()
	_, ok := d.Allocs[p]
	d.AllocMu.RUnlock()
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is not the start of an aclrtMalloc allocation on device %d (already freed?)", fn, p, d.ID)
	}
	if sync {
		if err := d.Emu.TS.Synchronize(-1); err != nil {
			return abi.Errorf(abi.CodeOf(err), "%s: device %d: %s", fn, d.ID, abi.MessageOf(err))
		}
		if core.Sanitizing {
			core.SanitizeSyncDevice(t, d)
		}
	}
	if core.Sanitizing {
		core.SanitizeFree(t, fn, p)
	}
	// aclrtFree's work is rtFree; aclrtFreeWithDevSync's is
	// rtFreeWithDevSync, whose split-layout route is its C shim's
	// (cmd/shimgen/route.go), so it does not cross rtFree here.
	free := below().Free
	if sync {
		free = core.RuntimeFree
	}
	if err := free(t, p); err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: %s", fn, abi.MessageOf(err))
	}
	return nil
}

// GetMemInfo implements aclrtGetMemInfo for the current device. npuemu's
// HBM is one pool from which normal and huge pages are carved, so every
// page class reports the same free and total; 1 GiB classes only on A2/A3.
func GetMemInfo(t *core.Thread, attr int32, free, total *uint64) error {
	if free == nil || total == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: free and total must not be NULL")
	}
	if _, err := core.Current(t, "aclrtGetMemInfo"); err != nil {
		return err
	}
	return below().MemGetInfoEx(t, uint32(attr), free, total)
}

// PointerGetAttributes implements aclrtPointerGetAttributes.
func PointerGetAttributes(t *core.Thread, p uintptr, out *PtrAttributes) error {
	if p == 0 || out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtPointerGetAttributes: ptr and attributes must not be NULL")
	}
	*out = PtrAttributes{Location: MemLocation{Type: abi.ACL_MEM_LOCATION_TYPE_UNREGISTERED}, PageSize: uint32(core.PageSmall)}
	n := core.Runtime.Node.Load()
	if n == nil {
		return nil
	}
	if d := core.DeviceOf(p); d != nil {
		out.Location.Id, out.Location.Type = uint32(d.ID), abi.ACL_MEM_LOCATION_TYPE_DEVICE
		if base, _, ok := d.Emu.HBM.Find(p); ok {
			d.AllocMu.RLock()
			a, ok := d.Allocs[base]
			d.AllocMu.RUnlock()
			if ok && a.Huge {
				out.PageSize = uint32(core.PageHuge)
				if b := a.Policy &^ policyFlags; b == abi.ACL_MEM_MALLOC_HUGE1G_ONLY || b == abi.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P {
					out.PageSize = uint32(core.PageGiant)
				}
			}
		}
		return nil
	}
	if _, _, ok := n.Host().Find(p); ok {
		out.Location.Type = abi.ACL_MEM_LOCATION_TYPE_HOST
		return nil
	}
	managedPointer(p, out)
	return nil
}

// MemFlush implements aclrtMemFlush / aclrtMemInvalidate: cache
// maintenance is a no-op in this runtime version (and in emulated HBM);
// the arguments are still checked.
func MemFlush(t *core.Thread, fn string, p uintptr, size uint64) error {
	if p == 0 || size == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devPtr must not be NULL and size not 0", fn)
	}
	return nil
}

// AllocationRange returns the aclrtMalloc allocation (base and page-rounded
// size), aclrtMallocHost block or mapped VMM range holding addr, for
// aclrtMemGetAddressRange. Device blocks the HAL allocated count too (the
// real runtime allocates through the driver).
func AllocationRange(addr uintptr) (base uintptr, size uint64, ok bool) {
	if d := core.DeviceOf(addr); d != nil {
		b, req, found := d.Emu.HBM.Find(addr)
		if !found {
			return 0, 0, false
		}
		d.AllocMu.RLock()
		a, live := d.Allocs[b]
		d.AllocMu.RUnlock()
		if !live {
			return b, core.AlignUp(req, core.PageSmall), true
		}
		return b, a.Pages, true
	}
	if n := core.Runtime.Node.Load(); n != nil {
		if r, in := n.VMM().Find(addr); in {
			return r.Base, r.Size, true
		}
		b, req, found := n.Host().Find(addr)
		return b, core.AlignUp(req, core.PageSmall), found
	}
	return 0, 0, false
}

// MallocHost implements aclrtMallocHost / aclrtMallocHostWithCfg; the
// runtime does the work (core.MallocHost, which the rt* API calls too).
func MallocHost(t *core.Thread, out *uintptr, size uint64, fn string) error {
	return core.MallocHost(t, out, size, fn)
}

// FreeHost implements aclrtFreeHost / aclrtFreeHostWithDevSync; the runtime
// does the work (core.FreeHost, which the rt* API calls too).
func FreeHost(t *core.Thread, p uintptr, sync bool) error { return core.FreeHost(t, p, sync) }
