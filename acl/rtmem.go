package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// The runtime's memory calls (rtMalloc, rtFree, rtMemGetInfoEx) as they
// work on this package's objects: device memory comes from the driver
// (halMemAlloc, through stack.MemAlloc, which an interposed halMemAlloc
// sees) and is then recorded as a runtime allocation of the device, the
// registry every copy and launch checks. The halMemAlloc block is claimed
// (hal.Claim) so that halMemFree by the application is refused; rtFree
// releases it and frees it with halMemFree. Package rt exports these as the
// rt* symbols; the ACL surface (memory.go) reaches them through
// stack.RT when the layout is split and someone interposed the rt symbol,
// directly otherwise. Errors carry the rt* codes (abi.RTCodeOf).

// RuntimeMalloc is rtMalloc: size bytes (already padded by the caller) of
// device memory on the current device, pages chosen by the
// RT_MEMORY_POLICY_* bits of typ, charged to module.
func RuntimeMalloc(t *core.Thread, out *uintptr, size uint64, typ uint32, module uint16) error {
	const fn = "rtMalloc"
	if out == nil || size == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: devPtr must not be NULL and size must not be 0", fn)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return rtErr(err)
	}
	d := c.Dev
	page := pageSmall
	switch {
	case typ&(abi.RT_MEMORY_POLICY_HUGE1G_PAGE_ONLY|abi.RT_MEMORY_POLICY_HUGE1G_PAGE_ONLY_P2P) != 0:
		page = pageGiant
	case typ&(abi.RT_MEMORY_POLICY_HUGE_PAGE_ONLY|abi.RT_MEMORY_POLICY_HUGE_PAGE_ONLY_P2P) != 0:
		page = pageHuge
	case typ&(abi.RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY|abi.RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY_P2P) != 0:
	case typ&(abi.RT_MEMORY_POLICY_HUGE_PAGE_FIRST|abi.RT_MEMORY_POLICY_HUGE_PAGE_FIRST_P2P) != 0:
		// "Huge pages first" keeps requests of up to 1 MiB on normal pages;
		// size already holds ACL's 32-byte padding.
		if size > mib+32 {
			page = pageHuge
		}
	default: // no policy: the runtime's default, huge pages from 2 MiB
		if size >= 2*mib {
			page = pageHuge
		}
	}
	flag := uint64(abi.MEM_DEV) | uint64(d.ID) | uint64(module)<<abi.MEM_MODULE_ID_BIT
	if !ddrDevice(d.Emu) {
		flag |= abi.MEM_TYPE_HBM
	}
	switch page {
	case pageHuge:
		flag |= abi.MEM_PAGE_HUGE
	case pageGiant:
		flag |= abi.MEM_PAGE_GIANT
	}
	reapDeferred(d)
	var addr uintptr
	err = stack.MemAlloc(&addr, size, flag)
	if err != nil && waitDeferred(d) { // memory freed while work used it (deferfree.go)
		err = stack.MemAlloc(&addr, size, flag)
	}
	if err != nil {
		return abi.Errorf(abi.RTCodeOf(err), "%s: halMemAlloc of %d bytes on device %d: %s", fn, size, d.ID, messageOf(err))
	}
	if err := hal.Claim(addr); err != nil {
		return abi.Errorf(abi.RTCodeOf(err), "%s", messageOf(err))
	}
	d.AllocMu.Lock()
	d.Allocs[addr] = core.Allocation{Base: addr, Size: size, Pages: alignUp(size, page), Policy: typ, Huge: page > pageSmall, Module: module, HAL: true}
	d.AllocMu.Unlock()
	d.Emu.HBM.Trim(addr, size) // whole pages past size become guard pages (memprotect.go)
	*out = addr
	return nil
}

// ddrDevice reports whether the device's memory is DDR (310P, 310B).
func ddrDevice(e *emu.Device) bool {
	return e.SoC.Family == emu.Family310P || e.SoC.Family == emu.Family310B
}

// RuntimeFree is rtFree: it forgets the allocation at p at once and gives
// its block back to the driver with halMemFree, once the work queued before
// the free has completed (deferfree.go).
func RuntimeFree(t *core.Thread, p uintptr) error {
	const fn = "rtFree"
	if p == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: devPtr must not be NULL", fn)
	}
	d := deviceOf(p)
	if d == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is not device memory allocated by rtMalloc/aclrtMalloc", fn, p)
	}
	d.AllocMu.Lock()
	a, ok := d.Allocs[p]
	if ok {
		delete(d.Allocs, p)
	}
	d.AllocMu.Unlock()
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is not the start of an allocation on device %d (already freed?)", fn, p, d.ID)
	}
	reapDeferred(d)
	if err := freeWhenIdle(d, a); err != nil { // deferfree.go
		return abi.Errorf(abi.RTCodeOf(err), "%s: %#x: %s", fn, p, messageOf(err))
	}
	return nil
}

// releaseAllocation gives a's block back: to the driver with halMemFree
// for a block rtMalloc took from it, to the HBM allocator for one of the
// ACL objects themselves (cond.go).
func releaseAllocation(d *core.Device, a core.Allocation) error {
	if !a.HAL {
		_, err := d.Emu.HBM.Free(a.Base)
		return err
	}
	hal.Release(a.Base)
	if err := stack.MemFree(a.Base); err != nil {
		return abi.Wrapf(err, "halMemFree(%#x)", a.Base)
	}
	return nil
}

// RuntimeMemGetInfoEx is rtMemGetInfoEx for the current device: typ is an
// rtMemInfoType_t (numbered as aclrtMemAttr). It asks the driver
// (halMemGetInfo) for the device's memory; free/total are its normal plus
// huge pages. Page-class types the SoC lacks (1 GiB pages outside A2/A3)
// and unknown types read 0/0.
func RuntimeMemGetInfoEx(t *core.Thread, typ uint32, free, total *uint64) error {
	const fn = "rtMemGetInfoEx"
	if free == nil || total == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: freeSize and totalSize must not be NULL", fn)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return rtErr(err)
	}
	*free, *total = 0, 0
	class := memClass(int32(typ))
	fam := c.Dev.Emu.SoC.Family
	if class < 0 || (class == memGiant && fam != emu.FamilyA2 && fam != emu.FamilyA3) {
		return nil
	}
	kind := uint32(abi.MEM_INFO_TYPE_HBM_SIZE)
	if ddrDevice(c.Dev.Emu) {
		kind = abi.MEM_INFO_TYPE_DDR_SIZE
	}
	var info hal.MemPhyInfo
	if err := stack.MemGetInfo(uint32(c.Dev.ID), kind, &info); err != nil {
		return abi.Errorf(abi.RTCodeOf(err), "%s: halMemGetInfo: %s", fn, messageOf(err))
	}
	*free = info.Free + info.Huge_free
	*total = info.Total + info.Huge_total
	return nil
}

// rtErr turns an error of the ACL objects into one with the rt code.
func rtErr(err error) error {
	if err == nil {
		return nil
	}
	return abi.Errorf(abi.RTCodeOf(err), "%s", messageOf(err))
}
