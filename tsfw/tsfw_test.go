package tsfw

import (
	"errors"
	"reflect"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buf maps n bytes outside the Go heap, like HBM or pinned host memory.
func buf(t testing.TB, n int) ([]byte, uintptr) {
	t.Helper()
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	require.NoError(t, err)
	t.Cleanup(func() { _ = syscall.Munmap(b) })
	return b, reflect.ValueOf(b).Pointer()
}

func newDev(t testing.TB, cfg Config) *Device {
	t.Helper()
	d := NewDevice(cfg)
	t.Cleanup(d.Close)
	return d
}

func newQ(t testing.TB, d *Device, prio int) *Queue {
	t.Helper()
	q, err := d.NewQueue(prio)
	require.NoError(t, err)
	return q
}

func newEv(t testing.TB, d *Device) *Event {
	t.Helper()
	e, err := d.NewEvent(0)
	require.NoError(t, err)
	return e
}

func isCode(err error, c abi.Code) bool { return errors.Is(err, abi.Err(c)) }

// gate is an engine task that occupies an SDMA engine until opened.
type gate struct {
	ch      chan struct{}
	started chan struct{}
}

func newGate() *gate { return &gate{ch: make(chan struct{}), started: make(chan struct{}, 1)} }
func (g *gate) task() Task {
	return engineTask(func() error { g.started <- struct{}{}; <-g.ch; return nil })
}
func (g *gate) open() { close(g.ch) }

// log records the order in which tasks ran.
type log struct {
	mu  sync.Mutex
	got []string
}

func (l *log) add(s string) func() error {
	return func() error { l.mu.Lock(); l.got = append(l.got, s); l.mu.Unlock(); return nil }
}

func (l *log) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.got...)
}

func TestCopyMemset(t *testing.T) {
	d := newDev(t, Config{SDMAEngines: 2})
	q := newQ(t, d, 0)
	src, s := buf(t, 1<<20)
	dst, ds := buf(t, 1<<20)
	for i := range src {
		src[i] = byte(i * 7)
	}
	require.NoError(t, q.Submit(CopyTask(ds, s, 1<<20, HostToDevice)))
	require.NoError(t, q.Synchronize(-1))
	assert.Equal(t, src, dst)

	require.NoError(t, q.Submit(MemsetTask(ds+10, 0xab, 100)))
	require.NoError(t, q.Synchronize(-1))
	assert.Equal(t, byte(0xab), dst[10])
	assert.Equal(t, byte(0xab), dst[109])
	assert.Equal(t, src[110], dst[110])

	// 3 rows of 4 bytes, source pitch 8, destination pitch 16.
	_, d2 := buf(t, 4096)
	require.NoError(t, q.Submit(Copy2DTask(d2, 16, s, 8, 4, 3, DeviceToDevice)))
	require.NoError(t, q.Synchronize(-1))
	row, _ := buf(t, 4096)
	require.NoError(t, d.CopyNow(reflect.ValueOf(row).Pointer(), d2, 48, DeviceToHost))
	for r := range 3 {
		assert.Equal(t, src[r*8:r*8+4], row[r*16:r*16+4], "row %d", r)
		assert.Equal(t, []byte{0, 0, 0, 0}, row[r*16+4:r*16+8], "row %d gap", r)
	}

	before := d.Now()
	require.NoError(t, d.MemsetNow(ds, 7, 1<<20))
	assert.Equal(t, byte(7), dst[1<<20-1])
	assert.Greater(t, d.Now(), before, "synchronous memset is charged to the clock")
}

func TestInvalidArguments(t *testing.T) {
	d := newDev(t, Config{})
	d2 := newDev(t, Config{Name: "other"})
	q := newQ(t, d, 0)
	e2 := newEv(t, d2)
	_, err := d.NewQueue(8)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "%v", err)
	_, err = d.NewQueue(-1)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "%v", err)
	for name, tc := range map[string]struct {
		task Task
		code abi.Code
	}{
		"zero task":          {Task{}, abi.ACL_ERROR_RT_PARAM_INVALID},
		"null copy":          {CopyTask(0, 8, 8, HostToDevice), abi.ACL_ERROR_RT_PARAM_INVALID},
		"bad direction":      {CopyTask(8, 8, 8, CopyDir(9)), abi.ACL_ERROR_RT_PARAM_INVALID},
		"2d width > pitch":   {Copy2DTask(8, 4, 8, 16, 8, 2, DeviceToDevice), abi.ACL_ERROR_RT_PARAM_INVALID},
		"null memset":        {MemsetTask(0, 1, 8), abi.ACL_ERROR_RT_PARAM_INVALID},
		"nil event":          {RecordTask(nil), abi.ACL_ERROR_RT_PARAM_INVALID},
		"nil host fn":        {HostTask(nil), abi.ACL_ERROR_RT_PARAM_INVALID},
		"foreign record":     {RecordTask(e2), abi.ACL_ERROR_RT_STREAM_CONTEXT},
		"wait on nil event":  {WaitTask(nil), abi.ACL_ERROR_RT_PARAM_INVALID},
		"reset on nil event": {ResetTask(nil), abi.ACL_ERROR_RT_PARAM_INVALID},
	} {
		err := q.Submit(tc.task)
		assert.True(t, isCode(err, tc.code), "%s: %v", name, err)
	}
	assert.True(t, q.Query(), "rejected tasks are not queued")
	err = d.CopyNow(0, 8, 8, HostToDevice)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "copy now: %v", err)
	e2.Destroy()
	err = q.Submit(WaitTask(e2))
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "wait on destroyed event: %v", err)
}

func TestOrderWithinStream(t *testing.T) {
	d := newDev(t, Config{SDMAEngines: 4})
	q := newQ(t, d, 3)
	a, pa := buf(t, 4096)
	_, pb := buf(t, 4096)
	c, pc := buf(t, 4096)
	var l log
	want := []string{}
	for i := range 50 {
		s := string(rune('a' + i%26))
		want = append(want, s)
		task := HostTask(l.add(s))
		if i%2 == 1 {
			task = engineTask(l.add(s))
		}
		require.NoError(t, q.Submit(task))
	}
	// A chain whose result is only right if the copies ran in order.
	a[0] = 1
	require.NoError(t, q.Submit(CopyTask(pb, pa, 4096, DeviceToDevice)))
	require.NoError(t, q.Submit(MemsetTask(pa, 9, 4096)))
	require.NoError(t, q.Submit(CopyTask(pc, pb, 4096, DeviceToDevice)))
	require.NoError(t, q.Synchronize(-1))
	assert.Equal(t, want, l.list())
	assert.Equal(t, byte(1), c[0])
	assert.Equal(t, byte(9), a[0])
	assert.True(t, q.Query())
}

// copyEnds submits one long copy on each of two queues, each followed by a
// record, and returns the two record timestamps.
func copyEnds(t *testing.T, engines int) (time.Duration, time.Duration, time.Duration) {
	d := newDev(t, Config{SDMAEngines: engines})
	_, s := buf(t, 8<<20)
	_, dst := buf(t, 16<<20)
	var ts [2]time.Duration
	qs := []*Queue{newQ(t, d, 0), newQ(t, d, 0)}
	evs := []*Event{newEv(t, d), newEv(t, d)}
	for i, q := range qs {
		require.NoError(t, q.Submit(CopyTask(dst+uintptr(i*8<<20), s, 8<<20, HostToDevice)))
		require.NoError(t, q.Submit(RecordTask(evs[i])))
	}
	require.NoError(t, d.Synchronize(-1))
	for i, e := range evs {
		var ok bool
		ts[i], ok = e.Timestamp()
		require.True(t, ok)
	}
	return ts[0], ts[1], d.cost.copyCost(8<<20, HostToDevice)
}

func TestConcurrencyAcrossStreams(t *testing.T) {
	t.Run("two engines overlap", func(t *testing.T) {
		a, b, cost := copyEnds(t, 2)
		assert.Equal(t, a, b)
		assert.GreaterOrEqual(t, a, cost)
	})
	t.Run("one engine serializes", func(t *testing.T) {
		a, b, cost := copyEnds(t, 1)
		assert.GreaterOrEqual(t, b-a, cost)
	})
	t.Run("engines really run in parallel", func(t *testing.T) {
		d := newDev(t, Config{SDMAEngines: 2})
		// Each task waits for the other to start: only parallel engines
		// let both finish.
		var wg sync.WaitGroup
		wg.Add(2)
		meet := func() error { wg.Done(); wg.Wait(); return nil }
		q1, q2 := newQ(t, d, 0), newQ(t, d, 0)
		require.NoError(t, q1.Submit(engineTask(meet)))
		require.NoError(t, q2.Submit(engineTask(meet)))
		require.NoError(t, d.Synchronize(10*time.Second))
	})
}

func TestStrictPriority(t *testing.T) {
	d := newDev(t, Config{SDMAEngines: 1})
	blocker := newQ(t, d, 0)
	low := newQ(t, d, 7)
	midA := newQ(t, d, 3)
	midB := newQ(t, d, 3)
	high := newQ(t, d, 0)
	g := newGate()
	require.NoError(t, blocker.Submit(g.task()))
	<-g.started
	var l log
	// Submitted lowest priority first; within priority 3, B before A.
	require.NoError(t, low.Submit(engineTask(l.add("low"))))
	require.NoError(t, midB.Submit(engineTask(l.add("midB"))))
	require.NoError(t, midA.Submit(engineTask(l.add("midA"))))
	require.NoError(t, high.Submit(engineTask(l.add("high"))))
	assert.Empty(t, l.list(), "the only engine is busy")
	g.open()
	require.NoError(t, d.Synchronize(-1))
	assert.Equal(t, []string{"high", "midB", "midA", "low"}, l.list())
}

func TestEventWaitAcrossQueues(t *testing.T) {
	d := newDev(t, Config{SDMAEngines: 2})
	testEventWait(t, d, d)
}

func TestEventWaitAcrossDevices(t *testing.T) {
	a := newDev(t, Config{Name: "dev0", SDMAEngines: 1})
	b := newDev(t, Config{Name: "dev1", SDMAEngines: 1})
	testEventWait(t, a, b)
}

// testEventWait records an event on a queue of dev and makes a queue of
// waiter wait for it.
func testEventWait(t *testing.T, dev, waiter *Device) {
	qa := newQ(t, dev, 0)
	qb := newQ(t, waiter, 0)
	e := newEv(t, dev)
	after := newEv(t, waiter)
	assert.True(t, e.Complete(), "never recorded counts as complete")
	assert.False(t, e.Recorded())
	g := newGate()
	require.NoError(t, qa.Submit(g.task()))
	require.NoError(t, qa.Submit(RecordTask(e)))
	require.NoError(t, qb.Submit(WaitTask(e)))
	var l log
	require.NoError(t, qb.Submit(HostTask(l.add("after wait"))))
	require.NoError(t, qb.Submit(RecordTask(after)))
	assert.True(t, e.Recorded())
	assert.False(t, e.Complete())

	err := qb.Synchronize(20 * time.Millisecond)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT), "%v", err)
	assert.Empty(t, l.list(), "the wait holds the queue")
	assert.False(t, qb.Query())

	g.open()
	require.NoError(t, qb.Synchronize(-1))
	assert.Equal(t, []string{"after wait"}, l.list())
	require.NoError(t, e.Synchronize(-1))
	assert.True(t, e.Complete())
	te, ok := e.Timestamp()
	require.True(t, ok)
	ta, ok := after.Timestamp()
	require.True(t, ok)
	assert.Greater(t, ta, te, "the waiting queue resumes after the record in virtual time")
}

func TestEventReset(t *testing.T) {
	d := newDev(t, Config{})
	qa, qb := newQ(t, d, 0), newQ(t, d, 0)
	e := newEv(t, d)
	require.NoError(t, qa.Submit(RecordTask(e)))
	require.NoError(t, qa.Synchronize(-1))
	_, ok := e.Timestamp()
	require.True(t, ok)
	require.NoError(t, qb.Submit(ResetTask(e)))
	require.NoError(t, qb.Synchronize(-1))
	_, ok = e.Timestamp()
	assert.False(t, ok, "no timestamp after a reset")

	// The reset consumed the record: a wait now needs a new one.
	require.NoError(t, qb.Submit(WaitTask(e)))
	err := qb.Synchronize(10 * time.Millisecond)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT), "%v", err)
	require.NoError(t, qa.Submit(RecordTask(e)))
	require.NoError(t, qb.Synchronize(-1))
}

func TestBackPressure(t *testing.T) {
	d := newDev(t, Config{QueueDepth: 2})
	q := newQ(t, d, 0)
	g := newGate()
	var l log
	require.NoError(t, q.Submit(g.task()))
	require.NoError(t, q.Submit(HostTask(l.add("1"))))
	done := make(chan error, 1)
	go func() { done <- q.Submit(HostTask(l.add("2"))) }()
	select {
	case err := <-done:
		t.Fatalf("submit to a full ring returned: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	g.open()
	require.NoError(t, <-done)
	require.NoError(t, q.Synchronize(-1))
	assert.Equal(t, []string{"1", "2"}, l.list())
}

func TestTimeouts(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	e := newEv(t, d)
	g := newGate()
	require.NoError(t, q.Submit(g.task()))
	require.NoError(t, q.Submit(RecordTask(e)))
	for name, tc := range map[string]struct {
		call func() error
		code abi.Code
	}{
		"queue":       {func() error { return q.Synchronize(5 * time.Millisecond) }, abi.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT},
		"queue zero":  {func() error { return q.Synchronize(0) }, abi.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT},
		"event":       {func() error { return e.Synchronize(5 * time.Millisecond) }, abi.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT},
		"device":      {func() error { return d.Synchronize(5 * time.Millisecond) }, abi.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT},
		"device zero": {func() error { return d.Synchronize(0) }, abi.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT},
	} {
		err := tc.call()
		assert.True(t, isCode(err, tc.code), "%s: %v", name, err)
	}
	g.open()
	assert.NoError(t, e.Synchronize(-1))
	assert.NoError(t, q.Synchronize(time.Minute))
}

func TestDestroy(t *testing.T) {
	t.Run("wait", func(t *testing.T) {
		d := newDev(t, Config{})
		q := newQ(t, d, 0)
		var l log
		for range 5 {
			require.NoError(t, q.Submit(HostTask(l.add("x"))))
		}
		q.Destroy(true)
		assert.Len(t, l.list(), 5)
		err := q.Submit(HostTask(l.add("y")))
		assert.True(t, isCode(err, abi.ACL_ERROR_RT_STREAM_ABORT), "%v", err)
	})
	t.Run("no wait", func(t *testing.T) {
		d := newDev(t, Config{QueueDepth: 3})
		q := newQ(t, d, 0)
		other := newQ(t, d, 0)
		e := newEv(t, d)
		g := newGate()
		var l log
		require.NoError(t, q.Submit(g.task()))
		<-g.started
		require.NoError(t, q.Submit(HostTask(l.add("dropped"))))
		require.NoError(t, q.Submit(RecordTask(e)))
		blocked := make(chan error, 1)
		go func() { blocked <- q.Submit(HostTask(l.add("never"))) }()
		require.NoError(t, other.Submit(WaitTask(e)))
		q.Destroy(false)
		err := <-blocked
		assert.True(t, isCode(err, abi.ACL_ERROR_RT_STREAM_ABORT), "%v", err)
		require.NoError(t, other.Synchronize(-1), "a dropped record does not strand its waiters")
		g.open()
		require.NoError(t, d.Synchronize(-1))
		assert.Empty(t, l.list())
	})
}

func TestAsyncError(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	b, p := buf(t, 4096)
	// An address that was mapped and no longer is.
	hole, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	require.NoError(t, err)
	bad := reflect.ValueOf(hole).Pointer()
	require.NoError(t, syscall.Munmap(hole))

	require.NoError(t, q.Submit(CopyTask(p, bad, 64, DeviceToDevice)))
	require.NoError(t, q.Submit(MemsetTask(p, 3, 16)), "later tasks still run")
	err = q.Synchronize(-1)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_SYS_DMA), "%v", err)
	assert.Equal(t, byte(3), b[0])
	assert.NoError(t, q.Synchronize(-1), "the error is reported once")

	require.NoError(t, q.Submit(HostTask(func() error { return abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "boom") })))
	require.NoError(t, q.Submit(HostTask(func() error { return abi.Errorf(abi.ACL_ERROR_RT_INTERNAL_ERROR, "second") })))
	err = d.Synchronize(-1)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_AICORE_EXCEPTION), "the first error wins: %v", err)

	err = d.CopyNow(p, bad, 64, DeviceToDevice)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_SYS_DMA), "%v", err)
}

// scenario runs a fixed multi-queue program and returns every timestamp.
func scenario(t *testing.T) []time.Duration {
	d := NewDevice(Config{SDMAEngines: 2, Cost: CostModel{TaskOverhead: 3 * time.Microsecond}})
	defer d.Close()
	_, s := buf(t, 1<<20)
	_, ds := buf(t, 4<<20)
	qs := []*Queue{newQ(t, d, 0), newQ(t, d, 2), newQ(t, d, 5)}
	var evs []*Event
	for i := range 12 {
		q := qs[i%3]
		n := uint64(4096 << (i % 6))
		dir := CopyDir(1 + i%4)
		require.NoError(t, q.Submit(CopyTask(ds+uintptr(i%4)<<20, s, n, dir)))
		if i%4 == 3 {
			require.NoError(t, q.Submit(MemsetTask(ds, byte(i), n)))
		}
		e := newEv(t, d)
		require.NoError(t, q.Submit(RecordTask(e)))
		require.NoError(t, qs[(i+1)%3].Submit(WaitTask(e)))
		evs = append(evs, e)
		if i == 6 {
			require.NoError(t, qs[0].Synchronize(-1))
			require.NoError(t, d.CopyNow(ds, s, 1<<20, HostToDevice))
		}
	}
	require.NoError(t, d.Synchronize(-1))
	var ts []time.Duration
	for _, e := range evs {
		v, ok := e.Timestamp()
		require.True(t, ok)
		ts = append(ts, v)
	}
	return append(ts, d.Now())
}

func TestDeterminism(t *testing.T) {
	a := scenario(t)
	b := scenario(t)
	assert.Equal(t, a, b)
	assert.Positive(t, a[len(a)-1])
}

func TestEventPool(t *testing.T) {
	d := newDev(t, Config{MaxEvents: 2})
	e1 := newEv(t, d)
	e2 := newEv(t, d)
	assert.NotEqual(t, e1.ID(), e2.ID())
	_, err := d.NewEvent(0)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_NO_EVENT_RESOURCE), "%v", err)

	// An event destroyed with a pending record keeps its id until then.
	q := newQ(t, d, 0)
	g := newGate()
	require.NoError(t, q.Submit(g.task()))
	require.NoError(t, q.Submit(RecordTask(e1)))
	e1.Destroy()
	_, err = d.NewEvent(0)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_NO_EVENT_RESOURCE), "%v", err)
	g.open()
	require.NoError(t, q.Synchronize(-1))
	e3, err := d.NewEvent(0)
	require.NoError(t, err)
	assert.Equal(t, e1.ID(), e3.ID(), "ids are reused")
	e2.Destroy()
	e2.Destroy()
	assert.Equal(t, 1, d.EventsInUse())
}

func TestPacing(t *testing.T) {
	d := newDev(t, Config{Pacing: 1, Cost: CostModel{TaskOverhead: 5 * time.Millisecond}})
	q := newQ(t, d, 0)
	e := newEv(t, d)
	require.NoError(t, q.Submit(RecordTask(e)))
	require.NoError(t, q.Submit(HostTask(func() error { return nil })))
	require.NoError(t, q.Synchronize(-1))
	// Virtual end is 10 ms: pacing 1 must not complete it earlier.
	assert.GreaterOrEqual(t, time.Since(d.epoch), 10*time.Millisecond)
	ts, ok := e.Timestamp()
	require.True(t, ok)
	assert.Equal(t, 5*time.Millisecond, ts)
}

func TestCloseDropsStrandedWaits(t *testing.T) {
	a := NewDevice(Config{Name: "a"})
	b := newDev(t, Config{Name: "b"})
	qb := newQ(t, b, 0)
	qa, err := a.NewQueue(0)
	require.NoError(t, err)
	e := newEv(t, b)
	g := newGate()
	require.NoError(t, qb.Submit(g.task()))
	require.NoError(t, qb.Submit(RecordTask(e)))
	require.NoError(t, qa.Submit(WaitTask(e)))
	a.Close() // must not hang on the wait
	g.open()
	require.NoError(t, b.Synchronize(-1))
	err = qa.Submit(HostTask(func() error { return nil }))
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_STREAM_ABORT), "%v", err)
	_, err = a.NewQueue(0)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_DEVICE_TASK_ABORT), "%v", err)
}

func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 3 {
		d := NewDevice(Config{SDMAEngines: 4})
		q, err := d.NewQueue(0)
		require.NoError(t, err)
		e, err := d.NewEvent(0)
		require.NoError(t, err)
		_, p := buf(t, 4096)
		require.NoError(t, q.Submit(MemsetTask(p, 1, 4096)))
		require.NoError(t, q.Submit(HostTask(func() error { return nil })))
		require.NoError(t, q.Submit(RecordTask(e)))
		d.Close()
		d.Close()
	}
	// Exiting goroutines may still be counted for a moment after Close.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before)
}
