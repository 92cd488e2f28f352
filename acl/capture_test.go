package acl

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// riSetup is setup plus device 0 and a check that no RI, task or group
// handle outlives the test.
func riSetup(t *testing.T) *core.Thread {
	t.Helper()
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	t.Cleanup(func() {
		assert.Zero(t, core.ModelRIs.Len(), "model run instances left")
		assert.Zero(t, core.RiTasks.Len(), "task handles left")
		assert.Zero(t, core.TaskGrps.Len(), "task group handles left")
		assert.Zero(t, core.ActiveCaptures.Load(), "captures left active")
	})
	return th
}

func syncEvent(t *testing.T, th *core.Thread) core.Handle {
	t.Helper()
	var e core.Handle
	require.NoError(t, CreateEventExWithFlag(th, &e, abi.ACL_EVENT_SYNC))
	t.Cleanup(func() { _ = core.DestroyEvent(th, e) })
	return e
}

func destroyRI(t *testing.T, th *core.Thread, ri core.Handle) {
	t.Helper()
	require.NoError(t, Destroy(th, ri))
}

func TestCaptureRecordsAndReplays(t *testing.T) {
	th := riSetup(t)
	s := newStream(t, th)
	a, b := devAlloc(t, th, 64), devAlloc(t, th, 64)
	toDev(t, th, a, bytes.Repeat([]byte{1}, 64))
	toDev(t, th, b, make([]byte, 64))

	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
	var status int32
	var during core.Handle
	require.NoError(t, core.CaptureGetInfo(th, s, &status, &during))
	assert.Equal(t, int32(abi.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE), status)
	require.NoError(t, core.MemsetAsync(th, a, 64, 7, 32, s))
	require.NoError(t, core.MemcpyAsync(th, b, 64, a, 64, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, s))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	assert.Equal(t, during, ri, "GetInfo names the RI being captured")
	defer destroyRI(t, th, ri)

	// Recorded, not executed.
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	assert.Equal(t, make([]byte, 64), fromDev(t, th, b, 64))

	require.NoError(t, core.ExecuteAsync(th, ri, s))
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	want := append(bytes.Repeat([]byte{7}, 32), bytes.Repeat([]byte{1}, 32)...)
	assert.Equal(t, want, fromDev(t, th, b, 64))

	// A replay repeats the tasks, it does not re-read the original calls.
	toDev(t, th, a, make([]byte, 64))
	toDev(t, th, b, make([]byte, 64))
	require.NoError(t, Execute(th, ri, -1))
	assert.Equal(t, append(bytes.Repeat([]byte{7}, 32), make([]byte, 32)...), fromDev(t, th, b, 64))

	require.NoError(t, core.CaptureGetInfo(th, s, &status, nil))
	assert.Equal(t, int32(abi.ACL_MODEL_RI_CAPTURE_STATUS_NONE), status)
}

func TestCaptureForkJoin(t *testing.T) {
	th := riSetup(t)
	s1, s2 := newStream(t, th), newStream(t, th)
	fork, join := syncEvent(t, th), syncEvent(t, th)
	a, b := devAlloc(t, th, 16), devAlloc(t, th, 16)

	capture := func(rejoin bool) (core.Handle, error) {
		require.NoError(t, CaptureBegin(th, s1, abi.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL))
		require.NoError(t, core.MemsetAsync(th, a, 16, 3, 16, s1))
		require.NoError(t, core.RecordEvent(th, fork, s1, 0))
		require.NoError(t, core.StreamWaitEvent(th, s2, fork)) // s2 joins the capture
		var st int32
		require.NoError(t, core.CaptureGetInfo(th, s2, &st, nil))
		assert.Equal(t, int32(abi.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE), st)
		require.NoError(t, core.MemcpyAsync(th, b, 16, a, 16, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, s2))
		if rejoin {
			require.NoError(t, core.RecordEvent(th, join, s2, 0))
			require.NoError(t, core.StreamWaitEvent(th, s1, join))
		}
		requireCode(t, CaptureEnd(th, s2, new(core.Handle)), abi.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED)
		var ri core.Handle
		err := CaptureEnd(th, s1, &ri)
		return ri, err
	}
	_, err := capture(false)
	requireCode(t, err, abi.ACL_ERROR_RT_STREAM_UNJOINED)
	assert.Zero(t, core.ActiveCaptures.Load(), "a failed CaptureEnd still ends the capture")

	ri, err := capture(true)
	require.NoError(t, err)
	defer destroyRI(t, th, ri)
	var n uint32
	require.NoError(t, GetStreams(th, ri, nil, &n))
	assert.Equal(t, uint32(2), n)
	for range 3 {
		toDev(t, th, b, make([]byte, 16))
		require.NoError(t, core.ExecuteAsync(th, ri, s1))
		require.NoError(t, core.SynchronizeStream(th, s1, -1))
		assert.Equal(t, bytes.Repeat([]byte{3}, 16), fromDev(t, th, b, 16), "the branch ran after the fork and before the join")
	}
}

func TestCaptureErrors(t *testing.T) {
	th := riSetup(t)
	s, other := newStream(t, th), newStream(t, th)
	e := syncEvent(t, th)
	p := devAlloc(t, th, 8)
	host := make([]byte, 8)

	requireCode(t, CaptureBegin(th, 0, 0), abi.ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT)
	requireCode(t, CaptureBegin(th, s, 3), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CaptureEnd(th, s, new(core.Handle)), abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED)

	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
	requireCode(t, CaptureBegin(th, s, 0), abi.ACL_ERROR_RT_STREAM_CAPTURED)
	other2 := core.NewThread()
	other2.Ctx = th.Ctx
	requireCode(t, CaptureEnd(other2, s, new(core.Handle)), abi.ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD)
	// GLOBAL: the unsafe call is refused in every thread whose mode is GLOBAL...
	requireCode(t, core.Memcpy(other2, addr(host), 8, p, 8, abi.ACL_MEMCPY_DEVICE_TO_HOST), abi.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC)
	// ...but a thread switched to RELAXED may make it.
	mode := int32(abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
	require.NoError(t, CaptureThreadExchangeMode(other2, &mode))
	assert.Equal(t, int32(abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), mode)
	require.NoError(t, core.Memset(other2, p, 8, 0, 8))
	// The refused call invalidated the capture.
	var status int32
	require.NoError(t, core.CaptureGetInfo(th, s, &status, nil))
	assert.Equal(t, int32(abi.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED), status)
	requireCode(t, core.MemsetAsync(th, p, 8, 1, 8, s), abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
	requireCode(t, CaptureEnd(th, s, new(core.Handle)), abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)

	// Synchronising or querying a capturing stream, device or event.
	for _, bad := range []func() error{
		func() error { return core.SynchronizeStream(th, s, -1) },
		func() error { var st int32; return core.StreamQuery(th, s, &st) },
		func() error { return core.SynchronizeDevice(th) },
		func() error { return core.SynchronizeEvent(th, e, -1) },
	} {
		require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
		require.NoError(t, core.RecordEvent(th, e, s, 0))
		requireCode(t, bad(), abi.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC)
		requireCode(t, CaptureEnd(th, s, new(core.Handle)), abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
	}

	// A wait for an event recorded outside the capture.
	require.NoError(t, core.RecordEvent(th, e, other, 0))
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL))
	requireCode(t, core.StreamWaitEvent(th, s, e), abi.ACL_ERROR_RT_CAPTURE_DEPENDENCY)
	requireCode(t, CaptureEnd(th, s, new(core.Handle)), abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)

	// THREAD_LOCAL: other threads keep their unsafe calls; pageable async
	// copies stay illegal on the capturing stream.
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL))
	third := core.NewThread()
	third.Ctx = th.Ctx
	require.NoError(t, core.Memcpy(third, addr(host), 8, p, 8, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	requireCode(t, core.Memset(th, p, 8, 0, 8), abi.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC)
	requireCode(t, CaptureEnd(th, s, new(core.Handle)), abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	requireCode(t, core.MemcpyAsync(th, addr(host), 8, p, 8, abi.ACL_MEMCPY_DEVICE_TO_HOST, s), abi.ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC)
	// RELAXED: End from another thread is allowed.
	requireCode(t, CaptureEnd(third, s, new(core.Handle)), abi.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
}

func TestCaptureExternalEvents(t *testing.T) {
	th := riSetup(t)
	s, other := newStream(t, th), newStream(t, th)
	in, out := syncEvent(t, th), syncEvent(t, th)
	p := devAlloc(t, th, 8)
	toDev(t, th, p, make([]byte, 8))

	requireCode(t, core.RecordEvent(th, out, s, abi.ACL_EVENT_RECORD_EXTERNAL), abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
	require.NoError(t, s2capture(th, s, in))
	require.NoError(t, core.MemsetAsync(th, p, 8, 9, 8, s))
	require.NoError(t, core.RecordEvent(th, out, s, abi.ACL_EVENT_RECORD_EXTERNAL))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	defer destroyRI(t, th, ri)

	// The replay waits for the application's event recorded outside and
	// records the application's event for others.
	require.NoError(t, core.RecordEvent(th, in, other, 0))
	require.NoError(t, core.ExecuteAsync(th, ri, s))
	require.NoError(t, core.StreamWaitEvent(th, other, out))
	require.NoError(t, core.SynchronizeStream(th, other, -1))
	assert.Equal(t, bytes.Repeat([]byte{9}, 8), fromDev(t, th, p, 8))
}

// s2capture records an external wait for e on the capturing stream s, as
// aclrtStreamWaitEventWithFlag(ACL_EVENT_WAIT_EXTERNAL) does.
func s2capture(th *core.Thread, sh, eh core.Handle) error {
	s, err := core.ResolveStream(th, "test", sh)
	if err != nil {
		return err
	}
	e, err := core.ResolveEvent("test", eh)
	if err != nil {
		return err
	}
	return core.CaptureExternal(s, "aclrtStreamWaitEventWithFlag", e, tsfw.WaitTask(e.TSEvent))
}

func TestBuildModelRI(t *testing.T) {
	th := riSetup(t)
	var ps, target core.Handle
	require.NoError(t, core.CreateStreamWithConfig(th, &ps, 0, abi.ACL_STREAM_PERSISTENT))
	defer func() { require.NoError(t, core.DestroyStream(th, ps, false)) }()
	target = newStream(t, th)
	p := devAlloc(t, th, 32)
	toDev(t, th, p, make([]byte, 32))

	requireCode(t, core.MemsetAsync(th, p, 32, 1, 32, ps), abi.ACL_ERROR_RT_STREAM_MODEL)
	var ri core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	requireCode(t, BindStream(th, ri, target, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, BindStream(th, ri, ps, core.ModelStreamFlagHead))
	requireCode(t, BindStream(th, ri, ps, core.ModelStreamFlagHead), abi.ACL_ERROR_RT_STREAM_MODEL)
	require.NoError(t, core.MemsetAsync(th, p, 32, 5, 16, ps))
	require.NoError(t, core.MemsetAsync(th, p+16, 16, 6, 16, ps))
	requireCode(t, Execute(th, ri, -1), abi.ACL_ERROR_RT_MODEL_EXECUTE)
	requireCode(t, BuildEnd(th, ri, 0), abi.ACL_ERROR_RT_MODEL_EXECUTE)
	require.NoError(t, EndTask(th, ri, ps))
	require.NoError(t, BuildEnd(th, ri, 0))
	requireCode(t, core.MemsetAsync(th, p, 32, 1, 32, ps), abi.ACL_ERROR_RT_STREAM_MODEL)
	assert.Equal(t, make([]byte, 32), fromDev(t, th, p, 32), "building runs nothing")

	require.NoError(t, core.ExecuteAsync(th, ri, target))
	require.NoError(t, core.SynchronizeStream(th, target, -1))
	assert.Equal(t, append(bytes.Repeat([]byte{5}, 16), bytes.Repeat([]byte{6}, 16)...), fromDev(t, th, p, 32))

	var n uint32
	require.NoError(t, GetTasksByStream(th, ps, nil, &n))
	require.GreaterOrEqual(t, n, uint32(2))
	small := n - 1
	requireCode(t, GetTasksByStream(th, ps, make([]core.Handle, small), &small), abi.ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY)
	tasks := userTasks(t, th, ps)
	require.Len(t, tasks, 2)
	var seq uint32
	require.NoError(t, TaskGetSeqID(th, tasks[1], &seq))
	assert.NotZero(t, seq)
	require.NoError(t, TaskDisable(th, tasks[1]))
	require.NoError(t, Update(th, ri))
	toDev(t, th, p, make([]byte, 32))
	require.NoError(t, Execute(th, ri, 1000))
	assert.Equal(t, append(bytes.Repeat([]byte{5}, 16), make([]byte, 16)...), fromDev(t, th, p, 32), "the disabled task no longer runs")

	require.NoError(t, UnbindStream(th, ri, ps))
	called := 0
	require.NoError(t, DestroyRegisterCallback(th, ri, 1, func() { called++ }))
	require.NoError(t, Destroy(th, ri))
	assert.Equal(t, 1, called)
	requireCode(t, Destroy(th, ri), abi.ACL_ERROR_RT_INVALID_HANDLE)
}

func TestRIIntrospectionAndJSON(t *testing.T) {
	th := riSetup(t)
	s1, s2 := newStream(t, th), newStream(t, th)
	fork, join := syncEvent(t, th), syncEvent(t, th)
	p := devAlloc(t, th, 8)

	require.NoError(t, CaptureBegin(th, s1, abi.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL))
	require.NoError(t, CaptureTaskGrpBegin(th, s1))
	require.NoError(t, core.MemsetAsync(th, p, 8, 1, 8, s1))
	var grp core.Handle
	require.NoError(t, CaptureTaskGrpEnd(th, s1, &grp))
	require.NoError(t, core.RecordEvent(th, fork, s1, 0))
	require.NoError(t, core.StreamWaitEvent(th, s2, fork))
	require.NoError(t, core.RecordEvent(th, join, s2, 0))
	require.NoError(t, core.StreamWaitEvent(th, s1, join))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s1, &ri))
	defer destroyRI(t, th, ri)

	require.NoError(t, SetName(th, ri, "graph-one", false))
	buf := make([]byte, 6)
	require.NoError(t, GetName(th, ri, buf))
	assert.Equal(t, "graph\x00", string(buf), "truncated to fit with its NUL")
	var id uint32
	require.NoError(t, GetID(th, ri, &id))
	assert.NotZero(t, id)

	var streams [2]core.Handle
	n := uint32(2)
	require.NoError(t, GetStreams(th, ri, streams[:], &n))
	tasks := userTasks(t, th, streams[0])
	var types []int32
	for _, h := range tasks {
		var typ int32
		require.NoError(t, TaskGetType(th, h, &typ))
		types = append(types, typ)
	}
	assert.Equal(t, []int32{abi.ACL_MODEL_RI_TASK_DEFAULT, abi.ACL_MODEL_RI_TASK_EVENT_RECORD, abi.ACL_MODEL_RI_TASK_EVENT_WAIT}, types)
	var params RITaskParams
	require.NoError(t, TaskGetParams(th, tasks[1], &params))
	assert.Equal(t, uint64(fork), le.Uint64(params.Rsv2[epEvent:]))
	require.NoError(t, TaskGetParams(th, tasks[0], &params))
	assert.Equal(t, uintptr(grp), params.TaskGrp)

	// Update the group: re-issue the memset with another value.
	other := newStream(t, th)
	require.NoError(t, CaptureTaskUpdateBegin(th, other, grp))
	require.NoError(t, core.MemsetAsync(th, p, 8, 4, 8, other))
	require.NoError(t, CaptureTaskUpdateEnd(th, other))
	require.NoError(t, core.ExecuteAsync(th, ri, s1))
	require.NoError(t, core.SynchronizeStream(th, s1, -1))
	assert.Equal(t, bytes.Repeat([]byte{4}, 8), fromDev(t, th, p, 8))
	require.NoError(t, CaptureTaskUpdateBegin(th, other, grp))
	requireCode(t, CaptureTaskUpdateEnd(th, other), abi.ACL_ERROR_RT_MODEL_UPDATE_FAILED)

	path := filepath.Join(t.TempDir(), "ri.json")
	require.NoError(t, DebugJSONPrint(th, ri, path, abi.ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE))
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc core.RiJSON
	require.NoError(t, json.Unmarshal(raw, &doc))
	assert.Equal(t, "graph-one", doc.Name)
	assert.Len(t, doc.Streams, 2)
	assert.Len(t, doc.Dependencies, 2, "fork and join")
	assert.Equal(t, 0, doc.Dependencies[0].From.Stream, "fork: origin → branch")
	assert.Equal(t, core.RiRef{Stream: 1, Seq: 0}, doc.Dependencies[0].To)
	assert.Equal(t, 1, doc.Dependencies[1].From.Stream, "join: branch → origin")
	requireCode(t, DebugJSONPrint(th, ri, "/nonexistent-dir/x.json", 0), abi.ACL_ERROR_INVALID_PARAM)
}

// userTasks lists the tasks of an RI stream that the test issued: kernel
// tasks npuemu adds on its own (managed-memory charges) are left out.
func userTasks(t *testing.T, th *core.Thread, sh core.Handle) []core.Handle {
	t.Helper()
	var n uint32
	require.NoError(t, GetTasksByStream(th, sh, nil, &n))
	all := make([]core.Handle, n)
	require.NoError(t, GetTasksByStream(th, sh, all, &n))
	var out []core.Handle
	for _, h := range all {
		st, err := core.RiTasks.Get(h)
		require.NoError(t, err)
		if st.TaskType == abi.ACL_MODEL_RI_TASK_KERNEL && st.Launch == nil {
			continue
		}
		out = append(out, h)
	}
	return out
}
