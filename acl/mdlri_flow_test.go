package acl

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// persistent creates a persistent stream destroyed at the end of the test.
func persistent(t *testing.T, th *core.Thread) core.Handle {
	t.Helper()
	var ps core.Handle
	require.NoError(t, core.CreateStreamWithConfig(th, &ps, 0, abi.ACL_STREAM_PERSISTENT))
	t.Cleanup(func() { _ = core.DestroyStream(th, ps, false) })
	return ps
}

func newLabel(t *testing.T, th *core.Thread) core.Handle {
	t.Helper()
	var l core.Handle
	require.NoError(t, CreateLabel(th, &l))
	t.Cleanup(func() { _ = DestroyLabel(th, l) })
	return l
}

func le32s(vs ...int32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return b
}

func i32(t *testing.T, th *core.Thread, p uintptr) int32 {
	t.Helper()
	return int32(binary.LittleEndian.Uint32(fromDev(t, th, p, 4)))
}

// TestFlowLabelLoop builds a do-while loop: the counter is reloaded from
// n at the start, the body counts it down and counts its runs, and
// SwitchLabelByIndex(counter, 1, {exit, body}) goes back to the body
// while the counter is non-zero (any index > 1 chooses the last label).
// The run count follows n between executions, and the elapsed virtual
// time between two events recorded around the loop is the same at every
// replay of one n.
func TestFlowLabelLoop(t *testing.T) {
	th := riSetup(t)
	ps := persistent(t, th)
	consts, counter, iters, n := devAlloc(t, th, 8), devAlloc(t, th, 8), devAlloc(t, th, 8), devAlloc(t, th, 8)
	toDev(t, th, consts, le32s(-1, 1))
	body, exit := newLabel(t, th), newLabel(t, th)
	var list core.Handle
	require.NoError(t, CreateLabelList(th, []core.Handle{exit, body}, 2, &list))
	defer func() { require.NoError(t, DestroyLabelList(th, list)) }()
	var e0, e1 core.Handle
	require.NoError(t, core.CreateEvent(th, &e0))
	require.NoError(t, core.CreateEvent(th, &e1))
	defer func() { _ = core.DestroyEvent(th, e0); _ = core.DestroyEvent(th, e1) }()

	var ri core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	require.NoError(t, BindStream(th, ri, ps, core.ModelStreamFlagHead))
	require.NoError(t, core.MemcpyAsync(th, counter, 4, n, 4, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, ps))
	require.NoError(t, core.MemsetAsync(th, iters, 8, 0, 8, ps))
	require.NoError(t, core.RecordEvent(th, e0, ps, 0))
	require.NoError(t, SetLabel(th, body, ps))
	require.NoError(t, ReduceAsync(th, counter, consts, 4, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_INT32, ps, 0))
	require.NoError(t, ReduceAsync(th, iters, consts+4, 4, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_INT32, ps, 0))
	require.NoError(t, SwitchLabelByIndex(th, counter, 1, list, ps))
	require.NoError(t, SetLabel(th, exit, ps))
	require.NoError(t, core.RecordEvent(th, e1, ps, 0))
	require.NoError(t, EndTask(th, ri, ps))
	require.NoError(t, BuildEnd(th, ri, 0))
	defer destroyRI(t, th, ri)
	// No task after BuildEnd, the label too.
	requireCode(t, SetLabel(th, newLabel(t, th), ps), abi.ACL_ERROR_RT_STREAM_MODEL)
	// The debug JSON shows the control steps and where the switch goes.
	path := filepath.Join(t.TempDir(), "ri.json")
	require.NoError(t, DebugJSONPrint(th, ri, path, 0))
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc core.RiJSON
	require.NoError(t, json.Unmarshal(raw, &doc))
	var kinds []string
	for _, tj := range doc.Streams[0].Tasks {
		if tj.Control != nil {
			kinds = append(kinds, tj.Control.Kind)
			if tj.Control.Kind == "switch_label" {
				assert.Equal(t, []core.RiRef{{Stream: 0, Seq: 7}, {Stream: 0, Seq: 3}}, tj.Control.Labels)
			}
		}
	}
	assert.Equal(t, []string{"label", "switch_label", "label"}, kinds)

	target := newStream(t, th)
	for _, want := range []int32{5, 1, 12} {
		toDev(t, th, n, le32s(want))
		var ms []float32
		for range 2 {
			require.NoError(t, core.ExecuteAsync(th, ri, target))
			require.NoError(t, core.SynchronizeStream(th, target, -1))
			assert.Equal(t, want, i32(t, th, iters), "runs of the body")
			assert.Zero(t, i32(t, th, counter))
			var m float32
			require.NoError(t, core.EventElapsedTime(th, &m, e0, e1))
			ms = append(ms, m)
		}
		assert.Positive(t, ms[0])
		assert.Equal(t, ms[0], ms[1], "virtual time of two replays")
	}
}

// TestFlowSwitchStream: an if/else from two SwitchStream tasks of the main
// stream; exactly the branch chosen by device memory runs, and a DEFAULT
// stream nobody activates never runs.
func TestFlowSwitchStream(t *testing.T) {
	th := riSetup(t)
	main, yes, no, idle := persistent(t, th), persistent(t, th), persistent(t, th), persistent(t, th)
	flag, one, out := devAlloc(t, th, 8), devAlloc(t, th, 8), devAlloc(t, th, 24)
	toDev(t, th, one, le32s(1))
	var ri core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	require.NoError(t, BindStream(th, ri, main, core.ModelStreamFlagHead))
	for _, s := range []core.Handle{yes, no, idle} {
		require.NoError(t, BindStream(th, ri, s, modelStreamFlagDefault))
	}
	require.NoError(t, core.MemsetAsync(th, out, 24, 0, 24, main))
	require.NoError(t, SwitchStream(th, flag, abi.ACL_RT_EQUAL, one, abi.ACL_RT_SWITCH_INT32, yes, 0, main))
	require.NoError(t, SwitchStream(th, flag, abi.ACL_RT_NOT_EQUAL, one, abi.ACL_RT_SWITCH_INT32, no, 0, main))
	require.NoError(t, ValueWrite(th, out, 11, 0, yes))
	require.NoError(t, ValueWrite(th, out+8, 22, 0, no))
	require.NoError(t, ValueWrite(th, out+16, 33, 0, idle))
	requireCode(t, SwitchStream(th, flag, abi.ACL_RT_EQUAL, one, abi.ACL_RT_SWITCH_INT32, main, 0, main), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, EndTask(th, ri, main))
	require.NoError(t, BuildEnd(th, ri, 0))
	defer destroyRI(t, th, ri)
	for _, c := range []struct {
		flag int32
		want []byte
	}{
		{1, append(le64(11), make([]byte, 16)...)},
		{0, append(append(le64(0), le64(22)...), le64(0)...)},
		{7, append(append(le64(0), le64(22)...), le64(0)...)},
		{1, append(le64(11), make([]byte, 16)...)},
	} {
		toDev(t, th, flag, le32s(c.flag))
		require.NoError(t, Execute(th, ri, -1))
		assert.Equal(t, c.want, fromDev(t, th, out, 24), "flag %d", c.flag)
	}
}

// TestFlowActiveStream: ActiveStream starts a dependent stream once per
// activation, and the execution ends after it.
func TestFlowActiveStream(t *testing.T) {
	th := riSetup(t)
	main, dep := persistent(t, th), persistent(t, th)
	consts, cnt := devAlloc(t, th, 8), devAlloc(t, th, 8)
	toDev(t, th, consts, le32s(1))
	toDev(t, th, cnt, le32s(0))
	var ri core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	require.NoError(t, BindStream(th, ri, main, core.ModelStreamFlagHead))
	require.NoError(t, BindStream(th, ri, dep, modelStreamFlagDefault))
	require.NoError(t, ActiveStream(th, dep, main))
	require.NoError(t, ActiveStream(th, dep, main))
	require.NoError(t, ReduceAsync(th, cnt, consts, 4, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_INT32, dep, 0))
	require.NoError(t, EndTask(th, ri, main))
	require.NoError(t, BuildEnd(th, ri, 0))
	defer destroyRI(t, th, ri)
	for i := range 3 {
		require.NoError(t, Execute(th, ri, -1))
		assert.Equal(t, int32(2*(i+1)), i32(t, th, cnt))
	}
}

// TestFlowErrors: control tasks off a bound stream, labels set twice,
// switches to labels never set and activations of unbound streams.
func TestFlowErrors(t *testing.T) {
	th := riSetup(t)
	ps, other, plain := persistent(t, th), persistent(t, th), newStream(t, th)
	word := devAlloc(t, th, 8)
	l1, l2 := newLabel(t, th), newLabel(t, th)
	var list core.Handle
	require.NoError(t, CreateLabelList(th, []core.Handle{l1, l2}, 2, &list))
	defer func() { require.NoError(t, DestroyLabelList(th, list)) }()
	requireCode(t, SetLabel(th, l1, plain), abi.ACL_ERROR_RT_STREAM_MODEL)
	requireCode(t, ActiveStream(th, ps, plain), abi.ACL_ERROR_RT_STREAM_MODEL)

	var ri core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	require.NoError(t, BindStream(th, ri, ps, core.ModelStreamFlagHead))
	require.NoError(t, SetLabel(th, l1, ps))
	requireCode(t, SetLabel(th, l1, ps), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, SwitchLabelByIndex(th, word, 1, list, ps))
	require.NoError(t, EndTask(th, ri, ps))
	requireCode(t, BuildEnd(th, ri, 0), abi.ACL_ERROR_RT_PARAM_INVALID) // l2 is not set
	require.NoError(t, SetLabel(th, l2, ps))
	require.NoError(t, ActiveStream(th, other, ps))
	requireCode(t, BuildEnd(th, ri, 0), abi.ACL_ERROR_RT_PARAM_INVALID) // other is not bound
	require.NoError(t, BindStream(th, ri, other, modelStreamFlagDefault))
	require.NoError(t, BuildEnd(th, ri, 0))
	require.NoError(t, Destroy(th, ri))
}

// TestFinalizeDestroysModelRIs: RIs left alive (one executed after its
// device was reset, one still being built) are destroyed by aclFinalize,
// their destroy callbacks called once.
func TestFinalizeDestroysModelRIs(t *testing.T) {
	th := riSetup(t)
	ps := persistent(t, th)
	out := devAlloc(t, th, 8)
	var built, building core.Handle
	require.NoError(t, BuildBegin(th, &built, 0))
	require.NoError(t, BindStream(th, built, ps, core.ModelStreamFlagHead))
	require.NoError(t, core.MemsetAsync(th, out, 8, 1, 8, ps))
	require.NoError(t, EndTask(th, built, ps))
	require.NoError(t, BuildEnd(th, built, 0))
	require.NoError(t, Execute(th, built, -1))
	require.NoError(t, BuildBegin(th, &building, 0))
	calls := map[core.Handle]int{}
	for _, h := range []core.Handle{built, building} {
		require.NoError(t, DestroyRegisterCallback(th, h, 1, func() { calls[h]++ }))
	}
	require.NoError(t, core.ResetDevice(th, 0))
	require.NoError(t, Finalize(th))
	assert.Equal(t, map[core.Handle]int{built: 1, building: 1}, calls)
	assert.Zero(t, core.ModelRIs.Len())
}

// BenchmarkFlowLoop measures the host cost of one iteration of a label
// loop (reduce + switch): 100 iterations per execution.
func BenchmarkFlowLoop(b *testing.B) {
	th := core.NewThread()
	resetRuntime()
	b.Setenv("NPUEMU_DEVICES", "1")
	require.NoError(b, Init(th, ""))
	b.Cleanup(resetRuntime)
	require.NoError(b, SetDevice(th, 0))
	var ps core.Handle
	require.NoError(b, core.CreateStreamWithConfig(th, &ps, 0, abi.ACL_STREAM_PERSISTENT))
	var consts, counter, n uintptr
	for _, p := range []*uintptr{&consts, &counter, &n} {
		require.NoError(b, Malloc(th, p, 8, 0, core.MallocOpts{}))
	}
	minus1, hundred := le32s(-1), le32s(100)
	require.NoError(b, core.Memcpy(th, consts, 4, addr(minus1), 4, abi.ACL_MEMCPY_HOST_TO_DEVICE))
	require.NoError(b, core.Memcpy(th, n, 4, addr(hundred), 4, abi.ACL_MEMCPY_HOST_TO_DEVICE))
	runtime.KeepAlive(minus1)
	runtime.KeepAlive(hundred)
	var body, exit, list, ri core.Handle
	require.NoError(b, CreateLabel(th, &body))
	require.NoError(b, CreateLabel(th, &exit))
	require.NoError(b, CreateLabelList(th, []core.Handle{exit, body}, 2, &list))
	require.NoError(b, BuildBegin(th, &ri, 0))
	require.NoError(b, BindStream(th, ri, ps, core.ModelStreamFlagHead))
	require.NoError(b, core.MemcpyAsync(th, counter, 4, n, 4, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, ps))
	require.NoError(b, SetLabel(th, body, ps))
	require.NoError(b, ReduceAsync(th, counter, consts, 4, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_INT32, ps, 0))
	require.NoError(b, SwitchLabelByIndex(th, counter, 1, list, ps))
	require.NoError(b, SetLabel(th, exit, ps))
	require.NoError(b, EndTask(th, ri, ps))
	require.NoError(b, BuildEnd(th, ri, 0))
	b.ResetTimer()
	for range b.N {
		require.NoError(b, Execute(th, ri, -1))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100), "ns/iter")
	b.StopTimer()
	require.NoError(b, Destroy(th, ri))
}

// TestFlowAbortEndsLoop: aclmdlRIAbort ends a loop that would never exit;
// the execution's stream is released and the RI can be destroyed.
func TestFlowAbortEndsLoop(t *testing.T) {
	th := riSetup(t)
	ps := persistent(t, th)
	word := devAlloc(t, th, 8)
	toDev(t, th, word, le32s(1))
	body, exit := newLabel(t, th), newLabel(t, th)
	var list core.Handle
	require.NoError(t, CreateLabelList(th, []core.Handle{exit, body}, 2, &list))
	defer func() { require.NoError(t, DestroyLabelList(th, list)) }()
	var ri core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	require.NoError(t, BindStream(th, ri, ps, core.ModelStreamFlagHead))
	require.NoError(t, SetLabel(th, body, ps))
	require.NoError(t, core.MemsetAsync(th, word+4, 4, 7, 4, ps))
	require.NoError(t, SwitchLabelByIndex(th, word, 1, list, ps))
	require.NoError(t, SetLabel(th, exit, ps))
	require.NoError(t, EndTask(th, ri, ps))
	require.NoError(t, BuildEnd(th, ri, 0))
	target := newStream(t, th)
	require.NoError(t, core.ExecuteAsync(th, ri, target))
	require.NoError(t, Abort(th, ri))
	err := core.SynchronizeStream(th, target, -1)
	requireCode(t, err, abi.ACL_ERROR_RT_MODEL_ABORT_NORMAL)
	require.NoError(t, Destroy(th, ri))
}

// TestBuiltHeadStreams: without control steps too, only the streams bound
// HEAD start an execution; with none bound HEAD the first bound stream is
// the main stream.
func TestBuiltHeadStreams(t *testing.T) {
	th := riSetup(t)
	for _, c := range []struct {
		name  string
		flags []uint32
		want  []byte
	}{
		{"head and default", []uint32{core.ModelStreamFlagHead, modelStreamFlagDefault}, []byte{1, 0}},
		{"default then head", []uint32{modelStreamFlagDefault, core.ModelStreamFlagHead}, []byte{0, 2}},
		{"no head", []uint32{modelStreamFlagDefault, modelStreamFlagDefault}, []byte{1, 0}},
		{"two heads", []uint32{core.ModelStreamFlagHead, core.ModelStreamFlagHead}, []byte{1, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := devAlloc(t, th, 8)
			toDev(t, th, out, make([]byte, 8))
			var ri core.Handle
			require.NoError(t, BuildBegin(th, &ri, 0))
			for i, f := range c.flags {
				ps := persistent(t, th)
				require.NoError(t, BindStream(th, ri, ps, f))
				require.NoError(t, core.MemsetAsync(th, out+uintptr(i), 1, int32(i+1), 1, ps))
				require.NoError(t, EndTask(th, ri, ps))
			}
			require.NoError(t, BuildEnd(th, ri, 0))
			require.NoError(t, Execute(th, ri, -1))
			assert.Equal(t, c.want, fromDev(t, th, out, 2))
			require.NoError(t, Destroy(th, ri))
		})
	}
}

// TestFlowNotifyJoin: inside a flow the main stream waits, through a
// notify, for a stream it activated (the record is queued after the wait).
func TestFlowNotifyJoin(t *testing.T) {
	th := riSetup(t)
	main, dep := persistent(t, th), persistent(t, th)
	out, out2 := devAlloc(t, th, 8), devAlloc(t, th, 8)
	var n core.Handle
	require.NoError(t, CreateNotify(th, &n, 0))
	defer func() { require.NoError(t, DestroyNotify(th, n)) }()
	var ri core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	require.NoError(t, BindStream(th, ri, main, core.ModelStreamFlagHead))
	require.NoError(t, BindStream(th, ri, dep, modelStreamFlagDefault))
	require.NoError(t, ActiveStream(th, dep, main))
	require.NoError(t, WaitAndResetNotify(th, n, main, 0))
	require.NoError(t, core.MemcpyAsync(th, out2, 8, out, 8, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, main))
	require.NoError(t, core.MemsetAsync(th, out, 8, 0, 8, dep))
	require.NoError(t, ReduceAsync(th, out, out2, 4, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_INT32, dep, 0))
	require.NoError(t, core.MemsetAsync(th, out+4, 4, 0, 4, dep))
	require.NoError(t, RecordNotify(th, n, dep))
	require.NoError(t, EndTask(th, ri, main))
	require.NoError(t, BuildEnd(th, ri, 0))
	defer destroyRI(t, th, ri)
	// dep sets out to out2's value; main copies out back into out2 only
	// after the notify: copied earlier, out2 would hold out's -1s.
	for _, seed := range []int32{3, 11} {
		toDev(t, th, out2, le32s(seed, 0))
		toDev(t, th, out, le32s(-1, -1))
		require.NoError(t, Execute(th, ri, -1))
		assert.Equal(t, le32s(seed, 0), fromDev(t, th, out2, 8))
		assert.Equal(t, le32s(seed, 0), fromDev(t, th, out, 8))
	}
}
