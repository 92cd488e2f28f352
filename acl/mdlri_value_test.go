package acl

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// valueParams reads a value task's parameters.
func valueParams(t *testing.T, th *core.Thread, h core.Handle) (typ int32, addr uintptr, value uint64, flag uint32) {
	t.Helper()
	var p RITaskParams
	require.NoError(t, TaskGetParams(th, h, &p))
	return int32(p.Type), uintptr(le.Uint64(p.Rsv2[vpAddr:])), le.Uint64(p.Rsv2[vpValue:]), le.Uint32(p.Rsv2[vpFlag:])
}

func setValue(th *core.Thread, h core.Handle, typ int32, addr uintptr, value uint64, flag uint32) error {
	p := RITaskParams{Type: uint32(typ)}
	le.PutUint64(p.Rsv2[vpAddr:], uint64(addr))
	le.PutUint64(p.Rsv2[vpValue:], value)
	le.PutUint32(p.Rsv2[vpFlag:], flag)
	return TaskSetParams(th, h, &p)
}

// TestCaptureValueTasks: a producer/consumer pair joined by a memory word
// (value write on the origin stream, value wait on a joined stream) is
// captured in every mode, replayed several times, and its parameters are
// read, changed and made effective by aclmdlRIUpdate.
func TestCaptureValueTasks(t *testing.T) {
	for _, mode := range []int32{abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, abi.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED} {
		t.Run(string(rune('0'+mode)), func(t *testing.T) {
			th := riSetup(t)
			prod, cons := newStream(t, th), newStream(t, th)
			fork, join := syncEvent(t, th), syncEvent(t, th)
			word, data, out := devAlloc(t, th, 16), devAlloc(t, th, 64), devAlloc(t, th, 64)
			toDev(t, th, word, make([]byte, 16))

			require.NoError(t, CaptureBegin(th, prod, mode))
			require.NoError(t, core.RecordEvent(th, fork, prod, 0))
			require.NoError(t, core.StreamWaitEvent(th, cons, fork))
			require.NoError(t, ValueWait(th, word, 5, abi.ACL_STREAM_WAIT_VALUE_EQ, cons))
			require.NoError(t, core.MemcpyAsync(th, out, 64, data, 64, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, cons))
			require.NoError(t, core.RecordEvent(th, join, cons, 0))
			require.NoError(t, core.MemsetAsync(th, data, 64, 0x5A, 64, prod))
			require.NoError(t, ValueWrite(th, word, 5, 0, prod))
			require.NoError(t, core.StreamWaitEvent(th, prod, join))
			var ri core.Handle
			require.NoError(t, CaptureEnd(th, prod, &ri))
			defer destroyRI(t, th, ri)
			assert.Equal(t, make([]byte, 16), fromDev(t, th, word, 16), "recorded, not run")

			var n uint32
			require.NoError(t, GetStreams(th, ri, nil, &n))
			streams := make([]core.Handle, n)
			require.NoError(t, GetStreams(th, ri, streams, &n))
			var write, wait core.Handle
			for _, sh := range streams {
				for _, h := range userTasks(t, th, sh) {
					var typ int32
					require.NoError(t, TaskGetType(th, h, &typ))
					switch typ {
					case abi.ACL_MODEL_RI_TASK_VALUE_WRITE:
						write = h
					case abi.ACL_MODEL_RI_TASK_VALUE_WAIT:
						wait = h
					}
				}
			}
			require.NotZero(t, write)
			require.NotZero(t, wait)
			typ, a, v, f := valueParams(t, th, wait)
			assert.Equal(t, []any{int32(abi.ACL_MODEL_RI_TASK_VALUE_WAIT), word, uint64(5), uint32(abi.ACL_STREAM_WAIT_VALUE_EQ)}, []any{typ, a, v, f})
			typ, a, v, _ = valueParams(t, th, write)
			assert.Equal(t, []any{int32(abi.ACL_MODEL_RI_TASK_VALUE_WRITE), word, uint64(5)}, []any{typ, a, v})

			target := newStream(t, th)
			for i := range 3 {
				toDev(t, th, word, make([]byte, 8))
				toDev(t, th, out, make([]byte, 64))
				toDev(t, th, data, make([]byte, 64))
				require.NoError(t, core.ExecuteAsync(th, ri, target))
				require.NoError(t, core.SynchronizeStream(th, target, -1))
				assert.Equal(t, bytes.Repeat([]byte{0x5A}, 64), fromDev(t, th, out, 64), "replay %d: the consumer copied after the producer's write", i)
				assert.Equal(t, le64(5), fromDev(t, th, word, 8))
			}

			// Move the pair to the second word with another value: the
			// replays keep the old parameters until aclmdlRIUpdate.
			require.NoError(t, setValue(th, write, abi.ACL_MODEL_RI_TASK_VALUE_WRITE, word+8, 9, 0))
			require.NoError(t, setValue(th, wait, abi.ACL_MODEL_RI_TASK_VALUE_WAIT, word+8, 8, abi.ACL_STREAM_WAIT_VALUE_GEQ))
			toDev(t, th, word, make([]byte, 16))
			require.NoError(t, Execute(th, ri, -1))
			assert.Equal(t, append(le64(5), le64(0)...), fromDev(t, th, word, 16), "before aclmdlRIUpdate")
			require.NoError(t, Update(th, ri))
			for range 2 {
				toDev(t, th, word, make([]byte, 16))
				toDev(t, th, out, make([]byte, 64))
				require.NoError(t, core.ExecuteAsync(th, ri, target))
				require.NoError(t, core.SynchronizeStream(th, target, -1))
				assert.Equal(t, append(le64(0), le64(9)...), fromDev(t, th, word, 16), "after aclmdlRIUpdate")
				assert.Equal(t, bytes.Repeat([]byte{0x5A}, 64), fromDev(t, th, out, 64))
			}
			typ, a, v, f = valueParams(t, th, wait)
			assert.Equal(t, []any{int32(abi.ACL_MODEL_RI_TASK_VALUE_WAIT), word + 8, uint64(8), uint32(abi.ACL_STREAM_WAIT_VALUE_GEQ)}, []any{typ, a, v, f})
		})
	}
}

// TestValueTaskSetParamsErrors: bad parameters are refused and change
// nothing.
func TestValueTaskSetParamsErrors(t *testing.T) {
	th := riSetup(t)
	s := newStream(t, th)
	ev := syncEvent(t, th)
	word := devAlloc(t, th, 16)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
	require.NoError(t, ValueWrite(th, word, 1, 0, s))
	require.NoError(t, ValueWait(th, word, 1, abi.ACL_STREAM_WAIT_VALUE_AND, s))
	require.NoError(t, core.RecordEvent(th, ev, s, 0))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	defer destroyRI(t, th, ri)
	var streams [1]core.Handle
	var n uint32
	require.NoError(t, GetStreams(th, ri, streams[:], &n))
	tasks := userTasks(t, th, streams[0])
	require.Len(t, tasks, 3)
	write, wait, rec := tasks[0], tasks[1], tasks[2]
	const (
		wr = abi.ACL_MODEL_RI_TASK_VALUE_WRITE
		wt = abi.ACL_MODEL_RI_TASK_VALUE_WAIT
	)
	for _, c := range []struct {
		name string
		err  error
		code abi.Code
	}{
		{"wrong type", setValue(th, wait, wr, word, 2, 0), abi.ACL_ERROR_INVALID_PARAM},
		{"NULL address", setValue(th, write, wr, 0, 2, 0), abi.ACL_ERROR_INVALID_PARAM},
		{"misaligned", setValue(th, write, wr, word+4, 2, 0), abi.ACL_ERROR_INVALID_PARAM},
		{"unknown flag", setValue(th, wait, wt, word, 2, 4), abi.ACL_ERROR_INVALID_PARAM},
		{"past the allocation", setValue(th, wait, wt, word+4096, 2, 0), abi.ACL_ERROR_RT_PARAM_INVALID},
		{"event task", setValue(th, rec, abi.ACL_MODEL_RI_TASK_EVENT_RECORD, word, 2, 0), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
	} {
		requireCode(t, c.err, c.code)
	}
	_, a, v, f := valueParams(t, th, wait)
	assert.Equal(t, []any{word, uint64(1), uint32(abi.ACL_STREAM_WAIT_VALUE_AND)}, []any{a, v, f}, "unchanged")
	_, a, v, _ = valueParams(t, th, write)
	assert.Equal(t, []any{word, uint64(1)}, []any{a, v}, "unchanged")
	require.NoError(t, Execute(th, ri, -1))
	assert.Equal(t, le64(1), fromDev(t, th, word, 8))
}

// TestBuiltValueTasks: the pair on two persistent streams bound HEAD, and
// a task-group update through the recorder of re-issued tasks.
func TestBuiltValueTasks(t *testing.T) {
	t.Run("plain", func(t *testing.T) { builtValueTasks(t, false) })
	t.Run("flow", func(t *testing.T) { builtValueTasks(t, true) })
}

// builtValueTasks runs the pair in a built RI, as a flow (a label makes
// the bound streams programs, mdlri_flow.go) or not.
func builtValueTasks(t *testing.T, flow bool) {
	th := riSetup(t)
	prod, cons := persistent(t, th), persistent(t, th)
	word, data, out := devAlloc(t, th, 8), devAlloc(t, th, 32), devAlloc(t, th, 32)
	var ri core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	require.NoError(t, BindStream(th, ri, prod, core.ModelStreamFlagHead))
	require.NoError(t, BindStream(th, ri, cons, core.ModelStreamFlagHead))
	if flow {
		require.NoError(t, SetLabel(th, newLabel(t, th), prod))
	}
	require.NoError(t, ValueWait(th, word, 3, abi.ACL_STREAM_WAIT_VALUE_GEQ, cons))
	require.NoError(t, core.MemcpyAsync(th, out, 32, data, 32, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, cons))
	require.NoError(t, core.MemsetAsync(th, data, 32, 0x33, 32, prod))
	require.NoError(t, ValueWrite(th, word, 3, 0, prod))
	require.NoError(t, EndTask(th, ri, prod))
	require.NoError(t, BuildEnd(th, ri, 0))
	defer destroyRI(t, th, ri)
	var typ int32
	require.NoError(t, TaskGetType(th, userTasks(t, th, cons)[0], &typ))
	assert.Equal(t, int32(abi.ACL_MODEL_RI_TASK_VALUE_WAIT), typ)
	ptasks := userTasks(t, th, prod)
	require.NoError(t, TaskGetType(th, ptasks[len(ptasks)-1], &typ))
	assert.Equal(t, int32(abi.ACL_MODEL_RI_TASK_VALUE_WRITE), typ)
	for range 3 {
		toDev(t, th, word, make([]byte, 8))
		toDev(t, th, data, make([]byte, 32))
		toDev(t, th, out, make([]byte, 32))
		require.NoError(t, Execute(th, ri, -1))
		assert.Equal(t, bytes.Repeat([]byte{0x33}, 32), fromDev(t, th, out, 32))
	}
}

// TestCapturedValueWaitGroupUpdate: a value write and wait in a task
// group are re-issued with other values; a re-issued task of another
// type is refused.
func TestCapturedValueWaitGroupUpdate(t *testing.T) {
	th := riSetup(t)
	s, upd := newStream(t, th), newStream(t, th)
	word := devAlloc(t, th, 8)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
	require.NoError(t, CaptureTaskGrpBegin(th, s))
	require.NoError(t, ValueWrite(th, word, 4, 0, s))
	require.NoError(t, ValueWait(th, word, 4, abi.ACL_STREAM_WAIT_VALUE_EQ, s))
	var g core.Handle
	require.NoError(t, CaptureTaskGrpEnd(th, s, &g))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	defer destroyRI(t, th, ri)
	require.NoError(t, Execute(th, ri, -1))
	assert.Equal(t, le64(4), fromDev(t, th, word, 8))

	require.NoError(t, CaptureTaskUpdateBegin(th, upd, g))
	require.NoError(t, ValueWait(th, word, 4, abi.ACL_STREAM_WAIT_VALUE_EQ, upd))
	require.NoError(t, ValueWrite(th, word, 4, 0, upd))
	requireCode(t, CaptureTaskUpdateEnd(th, upd), abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED)

	require.NoError(t, CaptureTaskUpdateBegin(th, upd, g))
	require.NoError(t, ValueWrite(th, word, 6, 0, upd))
	require.NoError(t, ValueWait(th, word, 6, abi.ACL_STREAM_WAIT_VALUE_EQ, upd))
	require.NoError(t, CaptureTaskUpdateEnd(th, upd))
	require.NoError(t, Execute(th, ri, -1))
	assert.Equal(t, le64(6), fromDev(t, th, word, 8))
}

// TestReplayedValueWaitCancelled: a replayed value wait that is never
// satisfied ends with aclmdlRIAbort (built flow) or a stream abort of
// the execution's stream (captured).
func TestReplayedValueWaitCancelled(t *testing.T) {
	th := riSetup(t)
	word := devAlloc(t, th, 8)
	toDev(t, th, word, make([]byte, 8))

	ps := persistent(t, th)
	l := newLabel(t, th)
	var built core.Handle
	require.NoError(t, BuildBegin(th, &built, 0))
	require.NoError(t, BindStream(th, built, ps, core.ModelStreamFlagHead))
	require.NoError(t, SetLabel(th, l, ps))
	require.NoError(t, ValueWait(th, word, 1, abi.ACL_STREAM_WAIT_VALUE_EQ, ps))
	require.NoError(t, EndTask(th, built, ps))
	require.NoError(t, BuildEnd(th, built, 0))
	target := newStream(t, th)
	require.NoError(t, core.ExecuteAsync(th, built, target))
	require.NoError(t, Abort(th, built))
	requireCode(t, core.SynchronizeStream(th, target, -1), abi.ACL_ERROR_RT_MODEL_ABORT_NORMAL)
	require.NoError(t, Destroy(th, built))

	s := newStream(t, th)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
	require.NoError(t, ValueWait(th, word, 1, abi.ACL_STREAM_WAIT_VALUE_EQ, s))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	defer destroyRI(t, th, ri)
	target2 := newStream(t, th)
	require.NoError(t, core.ExecuteAsync(th, ri, target2))
	got := make(chan error)
	go func() { got <- core.SynchronizeStream(core.NewThread(), target2, -1) }()
	st, _ := core.ResolveStream(th, "test", target2)
	for !st.SQ.Query() && !hasWaiter(st) { // idle: the wait did not block, and the check below fails
		runtime.Gosched()
	}
	require.NoError(t, StreamAbort(th, target2))
	requireCode(t, <-got, abi.ACL_ERROR_RT_STREAM_ABORT)
	// The instance replays again once the word is set.
	toDev(t, th, word, le64(1))
	require.NoError(t, core.ExecuteAsync(th, ri, target2))
	require.NoError(t, core.SynchronizeStream(th, target2, -1))
}

// BenchmarkCaptureValueReplay: one replay (and its synchronisation) of a
// captured producer/consumer pair joined by a value write and wait.
func BenchmarkCaptureValueReplay(b *testing.B) {
	th := benchSetup(b)
	var prod, cons, target core.Handle
	for _, h := range []*core.Handle{&prod, &cons, &target} {
		require.NoError(b, CreateStream(th, h))
	}
	var fork, join core.Handle
	require.NoError(b, CreateEventExWithFlag(th, &fork, abi.ACL_EVENT_SYNC))
	require.NoError(b, CreateEventExWithFlag(th, &join, abi.ACL_EVENT_SYNC))
	var word uintptr
	require.NoError(b, Malloc(th, &word, 16, 0, core.MallocOpts{}))
	require.NoError(b, CaptureBegin(th, prod, abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
	require.NoError(b, core.RecordEvent(th, fork, prod, 0))
	require.NoError(b, core.StreamWaitEvent(th, cons, fork))
	require.NoError(b, ValueWait(th, word, 1, abi.ACL_STREAM_WAIT_VALUE_GEQ, cons))
	require.NoError(b, core.RecordEvent(th, join, cons, 0))
	require.NoError(b, ValueWrite(th, word, 1, 0, prod))
	require.NoError(b, core.StreamWaitEvent(th, prod, join))
	var ri core.Handle
	require.NoError(b, CaptureEnd(th, prod, &ri))
	for b.Loop() {
		require.NoError(b, core.ExecuteAsync(th, ri, target))
		require.NoError(b, core.SynchronizeStream(th, target, -1))
	}
	require.NoError(b, Destroy(th, ri))
	require.NoError(b, Free(th, word, false))
	require.NoError(b, core.DestroyEvent(th, fork))
	require.NoError(b, core.DestroyEvent(th, join))
}
