package acl

import "github.com/npuemu/npuemu/rt/core"

// Launches the front library deferred, handed over by whichever thread
// needs them queued (libfake/front/launchq.c, docs/kernels.md "Batched
// launches"). A hand-over never waits for ring space (tsfw/overfill.go):
// it may run on a thread the full stream's head waits for. The launching
// thread waits for room afterwards (WaitStreamRoom), holding nothing.

// HandOverLaunches makes n launches LaunchKernelWithConfig(t, fh, blocks,
// sh, nil, ah) would make one by one, resolving and checking the handles
// once, without waiting for ring space: a full ring grows past the queue
// depth. wait, when not 0, is the stream's completion count the last of
// them would have waited for made one by one (tsfw.Queue.RoomFor): the
// launching thread owes WaitStreamRoom(sh, wait). It returns the first
// error; a handle that does not resolve fails all n the same way. on, when
// not nil, is sh as ClaimForSync resolved it for t in the same crossing:
// it is not resolved again.
func HandOverLaunches(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, on *core.Stream, ah core.Handle, n int) (wait uint64, err error) {
	ho := beginHandover(t)
	err = core.LaunchKernelN(t, fh, blocks, sh, on, nil, ah, n, ho)
	return endHandover(ho), err
}

// HandOverHostLaunches is HandOverLaunches for n launches
// LaunchKernelWithHostArgs(t, fh, blocks, sh, nil, blob(i), nil) would make
// one by one (the front defers those with no configuration and no
// placeholders; every blob has the same size).
func HandOverHostLaunches(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, on *core.Stream, n int, blob func(int) []byte) (wait uint64, err error) {
	ho := beginHandover(t)
	err = hostArgsN(t, fh, blocks, sh, on, nil, n, blob, nil, ho)
	return endHandover(ho), err
}

// HandOverDeviceLaunches is HandOverLaunches for n launches
// LaunchKernel(t, fh, blocks, argsData, argsSize, sh) would make one by one.
func HandOverDeviceLaunches(t *core.Thread, fh core.Handle, blocks uint32, argsData uintptr, argsSize uint64, sh core.Handle, on *core.Stream, n int) (wait uint64, err error) {
	ho := beginHandover(t)
	err = core.LaunchKernelDeviceN(t, fh, blocks, argsData, argsSize, sh, on, n, ho)
	return endHandover(ho), err
}

// beginHandover returns t's hand-over record, cleared: the thread's
// hand-overs are made one at a time (the front's queue lock).
func beginHandover(t *core.Thread) *core.Handover {
	ho := &t.Handover
	*ho = core.Handover{}
	return ho
}

// endHandover clears ho after its launches were made and returns the wait
// for room they leave the launching thread.
func endHandover(ho *core.Handover) (wait uint64) {
	if ho.Past { // (RoomFor reads the lanes' completion count: only then)
		wait = ho.Queue.RoomFor(ho.Last)
	}
	*ho = core.Handover{}
	return wait
}
