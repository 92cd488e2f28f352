package acl

import (
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// The API families' side of the spine's hook table (hooks.go).
func init() {
	families = familyHooks{
		record:     recordTask,
		sanitizing: &sanitizing,
		sanitizeOp: func(fn string, task tsfw.Task, x queued) *sanitize.Op {
			return sanitizeOp(fn, &task, &x) // sanitize.go
		},
		sanitizeQueued: sanitizeQueued,
		contextDestroyed: func(c *Context) {
			destroyContextEvents(c)  // event.go
			destroyContextSignals(c) // notify.go: notifies, counting notifies, labels
		},
		streamDestroying: dropRecorder,                                  // capture.go
		streamDestroyed:  streamGone,                                    // allocator.go: allocator registrations, pool frees
		deviceReset:      func(d *device) { clearInjectedFaults(d.id) }, // faults.go
		deviceFinalized:  dropDeferred,                                  // deferfree.go
		live: func() []Live {
			return append(livePoolBlocks(), liveModelRIs()...) // mempool.go, mdlri.go
		},
	}
}

// recordTask is the recorder path of the queueing point (submit.go): a
// task that counts as the thread's is recorded with its sequence id.
func recordTask(s *Stream, t *Thread, fn string, task tsfw.Task, x queued) (bool, error) {
	if x.counted {
		return s.captureSubmitByOp(t, fn, task, queuedLaunch(&x), queuedValueOp(&x))
	}
	return s.captureSubmitOp(fn, task, queuedLaunch(&x), queuedValueOp(&x))
}
