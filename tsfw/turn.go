package tsfw

import (
	"runtime"
	"time"
)

// Lanes and the Go runtime's monitor (docs/kernels.md, "The runtime's
// monitor and long runs of blocks"). A lane that runs blocks back to back
// never goes through the Go scheduler: its goroutine keeps one scheduling
// tick of its P, the blocks being cgo calls in between. After 10 ms on
// one tick the runtime's monitor thread (sysmon) takes it for a goroutine
// that hogs its P: it signals the thread (which is in C code and ignores
// it), takes the P, and then, having found work, wakes every 20 µs for a
// while instead of every few ms. On a host whose CPUs all run lanes, each
// of those wake-ups preempts a lane: a 40-block vector add on 2 CPUs had
// ~2300 monitor wake-ups and ~4300 involuntary switches a second. So a
// lane that has run laneTurn without passing through the scheduler gives
// it a turn between two blocks (runtime.Gosched: for a goroutine locked
// to its thread, a hand-off of the thread and back, tens of µs here),
// before the monitor's 10 ms are up where its blocks are shorter than
// 2 ms. 5 ms yielded 1.6 times as often and gained less on the vector add
// (+2–3 % against +4 %). Launch loops of small kernels are not concerned:
// their lanes park between bursts, which starts a new tick.
const laneTurn = 8 * time.Millisecond

// Turn is a goroutine's scheduling tick as a runner of blocks: its start
// on laneClock (when the goroutine last woke from parking or last gave
// the scheduler a turn; 0: not read yet). Each lane has one; so has each
// host thread that synchronises streams (ThreadTurn, kept in
// rt/core.Thread), for the blocks it runs itself while it waits
// (HelpQueue, RunClaimedFor): such a thread's goroutine may never park,
// and keeps one tick across its calls. Only the owner's goroutine reads
// or writes a Turn. A clock reading costs ~26 ns here (one monotonic
// reading; time.Now takes two), as much as a tiny block, so while the
// readings come less than readGap apart they are spaced out, up to every
// 64th block.
type Turn struct {
	since, last time.Duration // the tick's start, the last reading
	every, left uint8         // blocks between two readings, left before the next
	thread      bool          // a thread's (ThreadTurn)
}

// ThreadTurn returns a host thread's Turn. Its goroutine runs blocks only
// now and then, and keeps its tick across its calls unless it parks
// (waitFor starts a new tick then) or the monitor takes its P while it
// is in C (after 10 ms there, sooner when other goroutines wait for a
// P). So a reading laneTurn or more after the last one starts a new
// tick; a tick that a shorter absence ended counts on, and its turn may
// come early: one Gosched more per laneTurn at worst.
func ThreadTurn() Turn { return Turn{thread: true} }

// laneClock is the origin of turn's times.
var laneClock = time.Now()

// readGap: readings closer than this are spaced out (turn).
const readGap = laneTurn / 64

// due reports whether a lane whose block ended at now has run laneTurn
// on its tick.
func (t *Turn) due(now time.Duration) bool {
	return t.since != 0 && now-t.since >= laneTurn
}

// blockEnded is called after each block of r the owner runs: when the
// turn is due it gives the scheduler a turn (Device.yield) and starts a
// new tick.
func (t *Turn) blockEnded(r *krun) {
	if t.left > 0 {
		t.left--
		return
	}
	t.read(r.q.d)
}

// read is blockEnded's reading of the clock.
func (t *Turn) read(d *Device) {
	now := time.Since(laneClock)
	if t.since == 0 || t.thread && now-t.last >= laneTurn {
		t.since = now
	} else if t.due(now) {
		d.yield()
		t.woke()
		now = t.since
	}
	if t.last != 0 && now-t.last < readGap {
		t.every = min(2*t.every+1, 63)
	} else {
		t.every = 0
	}
	t.last, t.left = now, t.every
}

// woke starts a new tick: the lane's goroutine was just scheduled anew.
func (t *Turn) woke() { t.since = time.Since(laneClock) }

// parked is called by a thread that parked waiting (waitFor): its
// goroutine was scheduled anew. t may be nil.
func (t *Turn) parked() {
	if t != nil {
		t.woke()
	}
}

// yield is runtime.Gosched, or the test's stand-in (Device.yieldHook).
func (d *Device) yield() {
	if d.yieldHook != nil {
		d.yieldHook()
		return
	}
	runtime.Gosched()
}
