package acl

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// condSetup captures, on stream s, a graph that copies the 8 bytes at src
// into the condition word and then runs a conditional task of type typ
// with size sub-graphs; sub-graph i sets the byte at out+i to i+1.
func condSetup(t *testing.T, th *core.Thread, typ int32, size uint32, flag int32) (ri core.Handle, src, out uintptr, ptr uintptr) {
	t.Helper()
	s, sub := newStream(t, th), newStream(t, th)
	src, out = devAlloc(t, th, 8), devAlloc(t, th, 8)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	var ch core.Handle
	var cap core.Handle
	var status int32
	require.NoError(t, core.CaptureGetInfo(th, s, &status, &cap))
	require.NoError(t, CondHandleCreate(th, cap, 7, flag, &ch))
	require.NoError(t, CondHandleGetCondPtr(th, ch, &ptr))
	require.NoError(t, core.MemcpyAsync(th, ptr, 8, src, 8, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, s))
	subs := make([]core.Handle, size)
	require.NoError(t, AddCondTask(th, core.CondTaskParams{Handle: ch, Type: typ, Size: size, Subs: subs}, s, 0))
	for i, h := range subs {
		require.NoError(t, CaptureToModelRIBegin(th, sub, h, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
		require.NoError(t, core.MemsetAsync(th, out+uintptr(i), 1, int32(i+1), 1, sub))
		var got core.Handle
		require.NoError(t, CaptureEnd(th, sub, &got))
		assert.Equal(t, h, got)
		requireCode(t, Destroy(th, h), abi.ACL_ERROR_RT_PARAM_INVALID)
	}
	require.NoError(t, CaptureEnd(th, s, &ri))
	return ri, src, out, ptr
}

func TestCondIfTakesBranchWrittenInReplay(t *testing.T) {
	th := riSetup(t)
	ri, src, out, _ := condSetup(t, th, abi.ACL_MODEL_RI_COND_TYPE_IF, 2, 0)
	defer destroyRI(t, th, ri)
	for _, c := range []struct {
		word uint64
		want []byte
	}{
		{1, []byte{1, 0}},
		{0, []byte{0, 2}},
		{1 << 40, []byte{1, 0}},
	} {
		toDev(t, th, src, le64(c.word))
		toDev(t, th, out, make([]byte, 8))
		require.NoError(t, Execute(th, ri, -1))
		assert.Equal(t, c.want, fromDev(t, th, out, 2), "word %#x", c.word)
	}
}

func TestCondSwitchOutOfRangeRunsNothing(t *testing.T) {
	th := riSetup(t)
	ri, src, out, _ := condSetup(t, th, abi.ACL_MODEL_RI_COND_TYPE_SWITCH, 3, 0)
	defer destroyRI(t, th, ri)
	for w, want := range [][]byte{{1, 0, 0}, {0, 2, 0}, {0, 0, 3}, {0, 0, 0}, {0, 0, 0}} {
		toDev(t, th, src, le64(uint64(w)))
		toDev(t, th, out, make([]byte, 8))
		require.NoError(t, Execute(th, ri, -1))
		assert.Equal(t, want, fromDev(t, th, out, 3), "index %d", w)
	}
}

func TestCondWhileCountsDown(t *testing.T) {
	th := riSetup(t)
	s, sub := newStream(t, th), newStream(t, th)
	minus, one, iters := devAlloc(t, th, 8), devAlloc(t, th, 8), devAlloc(t, th, 8)
	toDev(t, th, minus, le64(0xFFFFFFFF)) // int32 −1
	toDev(t, th, one, le64(1))
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	var cap, ch core.Handle
	var status int32
	require.NoError(t, core.CaptureGetInfo(th, s, &status, &cap))
	require.NoError(t, CondHandleCreate(th, cap, 5, abi.ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &ch))
	var ptr uintptr
	require.NoError(t, CondHandleGetCondPtr(th, ch, &ptr))
	require.NoError(t, core.MemsetAsync(th, iters, 8, 0, 8, s))
	subs := make([]core.Handle, 1)
	require.NoError(t, AddCondTask(th, core.CondTaskParams{Handle: ch, Type: abi.ACL_MODEL_RI_COND_TYPE_WHILE, Size: 1, Subs: subs}, s, 0))
	require.NoError(t, CaptureToModelRIBegin(th, sub, subs[0], abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	require.NoError(t, ReduceAsync(th, ptr, minus, 4, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_INT32, sub, 0))
	require.NoError(t, ReduceAsync(th, iters, one, 4, abi.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, abi.ACL_INT32, sub, 0))
	var body core.Handle
	require.NoError(t, CaptureEnd(th, sub, &body))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	defer destroyRI(t, th, ri)
	for range 2 { // the default value is assigned again at each execution
		require.NoError(t, Execute(th, ri, -1))
		assert.Equal(t, le64(5), fromDev(t, th, iters, 8))
		assert.Equal(t, le64(0), fromDev(t, th, ptr, 8))
	}
}

func TestCondWhileEmptyBodyFails(t *testing.T) {
	th := riSetup(t)
	s := newStream(t, th)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	var cap, ch core.Handle
	var status int32
	require.NoError(t, core.CaptureGetInfo(th, s, &status, &cap))
	require.NoError(t, CondHandleCreate(th, cap, 1, abi.ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &ch))
	subs := make([]core.Handle, 1)
	require.NoError(t, AddCondTask(th, core.CondTaskParams{Handle: ch, Type: abi.ACL_MODEL_RI_COND_TYPE_WHILE, Size: 1, Subs: subs}, s, 0))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	defer destroyRI(t, th, ri)
	requireCode(t, Execute(th, ri, -1), abi.ACL_ERROR_RT_MODEL_EXECUTE)
}

func TestCondBadInput(t *testing.T) {
	th := riSetup(t)
	s := newStream(t, th)
	var ch core.Handle
	requireCode(t, CondHandleCreate(th, 0, 0, 0, &ch), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	var cap core.Handle
	var status int32
	require.NoError(t, core.CaptureGetInfo(th, s, &status, &cap))
	requireCode(t, CondHandleCreate(th, cap, 0, 2, &ch), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CondHandleCreate(th, cap, 0, 0, nil), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, CondHandleCreate(th, cap, 0, 0, &ch))
	requireCode(t, CondHandleGetCondPtr(th, ch, nil), abi.ACL_ERROR_INVALID_PARAM)
	subs := make([]core.Handle, 4)
	for _, c := range []struct {
		typ  int32
		size uint32
	}{
		{abi.ACL_MODEL_RI_COND_TYPE_IF, 0}, {abi.ACL_MODEL_RI_COND_TYPE_IF, 3},
		{abi.ACL_MODEL_RI_COND_TYPE_WHILE, 0}, {abi.ACL_MODEL_RI_COND_TYPE_WHILE, 2},
		{abi.ACL_MODEL_RI_COND_TYPE_SWITCH, 0}, {3, 1},
	} {
		requireCode(t, AddCondTask(th, core.CondTaskParams{Handle: ch, Type: c.typ, Size: c.size, Subs: subs}, s, 0), abi.ACL_ERROR_INVALID_PARAM)
	}
	requireCode(t, AddCondTask(th, core.CondTaskParams{Handle: ch, Type: abi.ACL_MODEL_RI_COND_TYPE_IF, Size: 1}, s, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, AddCondTask(th, core.CondTaskParams{Handle: ch, Type: abi.ACL_MODEL_RI_COND_TYPE_IF, Size: 1, Subs: subs}, s, 1), abi.ACL_ERROR_INVALID_PARAM)
	other := newStream(t, th)
	requireCode(t, AddCondTask(th, core.CondTaskParams{Handle: ch, Type: abi.ACL_MODEL_RI_COND_TYPE_IF, Size: 1, Subs: subs}, other, 0), abi.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
	// Capturing into an RI that is not a sub-graph.
	requireCode(t, CaptureToModelRIBegin(th, other, cap, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, AddCondTask(th, core.CondTaskParams{Handle: ch, Type: abi.ACL_MODEL_RI_COND_TYPE_IF, Size: 1, Subs: subs}, s, 0))
	requireCode(t, Destroy(th, subs[0]), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, CaptureToModelRIBegin(th, s, subs[0], abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED), abi.ACL_ERROR_RT_STREAM_CAPTURED)
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	require.NoError(t, Destroy(th, ri))
	_, err := core.ModelRIs.Get(subs[0])
	assert.Error(t, err, "the sub-graph dies with its parent")
	assert.Zero(t, core.CondHandles.Len())
}

func TestCondInBuiltRI(t *testing.T) {
	th := riSetup(t)
	var ps core.Handle
	require.NoError(t, core.CreateStreamWithConfig(th, &ps, 0, abi.ACL_STREAM_PERSISTENT))
	defer func() { require.NoError(t, core.DestroyStream(th, ps, false)) }()
	target, sub := newStream(t, th), newStream(t, th)
	src, out := devAlloc(t, th, 8), devAlloc(t, th, 8)
	var ri, ch core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	defer destroyRI(t, th, ri)
	require.NoError(t, BindStream(th, ri, ps, core.ModelStreamFlagHead))
	require.NoError(t, CondHandleCreate(th, ri, 0, 0, &ch))
	var ptr uintptr
	require.NoError(t, CondHandleGetCondPtr(th, ch, &ptr))
	require.NoError(t, core.MemcpyAsync(th, ptr, 8, src, 8, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, ps))
	subs := make([]core.Handle, 1)
	require.NoError(t, AddCondTask(th, core.CondTaskParams{Handle: ch, Type: abi.ACL_MODEL_RI_COND_TYPE_IF, Size: 1, Subs: subs}, ps, 0))
	require.NoError(t, EndTask(th, ri, ps))
	require.NoError(t, BuildEnd(th, ri, 0))
	require.NoError(t, CaptureToModelRIBegin(th, sub, subs[0], abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	require.NoError(t, core.MemsetAsync(th, out, 8, 9, 8, sub))
	var got core.Handle
	require.NoError(t, CaptureEnd(th, sub, &got))
	for _, w := range []uint64{0, 3} {
		toDev(t, th, src, le64(w))
		toDev(t, th, out, make([]byte, 8))
		require.NoError(t, core.ExecuteAsync(th, ri, target))
		require.NoError(t, core.SynchronizeStream(th, target, -1))
		want := make([]byte, 8)
		if w != 0 {
			want = []byte{9, 9, 9, 9, 9, 9, 9, 9}
		}
		assert.Equal(t, want, fromDev(t, th, out, 8), "word %d", w)
	}
}

func TestCondNestedSubGraphs(t *testing.T) {
	th := riSetup(t)
	s, s1, s2 := newStream(t, th), newStream(t, th), newStream(t, th)
	src, out := devAlloc(t, th, 16), devAlloc(t, th, 8)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	var cap, outer, inner core.Handle
	var status int32
	require.NoError(t, core.CaptureGetInfo(th, s, &status, &cap))
	require.NoError(t, CondHandleCreate(th, cap, 0, 0, &outer))
	var po, pi uintptr
	require.NoError(t, CondHandleGetCondPtr(th, outer, &po))
	require.NoError(t, core.MemcpyAsync(th, po, 8, src, 8, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, s))
	subs := make([]core.Handle, 1)
	require.NoError(t, AddCondTask(th, core.CondTaskParams{Handle: outer, Type: abi.ACL_MODEL_RI_COND_TYPE_IF, Size: 1, Subs: subs}, s, 0))
	// The outer IF's body has its own condition word and IF.
	require.NoError(t, CaptureToModelRIBegin(th, s1, subs[0], abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	require.NoError(t, CondHandleCreate(th, subs[0], 0, 0, &inner))
	require.NoError(t, CondHandleGetCondPtr(th, inner, &pi))
	require.NoError(t, core.MemcpyAsync(th, pi, 8, src+8, 8, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, s1))
	require.NoError(t, core.MemsetAsync(th, out, 1, 1, 1, s1))
	innerSubs := make([]core.Handle, 1)
	require.NoError(t, AddCondTask(th, core.CondTaskParams{Handle: inner, Type: abi.ACL_MODEL_RI_COND_TYPE_IF, Size: 1, Subs: innerSubs}, s1, 0))
	require.NoError(t, CaptureToModelRIBegin(th, s2, innerSubs[0], abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	require.NoError(t, core.MemsetAsync(th, out+1, 1, 2, 1, s2))
	var got core.Handle
	require.NoError(t, CaptureEnd(th, s2, &got))
	require.NoError(t, CaptureEnd(th, s1, &got))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	defer destroyRI(t, th, ri)
	for _, c := range []struct {
		o, i uint64
		want []byte
	}{{0, 1, []byte{0, 0}}, {1, 0, []byte{1, 0}}, {1, 1, []byte{1, 2}}} {
		toDev(t, th, src, append(le64(c.o), le64(c.i)...))
		toDev(t, th, out, make([]byte, 8))
		require.NoError(t, Execute(th, ri, -1))
		assert.Equal(t, c.want, fromDev(t, th, out, 2), "outer %d inner %d", c.o, c.i)
	}
}
