package acl

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
)

// Context is an ACL context: one device plus its streams and resources.
// A device's primary (default) context is created by aclrtSetDevice and
// shared by every thread that sets the device; explicit contexts come from
// aclrtCreateContext.
type Context struct {
	h       Handle
	dev     *device
	primary bool
	dead    atomic.Bool // destroyed or released by a device reset

	defStream *Stream // the context's default stream (aclrtStream NULL)

	// Guarded by rt.mu.
	streams map[*Stream]struct{} // explicit streams

	mu      sync.Mutex      // guards sysOpts
	sysOpts map[int32]int64 // aclrtCtxSetSysParamOpt values
}

// Handle returns the context's C handle.
func (c *Context) Handle() Handle { return c.h }

// Device returns the context's device id.
func (c *Context) Device() int32 { return c.dev.id }

// newContextLocked creates a context with its default stream on d.
// Precondition: rt.mu held.
func newContextLocked(fn string, d *device, primary bool) (*Context, error) {
	c := &Context{dev: d, primary: primary, streams: map[*Stream]struct{}{}}
	s, err := newStreamLocked(fn, c, 0, 0, true)
	if err != nil {
		return nil, err
	}
	c.defStream = s
	c.h = contexts.add(c)
	d.contexts[c] = struct{}{}
	kind := "explicit"
	if primary {
		kind = "primary"
	}
	register(tableContexts, record{ID: uint64(c.h), Device: int(d.id), Summary: fmt.Sprintf("%s context %#x", kind, uintptr(c.h))})
	return c, nil
}

// destroyLocked releases c: its events, explicit streams and default
// stream (waiting for them when wait is set), then its handle.
// Precondition: rt.mu held.
func (c *Context) destroyLocked(wait bool) {
	if c.dead.Swap(true) {
		return
	}
	families.contextDestroyed(c) // events, notifies, counting notifies, labels
	for s := range c.streams {
		s.destroyLocked(wait)
	}
	c.defStream.destroyLocked(wait)
	contexts.remove(c.h)
	delete(c.dev.contexts, c)
	unregister(tableContexts, uint64(c.h))
}

var contexts = newTable[Context](kindContext)

// current returns the thread's current context. A thread without one gets
// the primary context of aclInit's defaultDevice, if configured.
func current(t *Thread, fn string) (*Context, error) {
	if c := t.Ctx; c != nil && !c.dead.Load() {
		if err := deviceLost(fn, c.dev.id); err != nil { // faults.go
			return nil, err
		}
		return c, nil
	}
	t.Ctx = nil
	if dd := atomic.LoadInt32(&rt.defaultDevice); dd >= 0 {
		rt.mu.Lock()
		c, err := setDeviceLocked(fn, dd)
		rt.mu.Unlock()
		if err != nil {
			return nil, err
		}
		t.Ctx = c
		return c, nil
	}
	return nil, abi.Errorf(abi.ACL_ERROR_RT_CONTEXT_NULL,
		"%s: the calling thread has no current context (call aclrtSetDevice, aclrtCreateContext or aclrtSetCurrentContext first)", fn)
}

// resolveContext resolves a context handle.
func resolveContext(fn string, h Handle) (*Context, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: context must not be NULL", fn)
	}
	c, err := contexts.get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return c, nil
}

// sysParamOptCount is the number of aclSysParamOpt values.
const sysParamOptCount = 4
