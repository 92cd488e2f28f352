package acl

import (
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

// SetDeviceTaskAbortCallback implements aclrtSetDeviceTaskAbortCallback:
// fn nil (a NULL callback) removes the registration of name.
func SetDeviceTaskAbortCallback(t *core.Thread, name string, fn core.DeviceTaskAbortCallback) error {
	const op = "aclrtSetDeviceTaskAbortCallback"
	if name == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: regName must not be NULL or empty", op)
	}
	core.AbortCbs.Mu.Lock()
	defer core.AbortCbs.Mu.Unlock()
	for i, c := range core.AbortCbs.List {
		if c.Name == name {
			if fn == nil {
				core.AbortCbs.List = append(core.AbortCbs.List[:i], core.AbortCbs.List[i+1:]...)
			} else {
				core.AbortCbs.List[i].Fn = fn
			}
			return nil
		}
	}
	if fn != nil {
		core.AbortCbs.List = append(core.AbortCbs.List, core.AbortCb{Name: name, Fn: fn})
	}
	return nil
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
	if err := core.RunAbortCallbacks(op, id, abi.ACL_RT_DEVICE_TASK_ABORT_PRE, timeout); err != nil {
		return err
	}
	for _, s := range core.DeviceStreams(d) {
		s.SQ.Abort(abi.Errorf(abi.ACL_ERROR_RT_DEVICE_TASK_ABORT, "the tasks of device %d (stream %d) were aborted by aclrtDeviceTaskAbort", id, s.ID))
	}
	return core.RunAbortCallbacks(op, id, abi.ACL_RT_DEVICE_TASK_ABORT_POST, timeout)
}
