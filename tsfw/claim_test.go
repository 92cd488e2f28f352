package tsfw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClaimRunsOnCaller: kernels submitted to a claimed queue are handed to
// no lane (the only core's lane never runs, and is never kicked); RunClaimed
// runs them on the caller, in order, and virtual time is what the lanes
// would have made of them. A claim also ends when the head cannot start
// (its kernels go back to the arbiter).
func TestClaimRunsOnCaller(t *testing.T) {
	const cost = time.Microsecond
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	ghost := ghostLane(d) // the only core's lane: never runs
	log := &orderLog{}
	spec := KernelSpec{Blocks: 1, BlockCost: cost}
	const n = 5
	q.Claim()
	for i := range n {
		require.NoError(t, q.Submit(KernelTask(&orderKernel{n: i, log: log}, spec)))
	}
	assert.Zero(t, q.completed.Load(), "a claimed queue's kernels started before RunClaimed")
	q.RunClaimed()
	assert.Equal(t, uint64(n), q.completed.Load(), "RunClaimed left kernels behind")
	assert.False(t, ghost.token.Load(), "a claimed kernel was handed to a lane")
	assert.Equal(t, []int{0, 1, 2, 3, 4}, log.get())
	assert.Equal(t, time.Duration(n)*(DefaultCost.TaskOverhead+cost), d.Now())
	require.NoError(t, q.Synchronize(-1))

	// The claim is over: the next kernel goes to the lane as usual.
	require.NoError(t, q.Submit(KernelTask(&orderKernel{n: n, log: log}, spec)))
	assert.True(t, ghost.token.Load(), "after RunClaimed the arbiter did not hand the kernel to the lane")
	require.NoError(t, q.Synchronize(-1)) // HelpQueue takes the ghost's token
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, log.get())
	d.mu.Lock()
	assert.Zero(t, q.helping.Load())
	d.mu.Unlock()
}

// BenchmarkKernelLaunchSyncClaimed is BenchmarkKernelLaunchSync with the
// caller running the kernel (Claim, Submit, RunClaimed, Synchronize), as a
// batched launch + aclrtSynchronizeStream does.
func BenchmarkKernelLaunchSyncClaimed(b *testing.B) {
	d := newDev(b, Config{CubeCores: 4})
	q := newQ(b, d, 0)
	k := &emptyKernel{}
	b.ReportAllocs()
	for b.Loop() {
		q.Claim()
		if err := q.Submit(KernelTask(k, KernelSpec{Blocks: 1})); err != nil {
			b.Fatal(err)
		}
		q.RunClaimed()
		if err := q.Synchronize(-1); err != nil {
			b.Fatal(err)
		}
	}
}
