package tsfw

import (
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// orderKernel is a one-block kernel that appends its number to a shared
// log when it runs, optionally fails, and may wait on a gate first.
type orderKernel struct {
	n    int
	log  *orderLog
	gate chan struct{}
	fail bool
}

type orderLog struct {
	mu  sync.Mutex
	ran []int
}

func (k *orderKernel) RunBlock(b, n uint32) error {
	if k.gate != nil {
		<-k.gate
	}
	k.log.mu.Lock()
	k.log.ran = append(k.log.ran, k.n)
	k.log.mu.Unlock()
	if k.fail {
		return abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "kernel %d failed", k.n)
	}
	return nil
}

func (k *orderKernel) Done(err error) error { return err }

func (l *orderLog) get() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.ran...)
}

func inboxLen(q *Queue) int {
	q.in.mu.Lock()
	defer q.in.mu.Unlock()
	return len(q.in.tasks)
}

// TestInboxKeepsOrderIdsAndTimes: kernels submitted while the queue's head
// runs go through the inbox (the fast path) and still get consecutive ids,
// run in submission order after the tasks before them, and end where the
// cost model puts them; a record submitted behind them (slow path) waits
// for them.
func TestInboxKeepsOrderIdsAndTimes(t *testing.T) {
	const cost = 3 * time.Microsecond
	d := newDev(t, Config{CubeCores: 2})
	q := newQ(t, d, 0)
	e := newEv(t, d)
	log := &orderLog{}
	gate := make(chan struct{})
	spec := KernelSpec{Blocks: 1, BlockCost: cost}
	id, err := q.SubmitID(KernelTask(&orderKernel{n: 0, log: log, gate: gate}, spec))
	require.NoError(t, err)
	require.Equal(t, uint32(1), id)
	const n = 20
	for i := 1; i <= n; i++ {
		id, err := q.SubmitID(KernelTask(&orderKernel{n: i, log: log}, spec))
		require.NoError(t, err)
		require.Equal(t, uint32(i+1), id)
	}
	// The first kernel behind the head opens the inbox (short.go).
	assert.Equal(t, n-1, inboxLen(q), "kernels behind a running head go to the inbox")
	require.NoError(t, q.Submit(RecordTask(e)))
	assert.Zero(t, inboxLen(q), "a slow-path submit moves the inbox into the ring first")
	assert.False(t, e.Complete())
	close(gate)
	require.NoError(t, q.Synchronize(-1))
	want := make([]int, n+1)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, log.get())
	per := DefaultCost.TaskOverhead + cost
	assert.Equal(t, time.Duration(n+1)*per+DefaultCost.TaskOverhead, d.Now())
	ts, ok := e.Timestamp()
	require.True(t, ok)
	assert.Equal(t, d.Now(), ts)
}

// TestInboxDroppedWithQueue: Destroy(false) and Abort drop the kernels
// still in the inbox like any queued task: they never run and count as
// completed, so nothing waits for them.
func TestInboxDroppedWithQueue(t *testing.T) {
	for _, how := range []string{"destroy", "abort", "stop"} {
		t.Run(how, func(t *testing.T) {
			d := newDev(t, Config{CubeCores: 2})
			q := newQ(t, d, 0)
			log := &orderLog{}
			gate := make(chan struct{})
			require.NoError(t, q.Submit(KernelTask(&orderKernel{n: 0, log: log, gate: gate}, KernelSpec{Blocks: 1})))
			for i := 1; i <= 5; i++ {
				require.NoError(t, q.Submit(KernelTask(&orderKernel{n: i, log: log}, KernelSpec{Blocks: 1})))
			}
			require.Equal(t, 4, inboxLen(q)) // the first behind the head opens it (short.go)
			stopErr := abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT, "stopped")
			switch how {
			case "destroy":
				q.Destroy(false)
			case "abort":
				q.Abort(stopErr)
			case "stop":
				q.Stop(stopErr)
			}
			assert.Zero(t, inboxLen(q))
			close(gate)
			_ = q.Synchronize(-1) // waits for the running head; Abort's error is not the point here
			assert.Equal(t, []int{0}, log.get(), "the running head finishes, the inbox is dropped")
			assert.True(t, q.Query())
			switch how {
			case "destroy":
				assert.Error(t, q.Submit(KernelTask(&orderKernel{n: 9, log: log}, KernelSpec{Blocks: 1})))
			case "stop":
				assert.ErrorIs(t, q.Submit(KernelTask(&orderKernel{n: 9, log: log}, KernelSpec{Blocks: 1})), stopErr)
			case "abort":
				require.NoError(t, q.Submit(KernelTask(&orderKernel{n: 9, log: log}, KernelSpec{Blocks: 1})))
				require.NoError(t, q.Synchronize(-1))
				assert.Equal(t, []int{0, 9}, log.get())
			}
		})
	}
}

// TestInboxConcurrentSubmitters: several goroutines launching into one
// queue and into queues of their own, all through the fast path where it
// applies; every kernel runs once and every queue drains (run with -race).
func TestInboxConcurrentSubmitters(t *testing.T) {
	d := newDev(t, Config{CubeCores: 4, QueueDepth: 64})
	shared := newQ(t, d, 0)
	const workers, per = 4, 500
	var wg sync.WaitGroup
	logs := make([]*orderLog, workers)
	for w := range workers {
		logs[w] = &orderLog{}
		own := newQ(t, d, 0)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				q := own
				if i%2 == 1 {
					q = shared
				}
				if err := q.Submit(KernelTask(&orderKernel{n: i, log: logs[w]}, KernelSpec{Blocks: 1})); err != nil {
					t.Error(err)
					return
				}
			}
			if err := own.Synchronize(-1); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	require.NoError(t, d.Synchronize(-1))
	for w, l := range logs {
		ran := l.get()
		require.Len(t, ran, per, "worker %d", w)
		seen := make([]bool, per)
		for _, i := range ran {
			assert.False(t, seen[i], "kernel %d of worker %d ran twice", i, w)
			seen[i] = true
		}
	}
}

// TestChainKeepsOrderAndErrors: one-block kernels queued behind a running
// one run as a chain on one lane; a failing kernel in the middle is the
// stream's error (reported once), the kernels after it still run, in
// order, and virtual time is the sum of their costs.
func TestChainKeepsOrderAndErrors(t *testing.T) {
	const cost = 2 * time.Microsecond
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	log := &orderLog{}
	gate := make(chan struct{})
	spec := KernelSpec{Blocks: 1, BlockCost: cost}
	require.NoError(t, q.Submit(KernelTask(&orderKernel{n: 0, log: log, gate: gate}, spec)))
	const n = 100 // more than maxChain: two chains at least
	for i := 1; i <= n; i++ {
		require.NoError(t, q.Submit(KernelTask(&orderKernel{n: i, log: log, fail: i == 30}, spec)))
	}
	close(gate)
	err := q.Synchronize(-1)
	require.Error(t, err)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_AICORE_EXCEPTION), "%v", err)
	require.NoError(t, q.Synchronize(-1), "the error is reported once")
	want := make([]int, n+1)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, log.get())
	assert.Equal(t, time.Duration(n+1)*(DefaultCost.TaskOverhead+cost), d.Now())
}

// TestChainLeavesCoreToWaitingQueue: a queue whose head kernel waits for
// the only core gets it when the running kernel ends, even though the
// running kernel's queue has more one-block kernels queued (no chain).
func TestChainLeavesCoreToWaitingQueue(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1})
	q1, q2 := newQ(t, d, 0), newQ(t, d, 0)
	log := &orderLog{}
	gate := make(chan struct{})
	require.NoError(t, q1.Submit(KernelTask(&orderKernel{n: 0, log: log, gate: gate}, KernelSpec{Blocks: 1})))
	require.NoError(t, q2.Submit(KernelTask(&orderKernel{n: 100, log: log}, KernelSpec{Blocks: 1})))
	for i := 1; i <= 3; i++ {
		require.NoError(t, q1.Submit(KernelTask(&orderKernel{n: i, log: log}, KernelSpec{Blocks: 1})))
	}
	close(gate)
	require.NoError(t, d.Synchronize(-1))
	ran := log.get()
	require.Len(t, ran, 5)
	assert.Equal(t, 100, ran[1], "q2's kernel, submitted before q1's second, runs second: %v", ran)
}

// TestHostLanesBounded: a kernel granted 8 cores on a device with 2 host
// threads runs its blocks on at most 2 lanes at once, and every block
// once; its virtual duration is one wave of the 8 cores.
func TestHostLanesBounded(t *testing.T) {
	old := stallAfter
	stallAfter = time.Hour // this kernel never stalls: keep the watchdog out
	t.Cleanup(func() { stallAfter = old })
	const cost = 10 * time.Microsecond
	d := newDev(t, Config{CubeCores: 8, HostThreads: 2})
	q := newQ(t, d, 0)
	k := newKernel(8)
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 8, BlockCost: cost})))
	require.NoError(t, q.Synchronize(-1))
	k.each(t, 1)
	assert.LessOrEqual(t, k.peak.Load(), int32(2))
	assert.Equal(t, DefaultCost.TaskOverhead+cost, d.Now())
}

func TestParseThreads(t *testing.T) {
	for _, tc := range []struct {
		v    string
		def  int
		want int
	}{
		{"", 16, 16},
		{"4", 16, 4},
		{" 2 ", 16, 2},
		{"0", 16, 16},
		{"-3", 16, 16},
		{"many", 16, 16},
		{"100000", 16, 16},
		{"", 0, 1},
	} {
		assert.Equal(t, tc.want, parseThreads(tc.v, tc.def), "%q", tc.v)
	}
	assert.GreaterOrEqual(t, HostThreads(), 1)
}

// What `npuemu info` says of the count.
func TestThreadsReason(t *testing.T) {
	assert.Equal(t, "NPUEMU_THREADS=16", threadsReason(16, 2, 2, true))
	assert.Equal(t, "this process's CPU limit (cgroup quota): 2 of the 64 CPUs it may run on; NPUEMU_THREADS sets another number", threadsReason(2, 64, 2, false))
	assert.Equal(t, "the CPUs this process may run on; NPUEMU_THREADS sets another number", threadsReason(8, 8, 8, false))
	assert.NotEmpty(t, HostThreadsReason())
}

// Unset NPUEMU_THREADS: the CPUs, or the cgroup's lower limit.
func TestCPUsUsable(t *testing.T) {
	for _, tc := range []struct {
		ncpu, procs int
		env         string
		want        int
	}{
		{2, 2, "", 2},
		{64, 2, "", 2},   // a container's 2-CPU limit on a 64-CPU runner
		{64, 64, "", 64}, // no limit
		{64, 2, "2", 64}, // the user's GOMAXPROCS bounds Go code, not lanes
		{4, 8, "8", 4},
		{4, 8, "", 4},
	} {
		assert.Equal(t, tc.want, cpusUsable(tc.ncpu, tc.procs, tc.env), "%+v", tc)
	}
}

// The first lane leaves the runtime one P beyond the lanes (threads.go),
// unless GOMAXPROCS is set in the environment.
func TestSpareP(t *testing.T) {
	for _, tc := range []struct {
		env              string
		cur, lanes, want int
	}{
		{"", 2, 2, 3}, // the default: as many Ps as lanes
		{"", 16, 16, 17},
		{"", 2, 16, 3}, // a cgroup's CPU limit below the CPUs: one more only
		{"", 5, 4, 5},  // NPUEMU_THREADS below the Ps: a P is spare already
		{"2", 2, 2, 2}, // the user's GOMAXPROCS stands
		{"8", 8, 16, 8},
	} {
		assert.Equal(t, tc.want, spareProcs(tc.env, tc.cur, tc.lanes), "%+v", tc)
	}
	d := newDev(t, Config{CubeCores: 2})
	q := newQ(t, d, 0)
	require.NoError(t, q.Submit(KernelTask(newKernel(4), KernelSpec{Blocks: 4})))
	require.NoError(t, q.Synchronize(-1))
	if os.Getenv("GOMAXPROCS") == "" { // (the lane goroutine does it as it starts)
		// NPUEMU_THREADS over the CPUs: one P beyond the CPUs.
		want := min(HostThreads(), runtime.NumCPU()) + 1
		assert.Eventually(t, func() bool { return runtime.GOMAXPROCS(0) >= want },
			10*time.Second, time.Millisecond, "a lane has started: a P beyond the lanes")
	}
}

// TestResidentKernel: a kernel marked Resident gets a lane per granted core
// at once, without waiting for the watchdog.
func TestResidentKernel(t *testing.T) {
	old := stallAfter
	stallAfter = time.Hour
	t.Cleanup(func() { stallAfter = old })
	d := newDev(t, Config{CubeCores: 4, HostThreads: 1})
	q := newQ(t, d, 0)
	k := newKernel(4)
	k.started = make(chan uint32, 4)
	k.gate = make(chan struct{})
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 4, Resident: true})))
	for range 4 {
		<-k.started
	}
	close(k.gate)
	require.NoError(t, q.Synchronize(-1))
	k.each(t, 1)
}

// TestRingSize: rings and inbox buffers grow in ×4 steps from
// initialRing, never past the depth unless a submission past it needs
// more.
func TestRingSize(t *testing.T) {
	for _, c := range []struct{ cur, need, depth, want int }{
		{0, 1, 1024, 16},
		{16, 17, 1024, 64},
		{64, 65, 1024, 256},
		{256, 257, 1024, 1024},
		{16, 300, 1024, 1024},
		{16, 17, 100, 64},
		{64, 65, 100, 100},
		{1024, 1025, 1024, 2048}, // past the depth (overfill.go): doubled
		{16, 2000, 1024, 2000},
		{0, 1, 8, 8},
	} {
		assert.Equal(t, c.want, ringSize(c.cur, c.need, c.depth), "cur %d need %d depth %d", c.cur, c.need, c.depth)
	}
}

// TestSubmitRun: a run submitted in one pass of the inbox gets the ids,
// order and virtual times the same tasks get one by one; it takes no more
// than the ring's room (the caller submits the rest), nothing when the
// inbox is closed (an idle queue) or a task is not a kernel, and the
// tasks it took run once each, in order.
func TestSubmitRun(t *testing.T) {
	const cost = 3 * time.Microsecond
	spec := KernelSpec{Blocks: 1, BlockCost: cost}
	run := func(byRun bool) ([]uint32, []int, time.Duration) {
		d := newDev(t, Config{CubeCores: 2, QueueDepth: 16})
		q := newQ(t, d, 0)
		log := &orderLog{}
		gate := make(chan struct{})
		var ids []uint32
		id, err := q.SubmitID(KernelTask(&orderKernel{n: 0, log: log, gate: gate}, spec))
		require.NoError(t, err)
		ids = append(ids, id)
		id, err = q.SubmitID(KernelTask(&orderKernel{n: 1, log: log}, spec)) // opens the inbox
		require.NoError(t, err)
		ids = append(ids, id)
		ts := make([]Task, 20)
		for i := range ts {
			ts[i] = KernelTask(&orderKernel{n: 2 + i, log: log}, spec)
		}
		rest := ts
		if byRun {
			last, n := q.SubmitRun(ts)
			require.Equal(t, 14, n, "the room of a 16-task ring holding 2")
			for i := range n {
				ids = append(ids, last-uint32(n-1-i))
			}
			rest = ts[n:]
		}
		close(gate) // the rest wait for room, as one by one
		for i := range rest {
			id, err := q.SubmitID(rest[i])
			require.NoError(t, err)
			ids = append(ids, id)
		}
		require.NoError(t, q.Synchronize(-1))
		return ids, log.get(), d.Now()
	}
	ids, order, now := run(false)
	rids, rorder, rnow := run(true)
	assert.Equal(t, ids, rids, "task ids")
	assert.Equal(t, order, rorder, "each ran once, in order")
	assert.Equal(t, now, rnow, "virtual times")
	assert.Len(t, rorder, 22)

	d := newDev(t, Config{CubeCores: 2})
	q := newQ(t, d, 0)
	_, n := q.SubmitRun([]Task{KernelTask(emptyKernel{}, spec)})
	assert.Zero(t, n, "an idle queue's inbox is closed: one by one")
	gate := make(chan struct{})
	require.NoError(t, q.Submit(KernelTask(&orderKernel{log: &orderLog{}, gate: gate}, spec)))
	require.NoError(t, q.Submit(KernelTask(emptyKernel{}, spec)))
	e := newEv(t, d)
	_, n = q.SubmitRun([]Task{KernelTask(emptyKernel{}, spec), RecordTask(e), KernelTask(emptyKernel{}, spec)})
	assert.Equal(t, 1, n, "not past a task that is not a kernel")
	close(gate)
	require.NoError(t, q.Synchronize(-1))
}
