package acl

import (
	"encoding/binary"
	"math"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// addr is the address of a Go byte slice, as a C program would pass a
// pageable host buffer.
func addr(b []byte) uintptr { return reflect.ValueOf(b).Pointer() }

func devAlloc(t *testing.T, th *core.Thread, n uint64) uintptr {
	t.Helper()
	var p uintptr
	require.NoError(t, Malloc(th, &p, n, 0, core.MallocOpts{}))
	t.Cleanup(func() { _ = Free(th, p, false) })
	return p
}

func toDev(t *testing.T, th *core.Thread, dst uintptr, b []byte) {
	t.Helper()
	require.NoError(t, core.Memcpy(th, dst, uint64(len(b)), addr(b), uint64(len(b)), abi.ACL_MEMCPY_HOST_TO_DEVICE))
	runtime.KeepAlive(b)
}

func fromDev(t *testing.T, th *core.Thread, src uintptr, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	require.NoError(t, core.Memcpy(th, addr(b), uint64(n), src, uint64(n), abi.ACL_MEMCPY_DEVICE_TO_HOST))
	return b
}

func newStream(t *testing.T, th *core.Thread) core.Handle {
	t.Helper()
	var h core.Handle
	require.NoError(t, CreateStream(th, &h))
	t.Cleanup(func() { _ = core.DestroyStream(th, h, true) })
	return h
}

func TestHostFuncOrder(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	var mu sync.Mutex
	var got []int
	for i := range 20 {
		require.NoError(t, LaunchHostFunc(th, s, func() { mu.Lock(); got = append(got, i); mu.Unlock() }))
	}
	var id uint32
	require.NoError(t, GetThreadLastTaskID(th, &id))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	mu.Lock()
	assert.Len(t, got, 20)
	for i, v := range got {
		assert.Equal(t, i, v, "host functions run in stream order")
	}
	mu.Unlock()
	require.NoError(t, LaunchHostFunc(th, s, func() {}))
	var id2 uint32
	require.NoError(t, GetThreadLastTaskID(th, &id2))
	assert.Equal(t, id+1, id2)
	requireCode(t, LaunchHostFunc(th, s, nil), abi.ACL_ERROR_INVALID_PARAM)
}

func TestCallbacks(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	const tid = 0x1234

	requireCode(t, LaunchCallback(th, func() {}, core.CallbackBlock, s), abi.ACL_ERROR_RT_STREAM_NO_CB_REG)
	requireCode(t, ProcessReport(th, tid, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, ProcessReport(th, tid, -2), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, ProcessReport(th, tid, 1), abi.ACL_ERROR_RT_REPORT_TIMEOUT)
	requireCode(t, UnSubscribeReport(th, tid, s), abi.ACL_ERROR_RT_STREAM_SUBSCRIBE)

	require.NoError(t, SubscribeReport(th, tid, s))
	requireCode(t, SubscribeReport(th, tid, s), abi.ACL_ERROR_RT_STREAM_SUBSCRIBE)
	requireCode(t, SubscribeReport(th, tid+1, s), abi.ACL_ERROR_RT_STREAM_SUBSCRIBE)
	requireCode(t, LaunchCallback(th, func() {}, 2, s), abi.ACL_ERROR_INVALID_PARAM)

	// The reporting goroutine plays the subscribed thread.
	var ran atomic.Int32
	var after atomic.Int32
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		rth := core.NewThread()
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = ProcessReport(rth, tid, 20)
		}
	}()
	const n = 10
	for i := range n {
		bt := int32(core.CallbackBlock)
		if i%2 == 1 {
			bt = core.CallbackNoBlock
		}
		require.NoError(t, LaunchCallback(th, func() { ran.Add(1) }, bt, s))
	}
	require.NoError(t, LaunchCallback(th, func() { ran.Add(1) }, core.CallbackBlock, s))
	require.NoError(t, LaunchHostFunc(th, s, func() { after.Store(ran.Load()) }))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	assert.Equal(t, int32(n+1), after.Load(), "a blocking callback holds the stream's later tasks")
	close(stop)
	<-done
	assert.Equal(t, int32(n+1), ran.Load(), "every callback ran exactly once")
	require.NoError(t, UnSubscribeReport(th, tid, s))
	requireCode(t, LaunchCallback(th, func() {}, core.CallbackBlock, s), abi.ACL_ERROR_RT_STREAM_NO_CB_REG)
}

func TestCallbackThreadOneDevice(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	s0 := newStream(t, th)
	require.NoError(t, SubscribeReport(th, 7, s0))
	t.Cleanup(func() { _ = UnSubscribeReport(th, 7, s0) })
	require.NoError(t, SetDevice(th, 1))
	s1 := newStream(t, th)
	requireCode(t, SubscribeReport(th, 7, s1), abi.ACL_ERROR_RT_THREAD_SUBSCRIBE)
	require.NoError(t, SubscribeReport(th, 8, s1))
	require.NoError(t, UnSubscribeReport(th, 8, s1))
}

func TestUnsubscribeReleasesBlockedStream(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	require.NoError(t, SubscribeReport(th, 9, s))
	var ran atomic.Bool
	require.NoError(t, LaunchCallback(th, func() { ran.Store(true) }, core.CallbackBlock, s))
	// Nobody processes reports: the stream waits until unsubscribed.
	for {
		core.CbState.Mu.Lock()
		pending := len(core.CbState.ByTid[9].Items)
		core.CbState.Mu.Unlock()
		if pending > 0 {
			break
		}
		runtime.Gosched()
	}
	require.NoError(t, UnSubscribeReport(th, 9, s))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	assert.False(t, ran.Load())
}

// failTask queues a task that fails with code, as a faulting kernel would.
func failTask(t *testing.T, th *core.Thread, h core.Handle, code abi.Code) {
	t.Helper()
	s, err := core.ResolveStream(th, "test", h)
	require.NoError(t, err)
	require.NoError(t, s.SubmitTask(th, "test", tsfw.HostTask(func() error { return abi.Errorf(code, "injected failure") })))
}

func TestExceptionCallbacks(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	var mu sync.Mutex
	var got []core.ExceptionInfo
	cb := func(info *core.ExceptionInfo) { mu.Lock(); got = append(got, *info); mu.Unlock() }
	requireCode(t, ExceptionInfoCallbackRegister(th, 0, cb), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, ExceptionInfoCallbackUnregister(th, 0), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, ExceptionInfoCallbackUnregister(th, 0x99), "unknown: success")
	require.NoError(t, ExceptionInfoCallbackRegister(th, 0x10, cb))
	require.NoError(t, ExceptionInfoCallbackRegister(th, 0x10, cb), "twice keeps one")
	require.NoError(t, SetExceptionInfoCallback(th, 0x10, cb))
	t.Cleanup(func() {
		_ = ExceptionInfoCallbackUnregister(th, 0x10)
		_ = SetExceptionInfoCallback(th, 0, nil)
	})

	require.NoError(t, LaunchHostFunc(th, s, func() {}))
	failTask(t, th, s, abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	var last uint32
	require.NoError(t, GetThreadLastTaskID(th, &last))
	requireCode(t, core.SynchronizeStream(th, s, -1), abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	var sid int32
	require.NoError(t, StreamGetID(th, s, &sid))
	mu.Lock()
	require.Len(t, got, 2, "slot and registration: called twice, before the synchronize returned")
	for _, info := range got {
		assert.Equal(t, last, info.TaskID)
		assert.Equal(t, uint32(sid), info.StreamID)
		assert.Equal(t, uint32(0), info.DeviceID)
		assert.Equal(t, uint32(abi.ACL_ERROR_RT_AICORE_EXCEPTION), info.ErrorCode)
		assert.Equal(t, uint32(th.ID), info.ThreadID)
	}
	got = nil
	mu.Unlock()

	require.NoError(t, SetExceptionInfoCallback(th, 0, nil))
	require.NoError(t, ExceptionInfoCallbackUnregister(th, 0x10))
	failTask(t, th, s, abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	requireCode(t, core.SynchronizeStream(th, s, -1), abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	mu.Lock()
	assert.Empty(t, got, "nothing registered")
	mu.Unlock()
}

func TestStopOnFailure(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	a, b := newStream(t, th), newStream(t, th)
	// Continue mode: a failure leaves the stream usable.
	failTask(t, th, a, abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	requireCode(t, core.SynchronizeStream(th, a, -1), abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	require.NoError(t, LaunchHostFunc(th, a, func() {}))
	require.NoError(t, core.SynchronizeStream(th, a, -1))

	require.NoError(t, SetStreamFailureMode(th, a, abi.ACL_STOP_ON_FAILURE))
	failTask(t, th, a, abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	requireCode(t, core.SynchronizeStream(th, a, -1), abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	requireCode(t, LaunchHostFunc(th, a, func() {}), abi.ACL_ERROR_RT_STREAM_ABORT)
	requireCode(t, LaunchHostFunc(th, b, func() {}), abi.ACL_ERROR_RT_STREAM_ABORT)
	requireCode(t, LaunchHostFunc(th, 0, func() {}), abi.ACL_ERROR_RT_STREAM_ABORT)

	// Another context is not affected.
	var c core.Handle
	require.NoError(t, CreateContext(th, &c, 0))
	t.Cleanup(func() { _ = core.DestroyContext(th, c) })
	require.NoError(t, LaunchHostFunc(th, 0, func() {}))
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
}

func TestStreamAbortAndStop(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	word := devAlloc(t, th, 8)
	toDev(t, th, word, make([]byte, 8))
	require.NoError(t, ValueWait(th, word, 1, abi.ACL_STREAM_WAIT_VALUE_EQ, s))
	var ran atomic.Bool
	require.NoError(t, LaunchHostFunc(th, s, func() { ran.Store(true) }))
	got := make(chan error)
	go func() { got <- core.SynchronizeStream(core.NewThread(), s, -1) }()
	st, _ := core.ResolveStream(th, "test", s)
	for !st.SQ.Query() && !hasWaiter(st) {
		runtime.Gosched()
	}
	require.NoError(t, StreamAbort(th, s))
	requireCode(t, <-got, abi.ACL_ERROR_RT_STREAM_ABORT)
	assert.False(t, ran.Load(), "queued tasks are discarded")
	require.NoError(t, LaunchHostFunc(th, s, func() { ran.Store(true) }), "an aborted stream accepts tasks")
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	assert.True(t, ran.Load())

	requireCode(t, StreamStop(th, 0), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, StreamStop(th, s))
	requireCode(t, LaunchHostFunc(th, s, func() {}), abi.ACL_ERROR_RT_STREAM_ABORT)
}

// hasWaiter reports whether a Synchronize is parked on s (test helper: it
// makes the abort race-free).
func hasWaiter(s *core.Stream) bool {
	return s.SQ.Parked() > 0
}

func TestValueWaitWriteAcrossStreams(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	waiter, writer := newStream(t, th), newStream(t, th)
	word := devAlloc(t, th, 64)
	toDev(t, th, word, make([]byte, 64))
	var order []string
	var mu sync.Mutex
	note := func(s string) func() { return func() { mu.Lock(); order = append(order, s); mu.Unlock() } }
	require.NoError(t, ValueWait(th, word, 2, abi.ACL_STREAM_WAIT_VALUE_GEQ, waiter))
	require.NoError(t, LaunchHostFunc(th, waiter, note("waiter")))
	require.NoError(t, LaunchHostFunc(th, writer, note("writer")))
	require.NoError(t, ValueWrite(th, word, 2, 0, writer))
	require.NoError(t, core.SynchronizeStream(th, waiter, -1))
	assert.Equal(t, []string{"writer", "waiter"}, order)

	// A host write (aclrtMemcpy) releases a wait too.
	require.NoError(t, ValueWait(th, word+8, 5, abi.ACL_STREAM_WAIT_VALUE_EQ, waiter))
	toDev(t, th, word+8, binary.LittleEndian.AppendUint64(nil, 5))
	require.NoError(t, core.SynchronizeStream(th, waiter, -1))

	for _, c := range []struct {
		name string
		err  error
		code abi.Code
	}{
		{"NULL", ValueWrite(th, 0, 1, 0, writer), abi.ACL_ERROR_INVALID_PARAM},
		{"unaligned", ValueWrite(th, word+4, 1, 0, writer), abi.ACL_ERROR_INVALID_PARAM},
		{"write flag", ValueWrite(th, word, 1, 1, writer), abi.ACL_ERROR_INVALID_PARAM},
		{"wait flag", ValueWait(th, word, 1, 4, writer), abi.ACL_ERROR_INVALID_PARAM},
		{"host memory", ValueWrite(th, addr(make([]byte, 16))&^7+8, 1, 0, writer), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"past the end", ValueWrite(th, word+4096, 1, 0, writer), abi.ACL_ERROR_RT_PARAM_INVALID},
	} {
		require.Error(t, c.err, c.name)
		assert.Equal(t, c.code, abi.CodeOf(c.err), "%s: %v", c.name, c.err)
	}
}

func TestReduceAsync(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	const n = 256
	dst, src := devAlloc(t, th, n), devAlloc(t, th, n)
	type tc struct {
		dt   int32
		kind int32
		td   tsfw.DType
	}
	var cases []tc
	for dt, td := range reduceTypes {
		for kind := range reduceOps {
			cases = append(cases, tc{dt, kind, td})
		}
	}
	for _, c := range cases {
		a, b := make([]byte, n), make([]byte, n)
		for i := 0; i < n; i += int(c.td.Size()) {
			putSample(a[i:], c.td, i)
			putSample(b[i:], c.td, n-i)
		}
		toDev(t, th, dst, a)
		toDev(t, th, src, b)
		require.NoError(t, ReduceAsync(th, dst, src, n, c.kind, c.dt, s, 0))
		require.NoError(t, core.SynchronizeStream(th, s, -1))
		want := append([]byte(nil), a...)
		tsfw.Reduce(want, b, reduceOps[c.kind], c.td)
		assert.Equal(t, want, fromDev(t, th, dst, n), "dtype %d kind %d", c.dt, c.kind)
		assert.NotEqual(t, a, want, "the reduction changed something")
	}
	requireCode(t, ReduceAsync(th, dst, src, n, 14, abi.ACL_FLOAT, s, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, ReduceAsync(th, dst, src, n, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_UINT64, s, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, ReduceAsync(th, dst, src, 6, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_FLOAT, s, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, ReduceAsync(th, dst, src, n, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_FLOAT, s, 8), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, ReduceAsync(th, dst, src, 2*n, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_FLOAT, s, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, ReduceAsync(th, dst, src, 0, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_FLOAT, s, 0))
}

// putSample writes a small value derived from i, of type dt, at b.
func putSample(b []byte, dt tsfw.DType, i int) {
	v := float32(i%37) - 18
	switch dt {
	case tsfw.Int8:
		b[0] = byte(int8(v))
	case tsfw.Int16:
		binary.LittleEndian.PutUint16(b, uint16(int16(v)))
	case tsfw.Int32:
		binary.LittleEndian.PutUint32(b, uint32(int32(v)))
	case tsfw.Float16:
		binary.LittleEndian.PutUint16(b, tsfw.FloatToHalf(v/4))
	case tsfw.BFloat16:
		binary.LittleEndian.PutUint16(b, tsfw.FloatToBF16(v/4))
	case tsfw.Float32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(v/4))
	}
}

func TestRandomNumAsync(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	const n = 1024
	out, ctr := devAlloc(t, th, 4*n), devAlloc(t, th, 16)
	inline := func(v uint64, size uint8) RandomParaInfo {
		p := RandomParaInfo{Size: size}
		binary.LittleEndian.PutUint64(p.ValueOrAddr[:], v)
		return p
	}
	info := RandomNumTaskInfo{DataType: abi.ACL_INT32, RandomNumFuncParaInfo: RandomNumFuncParaInfo{FuncType: abi.ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS},
		RandomResultAddr: out, RandomCounterAddr: ctr, RandomSeed: inline(7, 8), RandomNum: inline(n, 8)}
	for i, p := range []RandomParaInfo{inline(uint64(math.MaxUint64-9), 4), inline(10, 4)} { // [-10, 10)
		b := info.RandomNumFuncParaInfo.ParamInfo[16*i:]
		b[0], b[9] = p.IsAddr, p.Size
		copy(b[1:9], p.ValueOrAddr[:])
	}
	run := func() []byte {
		toDev(t, th, ctr, make([]byte, 16))
		require.NoError(t, RandomNumAsync(th, &info, s, 0))
		require.NoError(t, core.SynchronizeStream(th, s, -1))
		return fromDev(t, th, out, 4*n)
	}
	first := run()
	assert.Equal(t, first, run(), "same seed and counter: same numbers")
	seen := map[int32]bool{}
	for i := range n {
		v := int32(binary.LittleEndian.Uint32(first[4*i:]))
		require.True(t, v >= -10 && v < 10, "%d", v)
		seen[v] = true
	}
	assert.Len(t, seen, 20, "every value of the range appears")
	info.RandomSeed = inline(8, 8)
	assert.NotEqual(t, first, run(), "another seed")

	bad := info
	bad.DataType = abi.ACL_INT8
	requireCode(t, RandomNumAsync(th, &bad, s, 0), abi.ACL_ERROR_INVALID_PARAM)
	bad = info
	bad.RandomNumFuncParaInfo.FuncType = abi.ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS
	requireCode(t, RandomNumAsync(th, &bad, s, 0), abi.ACL_ERROR_INVALID_PARAM)
	bad = info
	bad.RandomNum = inline(2*n, 8)
	requireCode(t, RandomNumAsync(th, &bad, s, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	bad = info
	bad.RandomSeed.Size = 0
	requireCode(t, RandomNumAsync(th, &bad, s, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, RandomNumAsync(th, nil, s, 0), abi.ACL_ERROR_INVALID_PARAM)
}
