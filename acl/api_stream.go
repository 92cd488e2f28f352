package acl

import (
	"encoding/binary"

	"github.com/npuemu/npuemu/abi"
)

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

// The aclrtStreamAttrValue union, read per attribute (little endian).
func (v *StreamAttrValue) u32() uint32 { return binary.LittleEndian.Uint32(v[:4]) }

func (v *StreamAttrValue) setU32(x uint32) { binary.LittleEndian.PutUint32(v[:4], x) }

func (v *StreamAttrValue) u64() uint64 { return binary.LittleEndian.Uint64(v[:8]) }

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
