package core

import (
	"slices"
	"sync"

	"github.com/npuemu/npuemu/abi"
)

// Stream and device state callbacks (aclrtRegStreamStateCallback,
// aclrtRegDeviceStateCallback). Application callbacks may call the runtime
// back, so they always run with no runtime lock held: stream creations made
// under Runtime.Mu (including default streams) are queued by noteStreamCreated
// and delivered by flushStreamStates once the lock is released; destroy
// callbacks are fired before the lock is taken.

// StreamStateFunc receives a stream (0 never: default streams have their
// own handles) and an aclrtStreamState.
type StreamStateFunc func(stream Handle, state int32)

// DeviceStateFunc receives a device id and an aclrtDeviceState.
type DeviceStateFunc func(dev int32, state int32)

type namedCB[F any] struct {
	name string
	fn   F
}

var stateCBs struct {
	mu      sync.Mutex
	streams []namedCB[StreamStateFunc]
	devices []namedCB[DeviceStateFunc]
}

// pendingCreated holds streams created under Runtime.Mu whose CREATE_POST
// callbacks have not run yet. Guarded by Runtime.Mu.
var pendingCreated []Handle

// register adds, or with a nil fn removes, the callback called name.
func registerCB[F any](fn string, list *[]namedCB[F], name string, haveName bool, cb F, isNil bool) error {
	if !haveName || name == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: regName must not be NULL or empty", fn)
	}
	stateCBs.mu.Lock()
	defer stateCBs.mu.Unlock()
	i := slices.IndexFunc(*list, func(c namedCB[F]) bool { return c.name == name })
	switch {
	case isNil && i < 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: no callback is registered under %q", fn, name)
	case isNil:
		*list = slices.Delete(slices.Clone(*list), i, i+1)
	case i >= 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: a callback is already registered under %q (register NULL to remove it first)", fn, name)
	default:
		*list = append(slices.Clone(*list), namedCB[F]{name, cb})
	}
	return nil
}

// RegStreamStateCallback implements aclrtRegStreamStateCallback; a nil cb
// unregisters name.
func RegStreamStateCallback(t *Thread, name string, haveName bool, cb StreamStateFunc) error {
	return registerCB("aclrtRegStreamStateCallback", &stateCBs.streams, name, haveName, cb, cb == nil)
}

// RegDeviceStateCallback implements aclrtRegDeviceStateCallback; a nil cb
// unregisters name.
func RegDeviceStateCallback(t *Thread, name string, haveName bool, cb DeviceStateFunc) error {
	return registerCB("aclrtRegDeviceStateCallback", &stateCBs.devices, name, haveName, cb, cb == nil)
}

func streamCBs() []namedCB[StreamStateFunc] {
	stateCBs.mu.Lock()
	defer stateCBs.mu.Unlock()
	return stateCBs.streams // never mutated in place
}

// noteStreamCreated queues s's CREATE_POST. Precondition: Runtime.Mu held.
func noteStreamCreated(s *Stream) {
	if len(streamCBs()) > 0 {
		pendingCreated = append(pendingCreated, s.H)
	}
}

// FlushStreamStates runs the queued CREATE_POST callbacks. Call it without
// Runtime.Mu (typically deferred before taking the lock).
func FlushStreamStates() {
	Runtime.Mu.Lock()
	p := pendingCreated
	pendingCreated = nil
	Runtime.Mu.Unlock()
	if len(p) == 0 {
		return
	}
	cbs := streamCBs()
	for _, h := range p {
		for _, c := range cbs {
			c.fn(h, abi.ACL_RT_STREAM_STATE_CREATE_POST)
		}
	}
}

// FireStreamsDestroyPre runs DESTROY_PRE for the streams that pick (called
// under Runtime.Mu) is about to destroy. Call it without Runtime.Mu.
func FireStreamsDestroyPre(pick func() []*Stream) {
	cbs := streamCBs()
	if len(cbs) == 0 {
		return
	}
	Runtime.Mu.Lock()
	ss := pick()
	Runtime.Mu.Unlock()
	for _, s := range ss {
		if s.Dead.Load() {
			continue
		}
		for _, c := range cbs {
			c.fn(s.H, abi.ACL_RT_STREAM_STATE_DESTROY_PRE)
		}
	}
}

// ContextStreamsLocked lists c's explicit streams and its default stream.
// Precondition: Runtime.Mu held.
func ContextStreamsLocked(c *Context) []*Stream {
	if c == nil || c.Dead.Load() {
		return nil
	}
	ss := make([]*Stream, 0, len(c.streams)+1)
	for s := range c.streams {
		ss = append(ss, s)
	}
	return append(ss, c.DefStream)
}

// PrimaryReleasedLocked lists the streams a reset of device id (force: any
// reference count) would destroy. Precondition: Runtime.Mu held.
func PrimaryReleasedLocked(id int32, force bool) []*Stream {
	if id < 0 || int(id) >= len(Runtime.Devs) {
		return nil
	}
	d := Runtime.Devs[id]
	if d == nil || d.Refs == 0 || (!force && d.Refs > 1) {
		return nil
	}
	return ContextStreamsLocked(d.Primary)
}

// AllStreamsLocked lists every stream aclFinalize would release: the
// explicit and default streams of every context of every device.
// Precondition: Runtime.Mu held.
func AllStreamsLocked() []*Stream {
	var ss []*Stream
	for _, d := range Runtime.Devs {
		if d == nil {
			continue
		}
		for c := range d.contexts {
			ss = append(ss, ContextStreamsLocked(c)...)
		}
	}
	return ss
}

// FireDeviceState runs the device callbacks. Call it without Runtime.Mu.
func FireDeviceState(id int32, state int32) {
	stateCBs.mu.Lock()
	cbs := stateCBs.devices
	stateCBs.mu.Unlock()
	for _, c := range cbs {
		c.fn(id, state)
	}
}
