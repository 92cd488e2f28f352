package emu

import (
	"math/bits"
	"sync"

	"github.com/npuemu/npuemu/abi"
)

// Allocation granularity of device memory.
const (
	// HBMMinAlign is the alignment of every HBM block's start and extent
	// (the runtime promises at least 64-byte aligned device pointers).
	HBMMinAlign = 64
	// hbmReleaseMin: when a free leaves at least this many whole pages
	// unused, they are returned to the OS (one huge page: smaller frees are
	// left resident for reuse, so churn of small buffers costs no syscalls).
	hbmReleaseMin = hugePageSize
)

// HBM is one device's memory: a reserved sparse VA range (MAP_NORESERVE,
// MADV_HUGEPAGE) with exact capacity accounting. Device pointers are real
// host addresses inside the range, so copies are plain memmoves.
//
// The range is twice the capacity (four times with protection's guard
// pages, hbm_protect.go), so that alignment padding and fragmentation never
// make an allocation fail before the accounting does: out of memory means
// Used()+size > Total(), as on the real device.
type HBM struct {
	name       string
	base       uintptr
	span       uint64
	total      uint64
	raw        uintptr
	rawLen     uint64
	mu         sync.RWMutex
	used       uint64 // guarded by mu
	arena      *arena // guarded by mu; nil once closed
	releaseMin uint64
	shared     map[uintptr]sharedRange // guarded by mu: block ranges backed by a memory file (shmem.go)
	nd         *nodeHBM                // nil: process-private memory; else the node directory's (hbm_node.go)
	guard      bool                    // unallocated pages are PROT_NONE, blocks end in a guard page (hbm_protect.go)
	pkey       int                     // the protection key the range carries, 0 for none (hbm_pkey.go)
	freed      freedRing               // guarded by mu: the last blocks freed (fault reports)
	pending    spans                   // guarded by mu: read-write pages waiting to be sealed (hbm_protect.go)
	trimmed    map[uintptr]uintptr     // guarded by mu: a trimmed live block's base → end of its read-write pages
}

// NewHBM reserves the address range of a device memory of total usable
// bytes. name ("dev0") appears in messages.
func NewHBM(name string, total uint64) (*HBM, error) {
	if total == 0 || total > 1<<46 {
		return nil, abi.DevErrorf(abi.DevBadArgument, "emu: %s HBM: capacity %d bytes out of range", name, total)
	}
	span := alignUp(2*total, hugePageSize)
	guard := ProtectEnabled()
	if guard {
		// Guard pages and page-rounded extents take address space: twice
		// as much again keeps capacity, not placement, the limit.
		span *= 2
	}
	base, raw, rawLen, err := reserve(span)
	if err != nil {
		return nil, abi.DevErrorf(abi.DevNoMemory,
			"emu: %s HBM: cannot reserve %d bytes of address space: %v", name, span, err)
	}
	h := &HBM{
		name: name, base: base, span: span, total: total, raw: raw, rawLen: rawLen,
		arena: newArena(base, span, HBMMinAlign), releaseMin: hbmReleaseMin, guard: guard,
	}
	if guard {
		if err := h.protectSpan(); err != nil {
			_ = unreserve(raw, rawLen)
			return nil, abi.DevErrorf(abi.DevNoMemory, "emu: %s HBM: cannot protect the range: %v", name, err)
		}
	}
	return h, nil
}

// Alloc returns a block of size bytes aligned to align (0 or anything below
// HBMMinAlign means HBMMinAlign; otherwise a power of two). The memory is not
// initialised. Beyond capacity → ACL_ERROR_RT_MEMORY_ALLOCATION.
func (h *HBM) Alloc(size, align uint64) (uintptr, error) {
	if size == 0 {
		return 0, abi.DevErrorf(abi.DevBadArgument, "emu: %s HBM: allocation of 0 bytes", h.name)
	}
	if align != 0 && bits.OnesCount64(align) != 1 {
		return 0, abi.DevErrorf(abi.DevBadArgument, "emu: %s HBM: alignment %d is not a power of two", h.name, align)
	}
	align = max(align, HBMMinAlign)
	if size > h.total || align > h.span {
		return 0, h.oom(size, "exceeds the capacity")
	}
	ext, align := h.extent(alignUp(size, HBMMinAlign), align)
	if h.nd != nil {
		return h.allocNode(size, ext, align)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil {
		return 0, h.closed()
	}
	if h.used+size > h.total {
		return 0, h.oomLocked(size, "not enough free memory")
	}
	addr := h.arena.alloc(ext, size, align)
	if addr == 0 {
		return 0, h.oomLocked(size, "no free range large enough (fragmented)")
	}
	if err := h.openLocked(addr, size); err != nil {
		h.arena.free(addr)
		return 0, h.oomLocked(size, err.Error())
	}
	h.used += size
	h.traceUsedLocked()
	return addr, nil
}

// Free releases the block that starts at addr and returns its size. Whole
// pages that become unused are returned to the OS when they add up to at
// least a huge page.
func (h *HBM) Free(addr uintptr) (uint64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil {
		return 0, h.closed()
	}
	if h.nd != nil {
		if s, in := h.arena.find(addr); !in || s.addr != addr {
			return 0, h.notBlock(addr)
		}
	}
	req, baddr, bsize, merged, ok := h.arena.free(addr)
	if !ok {
		if s, in := h.arena.find(addr); in {
			return 0, abi.DevErrorf(abi.DevBadFree,
				"emu: %s HBM: %#x is inside the block at %#x, not its start", h.name, addr, s.addr)
		}
		return 0, h.notBlock(addr)
	}
	h.used -= req
	h.traceUsedLocked()
	h.unshareLocked(baddr, bsize)
	h.closeLocked(baddr, req, bsize)
	if h.nd != nil {
		h.nd.uncharge(req)
		h.nd.releaseLocked(h, baddr, bsize)
		if h.nd.takeExportsLocked(baddr, bsize) {
			// Lock order HBM.mu → the node's table lock.
			h.nd.dir.KeyDestroyRange(h.nd.phys, baddr, bsize)
		}
	}
	// Release only pages of the freed block that are now wholly free: a page
	// shared with a neighbouring live block keeps its data. This runs under
	// the lock so no new block can be handed these pages before they are
	// zapped.
	lo := max(alignUp(merged.addr, pageSize), alignDown(baddr, pageSize))
	hi := min(alignDown(merged.addr+uintptr(merged.size), pageSize), alignUp(baddr+uintptr(bsize), pageSize))
	// On a node directory, memory goes back to the OS a chunk at a time
	// (releaseLocked), which keeps the free path free of system calls.
	if h.nd == nil && hi > lo && uint64(hi-lo) >= h.releaseMin {
		discard(lo, uint64(hi-lo))
	}
	return req, nil
}

// Find returns the allocation holding addr: its start and its size.
func (h *HBM) Find(addr uintptr) (base uintptr, size uint64, ok bool) {
	if !h.Contains(addr) {
		return 0, 0, false
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.arena == nil {
		return 0, 0, false
	}
	s, ok := h.arena.find(addr)
	if !ok {
		return 0, 0, false
	}
	return s.addr, s.req, true
}

// Contains reports whether addr lies in this device's address range at all
// (allocated or not).
func (h *HBM) Contains(addr uintptr) bool {
	return addr >= h.base && uint64(addr-h.base) < h.span
}

// Range returns the device's reserved address range.
func (h *HBM) Range() (base uintptr, size uint64) { return h.base, h.span }

// Total returns the usable capacity in bytes (aclrtGetMemInfo's total).
func (h *HBM) Total() uint64 { return h.total }

// Used returns the bytes currently allocated (the sum of requested sizes):
// by every process of the node when the memory is a node directory's.
func (h *HBM) Used() uint64 {
	if h.nd != nil {
		h.nd.dir.Reclaim(false)
		return h.nd.used()
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.used
}

// Count returns the number of live allocations.
func (h *HBM) Count() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.arena == nil {
		return 0
	}
	return h.arena.count
}

// Walk calls fn for every live allocation in address order (leak reports).
// fn must not call back into h.
func (h *HBM) Walk(fn func(base uintptr, size uint64)) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.arena != nil {
		h.arena.walk(fn)
	}
}

// Close unmaps the range. Every pointer into it becomes invalid; later calls
// fail.
func (h *HBM) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil {
		return nil
	}
	h.release(h.base, h.base+uintptr(h.span)) // hbm_protect_track.go
	h.arena = nil
	h.sealLocked()
	if h.nd != nil {
		err := h.nd.close(h)
		h.used = 0
		return err
	}
	h.used = 0
	return unreserve(h.raw, h.rawLen)
}

// Charge accounts size bytes of device memory that lives outside the
// range (VMM physical allocations): beyond capacity →
// ACL_ERROR_RT_MEMORY_ALLOCATION, as for Alloc.
func (h *HBM) Charge(size uint64) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil {
		return h.closed()
	}
	if h.nd != nil {
		if !h.nd.charge(size) {
			return h.oomLocked(size, "not enough free memory")
		}
	} else if size > h.total || h.used+size > h.total {
		return h.oomLocked(size, "not enough free memory")
	}
	h.used += size
	h.traceUsedLocked()
	return nil
}

// Uncharge returns what Charge accounted.
func (h *HBM) Uncharge(size uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena != nil {
		n := min(size, h.used)
		h.used -= n
		h.traceUsedLocked()
		if h.nd != nil {
			h.nd.uncharge(n)
		}
	}
}

func (h *HBM) oom(size uint64, why string) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.oomLocked(size, why)
}

// Precondition: h.mu held.
func (h *HBM) oomLocked(size uint64, why string) error {
	used, whose := h.used, ""
	if h.nd != nil {
		used, whose = min(h.nd.used(), h.total), " by all processes of the node"
	}
	return abi.DevErrorf(abi.DevNoMemory,
		"emu: %s HBM: cannot allocate %d bytes: %s (%d of %d bytes in use%s, %d free)",
		h.name, size, why, used, h.total, whose, h.total-used)
}

func (h *HBM) notBlock(addr uintptr) error {
	return abi.DevErrorf(abi.DevBadFree, "emu: %s HBM: %#x is not an allocated block", h.name, addr)
}

// allocNode is Alloc on a node directory's memory: charged node-wide
// first, then placed in chunks this process owns.
func (h *HBM) allocNode(size, ext, align uint64) (uintptr, error) {
	if !h.nd.charge(size) {
		return 0, h.oom(size, "not enough free memory")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil {
		h.nd.uncharge(size)
		return 0, h.closed()
	}
	for {
		addr := h.arena.alloc(ext, size, align)
		if addr == 0 {
			if h.nd.unmaskLocked(h) {
				continue
			}
			h.nd.uncharge(size)
			return 0, h.oomLocked(size, "no free range large enough (fragmented)")
		}
		if h.nd.claimLocked(h, addr, ext) {
			if err := h.openLocked(addr, size); err != nil {
				h.arena.free(addr)
				h.nd.releaseLocked(h, addr, ext)
				h.nd.uncharge(size)
				return 0, h.oomLocked(size, err.Error())
			}
			h.used += size
			return addr, nil
		}
	}
}

func (h *HBM) closed() error {
	return abi.DevErrorf(abi.DevNoMemory, "emu: %s HBM: device memory already released", h.name)
}
