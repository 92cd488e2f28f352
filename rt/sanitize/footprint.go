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

// Range is bytes [Lo, Hi) a block of a launch read or wrote.
type Range struct {
	Lo, Hi uintptr
	Block  int // -1: not known
	Write  bool
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
	if s.checks&Synccheck == 0 || len(s.running) == 0 {
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
		if s.checks&Memcheck != 0 {
			s.report(Memcheck, reg.Dev, fmt.Sprintf("unallocated:%s:%d:%#x", who.API, a, acc.Addr),
				fmt.Sprintf("%s uses device %d address %#x, which no live allocation covers (freed, or never allocated)",
					s.describe(who), reg.Dev, acc.Addr))
		}
		return
	}
	if s.checks&Memcheck != 0 && !reg.Host && acc.Addr%32 != 0 {
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
				s.accessWithout(Memcheck, p.actor, p.epoch, p.now, p.who, a, p.res[i])
			}
		}
		return
	}
	// The bytes the launch wrote itself count as written for its reads:
	// the order of accesses inside a launch is not recorded, and a block
	// may read what another wrote (after SyncAll), so only bytes that
	// neither earlier work nor the launch wrote are reported.
	type alloc struct {
		reg          resolved
		reads, write []span
	}
	allocs := map[uintptr]*alloc{}
	var order []uintptr
	for i, r := range p.fp {
		res := p.fpRes[i]
		if res.where != Inside || r.Hi <= r.Lo {
			continue
		}
		end := res.reg.Base + uintptr(res.reg.Size)
		hi := min(r.Hi, end)
		a := allocs[res.reg.Base]
		if a == nil {
			a = &alloc{reg: res}
			allocs[res.reg.Base] = a
			order = append(order, res.reg.Base)
		}
		if r.Write {
			a.write = append(a.write, span{r.Lo, hi})
		} else {
			a.reads = append(a.reads, span{r.Lo, hi})
		}
	}
	if s.checks&Initcheck != 0 {
		for i, r := range p.fp {
			res := p.fpRes[i]
			if r.Write || res.where != Inside || res.reg.Host {
				continue
			}
			a := allocs[res.reg.Base]
			var written shadow
			if sh := s.shadows[res.reg.Base]; sh != nil && sh.region == res.reg {
				written.written = append(written.written, sh.written...)
			} else if g, ok := s.born[res.reg.Base]; (ok && g < s.opaque) || (!ok && s.opaque > 0) {
				continue // may have been written by opaque work
			}
			for _, w := range a.write {
				written.addWritten(w.lo, w.hi)
			}
			hi := min(r.Hi, res.reg.Base+uintptr(res.reg.Size))
			if b, ok := written.unwritten(r.Lo, hi); ok {
				who := p.who
				who.Block = r.Block
				s.report(Initcheck, res.reg.Dev, fmt.Sprintf("init:%s:%s:%d:%#x", who.API, who.Kernel, p.actor, res.reg.Base),
					fmt.Sprintf("%s reads %d bytes at %#x of %s; byte %#x (offset %d) was never written",
						s.describe(who), uint64(hi-r.Lo), r.Lo, s.regionName(res.reg), b, b-res.reg.Base))
			}
		}
	}
	// Races: the launch's reads and writes, merged over its blocks, as
	// one task's accesses. initcheck was done above: the accesses go in
	// as Write, or as Read with initcheck off for them.
	for _, base := range order {
		a := allocs[base]
		for _, w := range merge(a.write) {
			s.access(p.actor, p.epoch, p.now, p.who, Access{Addr: w.lo, Size: uint64(w.hi - w.lo), Mode: Write}, a.reg)
		}
		for _, r := range merge(a.reads) {
			s.accessWithout(Initcheck, p.actor, p.epoch, p.now, p.who, Access{Addr: r.lo, Size: uint64(r.hi - r.lo), Mode: Read}, a.reg)
		}
	}
}

// accessWithout is access without the checks off (done already).
// Precondition: s.mu held.
func (s *State) accessWithout(off Check, a Actor, epoch uint64, now Clock, who Who, acc Access, r resolved) {
	checks := s.checks
	s.checks &^= off
	s.access(a, epoch, now, who, acc, r)
	s.checks = checks
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
