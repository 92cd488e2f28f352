package acl

import "github.com/npuemu/npuemu/rt/core"

// Batched launches (libfake/front/launchq.c, docs/kernels.md "Batched
// launches"): the front hands the core a thread's deferred launches in one
// call, and, when the thread then synchronises a stream, the
// synchronisation in the same call. ClaimForSync lets that call run the
// stream's kernels on the calling thread (tsfw/claim.go) instead of handing
// them to a lane and waiting for it.
//
// One resolution per crossing: the stream ClaimForSync resolves is carried
// to the launches (HandOverLaunches' on) and to the synchronisation
// (SynchronizeClaimed), which resolve it again only if it died meanwhile,
// so that a failure reads as it did when each resolved its own.

// ClaimForSync claims the queue of stream sh for thread t when t is about
// to launch into it and synchronise it with no timeout; it returns nil when
// the stream does not resolve or is not synchronised (the synchronisation
// then reports whatever is wrong). A non-nil result must be run with
// RunClaimed(t) on the same thread.
func ClaimForSync(t *core.Thread, sh core.Handle) *core.Stream {
	s, err := core.StreamLookup(t, "aclrtSynchronizeStream", sh)
	if err != nil || s.Flags&core.NoSyncFlags != 0 {
		return nil
	}
	s.Claim(t)
	return s
}

// SynchronizeClaimed is SynchronizeStream(t, s.H, -1) for the stream
// ClaimForSync resolved for t in the same crossing, without resolving it
// again (unless it was destroyed meanwhile: the resolution then reports
// that as SynchronizeStream does).
func SynchronizeClaimed(t *core.Thread, s *core.Stream) error {
	return core.SynchronizeStreamOn(t, s.H, s, -1)
}
