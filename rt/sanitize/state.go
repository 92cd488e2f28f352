package sanitize

import (
	"fmt"
	"io"
	"sync"
)

// Who says which task or host call made an access, for reports.
type Who struct {
	API    string // the API call that queued the task or made the call
	Kernel string // the kernel of a launch
	Task   uint32 // the task id of a queued task (0 for a host call)
	Block  int    // the block of a launch that made the access (-1: not known)
	actor  Actor
}

// SyncKind says how a task orders other streams.
type SyncKind uint8

// Synchronising tasks.
const (
	NoSync SyncKind = iota
	Record          // records Op.Key (an event or a notify): a later Wait on Key is ordered after this task
	Wait            // waits for the latest Record of Op.Key queued before it
)

// Op describes one task (Queue) or one host call (HostAccess).
type Op struct {
	API    string
	Kernel string
	Sync   SyncKind
	Key    any  // the event or notify of a Record or Wait
	Strict bool // a Wait on a Key never recorded is a synccheck report (false for IPC objects recorded elsewhere)
	// Release says which record of Key releases a Wait (release.go);
	// the zero value is an event's rule.
	Release Release
	Acc     []Access
	// Pending, when set, makes Acc (a launch's pointer arguments) wait
	// for Complete: the launch's exact footprint, known once it ran,
	// replaces them (footprint.go).
	Pending *Pending
	// Inline is storage the API layer may point Acc at for a short
	// footprint (one allocation per task instead of two).
	Inline [2]Access
}

// actor is a stream or a host thread.
type actor struct {
	clock Clock
	host  bool
	dev   int   // stream: its device
	id    int64 // stream id within its device, or host thread id
}

// State is one sanitizer: what it checks, every actor's clock, the latest
// record of every event and notify, and each allocation's shadow. One
// mutex guards it all; it is a leaf lock (Lookup is called before it is
// taken). The API layer calls it only when the sanitizer is on.
type State struct {
	checks Check // fixed at New: read without s.mu
	// suppressed: checks off while a finished launch's accesses are
	// replayed (they ran already). Guarded by mu.
	suppressed Check
	lookup     Lookup
	out        io.Writer

	cacheMu  sync.Mutex // a leaf: guards cache and cacheGen
	cache    [4]Region  // allocations found last (find)
	cacheGen uint64     // bumped when an allocation is made or freed

	mu       sync.Mutex
	actors   []actor
	byKey    map[any]Actor
	free     []Actor            // actors of destroyed streams, reused by new streams
	born     map[uintptr]uint64 // allocation base → opaque count when it was made (Forget)
	opaque   uint64             // Opaque calls so far
	records  map[any]Clock      // event/notify → the recording stream's clock at its latest record
	shadows  map[uintptr]*shadow
	running  map[*Pending]bool // launches queued and not completed (footprint.go)
	rel      releases          // waits queued before the record that releases them (release.go)
	counts   [8]int            // reports per check bit
	seen     map[string]bool
	distinct int
}

// New returns a sanitizer running checks, resolving addresses with lookup
// and writing reports to out.
func New(checks Check, lookup Lookup, out io.Writer) *State {
	return &State{checks: checks, lookup: lookup, out: out, byKey: map[any]Actor{},
		records: map[any]Clock{}, shadows: map[uintptr]*shadow{}, running: map[*Pending]bool{}, seen: map[string]bool{}, born: map[uintptr]uint64{},
		rel: newReleases()}
}

// Checks returns the checks s runs.
func (s *State) Checks() Check { return s.checks }

// tracking reports whether s follows tasks and accesses at all (every
// check but leakcheck does).
func (s *State) tracking() bool { return s.checks&^Leakcheck != 0 }

// on reports whether any of c runs now: s.checks (fixed at New, read
// without the lock) less the checks a finishing launch has already run
// (suppressed). Precondition: s.mu held.
func (s *State) on(c Check) bool { return s.checks&^s.suppressed&c != 0 }

func (s *State) actorOf(key any, host bool, dev int, id int64) Actor {
	if a, ok := s.byKey[key]; ok {
		return a
	}
	if n := len(s.free); n > 0 && !host {
		// A destroyed stream's slot, clock and epochs kept: its tasks and
		// the new stream's count as one stream's, which loses no race, as
		// the host learned the old stream's clock when it was destroyed
		// and the new stream's first task joins the host's clock.
		a := s.free[n-1]
		s.free = s.free[:n-1]
		s.actors[a].dev, s.actors[a].id = dev, id
		s.byKey[key] = a
		return a
	}
	a := Actor(len(s.actors))
	s.actors = append(s.actors, actor{host: host, dev: dev, id: id})
	s.byKey[key] = a
	return a
}

func (s *State) name(a Actor) string {
	x := &s.actors[a]
	if x.host {
		return fmt.Sprintf("host thread %d", x.id)
	}
	if x.id < 0 {
		return fmt.Sprintf("model stream %d of device %d", -x.id, x.dev)
	}
	return fmt.Sprintf("stream %d of device %d", x.id, x.dev)
}

func (s *State) describe(w Who) string {
	k := ""
	if w.Kernel != "" {
		k = fmt.Sprintf(" of kernel %q", w.Kernel)
		if w.Block >= 0 {
			k += fmt.Sprintf(" block %d", w.Block)
		}
	}
	if s.actors[w.actor].host {
		return fmt.Sprintf("%s%s (%s)", w.API, k, s.name(w.actor))
	}
	return fmt.Sprintf("%s%s (task %d on %s)", w.API, k, w.Task, s.name(w.actor))
}

// Queue notes a task queued by host thread host (threadID names it) on
// stream (streamID of device dev; a negative id names an internal stream
// of a model run instance), with its task id.
func (s *State) Queue(host any, threadID uint64, stream any, dev int, streamID int32, task uint32, op *Op) {
	if !s.tracking() {
		return
	}
	var buf [4]resolved
	res := s.resolve(op.Acc, buf[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.actorOf(host, true, -1, int64(threadID))
	st := s.actorOf(stream, false, dev, int64(streamID))
	if s.hold(st, h, dev, task, op, res) { // behind a wait not released yet
		return
	}
	s.queueOn(st, s.actors[h].clock, dev, task, op, res, nil)
}

// queueOn notes op queued on stream st by a host thread whose clock was
// hc. A Wait is ordered after the record that releases it: released, when
// set, is that record's clock (a wait that was held, release.go); else
// the rule of op.Release decides, and a wait whose record is not queued
// yet holds the stream (release.go). Precondition: s.mu held.
func (s *State) queueOn(st Actor, hc Clock, dev int, task uint32, op *Op, res []resolved, released Clock) {
	sc := &s.actors[st].clock
	sc.Join(hc)
	if released != nil {
		sc.Join(released)
	} else if op.Sync == Wait {
		if rec, ok := s.waitRecord(op); ok {
			sc.Join(rec)
		} else if s.waitHolds(op) {
			s.hold(st, -1, dev, task, op, res)
			return
		} else if op.Strict && s.on(Synccheck) {
			s.report(Synccheck, dev, "wait-unrecorded:"+op.API,
				fmt.Sprintf("%s waits on %s for an event or notify that was never recorded: the wait orders nothing", op.API, s.name(st)))
		}
	}
	epoch := sc.Tick(st)
	who := Who{API: op.API, Kernel: op.Kernel, Task: task, actor: st, Block: -1}
	var now Clock
	if len(op.Acc) > 0 || op.Pending != nil {
		now = sc.Copy()
	}
	if p := op.Pending; p != nil {
		s.pend(p, st, epoch, now, who, op.Acc, res)
	} else {
		for i, a := range op.Acc {
			s.access(st, epoch, now, who, a, res[i])
		}
	}
	if op.Sync == Record {
		s.records[op.Key] = append(s.records[op.Key][:0], s.actors[st].clock...)
		s.recorded(op.Key)
	}
}

// HostAccess notes a host call that touches memory at once (a synchronous
// copy or memset).
func (s *State) HostAccess(host any, threadID uint64, op *Op) {
	if !s.tracking() {
		return
	}
	var buf [4]resolved
	res := s.resolve(op.Acc, buf[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.actorOf(host, true, -1, int64(threadID))
	epoch := s.actors[h].clock.Tick(h)
	who := Who{API: op.API, actor: h, Block: -1}
	now := s.actors[h].clock.Copy()
	for i, a := range op.Acc {
		s.access(h, epoch, now, who, a, res[i])
	}
}

// SyncStream notes that host thread host saw stream's tasks complete
// (a stream synchronisation, a query that found it idle, its destroy).
func (s *State) SyncStream(host any, threadID uint64, stream any) {
	if !s.tracking() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.byKey[stream]
	if !ok {
		return
	}
	s.letGo(st, -1, nil) // its waits were released
	h := s.actorOf(host, true, -1, int64(threadID))
	s.actors[h].clock.Join(s.actors[st].clock)
}

// ForgetStream drops a stream that was destroyed after its tasks
// completed (the host synchronised with it first): its actor slot is
// reused by the next new stream, so that clocks stay as long as the
// number of streams alive at once, not of streams ever made.
func (s *State) ForgetStream(stream any) {
	if !s.tracking() {
		return
	}
	s.mu.Lock()
	if a, ok := s.byKey[stream]; ok {
		s.letGo(a, -1, nil)
		delete(s.byKey, stream)
		s.free = append(s.free, a)
	}
	s.mu.Unlock()
}

// SyncDevice notes that host thread host saw every task of device dev
// complete (dev < 0: every device).
func (s *State) SyncDevice(host any, threadID uint64, dev int) {
	if !s.tracking() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.actorOf(host, true, -1, int64(threadID))
	s.letGo(-1, dev, nil) // their waits were released
	for i := range s.actors {
		if a := &s.actors[i]; !a.host && (dev < 0 || a.dev == dev) {
			s.actors[h].clock.Join(a.clock)
		}
	}
}

// SyncKey notes that host thread host synchronised with key (an event) or
// queried it (api); complete says its latest record has completed, which
// orders the host after it. When key was never recorded and strict is
// set, that is a synccheck report.
func (s *State) SyncKey(host any, threadID uint64, key any, api string, dev int, strict, complete bool) {
	if !s.tracking() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.actorOf(host, true, -1, int64(threadID))
	if complete && s.rel.records[key] > 0 { // its record was held: the stream was released
		s.letGo(-1, -1, key)
	}
	if rec, ok := s.records[key]; ok {
		if complete {
			s.actors[h].clock.Join(rec)
		}
		return
	}
	if strict && s.on(Synccheck) {
		s.report(Synccheck, dev, "sync-unrecorded:"+api,
			fmt.Sprintf("%s on an event that was never recorded (host thread %d): it waits for nothing", api, threadID))
	}
}

// Free notes that host thread host frees the allocation at addr (api): a
// task that uses it and that the thread has not synchronised with is a
// synccheck report; the allocation's shadow is forgotten. Call it before
// the memory is released.
func (s *State) Free(host any, threadID uint64, api string, addr uintptr) {
	if !s.tracking() {
		return
	}
	where, reg := s.lookup(addr)
	s.dropCache()
	if where != Inside {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.born, reg.Base)
	if s.freeRunning(host, threadID, api, reg) || s.freeHeld(api, reg) {
		delete(s.shadows, reg.Base)
		return
	}
	sh, ok := s.shadows[reg.Base]
	if !ok {
		return
	}
	delete(s.shadows, reg.Base)
	if !s.on(Synccheck) {
		return
	}
	h := s.actorOf(host, true, -1, int64(threadID))
	hc := s.actors[h].clock
	for _, p := range sh.recs {
		if p.actor != h && !hc.Covers(p.actor, p.epoch) {
			s.report(Synccheck, reg.Dev, fmt.Sprintf("free:%s:%s:%d", api, p.who.API, p.actor),
				fmt.Sprintf("%s frees %s while %s, which uses it, may not have finished (no synchronisation since): its memory may be reused under it",
					api, s.regionName(reg), s.describe(p.who)))
			return
		}
	}
}

// Forget drops what is known of the allocation at base (a new allocation
// starts unwritten).
func (s *State) Forget(base uintptr) {
	if !s.tracking() {
		return
	}
	s.dropCache()
	s.mu.Lock()
	delete(s.shadows, base)
	s.born[base] = s.opaque
	s.mu.Unlock()
}

func (s *State) regionName(r Region) string {
	if r.Host {
		return fmt.Sprintf("host allocation %#x (%d bytes)", r.Base, r.Size)
	}
	return fmt.Sprintf("device %d allocation %#x (%d bytes)", r.Dev, r.Base, r.Size)
}

// resolved is what Lookup said of an access's address.
type resolved struct {
	where Where
	reg   Region
}

// resolve looks up every access before s.mu is taken: Lookup may take the
// API layer's locks, and s.mu is a leaf lock. buf is used when it is
// large enough.
func (s *State) resolve(acc []Access, buf []resolved) []resolved {
	res := buf[:0]
	if len(acc) > len(buf) {
		res = make([]resolved, 0, len(acc))
	}
	for _, a := range acc {
		w, r := s.find(a.Addr)
		res = append(res, resolved{w, r})
	}
	return res
}

// find is Lookup behind a small cache of the allocations found last. The
// cache is dropped whenever an allocation is made or freed (Forget, Free):
// a cached region is live.
func (s *State) find(addr uintptr) (Where, Region) {
	s.cacheMu.Lock()
	for _, r := range s.cache {
		if r.Size != 0 && addr >= r.Base && addr-r.Base < uintptr(r.Size) {
			s.cacheMu.Unlock()
			return Inside, r
		}
	}
	gen := s.cacheGen
	s.cacheMu.Unlock()
	w, r := s.lookup(addr)
	if w == Inside {
		s.cacheMu.Lock()
		if s.cacheGen == gen {
			copy(s.cache[1:], s.cache[:])
			s.cache[0] = r
		}
		s.cacheMu.Unlock()
	}
	return w, r
}

// dropCache forgets the cached allocations.
func (s *State) dropCache() {
	s.cacheMu.Lock()
	s.cache = [4]Region{}
	s.cacheGen++
	s.cacheMu.Unlock()
}

// access checks and keeps one access of actor a at epoch.
// Precondition: s.mu held.
func (s *State) access(a Actor, epoch uint64, now Clock, who Who, acc Access, r resolved) {
	lo := acc.Addr
	s.accessPat(a, epoch, now, who, contiguous(lo, lo+uintptr(acc.Size)), acc.Mode, r)
}

// accessPat checks and keeps an access of actor a at epoch to the bytes
// of pat (a plain range, or a strided kernel access) in mode.
// Precondition: s.mu held.
func (s *State) accessPat(a Actor, epoch uint64, now Clock, who Who, pat pattern, mode Mode, r resolved) {
	where, reg := r.where, r.reg
	switch where {
	case Outside:
		return
	case Unallocated:
		if s.on(Memcheck) {
			s.report(Memcheck, reg.Dev, fmt.Sprintf("unallocated:%s:%d:%#x", who.API, a, pat.lo),
				fmt.Sprintf("%s uses device %d address %#x, which no live allocation covers (freed, or never allocated)",
					s.describe(who), reg.Dev, pat.lo))
		}
		return
	}
	end := reg.Base + uintptr(reg.Size)
	if mode&Pointer != 0 {
		if s.on(Memcheck) && !reg.Host && pat.lo%32 != 0 {
			s.report(Memcheck, reg.Dev, fmt.Sprintf("misaligned:%s:%d:%#x", who.API, a, pat.lo),
				fmt.Sprintf("%s is passed device address %#x, which is not 32-byte aligned (offset %d in %s): Ascend C global memory accesses need 32-byte alignment",
					s.describe(who), pat.lo, pat.lo-reg.Base, s.regionName(reg)))
		}
		pat = contiguous(reg.Base, end)
	} else if pat.n == 1 && (pat.hi > end || pat.hi < pat.lo) {
		if s.on(Memcheck) {
			s.report(Memcheck, reg.Dev, fmt.Sprintf("overrun:%s:%d:%#x", who.API, a, reg.Base),
				fmt.Sprintf("%s touches %d bytes at %#x, past the end of %s by %d bytes",
					s.describe(who), uint64(pat.hi-pat.lo), pat.lo, s.regionName(reg), uint64(pat.hi-end)))
		}
		pat.hi = end
	} else if pat.n > 1 && pat.end() > end { // kernel accesses: bounds checked by the kernel; keep the bursts inside
		for pat.n > 1 && pat.lo+uintptr(pat.n-1)*pat.stride >= end {
			pat.n--
		}
		if pat.n == 1 {
			pat.hi = min(pat.hi, end)
		}
	}
	if pat.hi <= pat.lo {
		return
	}
	sh := s.shadows[reg.Base]
	if sh == nil || sh.region != reg {
		sh = &shadow{region: reg}
		s.shadows[reg.Base] = sh
		if g, ok := s.born[reg.Base]; (ok && g < s.opaque) || (!ok && s.opaque > 0) {
			sh.addWritten(reg.Base, end) // may have been written by opaque work
		}
	}
	if mode&Atomic != 0 {
		if !reg.Host {
			sh.addWrittenPat(pat)
		}
		return
	}
	write := mode&(Write|Pointer) != 0
	if mode&(Read|atomicOps) != 0 && !reg.Host && s.on(Initcheck) && !s.runningMayWrite(reg.Base, now) {
		if b, ok := sh.unwrittenPat(pat); ok {
			s.report(Initcheck, reg.Dev, fmt.Sprintf("init:%s:%d:%#x", who.API, a, reg.Base),
				fmt.Sprintf("%s %s %s of %s; byte %#x (offset %d) was never written%s",
					s.describe(who), verb(mode), describePat(pat), s.regionName(reg), b, b-reg.Base, atomicNote(mode)))
		}
	}
	rec := record{pattern: pat, write: write, atomic: mode & atomicOps, actor: a, epoch: epoch, clock: now, who: who}
	sh.add(rec, now, func(p record, lo, hi uintptr) { s.race(p, rec, lo, hi, reg) }, s.on(Racecheck|Synccheck))
	if write && !reg.Host {
		sh.addWrittenPat(pat)
	}
}

// verb says what an access of mode does to its bytes, for reports.
func verb(mode Mode) string {
	switch {
	case mode&AtomicAdd != 0:
		return "atomically adds into"
	case mode&AtomicMax != 0:
		return "atomically maxes into"
	case mode&AtomicMin != 0:
		return "atomically mins into"
	case mode&(Write|Pointer) != 0:
		return "writes"
	}
	return "reads"
}

// atomicNote explains an initcheck report of an atomic store.
func atomicNote(mode Mode) string {
	if mode&atomicOps != 0 {
		return " (an atomic store reads the bytes it accumulates into)"
	}
	return ""
}

// describePat names the bytes of p: "256 bytes at 0x..." or, strided,
// "16 rows of 256 bytes 1024 bytes apart from 0x...".
func describePat(p pattern) string {
	if p.n == 1 {
		return fmt.Sprintf("%d bytes at %#x", uint64(p.hi-p.lo), p.lo)
	}
	return fmt.Sprintf("%d rows of %d bytes %d bytes apart from %#x", p.n, uint64(p.hi-p.lo), uint64(p.stride), p.lo)
}

// kindOf names the access of a record in a race report.
func kindOf(r record) string {
	switch {
	case r.atomic&AtomicAdd != 0:
		return "atomic add"
	case r.atomic&AtomicMax != 0:
		return "atomic max"
	case r.atomic&AtomicMin != 0:
		return "atomic min"
	case r.write:
		return "write"
	}
	return "read"
}

// race reports two unordered conflicting accesses p and cur that share
// lo..hi: racecheck between two streams, synccheck when one side is a
// host thread.
func (s *State) race(p, cur record, lo, hi uintptr, reg Region) {
	check := Racecheck
	if s.actors[p.actor].host || s.actors[cur.actor].host {
		check = Synccheck
	}
	if !s.on(check) {
		return
	}
	key := fmt.Sprintf("race:%s:%d:%s:%d:%#x", p.who.API, p.actor, cur.who.API, cur.actor, reg.Base)
	what := "race"
	if check == Synccheck {
		what = "host/device race"
	}
	s.report(check, reg.Dev, key,
		fmt.Sprintf("%s-%s %s on %#x..%#x of %s: %s and %s are not ordered (no stream order, event, notify or synchronisation between them)",
			kindOf(p), kindOf(cur), what, lo, hi, s.regionName(reg), s.describe(p.who), s.describe(cur.who)))
}

// Opaque notes that work whose footprint is unknown ran (a model execution
// with device-side control flow or value waits): every allocation that
// exists now counts as written, so initcheck stays quiet about what that
// work may have written.
func (s *State) Opaque() {
	if !s.tracking() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opaque++
	for _, sh := range s.shadows {
		if !sh.region.Host {
			sh.written = []span{{sh.region.Base, sh.region.Base + uintptr(sh.region.Size)}}
		}
	}
}
