package acl

// Launches the front library deferred, handed over by whichever thread
// needs them queued (libfake/front/launchq.c, docs/kernels.md "Batched
// launches"). A hand-over never waits for ring space (tsfw/overfill.go):
// it may run on a thread the full stream's head waits for. The launching
// thread waits for room afterwards (WaitStreamRoom), holding nothing.

// HandOverLaunches makes n launches LaunchKernelWithConfig(t, fh, blocks,
// sh, nil, ah) would make one by one, resolving and checking the handles
// once, without waiting for ring space: a full ring grows past the queue
// depth. over reports that the stream then holds more tasks than its depth
// (an immediate launch would have waited): the launching thread owes
// WaitStreamRoom. It returns the first error; a handle that does not
// resolve fails all n the same way.
func HandOverLaunches(t *Thread, fh Handle, blocks uint32, sh Handle, ah Handle, n int) (over bool, err error) {
	err = launchKernelN(t, fh, blocks, sh, nil, ah, n, true)
	if s, e := streams.get(sh); e == nil {
		over = s.q.Overfull()
	}
	return over, err
}

// WaitStreamRoom waits until stream sh holds no more tasks than its depth,
// the wait HandOverLaunches' over owes; a stream destroyed meanwhile (or a
// stale handle) needs none.
func WaitStreamRoom(sh Handle) {
	if s, err := streams.get(sh); err == nil {
		s.q.WaitRoom()
	}
}
