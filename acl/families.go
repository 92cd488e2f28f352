package acl

import (
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// The API families' side of the runtime core's hook table (rt/core/hooks.go):
// filled once when the library loads, before any call.
func init() {
	core.Families = core.FamilyHooks{
		Record:     recordTask,
		Sanitizing: &sanitizing,
		SanitizeOp: func(fn string, task tsfw.Task, x core.Queued) *sanitize.Op {
			return sanitizeOp(fn, &task, &x) // sanitize.go
		},
		SanitizeQueued:   sanitizeQueued,
		StreamDestroying: dropRecorder,                                       // capture.go
		StreamDestroyed:  streamGone,                                         // allocator.go: allocator registrations
		DeviceReset:      func(d *core.Device) { clearInjectedFaults(d.ID) }, // faults.go
		Live:             liveModelRIs,                                       // mdlri.go
	}
}

// recordTask is the recorder path of the queueing point (rt/core/submit.go): a
// task that counts as the thread's is recorded with its sequence id.
func recordTask(s *core.Stream, t *core.Thread, fn string, task tsfw.Task, x core.Queued) (bool, error) {
	if x.Counted {
		return captureSubmitByOp(s, t, fn, task, queuedLaunch(&x), queuedValueOp(&x))
	}
	return captureSubmitOp(s, fn, task, queuedLaunch(&x), queuedValueOp(&x))
}
