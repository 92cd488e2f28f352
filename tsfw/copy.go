package tsfw

import (
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Large copies and memsets are split across helper goroutines: one core's
// memcpy does not saturate memory bandwidth (a 64 MiB copy moved ~20–30
// GB/s on one core of this machine, ~45 GB/s on two), so a synchronous
// aclrtMemcpy (CopyNow) or an SDMA engine task of several MiB finishes
// sooner with every core helping. The split is wall-clock only; the
// virtual clock charges the cost model's duration whatever happens here.
//
// Below parallelMin one memmove on the calling goroutine is cheapest:
// waking a parked helper costs ~10–30 µs here, and data that fits in the
// cache copies fast on one core anyway (BenchmarkMemmove, buffers copied
// over and over: at 1–2 MiB the split is slower, 25–31 against 31–37 GB/s;
// at 4–8 MiB the two are level; from 16 MiB the split wins, ~45 against
// ~28 GB/s). Overlapping ranges always take the serial path, whose
// chunk order keeps memmove's semantics.
//
// Work is handed out in parChunk pieces claimed through an atomic counter
// by the caller and by whichever helpers wake up in time, so a helper that
// is slow to be scheduled costs nothing: the caller simply copies more.
// The caller returns once every piece is done; a helper that wakes after
// all pieces are claimed drops the job. A fault (bad address) in any piece
// is re-raised on the caller's goroutine after all pieces are done, where
// runEngineTask turns it into the task's error.

const (
	// parallelMin is the smallest copy or memset that is split: from
	// here on the split is never slower, and data not already in the
	// cache (the usual case for a copy this size) gains from it.
	parallelMin = 4 << 20
	// parChunk is the unit of work handed out.
	parChunk = 1 << 20
)

// parJob is one split copy (or memset, when fill is set).
type parJob struct {
	dst, src uintptr
	n        uint64
	fill     bool
	value    byte

	pieces uint64
	next   atomic.Uint64 // next piece to claim
	done   atomic.Uint64 // pieces finished
	wake   chan struct{} // a helper that finishes the last piece signals here

	faultMu sync.Mutex
	fault   any // first fault of any piece
}

// helpers are the goroutines that take part in split copies, started on
// the first one: one per host thread besides the caller (HostThreads).
var helpers struct {
	once sync.Once
	ch   chan *parJob
	n    int
}

func startHelpers() {
	helpers.n = HostThreads() - 1
	helpers.ch = make(chan *parJob, max(helpers.n, 1))
	for range helpers.n {
		go helperLoop()
	}
}

func helperLoop() {
	// Faults become values recovered in runPiece, as on SDMA engines.
	debug.SetPanicOnFault(true)
	for j := range helpers.ch {
		if j.work() {
			j.wake <- struct{}{}
		}
	}
}

// work claims and runs pieces until none is left; it reports whether it
// finished the job's last piece.
func (j *parJob) work() bool {
	last := false
	for {
		i := j.next.Add(1) - 1
		if i >= j.pieces {
			return last
		}
		j.runPiece(i)
		last = j.done.Add(1) == j.pieces
	}
}

func (j *parJob) runPiece(i uint64) {
	defer func() {
		if r := recover(); r != nil {
			j.faultMu.Lock()
			if j.fault == nil {
				j.fault = r
			}
			j.faultMu.Unlock()
		}
	}()
	off := i * parChunk
	c := min(j.n-off, parChunk)
	if j.fill {
		memsetSerial(j.dst+uintptr(off), j.value, c)
	} else {
		memmoveSerial(j.dst+uintptr(off), j.src+uintptr(off), c)
	}
}

// parallel reports whether an operation of n bytes is split.
func parallel(n uint64) bool {
	if n < parallelMin {
		return false
	}
	helpers.once.Do(startHelpers)
	return helpers.n > 0
}

// runParallel runs j on the calling goroutine and the helpers, and
// re-raises the first fault of any piece on the caller.
func runParallel(j *parJob) {
	j.pieces = (j.n + parChunk - 1) / parChunk
	j.wake = make(chan struct{}, 1)
	for range min(helpers.n, int(j.pieces)-1) {
		select {
		case helpers.ch <- j:
		default: // helpers busy with another split: the caller copies more
		}
	}
	if !j.work() {
		// A helper finishes the last piece and signals, exactly once.
		<-j.wake
	}
	j.faultMu.Lock()
	f := j.fault
	j.faultMu.Unlock()
	if f != nil {
		panic(f)
	}
}

// memmove copies n bytes from src to dst with memmove semantics.
func memmove(dst, src uintptr, n uint64) {
	if !parallel(n) || (dst < src+uintptr(n) && src < dst+uintptr(n)) {
		memmoveSerial(dst, src, n)
		return
	}
	runParallel(&parJob{dst: dst, src: src, n: n})
}

// memset fills n bytes at dst with v.
func memset(dst uintptr, v byte, n uint64) {
	if !parallel(n) {
		memsetSerial(dst, v, n)
		return
	}
	runParallel(&parJob{dst: dst, n: n, fill: true, value: v})
}
