package acl

import (
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// The spine and the API families.
//
// The spine is the runtime's core objects and mechanics: handles and the
// registry (handles.go, registry.go, readindex.go), threads and error
// messages (thread.go, errmsg.go), the runtime state (init.go), devices,
// contexts and streams (device.go, context.go, stream.go, statecb.go) and
// the one queueing point (submit.go), with this file. Every API family
// (events, notifies, memory, kernels, capture and model run instances, the
// sanitizer, fault injection, ...) builds on it; the spine depends on no
// family. Where it must tell the families that something happened (a
// context, stream or device is released) or hand them a task (a capturing
// stream's task, the sanitizer's description of a task), it calls the
// table below, which families.go fills once. TestSpineDependsOnNoFamily
// holds the spine to that, so that it can become its own package under
// rt/ (docs/internals.md, "The map now").
type familyHooks struct {
	// record takes a task queued on a stream for which capturing() holds
	// and reports whether it recorded it (capture.go); a task it does not
	// take is queued as usual.
	// (Values, not pointers, so that the queueing point's own copies do
	// not escape through the call.)
	record func(s *Stream, t *Thread, fn string, task tsfw.Task, x queued) (bool, error)
	// sanitizing points at the switch that says whether the sanitizer
	// follows tasks (sanitize.go: set when the library loads, never
	// changed after; tests swap it before any work). While it is on,
	// sanitizeOp describes a task about to be queued and sanitizeQueued
	// tells the sanitizer its task id.
	sanitizing     *bool
	sanitizeOp     func(fn string, task tsfw.Task, x queued) *sanitize.Op
	sanitizeQueued func(t *Thread, s *Stream, id uint32, op *sanitize.Op)
	// contextDestroyed releases what the families keep per context
	// (events, notifies, counting notifies, labels) before the context's
	// streams are destroyed. rt.mu held.
	contextDestroyed func(c *Context)
	// streamDestroying runs before a stream's queue is destroyed (its
	// recorder is dropped); streamDestroyed after (allocator
	// registrations, pool frees). rt.mu held.
	streamDestroying, streamDestroyed func(s *Stream)
	// deviceReset forgets what the families keep per device when it is
	// reset or finalized (injected faults); deviceFinalized, before that,
	// what they keep until aclFinalize (deferred frees). rt.mu held.
	deviceReset, deviceFinalized func(d *device)
	// live lists the objects alive that the registry does not hold
	// (memory pool blocks, model run instances).
	live func() []Live
}

// families is the spine's one way to the API families (families.go).
var families familyHooks
