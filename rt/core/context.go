package core

import (
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
)

// Context is an ACL context: one device plus its streams and resources.
// A device's primary (default) context is created by aclrtSetDevice and
// shared by every thread that sets the device; explicit contexts come from
// aclrtCreateContext.
type Context struct {
	H       Handle
	Dev     *Device
	Primary bool
	Dead    atomic.Bool // destroyed or released by a device reset

	DefStream *Stream // the context's default stream (aclrtStream NULL)

	// Guarded by Runtime.Mu.
	streams map[*Stream]struct{} // explicit streams

	Mu      sync.Mutex      // guards sysOpts
	SysOpts map[int32]int64 // aclrtCtxSetSysParamOpt values
}

// Handle returns the context's C handle.
func (c *Context) Handle() Handle { return c.H }

// Device returns the context's device id.
func (c *Context) Device() int32 { return c.Dev.ID }

// NewContextLocked creates a context with its default stream on d.
// Precondition: Runtime.Mu held.
func NewContextLocked(fn string, d *Device, primary bool) (*Context, error) {
	c := &Context{Dev: d, Primary: primary, streams: map[*Stream]struct{}{}}
	s, err := NewStreamLocked(fn, c, 0, 0, true)
	if err != nil {
		return nil, err
	}
	c.DefStream = s
	c.H = Contexts.Add(c)
	d.contexts[c] = struct{}{}
	kind := "explicit"
	if primary {
		kind = "primary"
	}
	Register(tableContexts, Record{ID: uint64(c.H), Device: int(d.ID), Summary: kind + " context " + hexStr(uint64(c.H))})
	return c, nil
}

// DestroyLocked releases c: its events, notifies and labels, its explicit
// streams and default stream (waiting for them when wait is set), then its
// handle.
// Precondition: Runtime.Mu held.
func (c *Context) DestroyLocked(wait bool) {
	if c.Dead.Swap(true) {
		return
	}
	DestroyContextEvents(c)
	DestroyContextNotifies(c)
	DestroyContextLabels(c)
	for s := range c.streams {
		s.DestroyLocked(wait)
	}
	c.DefStream.DestroyLocked(wait)
	Contexts.Remove(c.H)
	delete(c.Dev.contexts, c)
	Unregister(tableContexts, uint64(c.H))
}

var Contexts = NewTable[Context](KindContext)

// Current returns the thread's current context. A thread without one gets
// the primary context of aclInit's defaultDevice, if configured.
func Current(t *Thread, fn string) (*Context, error) {
	if c := t.Ctx; c != nil && !c.Dead.Load() {
		if err := deviceLost(fn, c.Dev.ID); err != nil { // faults.go
			return nil, err
		}
		return c, nil
	}
	t.Ctx = nil
	if dd := atomic.LoadInt32(&Runtime.DefaultDevice); dd >= 0 {
		Runtime.Mu.Lock()
		c, err := setDeviceLocked(fn, dd, KnownDeviceLocked) // lazy open: no driver ask (devcount.go)
		Runtime.Mu.Unlock()
		if err != nil {
			return nil, err
		}
		t.Ctx = c
		return c, nil
	}
	return nil, abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL,
		"%s: the calling thread has no current context (call aclrtSetDevice, aclrtCreateContext or aclrtSetCurrentContext first)", fn)
}

// ResolveContext resolves a context handle.
func ResolveContext(fn string, h Handle) (*Context, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: context must not be NULL", fn)
	}
	c, err := Contexts.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return c, nil
}

// SysParamOptCount is the number of aclSysParamOpt values.
const SysParamOptCount = 4

func CreateContext(t *Thread, out *Handle, id int32, needInit bool) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context must not be NULL")
	}
	defer FlushStreamStates() // after the unlock below
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	if needInit && Runtime.InitRefs == 0 {
		return ErrUninitialized("aclrtCreateContext")
	}
	d, err := DeviceLocked("aclrtCreateContext", id)
	if err != nil {
		return err
	}
	c, err := NewContextLocked("aclrtCreateContext", d, false)
	if err != nil {
		return err
	}
	t.Ctx = c
	*out = c.H
	return nil
}

// RuntimeCreateContext is rtCtxCreateEx's context creation: without the
// ACL's aclInit requirement (the runtime boots on its first call).
func RuntimeCreateContext(t *Thread, out *Handle, id int32) error {
	return CreateContext(t, out, id, false)
}

// DestroyContext implements aclrtDestroyContext (explicit contexts only).
func DestroyContext(t *Thread, h Handle) error {
	if c, err := Contexts.Get(h); err == nil && !c.Primary {
		FireStreamsDestroyPre(func() []*Stream { return ContextStreamsLocked(c) })
	}
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	c, err := ResolveContext("aclrtDestroyContext", h)
	if err != nil {
		return err
	}
	if c.Primary {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"aclrtDestroyContext: %#x is the default context of device %d; release it with aclrtResetDevice", uintptr(h), c.Dev.ID)
	}
	c.DestroyLocked(true)
	if t.Ctx == c {
		t.Ctx = nil
	}
	return nil
}

// SetCurrentContext implements aclrtSetCurrentContext; it also switches
// the thread's current device.
func SetCurrentContext(t *Thread, h Handle) error {
	c, err := ResolveContext("aclrtSetCurrentContext", h)
	if err != nil {
		return err
	}
	t.Ctx = c
	return nil
}

// GetCurrentContext implements aclrtGetCurrentContext.
func GetCurrentContext(t *Thread, out *Handle) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context must not be NULL")
	}
	c, err := Current(t, "aclrtGetCurrentContext")
	if err != nil {
		return err
	}
	*out = c.H
	return nil
}
