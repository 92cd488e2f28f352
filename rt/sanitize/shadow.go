package sanitize

import "sort"

// Where says what an address is (Lookup).
type Where uint8

// Answers of a Lookup.
const (
	Outside     Where = iota // neither device memory nor registered host memory: not watched
	Inside                   // inside a live allocation (Region)
	Unallocated              // inside a device's memory but in no live allocation (Region.Dev set)
)

// Region is a live allocation: device memory, or pinned host memory that
// async copies read and write.
type Region struct {
	Host bool // pinned host memory (aclrtMallocHost), not device memory
	Dev  int  // the device of device memory
	Base uintptr
	Size uint64
}

// Lookup says what addr is. The API layer gives the sanitizer one; it is
// the only way the sanitizer learns about allocations.
type Lookup func(addr uintptr) (Where, Region)

// Mode is how a task uses a range.
type Mode uint8

// Access modes.
const (
	Read  Mode = 1 << iota
	Write      // written (a copy's destination, a memset)
	// Pointer is a kernel pointer argument: the task may read and write
	// the whole allocation the pointer points into (its direction is
	// unknown, so it is not checked by initcheck and counts as a write).
	Pointer
	// Atomic marks a synchronisation word (a value write): it counts as
	// written for initcheck but is not checked for races.
	Atomic
	// AtomicAdd, AtomicMax and AtomicMin mark an atomic store of a
	// kernel (with Write): a reduction into its bytes (Ascend C
	// SetAtomicAdd/Max/Min then a copy to GM). It reads its bytes
	// (initcheck) and writes them; two atomic stores of the same kind to
	// the same bytes do not race (the result does not depend on their
	// order), anything else against it does.
	AtomicAdd
	AtomicMax
	AtomicMin

	atomicOps = AtomicAdd | AtomicMax | AtomicMin
)

// Access is one range a task or a host call touches.
type Access struct {
	Addr uintptr
	Size uint64
	Mode Mode
}

type span struct{ lo, hi uintptr }

// record is one access kept for the race checks.
type record struct {
	pattern
	write  bool
	atomic Mode // the kind of an atomic store (AtomicAdd, ...), 0: none
	actor  Actor
	epoch  uint64
	clock  Clock // the actor's clock at the access (read only; shared by a task's records)
	who    Who
}

// conflict reports whether p and r, if they overlap, conflict: one
// writes, and they are not two atomic stores of one kind.
func conflict(p, r *record) bool {
	return (p.write || r.write) && (p.atomic == 0 || p.atomic != r.atomic)
}

// subsumes reports whether r conflicts with everything p conflicts with:
// r is a plain write, or both read, or both are atomic stores of a kind.
func subsumes(r, p *record) bool {
	return (r.write && r.atomic == 0) || (!r.write && !p.write) || (r.atomic != 0 && r.atomic == p.atomic)
}

// ordered reports whether p and r (whose actor's clock is now) are
// ordered either way. p may have been queued after r: a launch's exact
// footprint is added when the launch completes (Complete), after tasks
// queued later, some of them ordered after it.
func ordered(p, r *record, now Clock) bool {
	return p.actor == r.actor || now.Covers(p.actor, p.epoch) || p.clock.Covers(r.actor, r.epoch)
}

// before reports whether p happened before r.
func before(p, r *record, now Clock) bool {
	if p.actor == r.actor {
		return p.epoch <= r.epoch
	}
	return now.Covers(p.actor, p.epoch)
}

// maxRecords bounds the accesses kept per allocation: the oldest go first
// (a race with an access that old is then missed; docs/sanitizer.md).
const maxRecords = 256

// shadow is what the sanitizer knows of one allocation.
type shadow struct {
	region  Region
	written []span // sorted, disjoint, merged: bytes some task or call wrote
	recs    []record
}

// addWritten marks [lo, hi) written.
func (sh *shadow) addWritten(lo, hi uintptr) {
	w := sh.written
	i := sort.Search(len(w), func(i int) bool { return w[i].hi >= lo })
	j := i
	for j < len(w) && w[j].lo <= hi {
		lo, hi = min(lo, w[j].lo), max(hi, w[j].hi)
		j++
	}
	if i == j {
		w = append(w, span{})
		copy(w[i+1:], w[i:])
		w[i] = span{lo, hi}
	} else {
		w[i] = span{lo, hi}
		w = append(w[:i+1], w[j:]...)
	}
	sh.written = w
}

// unwritten returns the first byte of [lo, hi) no one wrote, if any.
func (sh *shadow) unwritten(lo, hi uintptr) (uintptr, bool) {
	w := sh.written
	i := sort.Search(len(w), func(i int) bool { return w[i].hi > lo })
	if i == len(w) || w[i].lo > lo {
		return lo, true
	}
	if w[i].hi >= hi {
		return 0, false
	}
	return w[i].hi, true
}

// addWrittenPat marks p's bursts written (in one pass over the written
// spans for a strided p).
func (sh *shadow) addWrittenPat(p pattern) {
	if p.n == 1 {
		sh.addWritten(p.lo, p.hi)
		return
	}
	bursts := make([]span, p.n)
	for i := range bursts {
		bursts[i].lo, bursts[i].hi = p.burst(i)
	}
	sh.written = union(sh.written, bursts)
}

// union returns the bytes of a and b, each sorted, disjoint and merged,
// sorted, disjoint and merged (a new slice).
func union(a, b []span) []span {
	out := make([]span, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var x span
		if len(b) == 0 || (len(a) > 0 && a[0].lo <= b[0].lo) {
			x, a = a[0], a[1:]
		} else {
			x, b = b[0], b[1:]
		}
		if n := len(out); n > 0 && x.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, x.hi)
		} else {
			out = append(out, x)
		}
	}
	return out
}

// unwrittenPat returns the first byte of p's bursts no one wrote, if any.
func (sh *shadow) unwrittenPat(p pattern) (uintptr, bool) {
	for i := 0; i < p.n; i++ {
		if b, ok := sh.unwritten(p.burst(i)); ok {
			return b, true
		}
	}
	return 0, false
}

// add keeps r, dropping the records it makes redundant: an earlier record
// whose bytes r covers, that r's actor made or that is ordered before r,
// and whose conflicts r's would include (subsumes). When check is set,
// the first earlier record that conflicts with r and is not ordered
// before it (a race) is passed to race with the first bytes they share.
// One pass over the records.
func (sh *shadow) add(r record, now Clock, race func(p record, lo, hi uintptr), check bool) {
	rEnd := r.end()
	keep := sh.recs[:0]
	for i := range sh.recs {
		p := &sh.recs[i]
		if pEnd := p.end(); pEnd > r.lo && p.lo < rEnd { // their spans meet
			if check && conflict(p, &r) {
				lo, hi, ok := max(p.lo, r.lo), min(p.hi, r.hi), true // two plain ranges
				if p.n > 1 || r.n > 1 {
					lo, hi, ok = overlap(p.pattern, r.pattern)
				}
				if ok && !ordered(p, &r, now) {
					race(*p, lo, hi)
					check = false
				}
			}
			if p.lo >= r.lo && pEnd <= rEnd && subsumes(&r, p) && (r.n == 1 || r.covers(p.pattern)) && before(p, &r, now) {
				continue
			}
		}
		if len(keep) == i { // nothing dropped yet: it is in place
			keep = keep[:i+1]
		} else {
			keep = append(keep, *p)
		}
	}
	if len(keep) >= maxRecords {
		keep = append(keep[:0], keep[len(keep)-maxRecords+1:]...)
	}
	sh.recs = append(keep, r)
}
