package acl

import (
	"encoding/binary"
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
	rec       atomic.Pointer[recorder] // capture / model build / task update (capture.go); nil: queue normally
	submitter atomic.Uint64            // id of the Thread that issued the last tracked task (exception info)

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
	s.dropRecorder()
	s.q.Destroy(wait)
	streamGone(s) // allocator registrations, pool frees (allocator.go)
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

// CreateStream implements aclrtCreateStream (priority 0, no flags).
func CreateStream(t *Thread, out *Handle) error {
	return createStream(t, "aclrtCreateStream", out, 0, 0)
}

// CreateStreamWithConfig implements aclrtCreateStreamWithConfig.
func CreateStreamWithConfig(t *Thread, out *Handle, priority, flags uint32) error {
	if err := checkStreamFlags("aclrtCreateStreamWithConfig", flags); err != nil {
		return err
	}
	return createStream(t, "aclrtCreateStreamWithConfig", out, clampPriority(priority), flags)
}

func createStream(t *Thread, fn string, out *Handle, priority, flags uint32) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stream must not be NULL", fn)
	}
	c, err := current(t, fn)
	if err != nil {
		return err
	}
	defer flushStreamStates() // after the unlock below
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if c.dead.Load() {
		return abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL, "%s: the current context was destroyed", fn)
	}
	s, err := newStreamLocked(fn, c, priority, flags, false)
	if err != nil {
		return err
	}
	*out = s.h
	return nil
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
	s, err := resolveStream(t, fn, h)
	if err != nil {
		return err
	}
	if s.isDefault {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is a default stream, released with its context", fn, uintptr(h))
	}
	fireStreamsDestroyPre(func() []*Stream { return []*Stream{s} })
	rt.mu.Lock()
	s.destroyLocked(!force)
	rt.mu.Unlock()
	if sanitizing {
		if !force { // a destroy waits for the stream's tasks
			sanitizeSyncStream(t, s)
			san.ForgetStream(s)
		}
	}
	return nil
}

// SynchronizeStream implements aclrtSynchronizeStream(WithTimeout): timeout
// in ms, −1 = forever.
func SynchronizeStream(t *Thread, h Handle, timeoutMs int32) error {
	fn := "aclrtSynchronizeStream"
	if timeoutMs != -1 {
		fn = "aclrtSynchronizeStreamWithTimeout"
		if timeoutMs < -1 || timeoutMs == 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d: want -1 (forever) or > 0 ms", fn, timeoutMs)
		}
	}
	s, err := resolveStream(t, fn, h)
	if err != nil {
		return err
	}
	if s.flags&noSyncFlags != 0 {
		return nil
	}
	if err := s.streamGuard(fn); err != nil {
		return err
	}
	if err := s.q.Synchronize(msTimeout(timeoutMs)); err != nil {
		return abi.Wrapf(err, "%s: stream %d", fn, s.id)
	}
	if sanitizing {
		sanitizeSyncStream(t, s)
	}
	poolsSynced(s) // memory pools' RELEASE_THRESHOLD (mempool.go)
	return managedSynchronized(fn, s.ctx.dev)
}

// StreamQuery implements aclrtStreamQuery.
func StreamQuery(t *Thread, h Handle, status *int32) error {
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: status must not be NULL")
	}
	s, err := resolveStream(t, "aclrtStreamQuery", h)
	if err != nil {
		return err
	}
	if err := s.streamGuard("aclrtStreamQuery"); err != nil {
		return err
	}
	*status = abi.ACL_STREAM_STATUS_NOT_READY
	if s.q.Query() {
		*status = abi.ACL_STREAM_STATUS_COMPLETE
		if sanitizing {
			sanitizeSyncStream(t, s)
		}
	}
	return nil
}

// StreamGetID implements aclrtStreamGetId.
func StreamGetID(t *Thread, h Handle, id *int32) error {
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtStreamGetId: streamId must not be NULL")
	}
	s, err := resolveStream(t, "aclrtStreamGetId", h)
	if err != nil {
		return err
	}
	*id = s.id
	return nil
}

// StreamGetPriority implements aclrtStreamGetPriority.
func StreamGetPriority(t *Thread, h Handle, p *uint32) error {
	if p == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtStreamGetPriority: priority must not be NULL")
	}
	s, err := resolveStream(t, "aclrtStreamGetPriority", h)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	*p = s.priority
	return nil
}

// StreamGetFlags implements aclrtStreamGetFlags.
func StreamGetFlags(t *Thread, h Handle, f *uint32) error {
	if f == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtStreamGetFlags: flags must not be NULL")
	}
	s, err := resolveStream(t, "aclrtStreamGetFlags", h)
	if err != nil {
		return err
	}
	*f = s.flags
	return nil
}

// GetStreamAvailableNum implements aclrtGetStreamAvailableNum: the streams
// the current device can still create (its limit less every live stream,
// default streams included).
func GetStreamAvailableNum(t *Thread, n *uint32) error {
	if n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetStreamAvailableNum: streamCount must not be NULL")
	}
	c, err := current(t, "aclrtGetStreamAvailableNum")
	if err != nil {
		return err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	*n = uint32(c.dev.emu.SoC.MaxStreams - c.dev.nstreams)
	return nil
}

// SetStreamFailureMode implements aclrtSetStreamFailureMode: settable once
// per stream.
func SetStreamFailureMode(t *Thread, h Handle, mode uint64) error {
	s, err := resolveStream(t, "aclrtSetStreamFailureMode", h)
	if err != nil {
		return err
	}
	return s.setFailureMode("aclrtSetStreamFailureMode", mode)
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

// The aclrtStreamAttrValue union, read per attribute (little endian).
func (v *StreamAttrValue) u32() uint32     { return binary.LittleEndian.Uint32(v[:4]) }
func (v *StreamAttrValue) setU32(x uint32) { binary.LittleEndian.PutUint32(v[:4], x) }
func (v *StreamAttrValue) u64() uint64     { return binary.LittleEndian.Uint64(v[:8]) }
func (v *StreamAttrValue) setU64(x uint64) { binary.LittleEndian.PutUint64(v[:8], x) }

// SetStreamAttribute implements aclrtSetStreamAttribute.
func SetStreamAttribute(t *Thread, h Handle, attr int32, v *StreamAttrValue) error {
	const fn = "aclrtSetStreamAttribute"
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	s, err := resolveStream(t, fn, h)
	if err != nil {
		return err
	}
	switch attr {
	case abi.ACL_STREAM_ATTR_FAILURE_MODE:
		return s.setFailureMode(fn, v.u64())
	case abi.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, abi.ACL_STREAM_ATTR_CACHE_OP_INFO:
		if v.u32() > 1 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d: value %d: want 0 or 1", fn, attr, v.u32())
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch attr {
	case abi.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
		s.overflow = v.u32()
	case abi.ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		s.customTag = v.u32()
	case abi.ACL_STREAM_ATTR_CACHE_OP_INFO:
		s.cacheOpInfo = v.u32()
	case abi.ACL_STREAM_ATTR_PRIORITY:
		if v.u32() > 7 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: priority %d: want 0..7", fn, v.u32())
		}
		s.priority = v.u32()
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtStreamAttr %d", fn, attr)
	}
	return nil
}

// GetStreamAttribute implements aclrtGetStreamAttribute.
func GetStreamAttribute(t *Thread, h Handle, attr int32, v *StreamAttrValue) error {
	const fn = "aclrtGetStreamAttribute"
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	s, err := resolveStream(t, fn, h)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	*v = StreamAttrValue{}
	switch attr {
	case abi.ACL_STREAM_ATTR_FAILURE_MODE:
		v.setU64(s.failureMode)
	case abi.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
		v.setU32(s.overflow)
	case abi.ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		v.setU32(s.customTag)
	case abi.ACL_STREAM_ATTR_CACHE_OP_INFO:
		v.setU32(s.cacheOpInfo)
	case abi.ACL_STREAM_ATTR_PRIORITY:
		v.setU32(s.priority)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtStreamAttr %d", fn, attr)
	}
	return nil
}
