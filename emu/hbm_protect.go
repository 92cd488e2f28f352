package emu

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
//     again (sealed before the next task is queued: "Sealing" below) (the deferred free of rt/core/memory.go calls Free only once the
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

// openLocked makes a new block's pages (not its guard) read-write. Pages
// still waiting to be sealed (below) are read-write already: a block that
// reuses them costs no system call.
// Precondition: h.mu held.
func (h *HBM) openLocked(addr uintptr, size uint64) error {
	if !h.guard {
		return nil
	}
	lo, hi := addr, addr+uintptr(alignUp(size, pageSize))
	covered := false
	if len(h.pending) != 0 {
		covered = h.pending.covers(lo, hi)
		h.pending.cut(lo, hi)
		if len(h.pending) == 0 {
			h.unlistLocked()
		}
	}
	if covered {
		return nil
	}
	if err := mprotectAt(lo, uint64(hi-lo), syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		return fmt.Errorf("cannot open the block's pages (vm.max_map_count reached?): %w", err)
	}
	return nil
}

// closeLocked remembers a freed block and queues its read-write pages for
// sealing. Precondition: h.mu held.
func (h *HBM) closeLocked(addr uintptr, req, ext uint64) {
	h.release(alignDown(addr, pageSize), alignUp(addr+uintptr(req), pageSize)) // hbm_protect_track.go
	h.freed.add(Block{addr, req})
	if h.guard {
		end := addr + uintptr(alignUp(req, pageSize))
		if t, ok := h.trimmed[addr]; ok {
			delete(h.trimmed, addr)
			end = t
		}
		h.pendLocked(addr, end)
	}
}

// Trim makes the whole pages of the live block at base that lie past its
// first used bytes inaccessible (nothing without protection): they are
// queued for sealing. The pages stay the block's; Free releases them with
// it.
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
		if h.trimmed == nil {
			h.trimmed = map[uintptr]uintptr{}
		}
		h.trimmed[base] = lo
		h.pendLocked(lo, hi)
	}
}

// Sealing. Making pages PROT_NONE costs a TLB shootdown, several
// microseconds on a virtual machine: far more than the rest of an
// aclrtMalloc + aclrtFree. So Free and Trim do not protect at once: they
// queue the pages (read-write until then) and the pages are sealed before
// the next task of any stream is queued or any model is executed (Seal,
// called by acl's one queueing point) — device work never sees them
// read-write — or when the queue grows long. A block allocated over
// queued pages takes them as they are (no system call at all: the
// malloc + free loop of a program that frees and reallocates the same
// size costs none). Copies and memsets are unaffected: they check the
// allocation table in software. What changes is only when host code (which
// cannot be stopped from touching device pointers without protection
// keys) stops being able to touch freed pages.

// pendingSeals counts the memories with pages waiting (SealPending).
var pendingSeals atomic.Int32

// sealing lists the memories with pages waiting.
var sealing struct {
	mu   sync.Mutex
	hbms []*HBM
}

// maxPending bounds the queue of one memory.
const maxPending = 64

// spans is a short list of page ranges.
type spans []span

type span struct{ lo, hi uintptr }

// covers reports whether the union of s covers [lo, hi).
func (s spans) covers(lo, hi uintptr) bool {
	for lo < hi {
		next := lo
		for _, p := range s {
			if p.lo <= lo && p.hi > next {
				next = p.hi
			}
		}
		if next == lo {
			return false
		}
		lo = next
	}
	return true
}

// cut removes [lo, hi) from every span of *s.
func (s *spans) cut(lo, hi uintptr) {
	var out spans
	for _, p := range *s {
		if p.hi <= lo || p.lo >= hi {
			out = append(out, p)
			continue
		}
		if p.lo < lo {
			out = append(out, span{p.lo, lo})
		}
		if p.hi > hi {
			out = append(out, span{hi, p.hi})
		}
	}
	*s = out
}

// pendLocked queues [lo, hi) for sealing. Precondition: h.mu held.
func (h *HBM) pendLocked(lo, hi uintptr) {
	if hi <= lo {
		return
	}
	if len(h.pending) >= maxPending {
		h.sealLocked()
	}
	if len(h.pending) == 0 {
		sealing.mu.Lock()
		sealing.hbms = append(sealing.hbms, h)
		pendingSeals.Add(1)
		sealing.mu.Unlock()
	}
	h.pending = append(h.pending, span{lo, hi})
}

// sealLocked protects the queued pages. Precondition: h.mu held.
func (h *HBM) sealLocked() {
	for _, p := range h.pending {
		// Shrinking rights never fails for lack of mappings in a way that
		// matters: at worst the pages stay accessible.
		_ = mprotectAt(p.lo, uint64(p.hi-p.lo), syscall.PROT_NONE)
	}
	if len(h.pending) != 0 {
		h.pending = h.pending[:0]
		h.unlistLocked()
	}
}

// unlistLocked takes h, whose queue is now empty, off the sealing list.
// Precondition: h.mu held.
func (h *HBM) unlistLocked() {
	sealing.mu.Lock()
	if i := slices.Index(sealing.hbms, h); i >= 0 {
		sealing.hbms = slices.Delete(sealing.hbms, i, i+1)
		pendingSeals.Add(-1)
	}
	sealing.mu.Unlock()
}

// SealPending reports whether some memory has pages waiting to be sealed
// (one atomic load: the queueing point asks it for every task).
func SealPending() bool { return pendingSeals.Load() != 0 }

// SealAll protects every memory's queued pages: freed blocks and trimmed
// tails become inaccessible before the device runs anything else.
func SealAll() {
	sealing.mu.Lock()
	hs := slices.Clone(sealing.hbms)
	sealing.mu.Unlock()
	for _, h := range hs {
		h.mu.Lock()
		h.sealLocked()
		h.mu.Unlock()
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
// (x86-64 "pku" and "ospke" in /proc/cpuinfo). With them, and with
// protection and PKeysEnabled on, a program's device memory carries a key
// its host threads lack outside calls into the library (hbm_pkey.go), so
// host code dereferencing a device pointer faults; without them it reads
// or writes it as host memory, as npuemu info says.
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
