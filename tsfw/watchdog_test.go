package tsfw

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// gateKernel's blocks wait for gate; Done reports on done.
type gateKernel struct {
	gate chan struct{}
	done chan error
}

func (k *gateKernel) RunBlock(b, n uint32) error { <-k.gate; return nil }
func (k *gateKernel) Done(err error) error       { k.done <- err; return err }

// A kernel past its timeout fails its task at that time; the queue goes on;
// the kernel's completion and a mark wait for its blocks to return.
func TestWatchdogAbandonsRunaway(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	k := &gateKernel{gate: make(chan struct{}), done: make(chan error, 1)}
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 1, Timeout: 30 * time.Millisecond})))
	// A timeout sync does not run blocks itself (HelpQueue is for waits without one).
	err := q.Synchronize(time.Minute)
	require.Error(t, err)
	assert.True(t, errors.Is(err, abi.Err(abi.ACL_ERROR_RT_AICORE_TIMEOUT)), "%v", err)
	assert.Equal(t, 1, d.Abandoned())
	m := d.Mark()
	assert.False(t, m.Passed(), "the abandoned kernel may still write memory")

	// The core came back: the next kernel runs.
	ok := &gateKernel{gate: make(chan struct{}), done: make(chan error, 1)}
	close(ok.gate)
	require.NoError(t, q.Submit(KernelTask(ok, KernelSpec{Blocks: 1})))
	require.NoError(t, q.Synchronize(time.Minute))

	close(k.gate) // the runaway ends after all
	assert.Error(t, <-k.done, "its completion sees the timeout")
	require.Eventually(t, m.Passed, time.Minute, time.Millisecond)
	assert.Equal(t, 0, d.Abandoned())
}

// Close returns even when a kernel without a timeout never ends.
func TestCloseAbandonsRunaway(t *testing.T) {
	d := NewDevice(Config{CubeCores: 1})
	q, err := d.NewQueue(0)
	require.NoError(t, err)
	k := &gateKernel{gate: make(chan struct{}), done: make(chan error, 1)}
	defer close(k.gate)
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 1})))
	d.Close() // returns after closeGrace
	assert.Equal(t, 1, d.Abandoned())
	assert.Error(t, q.Synchronize(0))
}

// A device closed with nothing running or queued starts no watchdog (a
// goroutine and a ticker at the end of every process).
func TestCloseIdleNoWatchdog(t *testing.T) {
	d := NewDevice(Config{CubeCores: 1})
	q, err := d.NewQueue(0)
	require.NoError(t, err)
	k := newKernel(1)
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 1})))
	require.NoError(t, q.Synchronize(-1))
	d.Close()
	assert.False(t, d.wdOn)
}

// The scheduler goroutine starts with the first kick, not with the device;
// Close waits for a started one and a kick after Close starts none.
func TestSchedulerStartsOnFirstKick(t *testing.T) {
	d := NewDevice(Config{CubeCores: 1})
	q, err := d.NewQueue(0)
	require.NoError(t, err)
	require.NoError(t, q.Submit(KernelTask(newKernel(1), KernelSpec{Blocks: 1})))
	require.NoError(t, q.Synchronize(-1))
	assert.Equal(t, int32(schedIdle), d.sched.Load(), "a device nothing kicked runs no scheduler goroutine")
	d.kick()
	assert.Equal(t, int32(schedRunning), d.sched.Load())
	d.Close()
	assert.Equal(t, int32(schedClosed), d.sched.Load())
	select {
	case <-d.schedDone:
	default:
		t.Fatal("Close returned before the scheduler goroutine")
	}
	d.kick()
	assert.Equal(t, int32(schedClosed), d.sched.Load(), "a kick after Close starts nothing")

	idle := NewDevice(Config{CubeCores: 1})
	idle.Close()
	idle.kick()
	assert.Equal(t, int32(schedClosed), idle.sched.Load())
}
