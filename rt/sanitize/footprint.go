package sanitize

import (
	"fmt"
	"sort"
)

// Exact kernel footprints. A launch's pointer arguments only say which
// allocations it may touch; an Ascend C kernel's headers record the GM
// bytes each block read and wrote (docs/sanitizer.md). Those are known
// once the launch ran, so a launch queued with Op.Pending is checked when
// it completes (Complete), with the clock it had when it was queued:
// tasks queued meanwhile are already in the shadow, and each record keeps
// its clock, so a task ordered after the launch (queued while it ran) is
// seen as ordered (shadow.go, ordered). A launch without an exact
// footprint (a footprint past its cap, or a plain npuemu/kernel.h kernel
// whose pages could not be tracked: track.go) is checked at completion as
// before: the whole of every allocation its
// pointer arguments point into, read and written.

// Pending is a launch whose footprint is not known yet. The API layer
// makes one per launch (new(Pending)), queues the launch with it
// (Op.Pending) and calls Complete once the launch ran; the two may come
// in either order.
type Pending struct {
	queued, done bool
	actor        Actor
	epoch        uint64
	now          Clock
	who          Who
	acc          []Access
	res          []resolved
	fp           []Range
	exact        bool
	fpRes        []resolved
	paged        *paged // a plain kernel's page-tracked footprint (track.go)
}

// Range is bytes a block of a launch read or wrote: [Lo, Hi), or, with
// Count > 1, Count bursts [Lo + i*Stride, Hi + i*Stride) (a strided
// copy; the gaps between the bursts are not touched).
type Range struct {
	Lo, Hi uintptr
	Stride uintptr // strided: bytes from one burst's start to the next
	Count  int     // strided: bursts (0 or 1: the one range [Lo, Hi))
	Block  int     // -1: not known
	Write  bool
	// Atomic, with Write: an atomic store of that kind (AtomicAdd,
	// AtomicMax or AtomicMin), a reduction into the bytes.
	Atomic Mode
}

// pattern is r's bytes.
func (r Range) pattern() pattern {
	if r.Hi <= r.Lo {
		return contiguous(r.Lo, r.Lo)
	}
	return strided(r.Lo, r.Hi-r.Lo, r.Stride, r.Count)
}

// mode is r's access mode.
func (r Range) mode() Mode {
	if r.Write {
		return Write | r.Atomic&atomicOps
	}
	return Read
}

// pend keeps a queued launch until it completes. Precondition: s.mu held.
func (s *State) pend(p *Pending, a Actor, epoch uint64, now Clock, who Who, acc []Access, res []resolved) {
	p.queued, p.actor, p.epoch, p.now, p.who = true, a, epoch, now, who
	p.acc = append([]Access(nil), acc...)
	p.res = append([]resolved(nil), res...)
	// What does not need the footprint is checked now: pointer arguments
	// into freed memory or misaligned (memcheck).
	for i, x := range p.acc {
		if r := p.res[i]; r.where == Unallocated || (r.where == Inside && x.Mode&Pointer != 0) {
			s.pointerChecks(a, who, x, r)
		}
	}
	if p.done {
		s.finish(p)
	} else {
		s.running[p] = true
	}
}

// freeRunning reports (synccheck) a free of reg while a launch that may
// use it still runs and the freeing thread has not synchronised with it;
// it says whether it reported. Precondition: s.mu held.
func (s *State) freeRunning(host any, threadID uint64, api string, reg Region) bool {
	if !s.on(Synccheck) || len(s.running) == 0 {
		return false
	}
	h := s.actorOf(host, true, -1, int64(threadID))
	hc := s.actors[h].clock
	for p := range s.running {
		if hc.Covers(p.actor, p.epoch) {
			continue
		}
		for _, r := range p.res {
			if r.where == Inside && r.reg.Base == reg.Base {
				s.report(Synccheck, reg.Dev, fmt.Sprintf("free:%s:%s:%d", api, p.who.API, p.actor),
					fmt.Sprintf("%s frees %s while %s, which uses it, may not have finished (no synchronisation since): its memory may be reused under it",
						api, s.regionName(reg), s.describe(p.who)))
				return true
			}
		}
	}
	return false
}

// pointerChecks is access's memcheck of a pointer argument.
func (s *State) pointerChecks(a Actor, who Who, acc Access, r resolved) {
	reg := r.reg
	if r.where == Unallocated {
		if s.on(Memcheck) {
			s.report(Memcheck, reg.Dev, fmt.Sprintf("unallocated:%s:%d:%#x", who.API, a, acc.Addr),
				fmt.Sprintf("%s uses device %d address %#x, which no live allocation covers (freed, or never allocated)",
					s.describe(who), reg.Dev, acc.Addr))
		}
		return
	}
	if s.on(Memcheck) && !reg.Host && acc.Addr%32 != 0 {
		s.report(Memcheck, reg.Dev, fmt.Sprintf("misaligned:%s:%d:%#x", who.API, a, acc.Addr),
			fmt.Sprintf("%s is passed device address %#x, which is not 32-byte aligned (offset %d in %s): Ascend C global memory accesses need 32-byte alignment",
				s.describe(who), acc.Addr, acc.Addr-reg.Base, s.regionName(reg)))
	}
}

// Complete notes that the launch of p ran. With exact set, fp is every
// GM byte range its blocks read and wrote and replaces its pointer
// arguments' allocations; otherwise those allocations, whole, are its
// footprint.
func (s *State) Complete(p *Pending, fp []Range, exact bool) {
	if !s.tracking() || p == nil {
		return
	}
	var res []resolved
	if exact {
		res = make([]resolved, len(fp))
		for i, r := range fp {
			w, reg := s.find(r.Lo)
			res[i] = resolved{w, reg}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p.done, p.fp, p.exact, p.fpRes = true, fp, exact, res
	delete(s.running, p)
	if p.queued {
		s.finish(p)
	}
}

// finish checks a completed, queued launch. Precondition: s.mu held.
func (s *State) finish(p *Pending) {
	if p.paged != nil {
		s.finishPaged(p)
		return
	}
	if !p.exact {
		for i, a := range p.acc {
			if p.res[i].where == Inside { // memcheck: done when queued
				s.accessWithout(Memcheck, p.actor, p.epoch, p.now, p.who, contiguous(a.Addr, a.Addr+uintptr(a.Size)), a.Mode, p.res[i])
			}
		}
		return
	}
	// The bytes the launch wrote itself count as written for its reads:
	// the order of accesses inside a launch is not recorded, and a block
	// may read what another wrote (after SyncAll), so only bytes that
	// neither earlier work nor the launch wrote are reported. An atomic
	// store reads what it accumulates into: for it, only the launch's
	// plain writes count (a block that zeroes the output, SyncAll, then
	// every block adds into it), not the launch's other atomic stores.
	type alloc struct {
		reg   resolved
		plain []span             // contiguous plain writes
		atom  []span             // contiguous atomic stores
		pats  map[Mode][]pattern // strided accesses by mode
		spans map[Mode][]span    // contiguous accesses by mode
		modes []Mode             // the modes of spans and pats, in first-seen order
		seen  map[Mode]bool
	}
	allocs := map[uintptr]*alloc{}
	var order []uintptr
	for i, r := range p.fp {
		res := p.fpRes[i]
		if res.where != Inside || r.Hi <= r.Lo {
			continue
		}
		a := allocs[res.reg.Base]
		if a == nil {
			a = &alloc{reg: res, pats: map[Mode][]pattern{}, spans: map[Mode][]span{}, seen: map[Mode]bool{}}
			allocs[res.reg.Base] = a
			order = append(order, res.reg.Base)
		}
		m, pat := r.mode(), r.pattern()
		if !a.seen[m] {
			a.seen[m] = true
			a.modes = append(a.modes, m)
		}
		if pat.n > 1 {
			a.pats[m] = append(a.pats[m], pat)
		} else {
			a.spans[m] = append(a.spans[m], span{pat.lo, pat.hi})
		}
		if r.Write {
			dst := &a.plain
			if m&atomicOps != 0 {
				dst = &a.atom
			}
			for j := 0; j < pat.n; j++ {
				lo, hi := pat.burst(j)
				*dst = append(*dst, span{lo, hi})
			}
		}
	}
	if s.on(Initcheck) {
		// What counts as written for a plain read and for an atomic
		// store, per allocation: made once.
		type known struct{ forRead, forAtomic shadow }
		written := map[uintptr]*known{}
		for i, r := range p.fp {
			res := p.fpRes[i]
			m := r.mode()
			if (r.Write && m&atomicOps == 0) || res.where != Inside || res.reg.Host || r.Hi <= r.Lo {
				continue
			}
			a := allocs[res.reg.Base]
			k := written[res.reg.Base]
			if k == nil {
				var before []span
				if sh := s.shadows[res.reg.Base]; sh != nil && sh.region == res.reg {
					before = sh.written
				} else if g, ok := s.born[res.reg.Base]; (ok && g < s.opaque) || (!ok && s.opaque > 0) {
					continue // may have been written by opaque work
				}
				plain := union(before, merge(a.plain))
				k = &known{forAtomic: shadow{written: plain}, forRead: shadow{written: union(plain, merge(a.atom))}}
				written[res.reg.Base] = k
			}
			known := &k.forRead
			if m&atomicOps != 0 {
				known = &k.forAtomic
			}
			pat := r.pattern()
			end := res.reg.Base + uintptr(res.reg.Size)
			for pat.n > 1 && pat.lo+uintptr(pat.n-1)*pat.stride >= end {
				pat.n--
			}
			if pat.n == 1 {
				pat.hi = min(pat.hi, end)
			}
			if b, ok := known.unwrittenPat(pat); ok {
				who := p.who
				who.Block = r.Block
				s.report(Initcheck, res.reg.Dev, fmt.Sprintf("init:%s:%s:%d:%#x", who.API, who.Kernel, p.actor, res.reg.Base),
					fmt.Sprintf("%s %s %s of %s; byte %#x (offset %d) was never written%s",
						s.describe(who), verb(m), describePat(pat), s.regionName(res.reg), b, b-res.reg.Base, atomicNote(m)))
			}
		}
	}
	// Races: the launch's accesses, merged over its blocks, as one
	// task's accesses, by mode. initcheck was done above: the accesses go
	// in with initcheck off.
	for _, base := range order {
		a := allocs[base]
		for _, m := range a.modes {
			for _, pat := range mergePats(append(rowsOf(merge(a.spans[m])), a.pats[m]...)) {
				s.accessWithout(Initcheck, p.actor, p.epoch, p.now, p.who, pat, m, a.reg)
			}
		}
	}
}

// rowsOf turns sorted, disjoint spans into patterns: a run of spans of
// one length evenly spaced (the rows a core copied one at a time, or the
// blocks' slices of a matrix) is one strided pattern.
func rowsOf(sp []span) []pattern {
	out := make([]pattern, 0, len(sp))
	for i := 0; i < len(sp); {
		l := sp[i].hi - sp[i].lo
		j := i + 1
		if j < len(sp) && sp[j].hi-sp[j].lo == l {
			st := sp[j].lo - sp[i].lo
			for j < len(sp) && sp[j].hi-sp[j].lo == l && sp[j].lo-sp[j-1].lo == st {
				j++
			}
			out = append(out, strided(sp[i].lo, l, st, j-i))
		} else {
			out = append(out, contiguous(sp[i].lo, sp[i].hi))
		}
		i = j
	}
	return out
}

// mergePats sorts strided patterns and joins those of one stride and
// burst where one continues (or repeats) the other: the blocks of a
// launch that copy consecutive rows of a matrix make one record.
func mergePats(all []pattern) []pattern {
	var ps, out []pattern // strided; plain ranges (passed on as they are)
	for _, p := range all {
		if p.n > 1 {
			ps = append(ps, p)
		} else {
			out = append(out, p)
		}
	}
	if len(ps) < 2 {
		return append(out, ps...)
	}
	sort.Slice(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.stride != b.stride {
			return a.stride < b.stride
		}
		if a.hi-a.lo != b.hi-b.lo {
			return a.hi-a.lo < b.hi-b.lo
		}
		if a.lo%a.stride != b.lo%b.stride { // one phase after another
			return a.lo%a.stride < b.lo%b.stride
		}
		return a.lo < b.lo
	})
	merged := ps[:1]
	for _, x := range ps[1:] {
		last := &merged[len(merged)-1]
		if x.stride == last.stride && x.hi-x.lo == last.hi-last.lo && (x.lo-last.lo)%x.stride == 0 && x.lo <= last.lo+uintptr(last.n)*x.stride {
			last.n = max(last.n, int((x.lo-last.lo)/x.stride)+x.n)
			continue
		}
		merged = append(merged, x)
	}
	return append(out, merged...)
}

// accessWithout is accessPat without the checks off (done already).
// Precondition: s.mu held.
func (s *State) accessWithout(off Check, a Actor, epoch uint64, now Clock, who Who, pat pattern, mode Mode, r resolved) {
	was := s.suppressed
	s.suppressed |= off
	s.accessPat(a, epoch, now, who, pat, mode, r)
	s.suppressed = was
}

// merge sorts spans and joins those that overlap or touch.
func merge(sp []span) []span {
	if len(sp) < 2 {
		return sp
	}
	sort.Slice(sp, func(i, j int) bool { return sp[i].lo < sp[j].lo })
	out := sp[:1]
	for _, x := range sp[1:] {
		if last := &out[len(out)-1]; x.lo <= last.hi {
			last.hi = max(last.hi, x.hi)
		} else {
			out = append(out, x)
		}
	}
	return out
}
