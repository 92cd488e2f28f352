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
