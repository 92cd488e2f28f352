package core

import (
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/stack"
	"github.com/npuemu/npuemu/tsfw"
)

const (
	KiB       = uint64(1) << 10
	MiB       = uint64(1) << 20
	GiB       = uint64(1) << 30
	PageSmall = 4 * KiB
	PageHuge  = 2 * MiB
	PageGiant = 1 * GiB

	// AllocAlign is the alignment the runtime asks the driver for
	// (MEM_SET_ALIGN_SIZE 9: 512 bytes).
	AllocAlign = 512
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
func RuntimeMalloc(t *Thread, out *uintptr, size uint64, typ uint32, module uint16) error {
	const fn = "rtMalloc"
	if out == nil || size == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: devPtr must not be NULL and size must not be 0", fn)
	}
	c, err := Current(t, fn)
	if err != nil {
		return rtErr(err)
	}
	d := c.Dev
	page := PageSmall
	switch {
	case typ&(abi.RT_MEMORY_POLICY_HUGE1G_PAGE_ONLY|abi.RT_MEMORY_POLICY_HUGE1G_PAGE_ONLY_P2P) != 0:
		page = PageGiant
	case typ&(abi.RT_MEMORY_POLICY_HUGE_PAGE_ONLY|abi.RT_MEMORY_POLICY_HUGE_PAGE_ONLY_P2P) != 0:
		page = PageHuge
	case typ&(abi.RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY|abi.RT_MEMORY_POLICY_DEFAULT_PAGE_ONLY_P2P) != 0:
	case typ&(abi.RT_MEMORY_POLICY_HUGE_PAGE_FIRST|abi.RT_MEMORY_POLICY_HUGE_PAGE_FIRST_P2P) != 0:
		// "Huge pages first" keeps requests of up to 1 MiB on normal pages;
		// size already holds ACL's 32-byte padding.
		if size > MiB+32 {
			page = PageHuge
		}
	default: // no policy: the runtime's default, huge pages from 2 MiB
		if size >= 2*MiB {
			page = PageHuge
		}
	}
	flag := uint64(abi.MEM_DEV) | uint64(d.ID) | uint64(module)<<abi.MEM_MODULE_ID_BIT
	if !ddrDevice(d.Emu) {
		flag |= abi.MEM_TYPE_HBM
	}
	switch page {
	case PageHuge:
		flag |= abi.MEM_PAGE_HUGE
	case PageGiant:
		flag |= abi.MEM_PAGE_GIANT
	}
	reapDeferred(d)
	var addr uintptr
	err = stack.MemAlloc(&addr, size, flag)
	if err != nil && waitDeferred(d) { // memory freed while work used it (below)
		err = stack.MemAlloc(&addr, size, flag)
	}
	if err != nil {
		return abi.Errorf(abi.RTCodeOf(err), "%s: halMemAlloc of %d bytes on device %d: %s", fn, size, d.ID, abi.MessageOf(err))
	}
	if err := hal.Claim(addr); err != nil {
		return abi.Errorf(abi.RTCodeOf(err), "%s", abi.MessageOf(err))
	}
	d.AllocMu.Lock()
	d.Allocs[addr] = Allocation{Base: addr, Size: size, Pages: AlignUp(size, page), Policy: typ, Huge: page > PageSmall, Module: module, HAL: true}
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
// the free has completed (below).
func RuntimeFree(t *Thread, p uintptr) error {
	const fn = "rtFree"
	if p == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: devPtr must not be NULL", fn)
	}
	d := DeviceOf(p)
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
	if err := freeWhenIdle(d, a); err != nil { // below
		return abi.Errorf(abi.RTCodeOf(err), "%s: %#x: %s", fn, p, abi.MessageOf(err))
	}
	return nil
}

// releaseAllocation gives a's block back: to the driver with halMemFree
// for a block rtMalloc took from it, to the HBM allocator for one of the
// ACL objects themselves (cond.go).
func releaseAllocation(d *Device, a Allocation) error {
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
func RuntimeMemGetInfoEx(t *Thread, typ uint32, free, total *uint64) error {
	const fn = "rtMemGetInfoEx"
	if free == nil || total == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: freeSize and totalSize must not be NULL", fn)
	}
	c, err := Current(t, fn)
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
		return abi.Errorf(abi.RTCodeOf(err), "%s: halMemGetInfo: %s", fn, abi.MessageOf(err))
	}
	*free = info.Free + info.Huge_free
	*total = info.Total + info.Huge_total
	return nil
}

// DeviceMemTotal is the device memory the driver reports for d
// (halMemGetInfo: its normal plus huge pages), as rtsDeviceGetInfo's
// total-memory attribute reads it.
func DeviceMemTotal(fn string, d *Device) (uint64, error) {
	kind := uint32(abi.MEM_INFO_TYPE_HBM_SIZE)
	if ddrDevice(d.Emu) {
		kind = abi.MEM_INFO_TYPE_DDR_SIZE
	}
	var info hal.MemPhyInfo
	if err := stack.MemGetInfo(uint32(d.ID), kind, &info); err != nil {
		return 0, abi.Errorf(abi.RTCodeOf(err), "%s: halMemGetInfo: %s", fn, abi.MessageOf(err))
	}
	return info.Total + info.Huge_total, nil
}

// rtErr turns an error of the ACL objects into one with the rt code.
func rtErr(err error) error {
	if err == nil {
		return nil
	}
	return abi.Errorf(abi.RTCodeOf(err), "%s", abi.MessageOf(err))
}

// Deferred free (issue #14, point 3). aclrtFree "immediately frees the
// input memory. It does not ... wait until the tasks that use the memory
// are complete" (CANN aclrtFree): so it returns at once here too, and the
// address stops being valid for new work at once. But the HBM range stays
// out of reuse until every task queued on the device before the free has
// completed (tsfw.Mark): a stale copy or kernel then writes memory that no
// one owns, never the next aclrtMalloc's. The pages stay counted as used
// until then. An allocation that fails for lack of memory while frees are
// deferred waits for them (bounded by deferWaitMax) and tries again.

// deferWaitMax bounds how long an aclrtMalloc waits for deferred frees
// before it reports out of memory.
const deferWaitMax = 10 * time.Second

type deferredFree struct {
	a    Allocation
	mark tsfw.Mark
}

var deferred struct {
	n  atomic.Int64 // entries in by: the fast path of reapDeferred
	mu sync.Mutex
	// Guarded by mu.
	by map[*Device][]deferredFree
}

// freeWhenIdle returns a's pages to the HBM allocator now when the device
// is idle, and otherwise once the work queued before now has completed.
func freeWhenIdle(d *Device, a Allocation) error {
	m := d.Emu.TS.Mark()
	if m.Empty() {
		return releaseAllocation(d, a)
	}
	deferred.mu.Lock()
	if deferred.by == nil {
		deferred.by = map[*Device][]deferredFree{}
	}
	deferred.by[d] = append(deferred.by[d], deferredFree{a: a, mark: m})
	deferred.n.Add(1)
	deferred.mu.Unlock()
	return nil
}

// reapDeferred releases d's deferred frees whose work has completed and
// reports whether some remain.
func reapDeferred(d *Device) bool {
	if deferred.n.Load() == 0 {
		return false
	}
	deferred.mu.Lock()
	list := deferred.by[d]
	if len(list) == 0 {
		deferred.mu.Unlock()
		return false
	}
	keep := list[:0]
	var done []Allocation
	for _, f := range list {
		if f.mark.Passed() {
			done = append(done, f.a)
		} else {
			keep = append(keep, f)
		}
	}
	clear(list[len(keep):])
	deferred.n.Add(-int64(len(done)))
	if len(keep) == 0 {
		delete(deferred.by, d)
	} else {
		deferred.by[d] = keep
	}
	deferred.mu.Unlock()
	for _, a := range done {
		_ = releaseAllocation(d, a)
	}
	return len(keep) > 0
}

// waitDeferred waits (bounded) for d's deferred frees, then reaps them;
// it reports whether any memory was released.
func waitDeferred(d *Device) bool {
	deferred.mu.Lock()
	list := append([]deferredFree(nil), deferred.by[d]...)
	deferred.mu.Unlock()
	if len(list) == 0 {
		return false
	}
	deadline := time.Now().Add(deferWaitMax)
	for _, f := range list {
		f.mark.Wait(deadline)
	}
	before := len(list)
	reapDeferred(d)
	deferred.mu.Lock()
	after := len(deferred.by[d])
	deferred.mu.Unlock()
	return after < before
}

// IsDeferred reports whether base is a freed allocation of d whose pages
// are still held: new work must not use it.
func IsDeferred(d *Device, base uintptr) bool {
	if deferred.n.Load() == 0 {
		return false
	}
	deferred.mu.Lock()
	defer deferred.mu.Unlock()
	for _, f := range deferred.by[d] {
		if f.a.Base == base {
			return true
		}
	}
	return false
}

// DropDeferred releases every deferred free of d at once (the device's
// memory is being released as a whole: aclFinalize, reset).
func DropDeferred(d *Device) {
	deferred.mu.Lock()
	list := deferred.by[d]
	delete(deferred.by, d)
	deferred.n.Add(-int64(len(list)))
	deferred.mu.Unlock()
	for _, f := range list {
		_ = releaseAllocation(d, f.a)
	}
}

func AlignUp(v, a uint64) uint64 { return (v + a - 1) / a * a }

// DeviceOf returns the opened runtime device whose HBM holds addr.
func DeviceOf(addr uintptr) *Device {
	n := Runtime.Node.Load()
	if n == nil {
		return nil
	}
	ed, ok := n.FindDevice(addr)
	if !ok {
		return nil
	}
	return RuntimeDevice(ed)
}

// RuntimeDevice returns the runtime device of an opened emu device,
// opening the runtime's view of it when only the HAL has used it so far
// (its memory is still device memory to every copy).
func RuntimeDevice(ed *emu.Device) *Device {
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	if int(ed.ID) < len(Runtime.Devs) && Runtime.Devs[ed.ID] != nil {
		return Runtime.Devs[ed.ID]
	}
	d, err := openDeviceLocked("npuemu", int32(ed.ID))
	if err != nil {
		return nil
	}
	return d
}

// memClass is the page class of an aclrtMemAttr / rtMemInfoType_t (the
// same numbering), -1 for a type without one.
func memClass(attr int32) int {
	switch attr {
	case abi.ACL_DDR_MEM, abi.ACL_HBM_MEM:
		return memAll
	case abi.ACL_DDR_MEM_HUGE, abi.ACL_HBM_MEM_HUGE, abi.ACL_DDR_MEM_P2P_HUGE, abi.ACL_HBM_MEM_P2P_HUGE, abi.ACL_MEM_HUGE, abi.ACL_MEM_P2P_HUGE:
		return memHuge
	case abi.ACL_DDR_MEM_NORMAL, abi.ACL_HBM_MEM_NORMAL, abi.ACL_DDR_MEM_P2P_NORMAL, abi.ACL_HBM_MEM_P2P_NORMAL, abi.ACL_MEM_NORMAL, abi.ACL_MEM_P2P_NORMAL:
		return memNormal
	case abi.ACL_HBM_MEM_HUGE1G, abi.ACL_HBM_MEM_P2P_HUGE1G, abi.ACL_MEM_HUGE1G, abi.ACL_MEM_P2P_HUGE1G:
		return memGiant
	}
	return -1
}

// memAttr classes of aclrtGetMemInfo.
const (
	memAll = iota
	memHuge
	memNormal
	memGiant
)

// MallocConfigAttr is one aclrtMallocAttribute of an aclrtMallocConfig.
type MallocConfigAttr struct {
	Attr  int32
	Value uint64 // the union's first 8 bytes; moduleId/deviceId/vaFlag read from it
}

// MallocOpts are the variations of the aclrtMalloc family.
type MallocOpts struct {
	Fn       string
	Align32  bool               // aclrtMallocAlign32: no +32 padding
	WithCfg  bool               // aclrtMallocWithCfg: policy may carry flags
	CfgAttrs []MallocConfigAttr // cfg attributes (nil for a NULL cfg)
}

// MemUsageInfo is aclrtMemUsageInfo (112 bytes).
type MemUsageInfo struct {
	Name     [32]byte
	Cur      uint64
	Peak     uint64
	Reserved [8]uint64
}

// classifyMapped classifies an address outside the HBM ranges and the
// pinned pool: mapped VMM memory or opened IPC memory is device memory (or
// pinned host memory when host memory is mapped), registered host memory is
// pinned, a reserved but unmapped address is an error, anything else is
// pageable.
func classifyMapped(fn, what string, n *emu.Node, addr uintptr) (PtrInfo, error) {
	v := n.VMM()
	if r, ok := v.Find(addr); ok {
		room := r.Size - uint64(addr-r.Base)
		if r.Host {
			return PtrInfo{Class: Pinned, Room: room}, nil
		}
		if d := RuntimeDevice(r.Dev); d != nil {
			return PtrInfo{Class: Devmem, Dev: d, Room: room}, nil
		}
	}
	if v.Reserved(addr) {
		return PtrInfo{}, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %s %#x is in a reserved address range but not mapped", fn, what, addr)
	}
	if r, ok := v.Registered(addr); ok {
		return PtrInfo{Class: Pinned, Room: r.Size - uint64(addr-r.Base)}, nil
	}
	return PtrInfo{Class: Pageable}, nil
}

func SelfPID() int32 { return int32(os.Getpid()) }

// HostBlocks are the pinned blocks aclrtMallocHost made: the node's pinned
// pool also serves halMemAlloc(MEM_HOST), whose blocks aclrtFreeHost must
// refuse. The set belongs to one node (dropped when another appears, after
// aclFinalize). hostBlocks.mu is a leaf lock.
var HostBlocks struct {
	Mu   sync.Mutex
	node *emu.Node
	m    map[uintptr]bool
}

// HostBlocksOf returns the set of node n. Precondition: hostBlocks.mu held.
func HostBlocksOf(n *emu.Node) map[uintptr]bool {
	if HostBlocks.node != n {
		HostBlocks.node, HostBlocks.m = n, map[uintptr]bool{}
	}
	return HostBlocks.m
}

// VMMShare records what this process did with each key: the keys it exported
// and the addresses it imported (most recent last). ipc.mu is a leaf lock.
var VMMShare struct {
	Mu       sync.Mutex
	node     *emu.Node
	Exported map[string]bool
	Imports  map[string][]uintptr
}

// IpcState returns the tables of node n. Precondition: ipc.mu held.
func IpcState(n *emu.Node) {
	if VMMShare.node != n {
		VMMShare.node, VMMShare.Exported, VMMShare.Imports = n, map[string]bool{}, map[string][]uintptr{}
	}
}

// MallocHost implements aclrtMallocHost / aclrtMallocHostWithCfg: pinned
// host memory from the node's host pool.
func MallocHost(t *Thread, out *uintptr, size uint64, fn string) error {
	if fn == "" {
		fn = "aclrtMallocHost"
	}
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: hostPtr must not be NULL", fn)
	}
	if size == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	}
	_, n, err := SoC(fn)
	if err != nil {
		return err
	}
	p, err := n.Host().Alloc(size)
	if err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: %d bytes: %s", fn, size, abi.MessageOf(err))
	}
	HostBlocks.Mu.Lock()
	HostBlocksOf(n)[p] = true
	HostBlocks.Mu.Unlock()
	*out = p
	return nil
}

// FreeHost implements aclrtFreeHost / aclrtFreeHostWithDevSync.
func FreeHost(t *Thread, p uintptr, sync bool) error {
	fn := "aclrtFreeHost"
	if sync {
		fn = "aclrtFreeHostWithDevSync"
	}
	if p == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: hostPtr must not be NULL", fn)
	}
	n := Runtime.Node.Load()
	if n == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is not memory from aclrtMallocHost", fn, p)
	}
	if base, _, ok := n.Host().Find(p); !ok || base != p {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is not the start of an aclrtMallocHost block", fn, p)
	}
	HostBlocks.Mu.Lock()
	mine := HostBlocksOf(n)[p]
	HostBlocks.Mu.Unlock()
	if !mine {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x was not allocated by aclrtMallocHost (halMemAlloc memory is freed with halMemFree)", fn, p)
	}
	if sync {
		if c, err := Current(t, fn); err == nil {
			if err := c.Dev.Emu.TS.Synchronize(-1); err != nil {
				return abi.Errorf(abi.CodeOf(err), "%s: %s", fn, abi.MessageOf(err))
			}
			if Sanitizing {
				SanitizeSyncDevice(t, c.Dev)
			}
		}
	}
	if Sanitizing {
		SanitizeFree(t, fn, p)
	}
	if err := n.Host().Free(p); err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: %#x: %s", fn, p, abi.MessageOf(err))
	}
	HostBlocks.Mu.Lock()
	delete(HostBlocksOf(n), p)
	HostBlocks.Mu.Unlock()
	return nil
}

// streamFlagsKnown are the ACL_STREAM_* creation flags of acl_rt.h.
const streamFlagsKnown = abi.ACL_STREAM_FAST_LAUNCH | abi.ACL_STREAM_FAST_SYNC | abi.ACL_STREAM_PERSISTENT |
	abi.ACL_STREAM_HUGE | abi.ACL_STREAM_CPU_SCHEDULE | abi.ACL_STREAM_DEVICE_USE_ONLY

// checkStreamFlags refuses bits that are no ACL_STREAM_* flag.
func checkStreamFlags(fn string, flags uint32) error {
	if flags&^streamFlagsKnown != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %#x has bits %#x that are no ACL_STREAM_* flag", fn, flags, flags&^streamFlagsKnown)
	}
	return nil
}
