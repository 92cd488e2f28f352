package acl

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// Stream is an ACL stream: one tsfw queue (RTSQ) of a context.
type Stream struct {
	h         Handle
	ctx       *Context
	q         *tsfw.Queue
	id        int32
	flags     uint32
	isDefault bool
	dead      atomic.Bool
	rec       atomic.Pointer[any] // the stream's recorder (capture / model build / task update: a *recorder of capture.go, recorderOf); nil: queue normally
	submitter atomic.Uint64       // id of the Thread that issued the last tracked task (exception info)

	mu          sync.Mutex // guards the attributes below
	priority    uint32
	failureMode uint64
	failureSet  bool
	overflow    uint32
	customTag   uint32
	cacheOpInfo uint32
}

var streams = newTable[Stream](kindStream)

// noSyncFlags are stream flags whose streams are never synchronised
// (tasks are recorded for a model or run on the device only).
const noSyncFlags = abi.ACL_STREAM_PERSISTENT | abi.ACL_STREAM_DEVICE_USE_ONLY | abi.ACL_STREAM_CPU_SCHEDULE

// newStreamLocked creates a stream of c with the given priority (already
// clamped) and flags. Precondition: rt.mu held.
func newStreamLocked(fn string, c *Context, priority, flags uint32, isDefault bool) (*Stream, error) {
	d := c.dev
	if max := d.emu.SoC.MaxStreams; d.nstreams >= max {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_NO_STREAM_RESOURCE,
			"%s: device %d already has %d streams (the %s's limit, default streams included)", fn, d.id, max, d.emu.SoC.Name)
	}
	q, err := d.emu.TS.NewQueue(int(priority))
	if err != nil {
		return nil, abi.Wrapf(err, "%s: device %d", fn, d.id)
	}
	s := &Stream{ctx: c, q: q, id: d.nextStream, flags: flags, isDefault: isDefault, priority: priority}
	d.nextStream++
	d.nstreams++
	s.h = streams.add(s)
	noteStreamCreated(s)
	if !isDefault {
		c.streams[s] = struct{}{}
	}
	kind := "stream"
	if isDefault {
		kind = "default stream"
	}
	register(tableStreams, record{ID: uint64(s.h), Device: int(d.id), Owner: uint64(c.h),
		Summary: fmt.Sprintf("%s %d (priority %d, flags %#x)", kind, s.id, priority, flags)})
	return s, nil
}

// destroyLocked drains (wait) or drops the stream's tasks and releases it.
// Precondition: rt.mu held.
func (s *Stream) destroyLocked(wait bool) {
	if s.dead.Swap(true) {
		return
	}
	families.streamDestroying(s) // its recorder
	s.q.Destroy(wait)
	families.streamDestroyed(s) // allocator registrations, pool frees
	streams.remove(s.h)
	s.ctx.dev.nstreams--
	delete(s.ctx.streams, s)
	unregister(tableStreams, uint64(s.h))
}

// resolveStream resolves a stream argument: NULL is the current context's
// default stream; a stream of another context than the current one is
// ACL_ERROR_RT_STREAM_CONTEXT.
func resolveStream(t *Thread, fn string, h Handle) (*Stream, error) {
	if h == 0 {
		c, err := current(t, fn)
		if err != nil {
			return nil, err
		}
		return c.defStream, nil
	}
	s, err := streams.get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	if err := deviceLost(fn, s.ctx.dev.id); err != nil { // faults.go
		return nil, err
	}
	if c := t.Ctx; c != nil && !c.dead.Load() && c != s.ctx {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT,
			"%s: stream %#x belongs to context %#x (device %d), not to the current context %#x (device %d)",
			fn, uintptr(h), uintptr(s.ctx.h), s.ctx.dev.id, uintptr(c.h), c.dev.id)
	}
	return s, nil
}

// clampPriority maps any requested priority into 0..7 silently, as the
// runtime does.
func clampPriority(p uint32) uint32 {
	if p > 7 {
		return 7
	}
	return p
}

func (s *Stream) setFailureMode(fn string, mode uint64) error {
	if mode != abi.ACL_CONTINUE_ON_FAILURE && mode != abi.ACL_STOP_ON_FAILURE {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: mode %d: want ACL_CONTINUE_ON_FAILURE (0) or ACL_STOP_ON_FAILURE (1)", fn, mode)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failureSet && s.failureMode != mode {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d: the failure mode can be set only once", fn, s.id)
	}
	s.failureMode, s.failureSet = mode, true
	return nil
}

// RunClaimed runs the kernels queued on s since ClaimForSync on the calling
// thread, as far as they can start, and ends the claim.
func (s *Stream) RunClaimed() { s.q.RunClaimed() }
