package tsfw

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// busyLog records OnBusy calls.
type busyLog struct {
	mu    sync.Mutex
	calls int
	ns    [BusySDMA + 1]time.Duration // busy reported, by engine
	end   time.Duration               // end of the last call
}

func (l *busyLog) onBusy(e BusyEngine, busy, end time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	l.ns[e] += busy
	l.end = end
}

func (l *busyLog) get() (calls int, ns [BusySDMA + 1]time.Duration, end time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.calls, l.ns, l.end
}

// TestBusyReports: a queue reports its first task's busy time at once,
// then holds what its tasks add until its stamps pass busyLag of device
// time (so a reader is at most busyLag behind), reports the rest when it
// is destroyed or its device closed, and tells every task's end as it is
// stamped (the node's clock); nothing is lost or counted twice, on any
// engine.
func TestBusyReports(t *testing.T) {
	var log busyLog
	d := newDev(t, Config{Name: "busy", CubeCores: 2, VectorCores: 4, SDMAEngines: 1, OnBusy: log.onBusy})
	q := newQ(t, d, 0)
	one := KernelSpec{Blocks: 1, BlockCost: time.Microsecond}
	submit := func(q *Queue, spec KernelSpec) {
		_, err := q.SubmitID(KernelTask(emptyKernel{}, spec))
		require.NoError(t, err)
	}

	submit(q, one)
	calls, ns, end := log.get()
	assert.Equal(t, 1, calls)
	assert.Equal(t, time.Microsecond, ns[BusyCube], "the first task is reported at once")
	assert.Equal(t, q.VirtualEnd(), end)

	for range 10 {
		submit(q, one)
	}
	require.NoError(t, q.Synchronize(-1))
	calls, ns, end = log.get()
	assert.Equal(t, 11, calls, "every stamp tells its end")
	assert.Equal(t, q.VirtualEnd(), end)
	assert.Equal(t, time.Microsecond, ns[BusyCube], "10 µs of busy time held: less than busyLag of device time")

	// 300 more kernels of ≥ 1 µs of device time each: reports at least
	// every busyLag.
	for range 300 {
		submit(q, one)
	}
	_, ns, _ = log.get()
	assert.Less(t, ns[BusyCube], 311*time.Microsecond, "the last tasks are held")
	assert.LessOrEqual(t, 311*time.Microsecond-ns[BusyCube], busyLag, "held: at most busyLag of device time")

	// Other engines: a vector kernel, a mix kernel (its vector part twice
	// its cube part by default), a memset on the SDMA engine; Destroy
	// reports what the queue held, dropped tasks included (counted when
	// stamped, as before).
	submit(q, KernelSpec{Blocks: 2, BlockCost: 3 * time.Microsecond, Kind: CoreVector})
	submit(q, KernelSpec{Blocks: 1, BlockCost: 5 * time.Microsecond, Kind: CoreMix})
	_, dst := buf(t, 4096)
	_, err := q.SubmitID(MemsetTask(dst, 0, 4096))
	require.NoError(t, err)
	submit(q, one)
	q.Destroy(false)
	_, ns, _ = log.get()
	assert.Equal(t, 317*time.Microsecond, ns[BusyCube])
	assert.Equal(t, 16*time.Microsecond, ns[BusyVector])
	assert.Positive(t, ns[BusySDMA], "the memset's duration")

	// Closing the device reports what its queues held.
	q2 := newQ(t, d, 0)
	submit(q2, one)
	submit(q2, one)
	d.Close()
	_, ns, _ = log.get()
	assert.Equal(t, 319*time.Microsecond, ns[BusyCube])
}

// TestReservedNumbersRank: tasks numbered from a reservation rank among
// equal-priority queues by those numbers, as if submitted when the
// reservation was made: with the one core busy, a run reserved before
// another queue's kernel was submitted runs before that kernel, though
// its tasks were submitted after it.
func TestReservedNumbersRank(t *testing.T) {
	d := newDev(t, Config{Name: "seq", CubeCores: 1})
	a, b, c := newQ(t, d, 0), newQ(t, d, 0), newQ(t, d, 0)
	log := &orderLog{}
	gate := make(chan struct{})
	one := KernelSpec{Blocks: 1}
	_, err := c.SubmitID(KernelTask(&orderKernel{n: 0, log: log, gate: gate}, one))
	require.NoError(t, err)
	first := d.ReserveSeq(2)
	_, err = b.SubmitID(KernelTask(&orderKernel{n: 3, log: log}, one))
	require.NoError(t, err)
	for i := range 2 {
		task := KernelTask(&orderKernel{n: 1 + i, log: log}, one)
		task.Number(first + uint64(i))
		_, err = a.SubmitID(task)
		require.NoError(t, err)
	}
	close(gate)
	for _, q := range []*Queue{a, b, c} {
		require.NoError(t, q.Synchronize(-1))
	}
	assert.Equal(t, []int{0, 1, 2, 3}, log.get(), "the reserved run ranks before the later number")
	assert.Equal(t, first+2, d.seq.Load(), "b's kernel was numbered after the reservation")
}
