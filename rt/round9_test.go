package rt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// setupSoC is setup on a node of the named SoC.
func setupSoC(t *testing.T, soc string) *core.Thread {
	t.Helper()
	th := setup(t)
	if soc == "" {
		return th
	}
	require.NoError(t, DeviceReset(th, 0))
	require.NoError(t, acl.Finalize(th))
	t.Setenv("NPUEMU_SOC", soc)
	require.NoError(t, acl.Init(th, ""))
	require.NoError(t, SetDevice(th, 0))
	return th
}

// The interval is the SoC's largest AI Core timeout / 254, rounded up;
// V2 rounds a request up to a multiple of it and holds kernels to whole
// seconds.
func TestOpExecuteTimeoutV2(t *testing.T) {
	for _, c := range []struct {
		soc      string
		interval uint64
	}{{"", 4_295_276}, {"Ascend310P3", 2_153_544}, {"Ascend910A", 8_566_930}} {
		t.Run(c.soc, func(t *testing.T) {
			th := setupSoC(t, c.soc)
			var iv, act uint64
			requireRT(t, GetOpTimeOutInterval(th, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtGetOpTimeOutInterval")
			require.NoError(t, GetOpTimeOutInterval(th, &iv))
			assert.Equal(t, c.interval, iv)

			requireRT(t, SetOpExecuteTimeOutV2(th, 1, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtSetOpExecuteTimeOutV2")
			require.NoError(t, SetOpExecuteTimeOutV2(th, 2*iv-1, &act))
			assert.Equal(t, 2*iv, act)
			var ms uint32
			require.NoError(t, GetOpExecuteTimeoutV2(th, &ms))
			assert.Equal(t, uint32((2*iv+999_999)/1_000_000*1000), ms)
			require.NoError(t, SetOpExecuteTimeOutV2(th, 2*iv, &act))
			assert.Equal(t, 2*iv, act)
			require.NoError(t, SetOpExecuteTimeOutV2(th, 0, &act))
			assert.Equal(t, 254*iv, act)
			require.NoError(t, SetOpExecuteTimeOutV2(th, 1<<62, &act))
			assert.Equal(t, 254*iv, act)
			require.NoError(t, SetOpExecuteTimeOut(th, 0))
		})
	}
}

// rtFloatOverflowMode_t is converted both ways; the 950 refuses
// saturation, as aclrtSetDeviceSatMode does there.
func TestDeviceSatMode(t *testing.T) {
	th := setup(t)
	var m int32 = -1
	requireRT(t, GetDeviceSatMode(th, nil), abi.ACL_ERROR_RT_PARAM_INVALID, "rtGetDeviceSatMode")
	require.NoError(t, GetDeviceSatMode(th, &m))
	assert.Equal(t, int32(abi.RT_OVERFLOW_MODE_INFNAN), m, "A2 default")
	requireRT(t, SetDeviceSatMode(th, abi.RT_OVERFLOW_MODE_UNDEF), abi.ACL_ERROR_RT_PARAM_INVALID, "rtSetDeviceSatMode")
	require.NoError(t, SetDeviceSatMode(th, abi.RT_OVERFLOW_MODE_SATURATION))
	require.NoError(t, GetDeviceSatMode(th, &m))
	assert.Equal(t, int32(abi.RT_OVERFLOW_MODE_SATURATION), m)
	var am int32
	require.NoError(t, acl.GetDeviceSatMode(th, &am))
	assert.Equal(t, int32(abi.ACL_RT_OVERFLOW_MODE_SATURATION), am)
}

func TestDeviceSatMode950(t *testing.T) {
	th := setupSoC(t, "Ascend950PR_9599")
	err := SetDeviceSatMode(th, abi.RT_OVERFLOW_MODE_SATURATION)
	assert.Equal(t, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, abi.CodeOf(err), "%v", err)
}

// regKeys returns the keys of the registered exception callbacks.
func regKeys() []uintptr {
	core.ExcState.Mu.Lock()
	defer core.ExcState.Mu.Unlock()
	var ks []uintptr
	for _, e := range core.ExcState.Reg {
		ks = append(ks, e.Key)
	}
	return ks
}

// One callback per module: registering again replaces it, NULL removes it.
func TestRegTaskFailCallbackByModule(t *testing.T) {
	th := setup(t)
	before := len(regKeys())
	calls := map[string]int{}
	cb := func(name string) core.ExceptionCallback {
		return func(*core.ExceptionInfo) { calls[name]++ }
	}
	requireRT(t, RegTaskFailCallbackByModule(th, "", false, cb("x")), abi.ACL_ERROR_RT_PARAM_INVALID, "rtRegTaskFailCallbackByModule")
	require.NoError(t, RegTaskFailCallbackByModule(th, "a", true, cb("a")))
	require.NoError(t, RegTaskFailCallbackByModule(th, "b", true, cb("b")))
	require.NoError(t, RegTaskFailCallbackByModule(th, "a", true, cb("a2")))
	require.Len(t, regKeys(), before+2)
	core.ExcState.Mu.Lock()
	reg := append([]core.ExcEntry(nil), core.ExcState.Reg...)
	core.ExcState.Mu.Unlock()
	for _, e := range reg {
		e.Fn(&core.ExceptionInfo{})
	}
	assert.Equal(t, map[string]int{"a2": 1, "b": 1}, calls)

	require.NoError(t, RegTaskFailCallbackByModule(th, "a", true, nil))
	require.NoError(t, RegTaskFailCallbackByModule(th, "b", true, nil))
	require.NoError(t, RegTaskFailCallbackByModule(th, "never", true, nil))
	assert.Len(t, regKeys(), before)
}
