package acl

import (
	"encoding/binary"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// CreateStream implements aclrtCreateStream (priority 0, no flags).
func CreateStream(t *core.Thread, out *core.Handle) error {
	return core.CreateStream(t, "aclrtCreateStream", out, 0, 0)
}

// StreamGetID implements aclrtStreamGetId.
func StreamGetID(t *core.Thread, h core.Handle, id *int32) error {
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtStreamGetId: streamId must not be NULL")
	}
	s, err := core.ResolveStream(t, "aclrtStreamGetId", h)
	if err != nil {
		return err
	}
	*id = s.ID
	return nil
}

// StreamGetPriority implements aclrtStreamGetPriority.
func StreamGetPriority(t *core.Thread, h core.Handle, p *uint32) error {
	if p == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtStreamGetPriority: priority must not be NULL")
	}
	s, err := core.ResolveStream(t, "aclrtStreamGetPriority", h)
	if err != nil {
		return err
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	*p = s.Priority
	return nil
}

// StreamGetFlags implements aclrtStreamGetFlags.
func StreamGetFlags(t *core.Thread, h core.Handle, f *uint32) error {
	if f == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtStreamGetFlags: flags must not be NULL")
	}
	s, err := core.ResolveStream(t, "aclrtStreamGetFlags", h)
	if err != nil {
		return err
	}
	*f = s.Flags
	return nil
}

// GetStreamAvailableNum implements aclrtGetStreamAvailableNum: the streams
// the current device can still create (its limit less every live stream,
// default streams included).
func GetStreamAvailableNum(t *core.Thread, n *uint32) error {
	if n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetStreamAvailableNum: streamCount must not be NULL")
	}
	c, err := core.Current(t, "aclrtGetStreamAvailableNum")
	if err != nil {
		return err
	}
	// The driver's stream ids of the device's scheduler (halResourceInfoQuery
	// through its exported symbol, rt/stack): capacity less those in use.
	// npuemu's driver does not see the runtime's streams (it reads 0 used),
	// so the runtime's own count stands in when the driver counts fewer.
	var r hal.ResourceInfo
	if err := stack.ResourceInfoQuery(uint32(c.Dev.ID), 0, abi.DRV_RESOURCE_STREAM_ID, &r); err != nil {
		return core.DriverErr("aclrtGetStreamAvailableNum", err)
	}
	core.Runtime.Mu.Lock()
	used := max(int(r.UsedNum), c.Dev.NStreams)
	core.Runtime.Mu.Unlock()
	*n = uint32(max(int(r.Capacity)-used, 0))
	return nil
}

// SetStreamFailureMode implements aclrtSetStreamFailureMode: settable once
// per stream.
func SetStreamFailureMode(t *core.Thread, h core.Handle, mode uint64) error {
	s, err := core.ResolveStream(t, "aclrtSetStreamFailureMode", h)
	if err != nil {
		return err
	}
	return s.SetFailureMode("aclrtSetStreamFailureMode", mode)
}

// The aclrtStreamAttrValue union, read per attribute (little endian).
func (v *StreamAttrValue) u32() uint32 { return binary.LittleEndian.Uint32(v[:4]) }

func (v *StreamAttrValue) setU32(x uint32) { binary.LittleEndian.PutUint32(v[:4], x) }

func (v *StreamAttrValue) u64() uint64 { return binary.LittleEndian.Uint64(v[:8]) }

func (v *StreamAttrValue) setU64(x uint64) { binary.LittleEndian.PutUint64(v[:8], x) }

// SetStreamAttribute implements aclrtSetStreamAttribute.
func SetStreamAttribute(t *core.Thread, h core.Handle, attr int32, v *StreamAttrValue) error {
	const fn = "aclrtSetStreamAttribute"
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, h)
	if err != nil {
		return err
	}
	switch attr {
	case abi.ACL_STREAM_ATTR_FAILURE_MODE:
		return s.SetFailureMode(fn, v.u64())
	case abi.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, abi.ACL_STREAM_ATTR_CACHE_OP_INFO:
		if v.u32() > 1 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d: value %d: want 0 or 1", fn, attr, v.u32())
		}
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	switch attr {
	case abi.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
		s.Overflow = v.u32()
	case abi.ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		s.CustomTag = v.u32()
	case abi.ACL_STREAM_ATTR_CACHE_OP_INFO:
		s.CacheOpInfo = v.u32()
	case abi.ACL_STREAM_ATTR_PRIORITY:
		if v.u32() > 7 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: priority %d: want 0..7", fn, v.u32())
		}
		s.Priority = v.u32()
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtStreamAttr %d", fn, attr)
	}
	return nil
}

// GetStreamAttribute implements aclrtGetStreamAttribute.
func GetStreamAttribute(t *core.Thread, h core.Handle, attr int32, v *StreamAttrValue) error {
	const fn = "aclrtGetStreamAttribute"
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	s, err := core.ResolveStream(t, fn, h)
	if err != nil {
		return err
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	*v = StreamAttrValue{}
	switch attr {
	case abi.ACL_STREAM_ATTR_FAILURE_MODE:
		v.setU64(s.FailureMode)
	case abi.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
		v.setU32(s.Overflow)
	case abi.ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		v.setU32(s.CustomTag)
	case abi.ACL_STREAM_ATTR_CACHE_OP_INFO:
		v.setU32(s.CacheOpInfo)
	case abi.ACL_STREAM_ATTR_PRIORITY:
		v.setU32(s.Priority)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtStreamAttr %d", fn, attr)
	}
	return nil
}

// CreateStreamWithConfig implements aclrtCreateStreamWithConfig; the runtime
// does the work (core.CreateStreamWithConfig, which the rt* API calls too).
func CreateStreamWithConfig(t *core.Thread, out *core.Handle, priority, flags uint32) error {
	return core.CreateStreamWithConfig(t, out, priority, flags)
}

// DestroyStream implements aclrtDestroyStream (wait) and
// aclrtDestroyStreamForce (no wait); the runtime does the work
// (core.DestroyStream, which the rt* API calls too).
func DestroyStream(t *core.Thread, h core.Handle, force bool) error {
	return core.DestroyStream(t, h, force)
}

// SynchronizeStream implements aclrtSynchronizeStream(WithTimeout); the
// runtime does the work (core.SynchronizeStream, which the rt* API calls
// too).
func SynchronizeStream(t *core.Thread, h core.Handle, timeoutMs int32) error {
	return core.SynchronizeStream(t, h, timeoutMs)
}

// StreamQuery implements aclrtStreamQuery; the runtime does the work
// (core.StreamQuery, which the rt* API calls too).
func StreamQuery(t *core.Thread, h core.Handle, status *int32) error {
	return core.StreamQuery(t, h, status)
}
