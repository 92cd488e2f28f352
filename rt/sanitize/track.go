package sanitize

import (
	"fmt"
	"math/bits"
	"sort"
)

// Page footprints of plain kernels (docs/sanitizer.md, "Kernel
// footprints"). A plain npuemu/kernel.h kernel records nothing itself: the
// API layer closes the device pages of the allocations its pointer
// arguments point into while it runs and learns, page by page, what it
// read and wrote (acl/kernel_track.go, libfake/track.c). Writes are exact
// to the byte (a copy of each page written is compared after the launch:
// bytes that changed were written, a store of the value already there is
// not seen); reads are known per page only. So:
//
//   - races: the changed bytes are the launch's writes; a page it read and
//     did not write counts as read whole (within the allocation); a page
//     it wrote to counts as read only where it changed bytes;
//   - initcheck: a page read is reported only when no byte of it (within
//     the allocation) was written, before the launch or by it (a page it
//     wrote to counts as written whole): only what is certainly
//     uninitialised;
//   - written for later reads: every page the launch wrote to, whole;
//   - a page another thread opened while the launch ran (spoiled) counts
//     as read and written whole, as a pointer argument's allocation does.

// PageKind says what a PageRange of a tracked launch is.
type PageKind uint8

// Kinds of PageRange (libfake/track.h NPU_TRACK_* have the same values).
const (
	Changed      PageKind = iota + 1 // bytes the launch changed
	WrotePages                       // whole units it wrote to
	ReadPages                        // one unit it read and did not write to
	SpoiledPages                     // whole units another thread opened while it ran
)

// PageRange is one range of a tracked launch's footprint.
type PageRange struct {
	Lo, Hi uintptr
	Kind   PageKind
}

// maxChanged bounds the written ranges one tracked launch adds per
// allocation: past it the smallest gaps between them are filled.
const maxChanged = 64

// paged is a tracked footprint resolved to allocations.
type paged struct {
	tracked map[uintptr]bool // bases of the allocations tracked
	allocs  []*pagedAlloc
}

type pagedAlloc struct {
	reg                           Region
	changed, wrote, read, spoiled []span
}

// CompletePaged notes that the launch of p ran with its pages tracked: fp
// is its footprint in the allocations whose bases are tracked; its other
// pointer arguments count, as before, as reading and writing their whole
// allocations.
func (s *State) CompletePaged(p *Pending, fp []PageRange, tracked []uintptr) {
	if !s.tracking() || p == nil {
		return
	}
	pg := &paged{tracked: map[uintptr]bool{}}
	for _, b := range tracked {
		pg.tracked[b] = true
	}
	byBase := map[uintptr]*pagedAlloc{}
	for _, r := range fp {
		// A range may cross allocations (blocks share pages without
		// protection) or hold bytes past one's end: split and clip it.
		for lo := r.Lo; lo < r.Hi; {
			w, reg := s.find(lo)
			if w != Inside {
				lo = (lo + 4096) &^ 4095
				continue
			}
			hi := min(r.Hi, reg.Base+uintptr(reg.Size))
			a := byBase[reg.Base]
			if a == nil {
				a = &pagedAlloc{reg: reg}
				byBase[reg.Base] = a
				pg.allocs = append(pg.allocs, a)
			}
			sp := span{lo, hi}
			switch r.Kind {
			case Changed:
				a.changed = append(a.changed, sp)
			case WrotePages:
				a.wrote = append(a.wrote, sp)
			case ReadPages:
				a.read = append(a.read, sp)
			default:
				a.spoiled = append(a.spoiled, sp)
			}
			lo = hi
		}
	}
	sort.Slice(pg.allocs, func(i, j int) bool { return pg.allocs[i].reg.Base < pg.allocs[j].reg.Base })
	s.mu.Lock()
	defer s.mu.Unlock()
	p.done, p.paged = true, pg
	delete(s.running, p)
	if p.queued {
		s.finish(p)
	}
}

// finishPaged checks a completed, queued, tracked launch.
// Precondition: s.mu held.
func (s *State) finishPaged(p *Pending) {
	pg := p.paged
	for i, a := range p.acc {
		if r := p.res[i]; r.where == Inside && !pg.tracked[r.reg.Base] {
			s.accessWithout(Memcheck, p.actor, p.epoch, p.now, p.who, contiguous(a.Addr, a.Addr+uintptr(a.Size)), a.Mode, r)
		}
	}
	for _, a := range pg.allocs {
		res := resolved{Inside, a.reg}
		a.changed = coalesce(merge(a.changed), maxChanged)
		a.wrote, a.spoiled = merge(a.wrote), merge(a.spoiled)
		if s.on(Initcheck) && !a.reg.Host {
			s.initPaged(p, a) // before the units read are merged
		}
		a.read = merge(a.read)
		// The ranges are one task's accesses: a race in this allocation
		// is counted once, not once per range.
		off := Initcheck
		put := func(sp []span, m Mode) {
			for _, w := range sp {
				n := s.raceCount()
				s.accessWithout(off, p.actor, p.epoch, p.now, p.who, contiguous(w.lo, w.hi), m, res)
				if s.raceCount() != n {
					off |= Racecheck | Synccheck
				}
			}
		}
		put(a.changed, Write)
		put(a.spoiled, Write)
		put(a.read, Read)
		for _, w := range a.wrote {
			s.access(p.actor, p.epoch, p.now, p.who, Access{Addr: w.lo, Size: uint64(w.hi - w.lo), Mode: Atomic}, res)
		}
	}
}

// initPaged reports the first page the launch read in a that no one
// wrote a byte of. Precondition: s.mu held.
func (s *State) initPaged(p *Pending, a *pagedAlloc) {
	var written []span
	if sh := s.shadows[a.reg.Base]; sh != nil && sh.region == a.reg {
		written = append(written, sh.written...)
	} else if g, ok := s.born[a.reg.Base]; (ok && g < s.opaque) || (!ok && s.opaque > 0) {
		return // may have been written by opaque work
	}
	written = append(written, a.changed...)
	written = append(written, a.wrote...)
	written = append(written, a.spoiled...)
	written = merge(written)
	for _, r := range a.read { // one range per tracking unit read
		if !anyIn(written, r.lo, r.hi) {
			s.report(Initcheck, a.reg.Dev, fmt.Sprintf("init:%s:%s:%d:%#x", p.who.API, p.who.Kernel, p.actor, a.reg.Base),
				fmt.Sprintf("%s reads bytes of %#x..%#x of %s (a tracking unit, as far as it is in the allocation), none of which was ever written",
					s.describe(p.who), r.lo, r.hi, s.regionName(a.reg)))
			return
		}
	}
}

// anyIn reports whether sorted, merged sp holds a byte of [lo, hi).
func anyIn(sp []span, lo, hi uintptr) bool {
	i := sort.Search(len(sp), func(i int) bool { return sp[i].hi > lo })
	return i < len(sp) && sp[i].lo < hi
}

// coalesce fills the smallest gaps of sorted, merged sp until at most max
// spans are left.
func coalesce(sp []span, max int) []span {
	for len(sp) > max {
		gaps := make([]uintptr, 0, len(sp)-1)
		for i := 1; i < len(sp); i++ {
			gaps = append(gaps, sp[i].lo-sp[i-1].hi)
		}
		sorted := append([]uintptr(nil), gaps...)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
		limit := sorted[len(sp)-max-1] // fill every gap up to this size
		out := sp[:1]
		for i := 1; i < len(sp); i++ {
			if gaps[i-1] <= limit {
				out[len(out)-1].hi = sp[i].hi
			} else {
				out = append(out, sp[i])
			}
		}
		sp = out
	}
	return sp
}

// runningMayWrite reports whether a launch ordered before an access whose
// actor's clock is now is still running and may write the allocation at
// base: its footprint comes when it completes, so what the access reads
// is not known to be unwritten (initcheck stays quiet about it).
// Precondition: s.mu held.
func (s *State) runningMayWrite(base uintptr, now Clock) bool {
	for p := range s.running {
		if !now.Covers(p.actor, p.epoch) {
			continue
		}
		for _, r := range p.res {
			if r.where == Inside && r.reg.Base == base {
				return true
			}
		}
	}
	return false
}

// raceCount is the race reports made so far, every occurrence counted.
// Precondition: s.mu held.
func (s *State) raceCount() int {
	return s.counts[bits.TrailingZeros8(uint8(Racecheck))] + s.counts[bits.TrailingZeros8(uint8(Synccheck))]
}
