package tsfw

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testKernel is a Go kernel: it counts the runs of each block and the
// blocks running at once, and may block, fail or panic.
type testKernel struct {
	runs    []atomic.Int32
	running atomic.Int32
	peak    atomic.Int32
	started chan uint32   // receives each block number as it starts (buffered), if set
	gate    chan struct{} // blocks wait for it to close, if set
	failAt  int64         // block that returns an error (-1: none)
	panicAt int64         // block that panics (-1: none)
	done    atomic.Int32
	doneErr error
}

func newKernel(blocks int) *testKernel {
	return &testKernel{runs: make([]atomic.Int32, blocks), failAt: -1, panicAt: -1}
}

func (k *testKernel) RunBlock(b, n uint32) error {
	if int(n) != len(k.runs) {
		return errors.New("wrong block count")
	}
	k.runs[b].Add(1)
	cur := k.running.Add(1)
	defer k.running.Add(-1)
	for {
		p := k.peak.Load()
		if cur <= p || k.peak.CompareAndSwap(p, cur) {
			break
		}
	}
	if k.started != nil {
		k.started <- b
	}
	if k.gate != nil {
		<-k.gate
	}
	if int64(b) == k.panicAt {
		panic("kernel bug")
	}
	if int64(b) == k.failAt {
		return abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "block %d faulted", b)
	}
	return nil
}

func (k *testKernel) Done(err error) error {
	k.done.Add(1)
	k.doneErr = err
	return err
}

func (k *testKernel) each(t *testing.T, want int32) {
	t.Helper()
	for i := range k.runs {
		require.Equal(t, want, k.runs[i].Load(), "block %d", i)
	}
}

// TestResetKernel: a reused slot becomes exactly KernelTask(k, spec) —
// nothing of the task it held before stays (a kept sequence number would
// make the next submission skip numbering it).
func TestResetKernel(t *testing.T) {
	k := newKernel(3)
	spec := KernelSpec{Blocks: 3, Kind: CoreVector, BlockCost: 7}
	slot := CopyTask(1, 2, 3, 0)
	slot.Number(42)
	slot.ResetKernel(k, &spec)
	assert.Equal(t, KernelTask(k, spec), slot)
	assert.Zero(t, slot.Seq())

	d := newDev(t, Config{CubeCores: 2, VectorCores: 4})
	q := newQ(t, d, 0)
	require.NoError(t, q.Submit(slot))
	require.NoError(t, q.Synchronize(-1))
	k.each(t, 1)
}

func TestKernelRunsEveryBlockOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    Config
		spec   KernelSpec
		maxPar int32
	}{
		{"cube waves", Config{CubeCores: 4, VectorCores: 8}, KernelSpec{Blocks: 37, Kind: CoreCube}, 4},
		{"vector", Config{CubeCores: 2, VectorCores: 3}, KernelSpec{Blocks: 10, Kind: CoreVector}, 3},
		{"vector on shared pool", Config{CubeCores: 2}, KernelSpec{Blocks: 5, Kind: CoreVector}, 2},
		{"mix 1:2", Config{CubeCores: 4, VectorCores: 4}, KernelSpec{Blocks: 9, Kind: CoreMix}, 2},
		{"mix ratio above pool", Config{CubeCores: 4, VectorCores: 2}, KernelSpec{Blocks: 3, Kind: CoreMix, MixVector: 5}, 1},
		{"capped", Config{CubeCores: 8}, KernelSpec{Blocks: 6, MaxCores: 1}, 1},
		{"one block", Config{CubeCores: 8}, KernelSpec{Blocks: 1}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDev(t, tc.cfg)
			q := newQ(t, d, 0)
			k := newKernel(int(tc.spec.Blocks))
			require.NoError(t, q.Submit(KernelTask(k, tc.spec)))
			require.NoError(t, q.Synchronize(-1))
			k.each(t, 1)
			assert.LessOrEqual(t, k.peak.Load(), tc.maxPar)
			assert.Equal(t, int32(1), k.done.Load())
			c, v := d.CoresInUse()
			assert.Zero(t, c+v, "cores returned")
		})
	}
}

func TestKernelDurationIsWaves(t *testing.T) {
	const cost = 10 * time.Microsecond
	over := DefaultCost.TaskOverhead
	for _, tc := range []struct {
		name string
		cfg  Config
		spec KernelSpec
		want time.Duration
	}{
		{"one wave", Config{CubeCores: 8}, KernelSpec{Blocks: 8, BlockCost: cost}, over + cost},
		{"three waves", Config{CubeCores: 4}, KernelSpec{Blocks: 9, BlockCost: cost}, over + 3*cost},
		{"cap", Config{CubeCores: 8}, KernelSpec{Blocks: 8, BlockCost: cost, MaxCores: 3}, over + 3*cost},
		{"vector pool", Config{CubeCores: 2, VectorCores: 4}, KernelSpec{Blocks: 8, Kind: CoreVector, BlockCost: cost}, over + 2*cost},
		{"mix", Config{CubeCores: 4, VectorCores: 4}, KernelSpec{Blocks: 4, Kind: CoreMix, BlockCost: cost}, over + 2*cost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDev(t, tc.cfg)
			q := newQ(t, d, 0)
			require.NoError(t, q.Submit(KernelTask(newKernel(int(tc.spec.Blocks)), tc.spec)))
			require.NoError(t, q.Submit(KernelTask(newKernel(int(tc.spec.Blocks)), tc.spec)))
			require.NoError(t, q.Synchronize(-1))
			assert.Equal(t, 2*tc.want, d.Now(), "two kernels back to back")
		})
	}
}

// TestKernelsConcurrentAcrossStreams: two kernels that each need half the
// pool run at the same time; each block waits until the other kernel has
// started, so the test only finishes if they overlap.
func TestKernelsConcurrentAcrossStreams(t *testing.T) {
	d := newDev(t, Config{CubeCores: 4})
	q1, q2 := newQ(t, d, 0), newQ(t, d, 0)
	a, b := newKernel(2), newKernel(2)
	a.started, b.started = make(chan uint32, 2), make(chan uint32, 2)
	gate := make(chan struct{})
	a.gate, b.gate = gate, gate
	require.NoError(t, q1.Submit(KernelTask(a, KernelSpec{Blocks: 2})))
	require.NoError(t, q2.Submit(KernelTask(b, KernelSpec{Blocks: 2})))
	for range 2 {
		<-a.started
		<-b.started
	}
	c, _ := d.CoresInUse()
	assert.Equal(t, 4, c)
	close(gate)
	require.NoError(t, d.Synchronize(-1))
	a.each(t, 1)
	b.each(t, 1)
}

// TestKernelWaitsForCores: a kernel holding every core keeps another
// stream's kernel queued (a batch kernel also waits for a partial pool).
func TestKernelWaitsForCores(t *testing.T) {
	for _, tc := range []struct {
		name     string
		first    uint32 // blocks of the blocking kernel
		second   KernelSpec
		startsAt int // cores in use once the second is submitted
	}{
		{"pool full", 4, KernelSpec{Blocks: 1}, 4},
		{"normal starts on free cores", 2, KernelSpec{Blocks: 4}, 4},
		{"batch waits for its width", 2, KernelSpec{Blocks: 4, Batch: true}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDev(t, Config{CubeCores: 4})
			q1, q2 := newQ(t, d, 0), newQ(t, d, 0)
			a := newKernel(int(tc.first))
			a.started = make(chan uint32, tc.first)
			a.gate = make(chan struct{})
			require.NoError(t, q1.Submit(KernelTask(a, KernelSpec{Blocks: tc.first})))
			for range tc.first {
				<-a.started
			}
			b := newKernel(int(tc.second.Blocks))
			b.gate = make(chan struct{})
			// Submit arbitrates under the device lock: cores are granted
			// (or not) before it returns.
			require.NoError(t, q2.Submit(KernelTask(b, tc.second)))
			c, _ := d.CoresInUse()
			assert.Equal(t, tc.startsAt, c)
			assert.False(t, q2.Query())
			close(a.gate)
			close(b.gate)
			require.NoError(t, d.Synchronize(-1))
			b.each(t, 1)
		})
	}
}

func TestKernelFailure(t *testing.T) {
	for _, tc := range []struct {
		name    string
		failAt  int64
		panicAt int64
		code    abi.Code
	}{
		{"block error", 3, -1, abi.ACL_ERROR_RT_AICORE_EXCEPTION},
		{"go panic", -1, 0, abi.ACL_ERROR_RT_AICORE_EXCEPTION},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDev(t, Config{CubeCores: 2})
			q := newQ(t, d, 0)
			k := newKernel(8)
			k.failAt, k.panicAt = tc.failAt, tc.panicAt
			require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 8})), "failures are asynchronous")
			after := newKernel(2)
			require.NoError(t, q.Submit(KernelTask(after, KernelSpec{Blocks: 2})))
			err := q.Synchronize(-1)
			require.Error(t, err)
			assert.True(t, isCode(err, tc.code), "%v", err)
			assert.Equal(t, int32(1), k.done.Load())
			assert.Error(t, k.doneErr, "Done sees the failure")
			after.each(t, 1) // the stream goes on
			assert.NoError(t, q.Synchronize(-1), "reported once")
			c, _ := d.CoresInUse()
			assert.Zero(t, c)
		})
	}
}

func TestKernelTimeout(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	k := newKernel(1)
	k.gate = make(chan struct{})
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 1, Timeout: time.Nanosecond})))
	time.AfterFunc(time.Millisecond, func() { close(k.gate) })
	err := q.Synchronize(-1)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_AICORE_TIMEOUT), "%v", err)
}

func TestKernelTaskValidation(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	for _, tc := range []struct {
		name string
		k    Kernel
		spec KernelSpec
	}{
		{"nil kernel", nil, KernelSpec{Blocks: 1}},
		{"zero blocks", newKernel(1), KernelSpec{}},
		{"too many blocks", newKernel(1), KernelSpec{Blocks: MaxBlocks + 1}},
		{"bad kind", newKernel(1), KernelSpec{Blocks: 1, Kind: 7}},
		{"negative cost", newKernel(1), KernelSpec{Blocks: 1, BlockCost: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := q.Submit(KernelTask(tc.k, tc.spec))
			assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "%v", err)
		})
	}
	assert.Equal(t, uint64(0), q.submitted.Load())
}

// kernelScenario submits the same launches on three queues and returns the
// virtual end of each synchronized queue, then the device's clock once all
// is done. (The device clock between synchronizations would also count the
// other queues' kernels that happened to finish: host timing.) threads
// host lanes run the blocks (0: HostThreads()).
func kernelScenario(t *testing.T, threads int) []time.Duration {
	d := newDev(t, Config{CubeCores: 3, VectorCores: 5, HostThreads: threads})
	qs := []*Queue{newQ(t, d, 0), newQ(t, d, 1), newQ(t, d, 0)}
	var out []time.Duration
	for i := range 12 {
		spec := KernelSpec{Blocks: uint32(1 + i*7%11), Kind: CoreKind(i % 3), BlockCost: time.Duration(1+i) * time.Microsecond}
		require.NoError(t, qs[i%3].Submit(KernelTask(newKernel(int(spec.Blocks)), spec)))
		if i%4 == 3 {
			require.NoError(t, qs[i%3].Synchronize(-1))
			out = append(out, time.Duration(qs[i%3].lastVEnd.Load()))
		}
	}
	require.NoError(t, d.Synchronize(-1))
	return append(out, d.Now())
}

// The virtual clock depends neither on the host's timing nor on how many
// host lanes it has: one, two, and the sixteen of a big machine (more
// than this host's CPUs: the lanes take turns) give the same times.
func TestKernelDeterminism(t *testing.T) {
	want := kernelScenario(t, 0)
	assert.Equal(t, want, kernelScenario(t, 0))
	for _, n := range []int{1, 2, 16} {
		assert.Equal(t, want, kernelScenario(t, n), "%d host lanes", n)
	}
}

func TestKernelCloseWithLanes(t *testing.T) {
	d := NewDevice(Config{CubeCores: 4})
	q, err := d.NewQueue(0)
	require.NoError(t, err)
	ks := []*testKernel{newKernel(16), newKernel(16), newKernel(16)}
	for _, k := range ks {
		require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 16})))
	}
	d.Close() // runs what is queued, then stops the lane workers
	assert.True(t, q.Query())
	for _, k := range ks {
		k.each(t, 1)
	}
}

// A waiter with no timeout runs its queue's kernel itself when the lane
// has not woken: here the lane has no goroutine at all, so only the
// waiter can run the blocks.
func TestSynchronizeHelpsParkedLanes(t *testing.T) {
	d := newDev(t, Config{CubeCores: 2})
	q := newQ(t, d, 0)
	ghost := ghostLane(d) // LIFO: the next kernel's lane
	k := newKernel(5)
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 5, MaxCores: 1})))
	done := make(chan error, 1)
	go func() { done <- q.Synchronize(-1) }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("Synchronize did not run the kernel of the ghost lane")
	}
	k.each(t, 1)
	assert.Equal(t, int32(1), k.done.Load())
	assert.Equal(t, int32(1), k.peak.Load(), "one lane")

	// Many launches raced between real lanes and the waiter: every block
	// still runs exactly once.
	d.mu.Lock()
	for i, l := range d.aic.idle {
		if l == ghost {
			d.aic.idle = append(d.aic.idle[:i], d.aic.idle[i+1:]...)
			break
		}
	}
	d.mu.Unlock()
	for range 200 {
		k := newKernel(3)
		require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 3})))
		require.NoError(t, q.Synchronize(-1))
		k.each(t, 1)
	}
}

func BenchmarkKernelLaunchSync(b *testing.B) {
	d := newDev(b, Config{CubeCores: 4})
	q := newQ(b, d, 0)
	b.ReportAllocs()
	launchSyncLoop(b, q)
}

// launchSyncLoop launches an empty one-block kernel into q and waits for
// it, b.N times.
func launchSyncLoop(b *testing.B, q *Queue) {
	k := &emptyKernel{}
	for b.Loop() {
		if err := q.Submit(KernelTask(k, KernelSpec{Blocks: 1})); err != nil {
			b.Fatal(err)
		}
		if err := q.Synchronize(-1); err != nil {
			b.Fatal(err)
		}
	}
}

type emptyKernel struct{}

func (emptyKernel) RunBlock(uint32, uint32) error { return nil }
func (emptyKernel) Done(err error) error          { return err }

// BenchmarkKernelLaunchStream measures back-to-back launches of an empty
// kernel with one synchronisation per 4096 (the benchmark's launch loop):
// the launcher and the lane run on different threads, so it covers the
// hand-off of each kernel to a lane and the ring-full regime.
func BenchmarkKernelLaunchStream(b *testing.B) {
	d := newDev(b, Config{CubeCores: 4})
	q := newQ(b, d, 0)
	b.ReportAllocs()
	launchStreamLoop(b, q)
}

// launchStreamLoop launches an empty one-block kernel into q b.N times,
// waiting for q every 4096 launches and at the end.
func launchStreamLoop(b *testing.B, q *Queue) {
	k := &emptyKernel{}
	i := 0
	for b.Loop() {
		if err := q.Submit(KernelTask(k, KernelSpec{Blocks: 1})); err != nil {
			b.Fatal(err)
		}
		if i++; i%4096 == 0 {
			if err := q.Synchronize(-1); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := q.Synchronize(-1); err != nil {
		b.Fatal(err)
	}
}

// TestIdleLaneParksAndIsWoken drives the hand-off through both of its
// paths: a lane that is still polling its token, and one that has given up
// polling and parked (the kick must then wake it).
func TestIdleLaneParksAndIsWoken(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	parked := func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return len(d.aic.idle) == 1 && d.aic.idle[0].parked.Load()
	}
	for i := range 4 {
		k := newKernel(3)
		require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 3})))
		done := make(chan error, 1)
		go func() { done <- q.Synchronize(-1) }()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatalf("launch %d: kernel never completed", i)
		}
		k.each(t, 1)
		if i%2 == 1 {
			continue // next launch while the lane may still be polling
		}
		require.Eventually(t, parked, 30*time.Second, 100*time.Microsecond, "idle lane never parked")
	}
	d.mu.Lock()
	assert.Equal(t, 1, d.aic.lanes, "one core: one lane, reused")
	d.mu.Unlock()
}

// TestSubmitFullRingStuckHead checks that a submitter waiting on a full
// ring takes the first free slot when the ring stops draining: it polls
// for a batch of free slots first, and must not wait for that batch.
func TestSubmitFullRingStuckHead(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1, QueueDepth: 16})
	q := newQ(t, d, 0)
	first, second := newKernel(1), newKernel(1)
	first.gate, second.gate = make(chan struct{}), make(chan struct{})
	require.NoError(t, q.Submit(KernelTask(first, KernelSpec{Blocks: 1})))
	require.NoError(t, q.Submit(KernelTask(second, KernelSpec{Blocks: 1})))
	rest := make([]*testKernel, 14)
	for i := range rest {
		rest[i] = newKernel(1)
		require.NoError(t, q.Submit(KernelTask(rest[i], KernelSpec{Blocks: 1})))
	}
	last := newKernel(1)
	submitted := make(chan error, 1)
	go func() { submitted <- q.Submit(KernelTask(last, KernelSpec{Blocks: 1})) }()
	select {
	case err := <-submitted:
		t.Fatalf("Submit on a full ring returned %v before a slot was free", err)
	case <-time.After(10 * time.Millisecond):
	}
	close(first.gate) // one slot frees; second keeps the ring stuck
	select {
	case err := <-submitted:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("Submit did not take the free slot of a stuck ring")
	}
	assert.Equal(t, int32(0), second.done.Load(), "the ring was still stuck")
	close(second.gate)
	require.NoError(t, q.Synchronize(-1))
	for _, k := range append(rest, first, second, last) {
		k.each(t, 1)
		assert.Equal(t, int32(1), k.done.Load())
	}
}

func TestPoll(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after int // calls before ready reports true; -1: never
		want  bool
	}{
		{"ready at once", 0, true},
		{"ready after many calls", 1000, true},
		{"never ready", -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A ready case gets a limit it cannot reach on a loaded
			// machine: the test checks where poll stops, not how fast.
			limit := time.Minute
			if !tc.want {
				limit = time.Millisecond
			}
			calls := 0
			got := poll(limit, func() bool {
				calls++
				return tc.after >= 0 && calls > tc.after
			})
			assert.Equal(t, tc.want, got)
			if tc.want {
				assert.Equal(t, tc.after+1, calls, "stops at the first true")
			}
		})
	}
}

// TestSubmitFullRingHelps checks that a submitter waiting for ring space
// runs the queue's head kernels itself when their lane does not (here a
// lane that never wakes).
func TestSubmitFullRingHelps(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1, QueueDepth: 16})
	q := newQ(t, d, 0)
	ghostLane(d) // the only core's lane: never runs
	ks := make([]*testKernel, 17)
	for i := range 16 {
		ks[i] = newKernel(2)
		require.NoError(t, q.Submit(KernelTask(ks[i], KernelSpec{Blocks: 2})))
	}
	ks[16] = newKernel(2)
	submitted := make(chan error, 1)
	go func() { submitted <- q.Submit(KernelTask(ks[16], KernelSpec{Blocks: 2})) }()
	select {
	case err := <-submitted:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("Submit on a full ring did not run the head kernels of a lane that never wakes")
	}
	require.NoError(t, q.Synchronize(-1)) // runs the rest the same way
	for _, k := range ks {
		k.each(t, 1)
		assert.Equal(t, int32(1), k.done.Load())
	}
	d.mu.Lock()
	assert.Equal(t, 0, d.aic.lanes, "no real lane was started")
	d.mu.Unlock()
}

// TestStartInlineStrictPriority checks that a submitter running its queue's
// kernels inline (spinSpace) never starts one ahead of a kernel the
// arbiter ranks first that waits for cores, and starts such a kernel first
// when it can.
func TestStartInlineStrictPriority(t *testing.T) {
	const lowPrio = 5
	for _, tc := range []struct {
		name      string
		prio      int  // the other queue's priority
		batch     bool // the other kernel waits for 2 cores (1 is free)
		before    bool // the other kernel is submitted before the inline queue's
		hidden    bool // the arbiter has not seen the other kernel yet
		wantStart bool // the inline queue's kernel starts
		wantCores int  // cube cores in use after startInline
	}{
		{"higher priority waits for cores", 0, true, true, false, false, 1},
		{"same priority, earlier head waits", lowPrio, true, true, false, false, 1},
		{"same priority, later head waits", lowPrio, true, false, false, true, 2},
		{"lower priority waits", 7, true, true, false, true, 2},
		{"higher priority that fits starts first", 0, false, true, true, false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDev(t, Config{CubeCores: 2})
			busy, other, low := newQ(t, d, 3), newQ(t, d, tc.prio), newQ(t, d, lowPrio)
			a := newKernel(1)
			a.started, a.gate = make(chan uint32, 1), make(chan struct{})
			require.NoError(t, busy.Submit(KernelTask(a, KernelSpec{Blocks: 1})))
			<-a.started // one core of two is taken

			spec := KernelSpec{Blocks: 1}
			if tc.batch {
				spec = KernelSpec{Blocks: 2, Batch: true}
			}
			o := newKernel(int(spec.Blocks))
			o.gate = make(chan struct{})
			k := newKernel(1)
			d.mu.Lock()
			low.helping.Add(1) // a submitter waits on low's full ring
			if tc.hidden {
				other.helping.Add(1)
			}
			d.mu.Unlock()
			submitOther := func() { require.NoError(t, other.Submit(KernelTask(o, spec))) }
			if tc.before {
				submitOther()
			}
			require.NoError(t, low.Submit(KernelTask(k, KernelSpec{Blocks: 1})))
			if !tc.before {
				submitOther()
			}

			d.mu.Lock()
			if tc.hidden {
				other.helping.Add(-1) // without a pass of the arbiter
			}
			l := d.startInline(low)
			cores := d.aic.cubeCores - d.aic.freeCube
			d.mu.Unlock()
			assert.Equal(t, tc.wantStart, l != nil)
			assert.Equal(t, tc.wantCores, cores)
			if l != nil {
				d.runAsLane(l, nil)
				k.each(t, 1)
			}

			d.mu.Lock()
			low.helping.Add(-1)
			d.schedule()
			d.mu.Unlock()
			close(a.gate)
			close(o.gate)
			require.NoError(t, d.Synchronize(-1))
			k.each(t, 1)
			o.each(t, 1)
		})
	}
}

// ghostLane parks a lane that never runs on d's idle AI Core lanes: it is
// the lane the next kernel is handed to (LIFO), and with one core the
// only one.
func ghostLane(d *Device) *lane {
	ghost := &lane{wake: make(chan struct{}, 1)}
	d.mu.Lock()
	d.aic.idle = append(d.aic.idle, ghost)
	d.mu.Unlock()
	return ghost
}
