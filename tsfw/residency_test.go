package tsfw

import (
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeRunners stands in for the OS's view of the threads running a
// watched kernel's blocks (probeRunner): every runner has run cpu and
// sleeps or not.
type fakeRunners struct {
	mu     sync.Mutex
	cpu    time.Duration
	asleep bool
	stuck  int  // looks at a kernel whose blocks made no progress
	toggle bool // asleep flips at each of those looks
}

// install makes f d's view of its runners; stallAfter stays as it is (a
// watch may still look after the test: nothing global is swapped).
func (f *fakeRunners) install(d *Device) {
	d.probe = func(tid int32, withSleep bool) runnerState {
		f.mu.Lock()
		defer f.mu.Unlock()
		if withSleep {
			f.stuck++
			if f.toggle {
				f.asleep = !f.asleep
			}
		}
		return runnerState{cpu: f.cpu, asleep: f.asleep, ok: true}
	}
}

func (f *fakeRunners) set(cpu time.Duration, asleep bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cpu, f.asleep = cpu, asleep
}

func (f *fakeRunners) looks() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stuck
}

// gatedKernel submits a kernel of 4 blocks, granted 4 cores, on a device
// with one host thread (f, when not nil, stands in for the OS there); each
// block says it started and waits for k.gate.
func gatedKernel(t *testing.T, f *fakeRunners) (*Queue, *testKernel) {
	t.Helper()
	d := newDev(t, Config{CubeCores: 4, HostThreads: 1})
	if f != nil {
		f.install(d)
	}
	q := newQ(t, d, 0)
	k := newKernel(4)
	k.started = make(chan uint32, 4)
	k.gate = make(chan struct{})
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 4})))
	return q, k
}

// finishGated opens k's gate and checks that every block ran once.
func finishGated(t *testing.T, q *Queue, k *testKernel) {
	t.Helper()
	close(k.gate)
	require.NoError(t, q.Synchronize(-1))
	k.each(t, 1)
}

// TestResidencyWatchdog: with one host thread, a kernel whose 4 blocks
// each wait until all 4 have started (cross-block synchronisation) still
// completes: the stalled kernel gets a lane per granted core (the lane
// waiting in a block sleeps, as the OS sees it).
func TestResidencyWatchdog(t *testing.T) {
	q, k := gatedKernel(t, nil)
	for range 4 {
		<-k.started
	}
	assert.Equal(t, int32(4), k.peak.Load())
	finishGated(t, q, k)
}

// TestResidencyStarvedWaits: a kernel whose lane makes no progress while
// that lane is runnable and gets no CPU (a busy host) gets no more lanes;
// once the lane has run stallAfter of CPU time without a block ending,
// the kernel gets a lane per granted core.
func TestResidencyStarvedWaits(t *testing.T) {
	f := &fakeRunners{}
	q, k := gatedKernel(t, f)
	<-k.started
	require.Eventually(t, func() bool { return f.looks() >= 5 }, 10*time.Second, time.Millisecond)
	assert.Equal(t, int32(1), k.peak.Load(), "a starved lane is not a stuck kernel")
	assert.Empty(t, k.started, "no other block started")
	f.set(10*stallAfter, false)
	for range 3 {
		<-k.started
	}
	assert.Equal(t, int32(4), k.peak.Load())
	finishGated(t, q, k)
}

// TestResidencySleepingRunner: a lane that sleeps without running
// through two looks while blocks wait to start (it waits for them) gets
// the kernel its other lanes.
func TestResidencySleepingRunner(t *testing.T) {
	f := &fakeRunners{}
	f.set(0, true)
	q, k := gatedKernel(t, f)
	for range 4 {
		<-k.started
	}
	assert.Equal(t, 2, f.looks(), "lanes added at the second look at a sleeping runner")
	finishGated(t, q, k)
}

// TestResidencyWakingRunner: a lane seen asleep at one look and runnable
// at the next (as one waiting for the Go runtime to give it a P back is)
// is not taken for a block waiting for others.
func TestResidencyWakingRunner(t *testing.T) {
	f := &fakeRunners{toggle: true}
	q, k := gatedKernel(t, f)
	<-k.started
	require.Eventually(t, func() bool { return f.looks() >= 6 }, 10*time.Second, time.Millisecond)
	assert.Equal(t, int32(1), k.peak.Load())
	assert.Empty(t, k.started, "no other block started")
	finishGated(t, q, k)
}

// TestThreadProbe: the OS view the watch uses. A thread's CPU clock grows
// while it spins; a thread blocked in a system call reads as asleep, a
// running one as not; another process's thread cannot be looked at.
func TestThreadProbe(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := int32(syscall.Gettid())
	c0, ok := threadCPU(tid)
	require.True(t, ok)
	limit := time.Now().Add(10 * time.Second)
	for {
		c, ok := threadCPU(tid)
		require.True(t, ok)
		if c-c0 >= time.Millisecond {
			break
		}
		require.True(t, time.Now().Before(limit), "the thread's CPU clock did not move while it spun")
	}
	asleep, ok := threadAsleep(tid)
	require.True(t, ok)
	assert.False(t, asleep, "the running thread")

	var p [2]int
	require.NoError(t, syscall.Pipe(p[:]))
	defer syscall.Close(p[0])
	defer syscall.Close(p[1])
	blocked := make(chan int32)
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		blocked <- int32(syscall.Gettid())
		var b [1]byte
		syscall.Read(p[0], b[:]) // blocks this thread: the fd is blocking
		close(done)
	}()
	other := <-blocked
	assert.Eventually(t, func() bool {
		asleep, ok := threadAsleep(other)
		return ok && asleep
	}, 10*time.Second, time.Millisecond, "a thread blocked in read(2)")
	_, err := syscall.Write(p[1], []byte{1})
	require.NoError(t, err)
	<-done

	_, ok = threadCPU(1) // init's, or another process's: not this one's
	assert.False(t, ok)
}
