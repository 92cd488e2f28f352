package acl

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Device task abort (aclrtDeviceTaskAbort, aclrtSetDeviceTaskAbortCallback):
// aclrtStreamAbort applied to every stream of a device, default streams
// included, between the PRE and POST stages of the registered callbacks.
// A queued task is discarded, a waiting task cancelled; a copy or kernel
// already running on an engine finishes on its own (as for
// aclrtStreamAbort). A thread synchronising one of the streams at that
// moment gets ACL_ERROR_RT_DEVICE_TASK_ABORT; the streams stay usable.
//
// Decisions where the documentation is silent: a callback that returns
// non-zero makes the call fail with ACL_ERROR_RT_DEVICE_TASK_ABORT — in the
// PRE stage before anything is aborted, in the POST stage after; callbacks
// run in registration order, with no lock held; registering a name again
// replaces its callback, a NULL callback removes it.
//
// Lock order: abortCbs.mu is a leaf.

type abortCb struct {
	name string
	fn   core.DeviceTaskAbortCallback
}

var abortCbs struct {
	mu   sync.Mutex
	list []abortCb
}

// SetDeviceTaskAbortCallback implements aclrtSetDeviceTaskAbortCallback:
// fn nil (a NULL callback) removes the registration of name.
func SetDeviceTaskAbortCallback(t *core.Thread, name string, fn core.DeviceTaskAbortCallback) error {
	const op = "aclrtSetDeviceTaskAbortCallback"
	if name == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: regName must not be NULL or empty", op)
	}
	abortCbs.mu.Lock()
	defer abortCbs.mu.Unlock()
	for i, c := range abortCbs.list {
		if c.name == name {
			if fn == nil {
				abortCbs.list = append(abortCbs.list[:i], abortCbs.list[i+1:]...)
			} else {
				abortCbs.list[i].fn = fn
			}
			return nil
		}
	}
	if fn != nil {
		abortCbs.list = append(abortCbs.list, abortCb{name, fn})
	}
	return nil
}

// runAbortCallbacks calls every callback for stage; the first non-zero
// result is an error.
func runAbortCallbacks(op string, dev int32, stage int32, timeout uint32) error {
	abortCbs.mu.Lock()
	list := append([]abortCb(nil), abortCbs.list...)
	abortCbs.mu.Unlock()
	stageName := map[int32]string{abi.ACL_RT_DEVICE_TASK_ABORT_PRE: "PRE", abi.ACL_RT_DEVICE_TASK_ABORT_POST: "POST"}[stage]
	for _, c := range list {
		if r := c.fn(dev, stage, timeout); r != 0 {
			return abi.Errorf(abi.ACL_ERROR_RT_DEVICE_TASK_ABORT, "%s: device %d: callback %q returned %d in stage ACL_RT_DEVICE_TASK_ABORT_%s", op, dev, c.name, r, stageName)
		}
	}
	return nil
}

// deviceStreams returns the live streams of every context of d.
func deviceStreams(d *core.Device) []*core.Stream {
	core.Streams.Mu.RLock()
	defer core.Streams.Mu.RUnlock()
	var out []*core.Stream
	for _, sl := range core.Streams.Slots {
		if sl.Obj != nil && sl.Obj.Ctx.Dev == d {
			out = append(out, sl.Obj)
		}
	}
	return out
}

// DeviceTaskAbort implements aclrtDeviceTaskAbort (950/A3/A2 per the
// documentation). timeout bounds the abort in ms (0: no bound); npuemu's
// abort takes no time, so it is only validated.
func DeviceTaskAbort(t *core.Thread, id int32, timeout uint32) error {
	const op = "aclrtDeviceTaskAbort"
	d, err := core.OpenDevice(op, id)
	if err != nil {
		return err
	}
	if err := runAbortCallbacks(op, id, abi.ACL_RT_DEVICE_TASK_ABORT_PRE, timeout); err != nil {
		return err
	}
	for _, s := range deviceStreams(d) {
		s.SQ.Abort(abi.Errorf(abi.ACL_ERROR_RT_DEVICE_TASK_ABORT, "the tasks of device %d (stream %d) were aborted by aclrtDeviceTaskAbort", id, s.ID))
	}
	return runAbortCallbacks(op, id, abi.ACL_RT_DEVICE_TASK_ABORT_POST, timeout)
}
