package core

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// Stream is an ACL stream: one tsfw queue (RTSQ) of a context.
type Stream struct {
	H         Handle
	Ctx       *Context
	SQ        *tsfw.Queue
	ID        int32
	Flags     uint32
	IsDefault bool
	Dead      atomic.Bool
	Rec       atomic.Pointer[Recorder] // the stream's recorder (capture / model build / task update, capture.go); nil: queue normally
	Submitter atomic.Uint64            // id of the Thread that issued the last tracked task (exception info)
	launches  launchStock              // launch objects of the stream's launches (GetLaunch, launch.go)

	Mu          sync.Mutex // guards the attributes below
	Priority    uint32
	FailureMode uint64
	failureSet  bool
	Overflow    uint32
	CustomTag   uint32
	CacheOpInfo uint32
}

var Streams = NewTable[Stream](KindStream)

// NoSyncFlags are stream flags whose streams are never synchronised
// (tasks are recorded for a model or run on the device only).
const NoSyncFlags = abi.ACL_STREAM_PERSISTENT | abi.ACL_STREAM_DEVICE_USE_ONLY | abi.ACL_STREAM_CPU_SCHEDULE

// NewStreamLocked creates a stream of c with the given priority (already
// clamped) and flags. Precondition: Runtime.Mu held.
func NewStreamLocked(fn string, c *Context, priority, flags uint32, isDefault bool) (*Stream, error) {
	d := c.Dev
	if max := d.Emu.SoC.MaxStreams; d.NStreams >= max {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_NO_STREAM_RESOURCE,
			"%s: device %d already has %d streams (the %s's limit, default streams included)", fn, d.ID, max, d.Emu.SoC.Name)
	}
	q, err := d.Emu.TS.NewQueue(int(priority))
	if err != nil {
		return nil, abi.Wrapf(err, "%s: device %d", fn, d.ID)
	}
	s := &Stream{Ctx: c, SQ: q, ID: d.nextStream, Flags: flags, IsDefault: isDefault, Priority: priority}
	d.nextStream++
	d.NStreams++
	s.H = Streams.Add(s)
	noteStreamCreated(s)
	if !isDefault {
		c.streams[s] = struct{}{}
	}
	kind := "stream"
	if isDefault {
		kind = "default stream"
	}
	Register(TableStreams, Record{ID: uint64(s.H), Device: int(d.ID), Owner: uint64(c.H),
		Summary: kind + " " + strconv.Itoa(int(s.ID)) + " (priority " + strconv.FormatUint(uint64(priority), 10) + ", flags " + hexStr(uint64(flags)) + ")"})
	return s, nil
}

// DestroyLocked drains (wait) or drops the stream's tasks and releases it.
// Precondition: Runtime.Mu held.
func (s *Stream) DestroyLocked(wait bool) {
	if s.Dead.Swap(true) {
		return
	}
	dropRecorder(s) // capture.go
	s.SQ.Destroy(wait)
	s.launches.drain() // its launch objects, to the next streams (launch.go)
	PoolStreamGone(s)  // memory pools (mempool.go)
	streamGone(s)      // allocator.go: allocator registrations
	Streams.Remove(s.H)
	s.Ctx.Dev.NStreams--
	delete(s.Ctx.streams, s)
	Unregister(TableStreams, uint64(s.H))
}

// ResolveStream resolves a stream argument: NULL is the current context's
// default stream; a stream of another context than the current one is
// ACL_ERROR_RT_STREAM_CONTEXT.
func ResolveStream(t *Thread, fn string, h Handle) (*Stream, error) {
	if h == 0 {
		c, err := Current(t, fn)
		if err != nil {
			return nil, err
		}
		return c.DefStream, nil
	}
	s, err := Streams.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	if err := deviceLost(fn, s.Ctx.Dev.ID); err != nil { // faults.go
		return nil, err
	}
	if c := t.Ctx; c != nil && !c.Dead.Load() && c != s.Ctx {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_STREAM_CONTEXT,
			"%s: stream %#x belongs to context %#x (device %d), not to the current context %#x (device %d)",
			fn, uintptr(h), uintptr(s.Ctx.H), s.Ctx.Dev.ID, uintptr(c.H), c.Dev.ID)
	}
	return s, nil
}

// ClampPriority maps any requested priority into 0..7 silently, as the
// runtime does.
func ClampPriority(p uint32) uint32 {
	if p > 7 {
		return 7
	}
	return p
}

func (s *Stream) SetFailureMode(fn string, mode uint64) error {
	if mode != abi.ACL_CONTINUE_ON_FAILURE && mode != abi.ACL_STOP_ON_FAILURE {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: mode %d: want ACL_CONTINUE_ON_FAILURE (0) or ACL_STOP_ON_FAILURE (1)", fn, mode)
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if s.failureSet && s.FailureMode != mode {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d: the failure mode can be set only once", fn, s.ID)
	}
	s.FailureMode, s.failureSet = mode, true
	return nil
}

// Claim claims s's queue for t's synchronisation later in the same
// crossing (acl.ClaimForSync): the arbiter leaves its kernels to t, and
// the first kernel t's hand-over queues on s starts for t in the critical
// section that queues it (QueueTask). Every Claim must be followed by one
// RunClaimed on the same thread.
func (s *Stream) Claim(t *Thread) {
	s.SQ.Claim()
	t.claim.s = s
}

// RunClaimed runs the kernels queued on s since t's Claim on the calling
// thread, as far as they can start, and ends the claim.
func (s *Stream) RunClaimed(t *Thread) {
	if t.claim.s != s {
		s.SQ.RunClaimed()
		return
	}
	t.claim.s = nil
	s.SQ.RunClaimedFor(&t.claim.run, &t.turn)
}

func CreateStream(t *Thread, fn string, out *Handle, priority, flags uint32) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL", fn)
	}
	c, err := Current(t, fn)
	if err != nil {
		return err
	}
	defer FlushStreamStates() // after the unlock below
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	if c.Dead.Load() {
		return abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the current context was destroyed", fn)
	}
	s, err := NewStreamLocked(fn, c, priority, flags, false)
	if err != nil {
		return err
	}
	*out = s.H
	return nil
}

// SynchronizeStreamOn is the work of aclrtSynchronizeStream(WithTimeout); on, when not nil, is stream h
// already resolved for t in the same crossing (SynchronizeClaimed): it is
// not resolved again unless it was destroyed meanwhile.
func SynchronizeStreamOn(t *Thread, h Handle, on *Stream, timeoutMs int32) error {
	fn := "aclrtSynchronizeStream"
	if timeoutMs != -1 {
		fn = "aclrtSynchronizeStreamWithTimeout"
		if timeoutMs < -1 || timeoutMs == 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d: want -1 (forever) or > 0 ms", fn, timeoutMs)
		}
	}
	s := on
	if s == nil || s.H != h || s.Dead.Load() {
		var err error
		if s, err = StreamLookup(t, fn, h); err != nil {
			return err
		}
	}
	if s.Flags&NoSyncFlags != 0 {
		return nil
	}
	if RecorderOf(s) != nil { // (the common case pays a load, not a call)
		if err := StreamGuard(s, fn); err != nil {
			return err
		}
	}
	if err := s.SQ.SynchronizeTurn(MsTimeout(timeoutMs), &t.turn); err != nil {
		return abi.Wrapf(err, "%s: stream %d", fn, s.ID)
	}
	if Sanitizing {
		SanitizeSyncStream(t, s)
	}
	PoolsSynced(s) // memory pools' RELEASE_THRESHOLD (rt/core/mempool.go)
	if LoadedSVM() == nil {
		return nil
	}
	return ManagedSynchronized(fn, s.Ctx.Dev)
}

// CreateStreamWithConfig implements aclrtCreateStreamWithConfig.
func CreateStreamWithConfig(t *Thread, out *Handle, priority, flags uint32) error {
	if err := checkStreamFlags("aclrtCreateStreamWithConfig", flags); err != nil {
		return err
	}
	return CreateStream(t, "aclrtCreateStreamWithConfig", out, ClampPriority(priority), flags)
}

// DestroyStream implements aclrtDestroyStream (wait) and
// aclrtDestroyStreamForce (no wait).
func DestroyStream(t *Thread, h Handle, force bool) error {
	fn := "aclrtDestroyStream"
	if force {
		fn = "aclrtDestroyStreamForce"
	}
	if h == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL (the default stream cannot be destroyed)", fn)
	}
	s, err := ResolveStream(t, fn, h)
	if err != nil {
		return err
	}
	if s.IsDefault {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is a default stream, released with its context", fn, uintptr(h))
	}
	FireStreamsDestroyPre(func() []*Stream { return []*Stream{s} })
	Runtime.Mu.Lock()
	s.DestroyLocked(!force)
	Runtime.Mu.Unlock()
	if Sanitizing {
		if !force { // a destroy waits for the stream's tasks
			SanitizeSyncStream(t, s)
			SanitizerState.ForgetStream(s)
		}
	}
	return nil
}

// SynchronizeStream implements aclrtSynchronizeStream(WithTimeout): timeout
// in ms, −1 = forever.
func SynchronizeStream(t *Thread, h Handle, timeoutMs int32) error {
	return SynchronizeStreamOn(t, h, nil, timeoutMs)
}

// StreamQuery implements aclrtStreamQuery.
func StreamQuery(t *Thread, h Handle, status *int32) error {
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: status must not be NULL")
	}
	s, err := ResolveStream(t, "aclrtStreamQuery", h)
	if err != nil {
		return err
	}
	if err := StreamGuard(s, "aclrtStreamQuery"); err != nil {
		return err
	}
	*status = abi.ACL_STREAM_STATUS_NOT_READY
	if !s.SQ.Query() {
		t.NotReady()
		return nil
	}
	*status = abi.ACL_STREAM_STATUS_COMPLETE
	if Sanitizing {
		SanitizeSyncStream(t, s)
	}
	return nil
}
