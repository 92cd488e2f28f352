package tsfw

import (
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/timeline"
)

// shortRun is what one run of the scripted workload shows: every task's
// id, timeline record (kind, stream, device-wide sequence, virtual start
// and end, SDMA engine, core width and cores per block, error), the
// OnBusy reports, each stream's completion order, the device clock and
// the host's observed time.
type shortRun struct {
	ids    []string
	tasks  []timeline.Task
	busy   []string
	order  map[int][]int
	now    time.Duration
	host   time.Duration
	shorts int
}

// tagKernel logs its tag into its stream's completion order when it is
// done; it fails when fail is set.
type tagKernel struct {
	tag  int
	log  *tagLog
	fail bool
}

type tagLog struct {
	mu    sync.Mutex
	order map[int][]int
}

func (k *tagKernel) RunBlock(b, n uint32) error {
	if k.fail && b == n-1 {
		return fmt.Errorf("kernel %d failed", k.tag)
	}
	return nil
}

func (k *tagKernel) Done(err error) error {
	k.log.mu.Lock()
	k.log.order[k.tag/1000] = append(k.log.order[k.tag/1000], k.tag)
	k.log.mu.Unlock()
	return err
}

// runShortScript runs one scripted workload on a fresh device named
// dev<num> and returns what it shows. The script mixes the short path's
// case (one kernel into an idle stream of an idle device, then a
// synchronisation) with everything that must keep it off: busy streams
// (inbox), other active streams, several blocks, vector and mix kernels,
// copies on two SDMA engines, events across streams, host tasks, a
// failing kernel, and priorities.
func runShortScript(t *testing.T, rec *timeline.Recorder, num int) shortRun {
	t.Helper()
	var busyMu sync.Mutex
	var run shortRun
	cfg := Config{
		Name: fmt.Sprintf("dev%d", num), CubeCores: 2, VectorCores: 4, SDMAEngines: 2,
		OnBusy: func(e BusyEngine, busy, end time.Duration) {
			busyMu.Lock()
			run.busy = append(run.busy, fmt.Sprintf("%d/%v/%v", e, busy, end))
			busyMu.Unlock()
		},
	}
	d := newDev(t, cfg)
	q1, q2, q3 := newQ(t, d, 0), newQ(t, d, 0), newQ(t, d, 3)
	ev := newEv(t, d)
	_, src := buf(t, 1<<16)
	_, dst := buf(t, 1<<16)
	log := &tagLog{order: map[int][]int{}}
	qs := map[int]*Queue{1: q1, 2: q2, 3: q3}
	tag := map[int]int{}
	submit := func(s int, task Task) {
		id, err := qs[s].SubmitID(task)
		require.NoError(t, err)
		run.ids = append(run.ids, fmt.Sprintf("%d:%d", s, id))
	}
	kern := func(s int, spec KernelSpec, fail bool) Task {
		tag[s]++
		return KernelTask(&tagKernel{tag: s*1000 + tag[s], log: log, fail: fail}, spec)
	}
	one := KernelSpec{Blocks: 1, BlockCost: 700 * time.Nanosecond}
	for i := range 6 {
		// The short path's case: launch + synchronize, idle device.
		for range 3 {
			submit(1, kern(1, one, false))
			require.NoError(t, q1.Synchronize(-1))
		}
		// A busy stream: the second and later kernels go to the inbox.
		for j := range 5 {
			submit(1, kern(1, KernelSpec{Blocks: uint32(1 + j%3), BlockCost: time.Microsecond}, false))
		}
		// Another stream becomes active while q1 may still be busy, with
		// copies on both engines, a vector kernel and a mix kernel.
		submit(2, CopyTask(dst, src, 4096, HostToDevice))
		submit(2, kern(2, KernelSpec{Blocks: 6, Kind: CoreVector, BlockCost: 300 * time.Nanosecond}, false))
		submit(3, MemsetTask(dst, byte(i), 8192))
		submit(3, kern(3, KernelSpec{Blocks: 3, Kind: CoreMix, BlockCost: 500 * time.Nanosecond}, false))
		// An event from q1 to q3, a host task, a failing kernel.
		submit(1, RecordTask(ev))
		submit(3, WaitTask(ev))
		submit(3, kern(3, one, i == 2))
		submit(2, HostTask(func() error { return nil }))
		require.NoError(t, q1.Synchronize(-1))
		require.NoError(t, q2.Synchronize(-1))
		if err := q3.Synchronize(-1); i == 2 {
			require.Error(t, err, "the failing kernel's error")
		} else {
			require.NoError(t, err)
		}
		// Idle again: a low-priority stream takes the short path too.
		submit(3, kern(3, one, false))
		require.NoError(t, q3.Synchronize(-1))
		// A claimed run (batched launch + synchronize, claim.go): the
		// new head is left to the claimer on both paths.
		q1.Claim()
		submit(1, kern(1, one, false))
		submit(1, kern(1, KernelSpec{Blocks: 2, BlockCost: time.Microsecond}, false))
		q1.RunClaimed()
		require.NoError(t, q1.Synchronize(-1))
	}
	require.NoError(t, d.Synchronize(-1))
	cube, vector := d.CoresInUse()
	assert.Zero(t, cube+vector, "cores left in use")
	run.tasks = rec.Tasks(num)
	run.order = log.order
	run.now, run.host = d.Now(), d.HostTime()
	d.mu.Lock()
	run.shorts = d.shortHeads
	d.mu.Unlock()
	return run
}

// TestShortPathMatchesGeneral: the same scripted workload through the
// short path (short.go) and through the general path (generalOnly) gives
// the same task ids, virtual start and end times, SDMA engines, core
// widths, busy reports, per-stream completion orders and device clocks.
func TestShortPathMatchesGeneral(t *testing.T) {
	rec := timeline.NewRecorder()
	old := timeline.Attach(rec)
	defer timeline.Attach(old)
	defer generalOnly.Store(false)

	generalOnly.Store(true)
	general := runShortScript(t, rec, 71)
	generalOnly.Store(false)
	short := runShortScript(t, rec, 72)

	assert.Zero(t, general.shorts, "the general run took the short path")
	assert.Positive(t, short.shorts, "the short run never took the short path")
	require.NotEmpty(t, general.tasks)
	assert.Equal(t, general.ids, short.ids, "task ids")
	require.Len(t, short.tasks, len(general.tasks))
	for i := range general.tasks {
		assert.Equal(t, taskKey(general.tasks[i]), taskKey(short.tasks[i]), "task %d", i)
	}
	assert.Equal(t, general.busy, short.busy, "busy reports")
	assert.Equal(t, general.order, short.order, "completion order per stream")
	assert.Equal(t, general.now, short.now, "device clock")
	assert.Equal(t, general.host, short.host, "host time")
}

// taskKey is a timeline task without its device number (the two runs use
// two devices).
func taskKey(x timeline.Task) string {
	return fmt.Sprintf("stream %d seq %d %s %v..%v engine %d bytes %d blocks %d %s width %d cores %d+%d cost %v out %s/%d/%d in %s/%d/%d err %q",
		x.Stream, x.Seq, x.Kind, x.Start, x.End, x.Engine, x.Bytes, x.Blocks, x.Core, x.Width, x.CubePer, x.VecPer, x.BlockCost,
		x.Out.Kind, x.Out.ID, x.Out.N, x.In.Kind, x.In.ID, x.In.N, x.Err)
}

// TestHelpLaneHint: a thread waiting for a queue takes the kernel of the
// lane the queue's kernel was handed without a scan of the running
// kernels, and not at all with the short path off.
func TestHelpLaneHint(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	ghost := ghostLane(d) // the only core's lane: never runs
	log := &orderLog{}
	require.NoError(t, q.Submit(KernelTask(&orderKernel{n: 1, log: log}, KernelSpec{Blocks: 1})))
	require.True(t, ghost.token.Load(), "the kernel was not handed to the lane")
	assert.Same(t, ghost, q.lane.Load(), "the queue's lane hint")

	generalOnly.Store(true)
	assert.False(t, d.helpLane(q, nil), "the hint was used with the short path off")
	generalOnly.Store(false)
	assert.True(t, ghost.token.Load())

	assert.True(t, d.helpLane(q, nil), "the hint's kernel was not taken")
	assert.Equal(t, []int{1}, log.get())
	assert.Equal(t, uint64(1), q.completed.Load())
	assert.False(t, d.helpLane(q, nil), "an idle lane's hint ran something")
	require.NoError(t, q.Synchronize(-1))

	// The hint's lane now runs another queue's kernel: the token goes
	// back, and that queue's own hint takes it.
	q2 := newQ(t, d, 0)
	require.NoError(t, q2.Submit(KernelTask(&orderKernel{n: 2, log: log}, KernelSpec{Blocks: 1})))
	require.Same(t, ghost, q2.lane.Load())
	require.Same(t, ghost, q.lane.Load(), "the stale hint")
	assert.False(t, d.helpLane(q, nil), "a stale hint ran another queue's kernel")
	assert.True(t, ghost.token.Load(), "the token was not handed back")
	assert.Equal(t, []int{1}, log.get())
	assert.True(t, d.helpLane(q2, nil))
	assert.Equal(t, []int{1, 2}, log.get())
	require.NoError(t, q2.Synchronize(-1))
}

// BenchmarkKernelLaunchSyncPaths is BenchmarkKernelLaunchSync through the
// general path and through the short path, each with the CPU time of the
// whole process per operation (cpu-ns/op: what a loaded host does not
// inflate). Compare with -count N: the two alternate.
func BenchmarkKernelLaunchSyncPaths(b *testing.B) { benchPaths(b, launchSyncLoop) }

// benchPaths runs loop through the general path and through the short
// path, each with the CPU time of the whole process per operation.
func benchPaths(b *testing.B, loop func(*testing.B, *Queue)) {
	for _, name := range []string{"general", "short"} {
		b.Run(name, func(b *testing.B) {
			generalOnly.Store(name == "general")
			defer generalOnly.Store(false)
			q := newQ(b, newDev(b, Config{CubeCores: 4}), 0)
			c0 := cpuTime()
			loop(b, q)
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the CPU time of the process (every thread), in ns.
func cpuTime() int64 {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return u.Utime.Nano() + u.Stime.Nano()
}

// BenchmarkKernelLaunchStreamPaths is BenchmarkKernelLaunchStream through
// both paths (see BenchmarkKernelLaunchSyncPaths): a launch loop, whose
// queue drains whenever the lane catches up, opens the inbox one launch
// later on the short path.
func BenchmarkKernelLaunchStreamPaths(b *testing.B) { benchPaths(b, launchStreamLoop) }

// orderedKernel logs the blocks it runs; block 0 waits for gate.
type orderedKernel struct {
	gate chan struct{}
	log  orderLog
	done chan error
}

func (k *orderedKernel) RunBlock(b, n uint32) error {
	if b == 0 {
		<-k.gate
	}
	k.log.mu.Lock()
	k.log.ran = append(k.log.ran, int(b))
	k.log.mu.Unlock()
	return nil
}

func (k *orderedKernel) Done(err error) error { k.done <- err; return err }

// TestAloneRun: a kernel alone on its one core (a run with no block
// counter, short.go) runs its blocks in order, holds a mark until its
// run is recycled, and starts no block once the watchdog failed it.
func TestAloneRun(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	k := &orderedKernel{gate: make(chan struct{}), done: make(chan error, 1)}
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 4})))
	require.Eventually(t, func() bool { c, _ := d.CoresInUse(); return c == 1 }, time.Minute, time.Millisecond)
	m := d.Mark()
	assert.False(t, m.Passed(), "the kernel runs")
	close(k.gate)
	require.NoError(t, q.Synchronize(-1))
	require.NoError(t, <-k.done)
	assert.Equal(t, []int{0, 1, 2, 3}, k.log.get())
	assert.True(t, m.Passed(), "the run was recycled")

	// Failed by the watchdog while block 0 runs: blocks 1..3 never start.
	k = &orderedKernel{gate: make(chan struct{}), done: make(chan error, 1)}
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 4, Timeout: 20 * time.Millisecond})))
	require.Error(t, q.Synchronize(time.Minute))
	m = d.Mark()
	close(k.gate)
	assert.Error(t, <-k.done)
	assert.Equal(t, []int{0}, k.log.get())
	require.Eventually(t, m.Passed, time.Minute, time.Millisecond)
}
