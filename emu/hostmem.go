package emu

import (
	"sync"
	"syscall"

	"github.com/npuemu/npuemu/abi"
)

// HostMem is the node's pinned ("page-locked") host memory, what
// aclrtMallocHost returns: page-aligned blocks carved from one reserved
// range, distinct from every device's HBM range and from the ordinary heap,
// so a pointer can be classified by address. The range is reserved on the
// first Alloc; its capacity is the machine's physical memory.
type HostMem struct {
	mu     sync.RWMutex
	arena  *arena // guarded by mu; nil until the first Alloc and after Close
	used   uint64 // guarded by mu
	total  uint64 // guarded by mu (set with the reservation)
	raw    uintptr
	rawLen uint64
	closed bool // guarded by mu
}

// hostCapacity is the physical memory of the machine, the most that could
// ever be pinned.
func hostCapacity() uint64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil || si.Totalram == 0 {
		return 64 * gib
	}
	return uint64(si.Totalram) * uint64(max(si.Unit, 1))
}

// Alloc returns size bytes of pinned host memory, page aligned, not
// initialised.
func (h *HostMem) Alloc(size uint64) (uintptr, error) {
	if size == 0 {
		return 0, abi.DevErrorf(abi.DevBadArgument, "emu: host memory: allocation of 0 bytes")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return 0, abi.DevErrorf(abi.DevNoMemory, "emu: host memory: node already closed")
	}
	if h.arena == nil {
		total := hostCapacity()
		span := alignUp(2*total, hugePageSize)
		base, raw, rawLen, err := reserve(span)
		if err != nil {
			return 0, abi.DevErrorf(abi.DevNoMemory,
				"emu: host memory: cannot reserve %d bytes of address space: %v", span, err)
		}
		h.arena, h.total, h.raw, h.rawLen = newArena(base, span, pageSize), total, raw, rawLen
	}
	if size > h.total || h.used+size > h.total {
		return 0, abi.DevErrorf(abi.DevNoMemory,
			"emu: host memory: cannot pin %d bytes: %d of %d bytes already pinned", size, h.used, h.total)
	}
	addr := h.arena.alloc(alignUp(size, pageSize), size, pageSize)
	if addr == 0 {
		return 0, abi.DevErrorf(abi.DevNoMemory,
			"emu: host memory: cannot pin %d bytes: no free range large enough", size)
	}
	h.used += size
	return addr, nil
}

// Free releases the block that starts at addr and returns its pages to the
// OS.
func (h *HostMem) Free(addr uintptr) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil {
		return abi.DevErrorf(abi.DevBadFree, "emu: host memory: %#x is not an allocated block", addr)
	}
	req, baddr, bsize, _, ok := h.arena.free(addr)
	if !ok {
		return abi.DevErrorf(abi.DevBadFree, "emu: host memory: %#x is not the start of an allocated block", addr)
	}
	h.used -= req
	// Blocks are page multiples, so their pages are theirs alone.
	discard(baddr, bsize)
	return nil
}

// Find returns the pinned block holding addr: its start and size.
func (h *HostMem) Find(addr uintptr) (base uintptr, size uint64, ok bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.arena == nil || addr < h.arena.base || uint64(addr-h.arena.base) >= h.arena.span {
		return 0, 0, false
	}
	s, ok := h.arena.find(addr)
	if !ok {
		return 0, 0, false
	}
	return s.addr, s.req, true
}

// Used returns the bytes currently pinned.
func (h *HostMem) Used() uint64 {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.used
}

// Count returns the number of live blocks.
func (h *HostMem) Count() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.arena == nil {
		return 0
	}
	return h.arena.count
}

// Close unmaps every block; later calls fail.
func (h *HostMem) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	if h.arena == nil {
		return nil
	}
	h.arena, h.used = nil, 0
	return unreserve(h.raw, h.rawLen)
}
