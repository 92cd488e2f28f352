package tsfw

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// Residency. The device runs the blocks of one wave at the same time, and
// a kernel may rely on it: its blocks may wait for each other, as
// cross-core synchronisation does. On the host a kernel granted more
// cores than there are lanes (threads.go) starts with one lane per host
// thread; watchResidency gives it a lane for every granted core once its
// blocks look stuck waiting for blocks that have not started.
//
// Stuck, not merely slow: on a host whose CPUs other processes keep busy,
// a lane can wait milliseconds for a CPU. Taking that for a stall added a
// lane per granted core (38 more threads for a 40-block kernel on 2 CPUs),
// every one of them then competing for the same busy CPUs; with one host
// thread a vector add ran at a third of the speed it reaches without
// them (docs/benchmarks.md, "Twenty-second session"). So a stall is
// judged by what the threads running the blocks (the runners) did since
// the last block ended:
//   - one of them has slept through two looks in a row without running
//     (a block waits in the kernel: a futex, as SyncAll's does, or a Go
//     channel): the blocks wait for each other. (Two looks, not one: a
//     lane also sleeps while it waits for the Go runtime to give it back a
//     P, which on a busy host can take a while, but not that long.)
//   - one of them has run stallAfter of CPU time: it spins waiting, or its
//     block is long; either way more lanes let the rest start;
//   - else they are runnable and have had little CPU: the host is busy,
//     and more threads would only share the same CPUs; the watch waits.
// Where the runners cannot be looked at (no /proc, a thread gone), a
// stall is judged by the wall clock alone, as before.

// stallAfter (a variable for tests) is how long a kernel granted more
// cores than it has host lanes may go without a block ending, while
// blocks are still to start, before its runners are looked at; and the
// CPU time one of them may run in that state before the kernel gets a
// lane per granted core.
var stallAfter = 2 * time.Millisecond

// maxRunners bounds the runners of a watched kernel that are looked at:
// the first ones to start (a watched kernel has at most HostThreads
// runners until the watch adds lanes, and then it is no longer watched).
const maxRunners = 8

// enter registers the calling thread as a runner of watched kernel r and
// returns its slot (-1: not registered).
func (r *krun) enter() int {
	i := int(r.nrunner.Add(1) - 1)
	if i >= maxRunners {
		return -1
	}
	r.runners[i].Store(int32(syscall.Gettid()))
	return i
}

// leave ends slot i's registration (enter).
func (r *krun) leave(i int) {
	if i >= 0 {
		r.runners[i].Store(0)
	}
}

// resetRunners clears the runner slots of r before a dispatch.
func (r *krun) resetRunners() {
	r.nrunner.Store(0)
	for i := range r.runners {
		if r.runners[i].Load() != 0 {
			r.runners[i].Store(0)
		}
	}
}

// runnerState is what the watch sees of a runner thread: its CPU time and
// whether it sleeps. ok is false when the thread cannot be looked at.
type runnerState struct {
	cpu    time.Duration
	asleep bool
	ok     bool
}

// look at runner tid (probeRunner, or the test's stand-in).
func (d *Device) lookAt(tid int32, withSleep bool) runnerState {
	if d.probe != nil {
		return d.probe(tid, withSleep)
	}
	return probeRunner(tid, withSleep)
}

// probeRunner looks at thread tid of this process; withSleep asks for its
// scheduling state too (a file read: only when the kernel is stuck).
func probeRunner(tid int32, withSleep bool) runnerState {
	cpu, ok := threadCPU(tid)
	if !ok {
		return runnerState{}
	}
	st := runnerState{cpu: cpu, ok: true}
	if withSleep {
		st.asleep, st.ok = threadAsleep(tid)
	}
	return st
}

// threadAsleep reports whether thread tid of this process is blocked
// (state S or D in /proc/self/task/TID/stat) rather than running or
// waiting for a CPU (R).
func threadAsleep(tid int32) (asleep, ok bool) {
	b, err := os.ReadFile("/proc/self/task/" + strconv.Itoa(int(tid)) + "/stat")
	if err != nil {
		return false, false
	}
	i := bytes.LastIndexByte(b, ')') // the name may hold spaces and parentheses
	if i < 0 || i+2 >= len(b) {
		return false, false
	}
	switch b[i+2] {
	case 'S', 'D':
		return true, true
	case 'R':
		return false, true
	}
	return false, false
}

// watchResidency watches r, which was granted r.extra cores more than it
// has lanes, every stallAfter: when no block has ended since the last look
// while some have not started, and the runners are stuck (above), r gets
// its remaining r.extra lanes. A kernel whose blocks make progress never
// pays more threads than the host has.
// Precondition: d.mu held, r just dispatched.
func (d *Device) watchResidency(r *krun) {
	w := &residency{d: d, r: r, gen: r.gen.Load(), seen: r.ended.Load(), after: stallAfter}
	r.watched = true
	time.AfterFunc(w.after, w.check)
}

// residency is the state of one kernel's watch.
type residency struct {
	d     *Device
	r     *krun
	gen   uint64
	after time.Duration        // stallAfter, read once: a test may change it
	seen  uint32               // blocks ended at the last look
	marks map[int32]runnerMark // what each runner did since the last block ended
}

// runnerMark is a runner's CPU time when the last block ended (or when it
// was first seen since), and what the previous look saw of it.
type runnerMark struct {
	base   time.Duration
	cpu    time.Duration // at the previous look
	asleep bool          // at the previous look
	looked bool          // a look that saw no progress has seen it
}

// check is one look (see watchResidency).
func (w *residency) check() {
	tids, stuck, ok := w.look()
	if !ok {
		return // r ended, or every block has started
	}
	if stuck {
		if w.stuck(tids) {
			w.addLanes()
			return
		}
	} else {
		w.snapshot(tids)
	}
	time.AfterFunc(w.after, w.check)
}

// look reports, under the device lock, whether r is still watched (ok),
// whether no block has ended since the last look (stuck), and r's
// registered runners.
func (w *residency) look() (tids []int32, stuck, ok bool) {
	d, r := w.d, w.r
	d.mu.Lock()
	defer d.mu.Unlock()
	if !w.watching() {
		return nil, false, false
	}
	for i := range r.runners {
		if t := r.runners[i].Load(); t != 0 {
			tids = append(tids, t)
		}
	}
	now := r.ended.Load()
	if now != w.seen {
		w.seen = now
		return tids, false, true
	}
	return tids, true, true
}

// watching reports whether r is still this watch's kernel, running, with
// lanes to add and blocks not started. Precondition: d.mu held.
func (w *residency) watching() bool {
	r := w.r
	if r.gen.Load() != w.gen || r.q == nil || r.extra == 0 || r.abandoned.Load() {
		return false // ended (the run state may be another kernel's now), or abandoned (watchdog.go)
	}
	return r.next.Load() < r.ks.Blocks && !r.failed.Load()
}

// snapshot records each runner's CPU time at a look that saw progress.
func (w *residency) snapshot(tids []int32) {
	clear(w.marks)
	for _, t := range tids {
		if st := w.d.lookAt(t, false); st.ok {
			w.mark(t, runnerMark{base: st.cpu, cpu: st.cpu})
		}
	}
}

func (w *residency) mark(t int32, m runnerMark) {
	if w.marks == nil {
		w.marks = make(map[int32]runnerMark)
	}
	w.marks[t] = m
}

// stuck judges a look that saw no block end (see the top of this file).
// A runner seen for the first time only starts its count. With no runner
// yet, no block has started: none can be waiting for another.
func (w *residency) stuck(tids []int32) bool {
	for _, t := range tids {
		st := w.d.lookAt(t, true)
		if !st.ok {
			return true
		}
		prev, seen := w.marks[t]
		if !seen {
			prev.base = st.cpu
		}
		w.mark(t, runnerMark{base: prev.base, cpu: st.cpu, asleep: st.asleep, looked: true})
		if st.cpu-prev.base >= w.after {
			return true // it runs, and no block ends
		}
		if prev.looked && prev.asleep && st.asleep && st.cpu-prev.cpu < w.after/10 {
			return true // it sleeps, look after look
		}
	}
	return false
}

// addLanes gives r a lane for each granted core it has none for, if it is
// still stuck.
func (w *residency) addLanes() {
	d, r := w.d, w.r
	d.mu.Lock()
	defer d.mu.Unlock()
	if !w.watching() {
		return
	}
	if now := r.ended.Load(); now != w.seen { // a block ended meanwhile: watch on
		w.seen = now
		clear(w.marks) // the runners' counts start again
		time.AfterFunc(w.after, w.check)
		return
	}
	// r.left only reaches 0 once (its last lane then completes r): add
	// the lanes only while it has not.
	for {
		v := r.left.Load()
		if v == 0 {
			return
		}
		if r.left.CompareAndSwap(v, v+int32(r.extra)) {
			break
		}
	}
	r.solo = false
	for range r.extra {
		l := d.idleLane()
		l.run = r
		l.solo.Store(false)
		r.lanes = append(r.lanes, l)
		l.kick()
	}
	r.extra = 0
}
