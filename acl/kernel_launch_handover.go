package acl

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
// error; a handle that does not resolve fails all n the same way.
func HandOverLaunches(t *Thread, fh Handle, blocks uint32, sh Handle, ah Handle, n int) (wait uint64, err error) {
	ho := &t.handover // the thread's hand-overs are made one at a time (the front's queue lock)
	*ho = handover{}
	err = launchKernelN(t, fh, blocks, sh, nil, ah, n, ho)
	if ho.past { // (RoomFor reads the lanes' completion count: only then)
		wait = ho.q.RoomFor(ho.last)
	}
	*ho = handover{}
	return wait, err
}

// WaitStreamRoom waits until stream sh has completed wait tasks (the wait
// HandOverLaunches owes), or is destroyed; a stale handle needs no wait.
func WaitStreamRoom(sh Handle, wait uint64) {
	if s, err := streams.get(sh); err == nil {
		s.q.WaitRoom(wait)
	}
}
