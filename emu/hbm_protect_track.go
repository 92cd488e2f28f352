package emu

// OpenPages returns the 4 KiB pages [lo, hi) of the live block at base that
// are read-write: its pages up to the one holding its last byte, less a
// trimmed tail (Trim). ok is false when no block starts at base. The
// sanitizer closes these pages while it tracks a plain kernel launch
// (docs/sanitizer.md, "Kernel footprints") and opens them again after:
// nothing else may change them meanwhile, which holds for a live block
// (its free is deferred until the launch is done, docs/hardening.md §5).
// Without protection blocks are not page-aligned: lo is the page holding
// base, shared with whatever lies before it.
func (h *HBM) OpenPages(base uintptr) (lo, hi uintptr, ok bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.arena == nil {
		return 0, 0, false
	}
	s, found := h.arena.find(base)
	if !found || s.addr != base || s.req == 0 {
		return 0, 0, false
	}
	lo = alignDown(base, pageSize)
	hi = alignUp(base+uintptr(s.req), pageSize)
	if t, trimmed := h.trimmed[base]; trimmed {
		hi = t
	}
	return lo, hi, hi > lo
}

// releaseHook, when set, is told of device pages about to be freed or
// unmapped, before their protection changes (SetReleaseHook).
var releaseHook func(lo, hi uintptr)

// SetReleaseHook makes every free of a block (with the pages [lo, hi) it
// held) and every close of a device memory (its whole range) call f first,
// with the memory's lock held: f must not call back into it. The
// sanitizer's page tracking keeps the pages of a launch's allocations
// closed between launches and opens them here (libfake/track.c). It must
// be called before any device memory exists.
func SetReleaseHook(f func(lo, hi uintptr)) { releaseHook = f }

// release calls releaseHook. Precondition: h.mu held.
func (h *HBM) release(lo, hi uintptr) {
	if releaseHook != nil && hi > lo {
		releaseHook(lo, hi)
	}
}
