package emu

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// Device memory protection (docs/hardening.md, "Device memory is
// protected"). With protection on (the default; NPUEMU_PROTECT=0 turns it
// off), every page of a device's range that no live block covers is
// PROT_NONE:
//
//   - a block's extent is its size rounded up to whole 4 KiB pages, starts
//     on a page boundary and is followed by one guard page that belongs to
//     the block (so no neighbour is ever placed there) and stays PROT_NONE;
//   - Alloc makes the block's pages read-write, Free makes them PROT_NONE
//     again (the deferred free of acl/deferfree.go calls Free only once the
//     work queued before the aclrtFree is done, so in-flight work never
//     faults on memory it was entitled to);
//   - Trim protects the whole pages of a live block past the bytes its
//     owner hands out (a huge-page block charged in 2 MiB units).
//
// A host thread touching such a page gets SIGSEGV: a kernel's block turns
// it into the AI Core exception of its launch (libfake/kernel_host.c);
// copies and memsets check the allocation table in software first
// (acl/memprotect.go). The granularity is the page, as on the device's
// MMU: an access is caught from the first byte of the first page after the
// one holding the block's last byte. A block whose size is a page multiple
// is caught exactly at its end, one byte past it.
//
// On a node directory (hbm_node.go) each process makes read-write only the
// blocks it allocated; memory it imports by name is a separate mapping.

// EnvProtect turns protection off when "0" (for measuring its cost).
const EnvProtect = "NPUEMU_PROTECT"

// ProtectEnabled reports whether new device memories are protected.
func ProtectEnabled() bool { return strings.TrimSpace(os.Getenv(EnvProtect)) != "0" }

// hbmFreedRing is how many freed blocks a device remembers for reports.
const hbmFreedRing = 256

// Block is one block of device memory.
type Block struct {
	Base uintptr
	Size uint64
}

// freedRing remembers the last blocks freed, newest last.
type freedRing struct {
	b    [hbmFreedRing]Block
	next int
	n    int
}

func (r *freedRing) add(b Block) {
	r.b[r.next] = b
	r.next = (r.next + 1) % hbmFreedRing
	r.n = min(r.n+1, hbmFreedRing)
}

// find returns the newest freed block holding addr.
func (r *freedRing) find(addr uintptr) (Block, bool) {
	for i := 1; i <= r.n; i++ {
		b := r.b[(r.next-i+hbmFreedRing)%hbmFreedRing]
		if addr >= b.Base && uint64(addr-b.Base) < b.Size {
			return b, true
		}
	}
	return Block{}, false
}

// Protected reports whether h keeps unallocated pages inaccessible.
func (h *HBM) Protected() bool { return h.guard }

// protectSpan makes the whole range PROT_NONE (a new device memory).
func (h *HBM) protectSpan() error {
	return mprotectAt(h.base, h.span, syscall.PROT_NONE)
}

// extent is the arena extent of a block of ext bytes: with protection,
// whole pages and one guard page.
func (h *HBM) extent(ext, align uint64) (uint64, uint64) {
	if !h.guard {
		return ext, align
	}
	return alignUp(ext, pageSize) + pageSize, max(align, pageSize)
}

// openLocked makes a new block's pages (not its guard) read-write.
// Precondition: h.mu held.
func (h *HBM) openLocked(addr uintptr, size uint64) error {
	if !h.guard {
		return nil
	}
	if err := mprotectAt(addr, alignUp(size, pageSize), syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		return fmt.Errorf("cannot open the block's pages (vm.max_map_count reached?): %w", err)
	}
	return nil
}

// closeLocked makes a freed block's extent inaccessible and remembers it.
// Precondition: h.mu held.
func (h *HBM) closeLocked(addr uintptr, req, ext uint64) {
	h.freed.add(Block{addr, req})
	if h.guard {
		// Shrinking rights never fails for lack of mappings in a way that
		// matters: at worst the pages stay accessible.
		_ = mprotectAt(addr, ext, syscall.PROT_NONE)
	}
}

// Trim makes the whole pages of the live block at base that lie past its
// first used bytes inaccessible (nothing without protection). The pages
// stay the block's; Free releases them with it.
func (h *HBM) Trim(base uintptr, used uint64) {
	if !h.guard {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.arena == nil {
		return
	}
	s, ok := h.arena.find(base)
	if !ok || s.addr != base || used >= s.req {
		return
	}
	lo := alignUp(base+uintptr(used), pageSize)
	hi := base + uintptr(alignUp(s.req, pageSize))
	if hi > lo {
		_ = mprotectAt(lo, uint64(hi-lo), syscall.PROT_NONE)
	}
}

// Neighbours returns the live blocks nearest to addr: the one starting at
// or below it and the one starting above it (Size 0: none). It walks every
// block: it serves fault reports, not a hot path.
func (h *HBM) Neighbours(addr uintptr) (below, above Block) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.arena == nil {
		return
	}
	h.arena.walk(func(base uintptr, size uint64) {
		switch {
		case base <= addr:
			below = Block{base, size} // in address order: the last wins
		case above.Size == 0:
			above = Block{base, size}
		}
	})
	return below, above
}

// FreedBlock returns the most recently freed block (of the last 256) that
// held addr.
func (h *HBM) FreedBlock(addr uintptr) (Block, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.freed.find(addr)
}

// HostPKeys reports whether the CPU and kernel offer memory protection keys
// (x86-64 "pku" and "ospke" in /proc/cpuinfo). With them, host threads
// could be denied device memory that kernel threads may touch; npuemu does
// not use them yet (docs/hardening.md), so host code dereferencing a device
// pointer reads or writes it as host memory, as npuemu info says.
func HostPKeys() bool {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			f := " " + v + " "
			return strings.Contains(f, " pku ") && strings.Contains(f, " ospke ")
		}
	}
	return false
}
