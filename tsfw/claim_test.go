package tsfw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claimBench is the claim tests' device: one cube core whose only lane
// never runs (ghost), a queue, an order log and a one-block kernel spec of
// 1 µs.
func claimBench(t *testing.T) (*Device, *Queue, *lane, *orderLog, KernelSpec) {
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	ghost := ghostLane(d) // the only core's lane: never runs
	return d, q, ghost, &orderLog{}, KernelSpec{Blocks: 1, BlockCost: time.Microsecond}
}

// TestClaimRunsOnCaller: kernels submitted to a claimed queue are handed to
// no lane (the only core's lane never runs, and is never kicked); RunClaimed
// runs them on the caller, in order, and virtual time is what the lanes
// would have made of them. A claim also ends when the head cannot start
// (its kernels go back to the arbiter).
func TestClaimRunsOnCaller(t *testing.T) {
	d, q, ghost, log, spec := claimBench(t)
	cost := spec.BlockCost
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

// TestSubmitClaimedPastStartsAhead: the claim's holder's submission
// starts the queue's head kernel for it in the critical section that
// queues it (the run holds it, the queue has it in flight, nothing has run
// yet); RunClaimedFor runs it and the kernels after it on the caller, with
// the virtual times RunClaimed gives, and leaves the run empty. A head that
// cannot start on the caller (a task that is not a kernel) is left to
// RunClaimedFor, which ends the claim as RunClaimed does.
func TestSubmitClaimedPastStartsAhead(t *testing.T) {
	d, q, ghost, log, spec := claimBench(t)
	cost := spec.BlockCost
	var run ClaimRun
	q.Claim()
	for i := range 3 {
		k := KernelTask(&orderKernel{n: i, log: log}, spec)
		_, past, err := q.SubmitClaimedPast(&k, &run)
		require.NoError(t, err)
		assert.False(t, past)
		require.NotNil(t, run.l, "launch %d: the head kernel was not started for the holder", i)
	}
	d.mu.Lock()
	assert.True(t, q.inflight, "the started head is not in flight")
	d.mu.Unlock()
	assert.Empty(t, log.get(), "a started kernel ran before RunClaimedFor")
	q.RunClaimedFor(&run, nil)
	assert.Nil(t, run.l, "RunClaimedFor left the run holding a lane")
	assert.Equal(t, []int{0, 1, 2}, log.get())
	assert.Equal(t, 3*(DefaultCost.TaskOverhead+cost), d.Now())
	assert.False(t, ghost.token.Load(), "a claimed kernel was handed to a lane")
	require.NoError(t, q.Synchronize(-1))

	// A host task at the head: nothing starts ahead; the claim still ends.
	// (Another device, whose lane runs: the kernel goes back to it.)
	d = newDev(t, Config{CubeCores: 1})
	q = newQ(t, d, 0)
	gate := make(chan struct{})
	q.Claim()
	h := HostTask(func() error { <-gate; return nil })
	_, _, err := q.SubmitClaimedPast(&h, &run)
	require.NoError(t, err)
	assert.Nil(t, run.l, "a host task was started as a kernel")
	k := KernelTask(&orderKernel{n: 3, log: log}, spec)
	_, _, err = q.SubmitClaimedPast(&k, &run)
	require.NoError(t, err)
	assert.Nil(t, run.l, "a kernel behind a host task was started")
	q.RunClaimedFor(&run, nil)
	d.mu.Lock()
	assert.Zero(t, q.helping.Load(), "the claim did not end")
	d.mu.Unlock()
	close(gate)
	require.NoError(t, q.Synchronize(-1)) // the kernel went back to the arbiter
	assert.Equal(t, []int{0, 1, 2, 3}, log.get())
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
