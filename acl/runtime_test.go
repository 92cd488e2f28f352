package acl

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// The runtime is process-wide state, so these tests run one at a time
// (no t.Parallel) and each leaves the runtime finalized.

// resetRuntime finalizes whatever a test left and drops the node, so that
// the next test's environment takes effect.
func resetRuntime() {
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	finalizeLocked(&core.Thread{})
}

// setup points the emulator at a small node (env overrides), initialises
// ACL and returns the calling test's thread; cleanup checks that every
// handle table and registry table is empty afterwards.
func setup(t *testing.T, env map[string]string) *core.Thread {
	t.Helper()
	resetRuntime()
	t.Setenv("NPUEMU_DEVICES", "2")
	t.Setenv("NPUEMU_SOC", "")
	t.Setenv("NPUEMU_CONFIG", "")
	t.Setenv("NPUEMU_NODE", "") // no node unless the test asks for one: the caller's environment does not leak in
	for k, v := range env {
		t.Setenv(k, v)
	}
	th := core.NewThread()
	require.NoError(t, Init(th, ""))
	t.Cleanup(func() {
		resetRuntime()
		assert.Zero(t, core.Contexts.Len(), "contexts left")
		assert.Zero(t, core.Streams.Len(), "streams left")
		assert.Zero(t, core.Events.Len(), "events left")
		assert.Empty(t, core.LiveObjects(), "registry not empty")
	})
	return th
}

// requireCode asserts err carries code.
func requireCode(t *testing.T, err error, code abi.Code) {
	t.Helper()
	require.Error(t, err)
	assert.Equal(t, code, abi.CodeOf(err), "%v", err)
}

func writeTemp(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "acl.json")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestInitFinalize(t *testing.T) {
	th := setup(t, nil)
	requireCode(t, Init(th, ""), abi.ACL_ERROR_REPEAT_INITIALIZE)
	requireCode(t, Init(th, writeTemp(t, `{"err_msg_mode":"1"}`)), abi.ACL_ERROR_INVALID_PARAM)

	var rc uint64
	require.NoError(t, FinalizeReference(th, &rc))
	assert.Equal(t, uint64(1), rc)
	require.NoError(t, FinalizeReference(th, &rc))
	assert.Equal(t, uint64(0), rc)
	requireCode(t, FinalizeReference(th, &rc), abi.ACL_ERROR_REPEAT_FINALIZE)
	requireCode(t, Finalize(th), abi.ACL_ERROR_REPEAT_FINALIZE)
	requireCode(t, SetDevice(th, 0), abi.ACL_ERROR_UNINITIALIZE)
}

func TestInitConfigFiles(t *testing.T) {
	tests := []struct {
		name string
		json string
		code abi.Code
	}{
		{"empty object", `{}`, 0},
		{"malformed", `{"dump": {`, abi.ACL_ERROR_PARSE_FILE},
		{"depth 10", `[[[[[[[[[[1]]]]]]]]]]`, abi.ACL_ERROR_PARSE_FILE}, // an array is no object
		{"depth 11", `{"a":[{"b":[{"c":[{"d":[{"e":[{"f":1}]}]}]}]}]}`, abi.ACL_ERROR_PARSE_FILE},
		{"depth 10 object", `{"a":[{"b":[{"c":[{"d":[{"e":[1]}]}]}]}]}`, 0},
		{"bad err_msg_mode", `{"err_msg_mode":"2"}`, abi.ACL_ERROR_INVALID_PARAM},
		{"default device out of range", `{"defaultDevice":{"default_device":"5"}}`, abi.ACL_ERROR_INVALID_PARAM},
		{"default device", `{"defaultDevice":{"default_device":"1"}}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			setup(t, nil)
			th := core.NewThread()
			require.NoError(t, Finalize(th))
			err := Init(th, writeTemp(t, tt.json))
			if tt.code == 0 {
				require.NoError(t, err)
				return
			}
			requireCode(t, err, tt.code)
			assert.False(t, core.Initialized())
		})
	}
	t.Run("missing file", func(t *testing.T) {
		setup(t, nil)
		th := core.NewThread()
		require.NoError(t, Finalize(th))
		requireCode(t, Init(th, filepath.Join(t.TempDir(), "nope.json")), abi.ACL_ERROR_INVALID_FILE)
	})
}

func TestDefaultDeviceFromConfig(t *testing.T) {
	setup(t, nil)
	th := core.NewThread()
	require.NoError(t, Finalize(th))
	require.NoError(t, Init(th, writeTemp(t, `{"defaultDevice":{"default_device":"1"}}`)))
	var id int32
	require.NoError(t, core.GetDevice(th, &id))
	assert.Equal(t, int32(1), id)
}

func TestEmuConfigErrorSurfacesAtInit(t *testing.T) {
	resetRuntime()
	t.Setenv("NPUEMU_DEVICES", "0")
	t.Cleanup(resetRuntime)
	err := Init(core.NewThread(), "")
	requireCode(t, err, abi.ACL_ERROR_INVALID_PARAM)
	assert.Contains(t, err.Error(), "NPUEMU_DEVICES")
	assert.False(t, core.Initialized())
}

func TestVersions(t *testing.T) {
	th := setup(t, nil)
	var ma, mi, pa int32
	require.NoError(t, GetVersion(th, &ma, &mi, &pa))
	assert.Equal(t, [3]int32{1, 17, 0}, [3]int32{ma, mi, pa})
	requireCode(t, GetVersion(th, nil, &mi, &pa), abi.ACL_ERROR_INVALID_PARAM)

	v, err := VersionStr(th, "runtime", true)
	require.NoError(t, err)
	assert.Equal(t, core.CANNVersion, v)
	var n int32
	require.NoError(t, VersionNum(th, "cann", true, &n))
	assert.Equal(t, int32(8*10000000+5*100000), n)
	requireCode(t, VersionNum(th, "nosuch", true, &n), abi.ACL_ERROR_INVALID_FILE)

	for in, want := range map[string]int32{
		"9.0.0-rc.1": 90000000 - 100 + 1, "8.1.2": 80102000, "7.0.0-alpha.3": 70000000 - 300 + 3, "7.0.0-beta.2": 70000000 - 200 + 2,
	} {
		got, err := encodeVersion(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err = encodeVersion("8.x")
	assert.Error(t, err)
}

func TestDeviceRefcountAndThreads(t *testing.T) {
	th := setup(t, nil)
	var id int32
	requireCode(t, core.GetDevice(th, &id), abi.ACL_ERROR_RT_CONTEXT_NULL)
	requireCode(t, SetDevice(th, 2), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	requireCode(t, SetDevice(th, -1), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	requireCode(t, core.ResetDevice(th, 0), abi.ACL_ERROR_RT_PARAM_INVALID)

	require.NoError(t, SetDevice(th, 0))
	other := core.NewThread()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // another application thread shares the primary context
		defer wg.Done()
		assert.NoError(t, SetDevice(other, 0))
	}()
	wg.Wait()
	assert.Same(t, th.Ctx, other.Ctx)

	var active int32
	require.NoError(t, GetPrimaryCtxState(th, 0, nil, &active))
	assert.Equal(t, int32(1), active)
	require.NoError(t, core.ResetDevice(other, 0))
	require.NoError(t, core.GetDevice(th, &id))
	assert.Equal(t, int32(0), id)
	require.NoError(t, core.ResetDevice(th, 0))
	require.NoError(t, GetPrimaryCtxState(th, 0, nil, &active))
	assert.Equal(t, int32(0), active)
	requireCode(t, core.GetDevice(th, &id), abi.ACL_ERROR_RT_CONTEXT_NULL)
	requireCode(t, core.GetDevice(other, &id), abi.ACL_ERROR_RT_CONTEXT_NULL)
	requireCode(t, core.ResetDevice(th, 0), abi.ACL_ERROR_RT_PARAM_INVALID)

	// Force: releases whatever the count, once.
	require.NoError(t, SetDevice(th, 1))
	require.NoError(t, SetDevice(th, 1))
	require.NoError(t, ResetDeviceForce(th, 1))
	requireCode(t, ResetDeviceForce(th, 1), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, core.GetDevice(th, &id), abi.ACL_ERROR_RT_CONTEXT_NULL)
}

func TestDeviceInfo(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	tests := []struct {
		attr int32
		want int64
		code abi.Code
	}{
		{abi.ACL_DEV_ATTR_AICORE_CORE_NUM, 20, 0},
		{abi.ACL_DEV_ATTR_VECTOR_CORE_NUM, 40, 0},
		{abi.ACL_DEV_ATTR_AICPU_CORE_NUM, 6, 0},
		{abi.ACL_DEV_ATTR_L2_CACHE_SIZE, 192 << 20, 0},
		{abi.ACL_DEV_ATTR_NPU_ARCH, 2201, 0},
		{abi.ACL_DEV_ATTR_WARP_SIZE, 0, 0},
		{abi.ACL_DEV_ATTR_HD_CONNECT_TYPE, 0, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
		{abi.ACL_DEV_ATTR_SUPER_POD_ID, 0, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
		{9999, 0, abi.ACL_ERROR_RT_PARAM_INVALID},
	}
	for _, tt := range tests {
		v := int64(-7)
		err := GetDeviceInfo(th, 1, tt.attr, &v)
		if tt.code != 0 {
			requireCode(t, err, tt.code)
			continue
		}
		require.NoError(t, err, "attr %d", tt.attr)
		assert.Equal(t, tt.want, v, "attr %d", tt.attr)
	}
	var v int64
	requireCode(t, GetDeviceInfo(th, 2, abi.ACL_DEV_ATTR_NPU_ARCH, &v), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	requireCode(t, GetDeviceInfo(th, 0, abi.ACL_DEV_ATTR_NPU_ARCH, nil), abi.ACL_ERROR_INVALID_PARAM)

	var u UtilizationInfo
	require.NoError(t, GetDeviceUtilizationRate(th, 0, &u))
	assert.Zero(t, u.MemoryUtilization)
	u.UtilizationExtend = 1
	requireCode(t, GetDeviceUtilizationRate(th, 0, &u), abi.ACL_ERROR_INVALID_PARAM)

	var least, greatest int32
	require.NoError(t, DeviceGetStreamPriorityRange(th, &least, &greatest))
	assert.Equal(t, [2]int32{7, 0}, [2]int32{least, greatest})
}

func TestPeerAccess(t *testing.T) {
	th := setup(t, nil)
	var can, status int32
	require.NoError(t, DeviceCanAccessPeer(th, &can, 0, 1))
	assert.Equal(t, int32(1), can)
	requireCode(t, DeviceCanAccessPeer(th, &can, 0, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, DeviceEnablePeerAccess(th, 1, 0), abi.ACL_ERROR_RT_CONTEXT_NULL)
	require.NoError(t, SetDevice(th, 0))
	require.NoError(t, DeviceEnablePeerAccess(th, 1, 0))
	require.NoError(t, DevicePeerAccessStatus(th, 0, 1, &status))
	assert.Equal(t, int32(1), status)
	require.NoError(t, DevicePeerAccessStatus(th, 1, 0, &status))
	assert.Equal(t, int32(0), status, "peer access is one-directional")
	require.NoError(t, DeviceDisablePeerAccess(th, 1))
	requireCode(t, DeviceDisablePeerAccess(th, 1), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestContexts(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	primary := th.Ctx.H
	requireCode(t, core.DestroyContext(th, primary), abi.ACL_ERROR_RT_PARAM_INVALID)

	var c core.Handle
	require.NoError(t, CreateContext(th, &c, 1))
	var cur core.Handle
	require.NoError(t, core.GetCurrentContext(th, &cur))
	assert.Equal(t, c, cur, "a created context becomes current")
	var id int32
	require.NoError(t, core.GetDevice(th, &id))
	assert.Equal(t, int32(1), id)

	require.NoError(t, core.SetCurrentContext(th, primary))
	require.NoError(t, core.GetDevice(th, &id))
	assert.Equal(t, int32(0), id, "selecting a context switches the device")

	var val int64
	requireCode(t, CtxGetSysParamOpt(th, abi.ACL_OPT_DETERMINISTIC, &val), abi.ACL_ERROR_RT_SYSPARAMOPT_NOT_SET)
	require.NoError(t, CtxSetSysParamOpt(th, abi.ACL_OPT_DETERMINISTIC, 1))
	require.NoError(t, CtxGetSysParamOpt(th, abi.ACL_OPT_DETERMINISTIC, &val))
	assert.Equal(t, int64(1), val)

	require.NoError(t, core.DestroyContext(th, c))
	requireCode(t, core.SetCurrentContext(th, c), abi.ACL_ERROR_RT_INVALID_HANDLE)
	requireCode(t, core.DestroyContext(th, c), abi.ACL_ERROR_RT_INVALID_HANDLE)
	requireCode(t, core.SetCurrentContext(th, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, core.SetCurrentContext(th, core.Handle(0x1234)), abi.ACL_ERROR_RT_INVALID_HANDLE)
	require.NoError(t, core.ResetDevice(th, 0))
	requireCode(t, core.SetCurrentContext(th, primary), abi.ACL_ERROR_RT_INVALID_HANDLE)
}

func TestStreams(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	var s core.Handle
	require.NoError(t, core.CreateStreamWithConfig(th, &s, 42, abi.ACL_STREAM_FAST_SYNC))
	var p, f uint32
	require.NoError(t, StreamGetPriority(th, s, &p))
	assert.Equal(t, uint32(7), p, "priority clamped silently")
	require.NoError(t, StreamGetFlags(th, s, &f))
	assert.Equal(t, uint32(abi.ACL_STREAM_FAST_SYNC), f)
	require.NoError(t, StreamGetPriority(th, 0, &p))
	assert.Equal(t, uint32(0), p, "the default stream has the highest priority")

	var st int32
	require.NoError(t, core.StreamQuery(th, s, &st))
	assert.Equal(t, int32(abi.ACL_STREAM_STATUS_COMPLETE), st)
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	require.NoError(t, core.SynchronizeStream(th, 0, 1000))
	requireCode(t, core.SynchronizeStream(th, s, 0), abi.ACL_ERROR_INVALID_PARAM)

	require.NoError(t, SetStreamFailureMode(th, s, abi.ACL_STOP_ON_FAILURE))
	requireCode(t, SetStreamFailureMode(th, s, abi.ACL_CONTINUE_ON_FAILURE), abi.ACL_ERROR_RT_PARAM_INVALID)
	var av StreamAttrValue
	require.NoError(t, GetStreamAttribute(th, s, abi.ACL_STREAM_ATTR_FAILURE_MODE, &av))
	assert.Equal(t, uint64(abi.ACL_STOP_ON_FAILURE), av.u64())

	// A stream of another context is refused.
	var c core.Handle
	require.NoError(t, CreateContext(th, &c, 1))
	requireCode(t, core.SynchronizeStream(th, s, -1), abi.ACL_ERROR_RT_STREAM_CONTEXT)
	requireCode(t, core.DestroyStream(th, 0, false), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, core.DestroyContext(th, c))
	th.Ctx = nil
	require.NoError(t, SetDevice(th, 0))

	require.NoError(t, core.DestroyStream(th, s, false))
	requireCode(t, core.SynchronizeStream(th, s, -1), abi.ACL_ERROR_RT_INVALID_HANDLE)
	requireCode(t, core.DestroyStream(th, s, false), abi.ACL_ERROR_RT_INVALID_HANDLE)
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestStreamLimitCountsDefaultStreams(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend310B1"}) // 512 streams
	require.NoError(t, SetDevice(th, 0))
	var avail uint32
	require.NoError(t, GetStreamAvailableNum(th, &avail))
	assert.Equal(t, uint32(512-1), avail, "the default stream counts")
	hs := make([]core.Handle, avail)
	for i := range hs {
		require.NoError(t, CreateStream(th, &hs[i]))
	}
	var extra core.Handle
	requireCode(t, CreateStream(th, &extra), abi.ACL_ERROR_RT_NO_STREAM_RESOURCE)
	require.NoError(t, GetStreamAvailableNum(th, &avail))
	assert.Zero(t, avail)
	require.NoError(t, core.DestroyStream(th, hs[0], true))
	require.NoError(t, CreateStream(th, &hs[0]))
	// The rest is released by ResetDevice with the primary context.
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestLeakReport(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	var p uintptr
	require.NoError(t, Malloc(th, &p, 100, 0, core.MallocOpts{}))
	var buf bytes.Buffer
	old := leakOut
	leakOut = &buf
	defer func() { leakOut = old }()
	t.Setenv(LeakCheckEnv, "1")
	require.NoError(t, Finalize(th))
	out := buf.String()
	assert.Contains(t, out, "still alive")
	assert.Contains(t, out, "allocation")
	assert.Contains(t, out, "stream 1")
	assert.Contains(t, out, "primary context")
}

func TestHandleTable(t *testing.T) {
	tb := core.NewTable[int](core.KindStream)
	a, b := 1, 2
	ha := tb.Add(&a)
	got, err := tb.Get(ha)
	require.NoError(t, err)
	assert.Same(t, &a, got)
	assert.True(t, tb.Remove(ha))
	assert.False(t, tb.Remove(ha))
	hb := tb.Add(&b) // reuses the slot with a new generation
	_, err = tb.Get(ha)
	assert.Error(t, err, "stale handle")
	got, err = tb.Get(hb)
	require.NoError(t, err)
	assert.Same(t, &b, got)
	for _, bad := range []core.Handle{0, 1, core.Handle(uintptr(core.KindStream)<<56 | 999), core.Handle(uintptr(core.KindEvent)<<56 | uintptr(hb)&0xFFFFFFFFFFFFFF)} {
		_, err := tb.Get(bad)
		assert.Error(t, err, "%#x", uintptr(bad))
	}
	assert.Equal(t, 1, tb.Len())
}
