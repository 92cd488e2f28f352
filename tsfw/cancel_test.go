package tsfw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// A host task that is already running but has not asked for its cancel
// channel yet when the queue is aborted must still see the cancellation:
// otherwise a value wait dispatched just before aclrtStreamAbort would
// hold the stream for ever.
func TestCancelBeforeAsking(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	started, gate := make(chan struct{}), make(chan struct{})
	cancelled := make(chan bool, 1)
	require.NoError(t, q.Submit(HostTask(func() error {
		close(started)
		<-gate
		select {
		case <-q.Cancelled():
			cancelled <- true
		case <-time.After(time.Minute): // a failure, not a timing assertion
			cancelled <- false
		}
		return nil
	})))
	<-started
	q.Abort(abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT, "aborted"))
	close(gate)
	require.True(t, <-cancelled, "the running task was not told of the abort")
	require.NoError(t, q.Synchronize(-1))

	// The next task starts uncancelled.
	fresh := make(chan bool, 1)
	require.NoError(t, q.Submit(HostTask(func() error {
		select {
		case <-q.Cancelled():
			fresh <- false
		default:
			fresh <- true
		}
		return nil
	})))
	require.NoError(t, q.Synchronize(-1))
	require.True(t, <-fresh)
}
