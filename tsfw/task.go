package tsfw

import (
	"time"

	"github.com/npuemu/npuemu/abi"
)

type kind uint8

const (
	kindNone kind = iota
	kindCopy
	kindCopy2D
	kindMemset
	kindRecord
	kindWait
	kindReset
	kindHost
	// kindEngine runs a Go function on an SDMA engine; it lets the package
	// (and its tests) occupy an engine with arbitrary work.
	kindEngine
	// kindKernel runs the blocks of a kernel on AI Cores (aicore.go).
	kindKernel
	// Notify tasks (notify.go).
	kindNotifyRecord
	kindNotifyWait
	kindCntRecord
	kindCntWait
	kindCntReset
	// kindWaitDone is a notify wait that has consumed its notify and only
	// waits for pacing.
	kindWaitDone
)

func (k kind) String() string {
	return [...]string{"none", "copy", "copy2d", "memset", "record", "wait", "reset", "host", "engine", "kernel",
		"notify record", "notify wait", "cnt notify record", "cnt notify wait", "cnt notify reset", "notify wait"}[k]
}

// usesEngine reports whether tasks of kind k run on an SDMA engine.
func (k kind) usesEngine() bool {
	return k == kindCopy || k == kindCopy2D || k == kindMemset || k == kindEngine
}

// Task is one task descriptor (SQE) of an RTSQ. Build it with the *Task
// constructors; the zero Task is rejected by Submit.
type Task struct {
	kind   kind
	dir    CopyDir
	value  byte
	dst    uintptr
	src    uintptr
	n      uint64 // bytes; row width for Copy2D
	dpitch uint64
	spitch uint64
	height uint64
	ev     *Event
	fn     func() error
	kern   Kernel     // kindKernel: the host code of the blocks
	ks     KernelSpec // kindKernel: geometry, cores and cost
	nt     *Notify    // notify record/wait
	cn     *CntNotify // counting notify record/wait/reset
	cnt    cntOp      // counting notify operand

	// Waits (event, notify): a timeout > 0 fails the wait once it has
	// blocked that long; deadline (wall clock, UnixNano) is set when it
	// first blocks.
	timeout  time.Duration
	deadline int64

	// Filled in by Submit.
	seq    uint64 // device-wide submission order: FIFO among equal priorities
	recSeq uint64 // record: this record's number; wait: the record waited for
	vStart time.Duration
	vEnd   time.Duration
}

// CopyTask copies n bytes from src to dst (overlap allowed).
func CopyTask(dst, src uintptr, n uint64, dir CopyDir) Task {
	return Task{kind: kindCopy, dst: dst, src: src, n: n, dir: dir}
}

// Copy2DTask copies height rows of width bytes; row i starts at
// src+i*spitch and lands at dst+i*dpitch.
func Copy2DTask(dst uintptr, dpitch uint64, src uintptr, spitch, width, height uint64, dir CopyDir) Task {
	return Task{kind: kindCopy2D, dst: dst, dpitch: dpitch, src: src, spitch: spitch, n: width, height: height, dir: dir}
}

// MemsetTask fills n bytes at dst with value.
func MemsetTask(dst uintptr, value byte, n uint64) Task {
	return Task{kind: kindMemset, dst: dst, value: value, n: n}
}

// RecordTask records e when the stream reaches it; the record's timestamp
// is the task's virtual end.
func RecordTask(e *Event) Task { return Task{kind: kindRecord, ev: e} }

// WaitTask makes the stream wait until the latest record of e submitted
// before this task has completed. e may belong to another Device.
func WaitTask(e *Event) Task { return Task{kind: kindWait, ev: e} }

// WaitTaskTimeout is WaitTask whose wait fails with
// ACL_ERROR_RT_WAIT_TIMEOUT (the queue's asynchronous error) once it has
// blocked for timeout; 0 waits forever.
func WaitTaskTimeout(e *Event, timeout time.Duration) Task {
	return Task{kind: kindWait, ev: e, timeout: timeout}
}

// ResetTask resets e when the stream reaches it: waits submitted later
// block until a record newer than the reset completes.
func ResetTask(e *Event) Task { return Task{kind: kindReset, ev: e} }

// HostTask runs fn on a runtime goroutine when the stream reaches it; later
// tasks of the stream wait for fn to return, and its error becomes the
// queue's asynchronous error.
func HostTask(fn func() error) Task { return Task{kind: kindHost, fn: fn} }

// engineTask runs fn on an SDMA engine.
func engineTask(fn func() error) Task { return Task{kind: kindEngine, fn: fn} }

// validate checks what can be checked before the task is queued.
func (t *Task) validate() error {
	switch t.kind {
	case kindCopy:
		if t.n > 0 && (t.dst == 0 || t.src == 0) {
			return abi.DevErrorf(abi.DevInvalidValue, "copy task: null address (dst %#x, src %#x, %d bytes)", t.dst, t.src, t.n)
		}
		if t.dir < HostToHost || t.dir > PeerToPeer {
			return abi.DevErrorf(abi.DevInvalidValue, "copy task: invalid direction %d", int(t.dir))
		}
	case kindCopy2D:
		if t.n > 0 && t.height > 0 && (t.dst == 0 || t.src == 0) {
			return abi.DevErrorf(abi.DevInvalidValue, "copy2d task: null address (dst %#x, src %#x)", t.dst, t.src)
		}
		if t.height > 1 && (t.n > t.dpitch || t.n > t.spitch) {
			return abi.DevErrorf(abi.DevInvalidValue, "copy2d task: width %d exceeds a pitch (dpitch %d, spitch %d)", t.n, t.dpitch, t.spitch)
		}
		if t.dir < HostToHost || t.dir > PeerToPeer {
			return abi.DevErrorf(abi.DevInvalidValue, "copy2d task: invalid direction %d", int(t.dir))
		}
	case kindMemset:
		if t.n > 0 && t.dst == 0 {
			return abi.DevErrorf(abi.DevInvalidValue, "memset task: null address")
		}
	case kindRecord, kindWait, kindReset:
		if t.ev == nil {
			return abi.DevErrorf(abi.DevInvalidValue, "%s task: nil event", t.kind)
		}
		if t.timeout < 0 {
			return abi.DevErrorf(abi.DevInvalidValue, "%s task: negative timeout", t.kind)
		}
	case kindKernel:
		return t.ks.validate(t.kern)
	case kindNotifyRecord, kindNotifyWait, kindCntRecord, kindCntWait, kindCntReset:
		return t.validateSignal()
	case kindHost, kindEngine:
		if t.fn == nil {
			return abi.DevErrorf(abi.DevInvalidValue, "%s task: nil function", t.kind)
		}
	default:
		return abi.DevErrorf(abi.DevInvalidValue, "task: empty task descriptor")
	}
	return nil
}
