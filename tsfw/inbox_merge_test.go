package tsfw

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInboxSeesSubmitHook: the fault-injection hook (fault.go) sees the
// kernels that take the inbox fast path too, and a kernel it replaces
// with a Faulty one fails there instead of running.
func TestInboxSeesSubmitHook(t *testing.T) {
	var seen atomic.Int32
	SetSubmitHook(func(q *Queue, task Task) Task {
		if task.Class() == ClassKernel && seen.Add(1) == 3 {
			return Faulty(task, abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "injected"), nil)
		}
		return task
	})
	t.Cleanup(func() { SetSubmitHook(nil) })
	d := newDev(t, Config{CubeCores: 2})
	q := newQ(t, d, 0)
	log := &orderLog{}
	gate := make(chan struct{})
	spec := KernelSpec{Blocks: 1, BlockCost: time.Microsecond}
	require.NoError(t, q.Submit(KernelTask(&orderKernel{n: 0, log: log, gate: gate}, spec)))
	for i := 1; i <= 4; i++ {
		require.NoError(t, q.Submit(KernelTask(&orderKernel{n: i, log: log}, spec)))
	}
	// The first kernel behind the head opens the inbox (short.go).
	assert.Equal(t, 3, inboxLen(q), "the kernels behind the gated head took the fast path")
	assert.Equal(t, int32(5), seen.Load(), "the hook saw every kernel")
	close(gate)
	err := q.Synchronize(-1)
	require.Error(t, err)
	assert.Equal(t, abi.ACL_ERROR_RT_AICORE_EXCEPTION, abi.CodeOf(err))
	assert.NotContains(t, log.get(), 2, "the kernel the hook replaced did not run")
}

// TestInboxCountsForMark: a Mark taken while kernels wait in the inbox
// does not pass before they have completed (aclrtFree keeps memory they
// may use out of reuse), and the device's busy count returns to zero.
func TestInboxCountsForMark(t *testing.T) {
	d := newDev(t, Config{CubeCores: 2})
	q := newQ(t, d, 0)
	log := &orderLog{}
	head, last := make(chan struct{}), make(chan struct{})
	var once sync.Once
	closeLast := func() { once.Do(func() { close(last) }) }
	defer closeLast() // a failed assertion must not leave the kernel blocked
	spec := KernelSpec{Blocks: 1, BlockCost: time.Microsecond}
	require.NoError(t, q.Submit(KernelTask(&orderKernel{n: 0, log: log, gate: head}, spec)))
	for i := 1; i <= 4; i++ {
		k := &orderKernel{n: i, log: log}
		if i == 4 {
			k.gate = last
		}
		require.NoError(t, q.Submit(KernelTask(k, spec)))
	}
	require.Equal(t, 3, inboxLen(q)) // the first behind the head opens the inbox (short.go)
	m := d.Mark()
	require.False(t, m.Empty())
	close(head)
	require.True(t, q.waitFor(1, false, time.Now().Add(time.Minute), nil), "the head completes")
	assert.False(t, m.Passed(), "the gated kernel queued through the inbox still holds the mark")
	closeLast()
	require.NoError(t, q.Synchronize(-1))
	assert.True(t, m.Passed())
	d.mu.Lock() // the last completion's critical section is over
	busy := d.busy.Load()
	d.mu.Unlock()
	assert.Zero(t, busy, "no queue holds a task")
	assert.True(t, d.Mark().Empty())
}
