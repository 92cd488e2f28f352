package core

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// Thread is the ACL state of one application thread: its current context,
// its last error (aclrtGetLastError / PeekAtLastError) and its recent error
// message (aclGetRecentErrMsg). libfake keeps the thread's id in C
// thread-local storage and resolves it with ThreadByID on every call, so a
// Thread is only ever used by its own OS thread; no lock is needed on it.
type Thread struct {
	ID uint64

	// Ctx is the thread's current context; nil when it has none.
	Ctx *Context

	lastErr abi.Code
	errMsg  string

	// LastTask is the id of the last task this thread issued to an
	// explicit stream (aclrtGetThreadLastTaskId); hasLastTask says
	// whether there is one.
	LastTask    uint32
	HasLastTask bool

	// Handover: the front's hand-overs of this thread's launches
	// (launch_submit.go); here, so that none allocates.
	Handover Handover

	// run: submission numbers reserved for the run of launches the
	// thread is making (launch_seq.go).
	run seqRun

	// claim: the stream this thread claimed for a synchronisation in the
	// same crossing (Stream.Claim) and the kernel its hand-over started
	// ahead for it (tsfw.ClaimRun).
	claim struct {
		s   *Stream
		run tsfw.ClaimRun
	}

	// turn: the scheduling tick of the thread's goroutine, for the
	// kernel blocks it runs while it synchronises (tsfw.Turn); only
	// this thread uses it.
	turn tsfw.Turn

	// notReady counts the thread's "not yet" answers to queries,
	// checked is when it last looked for starved goroutines (since
	// threadsEpoch), and runnable is its sample of the runtime's count
	// of them (NotReady), made at the first look: that keeps a Thread
	// in the 160-byte size class it had before turn.
	notReady uint32
	checked  time.Duration
	runnable *[1]metrics.Sample
}

// A polling thread reads the clock once every notReadyClock "not yet"
// answers, and looks for starved goroutines at most once every
// notReadyEvery (NotReady).
const (
	notReadyClock = 16
	notReadyEvery = 50 * time.Microsecond
)

// threadsEpoch is the origin of Thread.checked.
var threadsEpoch = time.Now()

// NotReady is called by every query that answers "not yet" (a stream's,
// an event's, an event wait's), after it released its locks. A host
// thread that polls such a query in a tight loop crosses into the core
// and back without ever blocking, and takes the Go runtime's P back on
// every crossing before the runtime's monitor can hand it to the
// goroutines that would do the work (an SDMA engine's copy, a lane's
// kernel blocks). With as many polling threads as Ps (GOMAXPROCS=1 and
// one thread) the work then waited for the monitor's forced hand-off,
// ~10 ms each time: a kernel of 8 one-line blocks took 12–21 ms of
// polling instead of under 0.5 ms (conformance case stream_query_poll,
// docs/runtime.md "Polling"). So a polling thread, at most once every
// notReadyEvery, reads the runtime's count of runnable goroutines
// (runtime/metrics, under the scheduler's lock, hence the rate bound, for
// the many threads of a big machine; with the clock read, 0.17–0.24 µs
// here, BenchmarkNotReadyLook) and, when one waits for a P, yields its
// own (runtime.Gosched: a hand-off to another thread and back). With a P
// to spare, as by default, a goroutine seldom waits and a poll seldom
// yields.
func (t *Thread) NotReady() {
	if t == nil {
		return
	}
	t.notReady++
	if t.notReady%notReadyClock != 0 {
		return
	}
	now := time.Since(threadsEpoch)
	if now-t.checked < notReadyEvery {
		return
	}
	t.checked = now
	if t.runnable == nil {
		t.runnable = &[1]metrics.Sample{{Name: "/sched/goroutines/runnable:goroutines"}}
	}
	s := &t.runnable[0]
	metrics.Read(t.runnable[:])
	if s.Value.Kind() == metrics.KindUint64 && s.Value.Uint64() > 0 {
		runtime.Gosched()
	}
}

// shard is the shard of a binary's launch count t's launches go in.
func (t *Thread) shard() uint8 { return uint8(t.ID % binShards) }

// Fail records err as the thread's last error and recent message and
// returns its code; a nil err returns 0 and records nothing.
func (t *Thread) Fail(err error) abi.Code {
	if err == nil {
		return 0
	}
	code := abi.CodeOf(err)
	t.lastErr = code
	if msg := err.Error(); !recordProcessErrMsg(msg) { // err_msg_mode "1": process-wide (errmsg.go)
		t.errMsg = msg
	}
	return code
}

// LastError returns the last error code, clearing it when clear is set.
func (t *Thread) LastError(clear bool) abi.Code {
	c := t.lastErr
	if clear {
		t.lastErr = 0
	}
	return c
}

// TakeErrMsg returns the recent error message and clears it ("" if none).
func (t *Thread) TakeErrMsg() string {
	m := t.errMsg
	t.errMsg = ""
	return m
}

// threads maps thread ids to their state. Ids start at 1 so that a zeroed
// C thread-local slot means "not registered yet". Every exported call
// resolves its thread here, so the lookup takes no lock (readindex.go).
var threads struct {
	mu    sync.Mutex // serialises NewThread
	n     uint32     // threads registered
	index readIndex[Thread]
}

// NewThread registers a new application thread.
func NewThread() *Thread {
	threads.mu.Lock()
	defer threads.mu.Unlock()
	threads.n++
	t := &Thread{ID: uint64(threads.n), turn: tsfw.ThreadTurn()}
	threads.index.store(threads.n-1, t)
	return t
}

// ThreadByID returns the thread registered under id, or nil.
func ThreadByID(id uint64) *Thread {
	if id == 0 || id > 1<<32 {
		return nil
	}
	return threads.index.load(uint32(id - 1))
}
