package core

import (
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// FamilyHooks is how core reaches the API families without depending on
// them (the package doc says why). Where it must tell them that something
// happened (a stream or device is released) or hand them a task
// (a capturing stream's task, the sanitizer's description of a task), it
// calls these; acl fills them once (acl/families.go).
type FamilyHooks struct {
	// Record takes a task queued on a stream for which Capturing() holds
	// and reports whether it recorded it (acl/capture.go); a task it does not
	// take is queued as usual.
	// (Values, not pointers, so that the queueing point's own copies do
	// not escape through the call.)
	Record func(s *Stream, t *Thread, fn string, task tsfw.Task, x Queued) (bool, error)
	// Sanitizing points at the switch that says whether the sanitizer
	// follows tasks (acl/sanitize.go: set when the library loads, never
	// changed after; tests swap it before any work). While it is on,
	// SanitizeOp describes a task about to be queued and SanitizeQueued
	// tells the sanitizer its task id.
	Sanitizing     *bool
	SanitizeOp     func(fn string, task tsfw.Task, x Queued) *sanitize.Op
	SanitizeQueued func(t *Thread, s *Stream, id uint32, op *sanitize.Op)
	// StreamDestroying runs before a stream's queue is destroyed (its
	// recorder is dropped); StreamDestroyed after (allocator
	// registrations). Runtime.Mu held.
	StreamDestroying, StreamDestroyed func(s *Stream)
	// DeviceReset forgets what the families keep per device when it is
	// reset or finalized (injected faults). Runtime.Mu held.
	DeviceReset func(d *Device)
	// Live lists the objects alive that the registry does not hold and
	// core does not own (model run instances).
	Live func() []Live
}

// Families is core's one way to the API families (acl/families.go).
var Families FamilyHooks
