package tsfw

import (
	"encoding/binary"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/npuemu/npuemu/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTaskErrorHookRunsBeforeSynchronizeReturns(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []TaskError
	)
	SetTaskErrorHook(func(te TaskError) {
		mu.Lock()
		seen = append(seen, te)
		mu.Unlock()
	})
	t.Cleanup(func() { SetTaskErrorHook(nil) })
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	_, p := buf(t, 64)
	id1, err := q.SubmitID(MemsetTask(p, 1, 8))
	require.NoError(t, err)
	id2, err := q.SubmitID(HostTask(func() error { return abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "boom") }))
	require.NoError(t, err)
	assert.Equal(t, id1+1, id2)
	err = q.Synchronize(-1)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_AICORE_EXCEPTION), "%v", err)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, seen, 1, "the hook ran before Synchronize returned")
	assert.Same(t, q, seen[0].Queue)
	assert.Equal(t, id2, seen[0].TaskID)
	assert.True(t, isCode(seen[0].Err, abi.ACL_ERROR_RT_AICORE_EXCEPTION))
}

func TestStopFromHook(t *testing.T) {
	d := newDev(t, Config{})
	q1, q2 := newQ(t, d, 0), newQ(t, d, 0)
	stopErr := abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT, "stopped")
	SetTaskErrorHook(func(te TaskError) { q1.Stop(stopErr); q2.Stop(stopErr) })
	t.Cleanup(func() { SetTaskErrorHook(nil) })
	g := newGate()
	require.NoError(t, q2.Submit(g.task()))
	var ran atomic.Bool
	require.NoError(t, q2.Submit(HostTask(func() error { ran.Store(true); return nil })))
	require.NoError(t, q1.Submit(HostTask(func() error { return abi.Errorf(abi.ACL_ERROR_RT_INTERNAL_ERROR, "fail") })))
	err := q1.Synchronize(-1)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_INTERNAL_ERROR), "%v", err)
	err = q2.Submit(HostTask(func() error { return nil }))
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_STREAM_ABORT), "a stopped queue refuses tasks: %v", err)
	g.open()
	require.NoError(t, q2.Synchronize(-1))
	assert.False(t, ran.Load(), "queued tasks of a stopped queue are dropped")
	assert.Error(t, q1.Stopped())
}

func TestAbortReleasesSynchronize(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	_, p := buf(t, 64)
	// A value wait that nothing satisfies holds the queue.
	_, err := q.SubmitValueWait(p, 1, WaitEQ)
	require.NoError(t, err)
	var ran atomic.Bool
	require.NoError(t, q.Submit(HostTask(func() error { ran.Store(true); return nil })))
	done := make(chan error)
	go func() { done <- q.Synchronize(-1) }()
	// Abort only once the waiter is parked, so it is the one released.
	for {
		d.mu.Lock()
		n := len(q.waiters)
		d.mu.Unlock()
		if n > 0 {
			break
		}
		runtimeYield()
	}
	q.Abort(abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT, "aborted"))
	err = <-done
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_STREAM_ABORT), "%v", err)
	require.NoError(t, q.Synchronize(-1))
	assert.False(t, ran.Load())
	require.NoError(t, q.Submit(MemsetTask(p, 7, 1)), "an aborted queue accepts tasks")
	require.NoError(t, q.Synchronize(-1))
}

func TestValueWaitWrite(t *testing.T) {
	d := newDev(t, Config{SDMAEngines: 2})
	waiter, writer := newQ(t, d, 0), newQ(t, d, 0)
	b, p := buf(t, 64)
	var order []string
	var mu sync.Mutex
	note := func(s string) func() error {
		return func() error { mu.Lock(); order = append(order, s); mu.Unlock(); return nil }
	}
	_, err := waiter.SubmitValueWait(p, 5, WaitGEQ)
	require.NoError(t, err)
	require.NoError(t, waiter.Submit(HostTask(note("after wait"))))
	require.NoError(t, writer.Submit(HostTask(note("before write"))))
	wt, err := ValueWriteTask(p, 3)
	require.NoError(t, err)
	require.NoError(t, writer.Submit(wt))
	require.NoError(t, writer.Synchronize(-1))
	assert.False(t, waiter.Query(), "3 >= 5 is false: still waiting")
	wt, err = ValueWriteTask(p, 9)
	require.NoError(t, err)
	require.NoError(t, writer.Submit(wt))
	require.NoError(t, waiter.Synchronize(-1))
	assert.Equal(t, uint64(9), binary.LittleEndian.Uint64(b))
	assert.Equal(t, []string{"before write", "after wait"}, order)

	// A synchronous host copy wakes a wait too.
	_, err = waiter.SubmitValueWait(p, 0x10, WaitAND)
	require.NoError(t, err)
	src, sp := buf(t, 8)
	binary.LittleEndian.PutUint64(src, 0x30)
	require.NoError(t, d.CopyNow(p, sp, 8, HostToDevice))
	require.NoError(t, waiter.Synchronize(-1))

	_, err = waiter.SubmitValueWait(p+1, 0, WaitEQ)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "unaligned: %v", err)
	_, err = waiter.SubmitValueWait(p, 0, 4)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "unknown flag: %v", err)
}

func TestValueWaitCancelledByClose(t *testing.T) {
	d := NewDevice(Config{})
	q, err := d.NewQueue(0)
	require.NoError(t, err)
	_, p := buf(t, 8)
	_, err = q.SubmitValueWait(p, 1, WaitEQ)
	require.NoError(t, err)
	d.Close() // returns: the wait is cancelled
}

func TestValueSatisfied(t *testing.T) {
	for _, c := range []struct {
		word, value uint64
		flag        uint32
		want        bool
	}{
		{5, 5, WaitGEQ, true}, {6, 5, WaitGEQ, true}, {4, 5, WaitGEQ, false},
		{0, math.MaxUint64, WaitGEQ, true}, // wraps: (int64)(0 - max) = 1
		{5, 5, WaitEQ, true}, {4, 5, WaitEQ, false},
		{6, 2, WaitAND, true}, {4, 2, WaitAND, false},
		{0, 0, WaitNOR, true}, {math.MaxUint64, 0, WaitNOR, false}, {1, math.MaxUint64 - 1, WaitNOR, false},
	} {
		assert.Equal(t, c.want, ValueSatisfied(c.word, c.value, c.flag), "%+v", c)
	}
}

func TestReduce(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	db, dp := buf(t, 64)
	sb, sp := buf(t, 64)
	for i := range 16 {
		binary.LittleEndian.PutUint32(db[4*i:], math.Float32bits(float32(i)))
		binary.LittleEndian.PutUint32(sb[4*i:], math.Float32bits(float32(10-i)))
	}
	task, err := ReduceTask(dp, sp, 64, ReduceMax, Float32)
	require.NoError(t, err)
	require.NoError(t, q.Submit(task))
	require.NoError(t, q.Synchronize(-1))
	for i := range 16 {
		assert.Equal(t, float32(max(i, 10-i)), math.Float32frombits(binary.LittleEndian.Uint32(db[4*i:])))
	}
	_, err = ReduceTask(dp, sp, 6, ReduceSum, Float32)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "%v", err)
	_, err = ReduceTask(dp, sp, 8, ReduceSum, Uint64)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "%v", err)

	for _, c := range []struct {
		name   string
		dt     DType
		op     ReduceOp
		a, b   []byte
		expect []byte
	}{
		{"int8 sum wraps", Int8, ReduceSum, []byte{127, 0xFE}, []byte{1, 1}, []byte{0x80, 0xFF}},
		{"int8 min signed", Int8, ReduceMin, []byte{0xFF, 3}, []byte{1, 2}, []byte{0xFF, 2}},
		{"int16 max", Int16, ReduceMax, []byte{0xFF, 0xFF}, []byte{2, 0}, []byte{2, 0}},
		{"int32 equal", Int32, ReduceEqual, []byte{1, 0, 0, 0, 5, 0, 0, 0}, []byte{1, 0, 0, 0, 6, 0, 0, 0}, []byte{1, 0, 0, 0, 0, 0, 0, 0}},
		{"fp16 sum", Float16, ReduceSum, le16(FloatToHalf(1.5)), le16(FloatToHalf(2.25)), le16(FloatToHalf(3.75))},
		{"bf16 min", BFloat16, ReduceMin, le16(FloatToBF16(-2)), le16(FloatToBF16(1)), le16(FloatToBF16(-2))},
	} {
		got := append([]byte(nil), c.a...)
		Reduce(got, c.b, c.op, c.dt)
		assert.Equal(t, c.expect, got, c.name)
	}
}

func le16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }

func TestHalfConversions(t *testing.T) {
	for _, c := range []struct {
		h uint16
		f float32
	}{{0x3C00, 1}, {0xC000, -2}, {0x7BFF, 65504}, {0x0001, 5.960464477539063e-08}, {0x7C00, float32(math.Inf(1))}, {0x0000, 0}} {
		assert.Equal(t, c.f, HalfToFloat(c.h), "%#x", c.h)
		assert.Equal(t, c.h, FloatToHalf(c.f), "%v", c.f)
	}
	assert.Equal(t, uint16(0x3C00), FloatToHalf(1+1.0/4096), "ties go to even")
	assert.Equal(t, uint16(0x7C00), FloatToHalf(1e6), "overflow is Inf")
	assert.Equal(t, uint16(0x3F80), FloatToBF16(1))
	assert.Equal(t, float32(1), BF16ToFloat(0x3F80))
	for h := range uint32(0x7C00) { // every finite positive half survives a round trip
		require.Equal(t, uint16(h), FloatToHalf(HalfToFloat(uint16(h))))
	}
}

func TestPhiloxKnownAnswers(t *testing.T) {
	// Known-answer vectors of Philox4x32-10 (Random123).
	assert.Equal(t, [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
		philoxBlock([4]uint32{}, [2]uint32{}))
	assert.Equal(t, [4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
		philoxBlock([4]uint32{^uint32(0), ^uint32(0), ^uint32(0), ^uint32(0)}, [2]uint32{^uint32(0), ^uint32(0)}))
	assert.Equal(t, [4]uint32{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
		philoxBlock([4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0}))
}

func TestRandomTask(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	const n = 4096
	ob, op := buf(t, 4*n)
	cb, cp := buf(t, 16)
	f32 := func(v float32) RandomParam { return RandomParam{Value: uint64(math.Float32bits(v)), Size: 4} }
	spec := RandomSpec{Dist: Uniform, DType: Float32, Out: op, Counter: cp,
		Seed: RandomParam{Value: 42, Size: 8}, Count: RandomParam{Value: n, Size: 8}, A: f32(-1), B: f32(3)}
	run := func() []byte {
		task, err := RandomTask(spec)
		require.NoError(t, err)
		require.NoError(t, q.Submit(task))
		require.NoError(t, q.Synchronize(-1))
		return append([]byte(nil), ob...)
	}
	first := run()
	assert.Equal(t, uint32(n/4), binary.LittleEndian.Uint32(cb), "one block per four floats")
	second := run()
	assert.NotEqual(t, first, second, "the counter moved on")
	clear(cb)
	assert.Equal(t, first, run(), "same seed and counter, same numbers")
	var sum float64
	for i := range n {
		v := math.Float32frombits(binary.LittleEndian.Uint32(first[4*i:]))
		require.True(t, v >= -1 && v < 3, "%v", v)
		sum += float64(v)
	}
	assert.InDelta(t, 1.0, sum/n, 0.1, "mean of U(-1, 3)")

	clear(cb)
	spec.Dist, spec.A, spec.B = TruncatedNormal, f32(10), f32(2)
	out := run()
	for i := range n {
		v := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:]))
		require.True(t, v >= 6 && v <= 14, "within two stddev: %v", v)
	}

	spec.Dist, spec.DType = Normal, Int32
	_, err := RandomTask(spec)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "%v", err)
}

func runtimeYield() { runtime.Gosched() }

// TestValueWaitTaskInGraph: a value wait built for a queue runs in a
// graph replay on that queue, blocks it until the word is written by
// another queue of the graph, and is cancelled by an abort of its queue.
func TestValueWaitTaskInGraph(t *testing.T) {
	d := newDev(t, Config{SDMAEngines: 2})
	cons, prod := newQ(t, d, 0), newQ(t, d, 0)
	b, p := buf(t, 16)
	for i := range uint64(3) {
		wait, err := cons.ValueWaitTask(p, i+1, WaitEQ)
		require.NoError(t, err)
		write, err := ValueWriteTask(p, i+1)
		require.NoError(t, err)
		after, err := ValueWriteTask(p+8, 10*(i+1))
		require.NoError(t, err)
		require.NoError(t, d.SubmitGraph([]*Queue{cons, prod}, []Task{wait, after, write}, []uint16{0, 0, 1}))
		require.NoError(t, cons.Synchronize(-1))
		assert.Equal(t, i+1, binary.LittleEndian.Uint64(b))
		assert.Equal(t, 10*(i+1), binary.LittleEndian.Uint64(b[8:]), "the task after the wait ran after the write")
	}
	_, err := cons.ValueWaitTask(p+4, 0, WaitEQ)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "unaligned: %v", err)
	_, err = cons.ValueWaitTask(p, 0, WaitNOR+1)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_PARAM_INVALID), "unknown condition: %v", err)

	// Nothing writes 99: only an abort of the queue ends the wait.
	wait, err := cons.ValueWaitTask(p, 99, WaitEQ)
	require.NoError(t, err)
	require.NoError(t, d.SubmitGraph([]*Queue{cons}, []Task{wait}, []uint16{0}))
	cons.Abort(abi.Errorf(abi.ACL_ERROR_RT_STREAM_ABORT, "aborted"))
	require.NoError(t, cons.Synchronize(-1))
	assert.True(t, cons.Query())
}
