package rt

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

func TestTaskCfgAttrs(t *testing.T) {
	a, err := taskCfgAttrs("rtX", nil)
	require.NoError(t, err)
	assert.Nil(t, a)

	_, err = taskCfgAttrs("rtX", &TaskCfg{LocalMemorySize: 64})
	assert.Equal(t, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, abi.CodeOf(err), "%v", err)
	_, err = taskCfgAttrs("rtX", &TaskCfg{NeverTimeout: 2})
	assert.Equal(t, abi.ACL_ERROR_RT_PARAM_INVALID, abi.CodeOf(err), "%v", err)

	// A valid config is attributes the launch path accepts; neverTimeout
	// is the longest timeout there is.
	a, err = taskCfgAttrs("rtX", &TaskCfg{SchemMode: 1, DumpFlag: 1, NeverTimeout: 1, Qos: 3})
	require.NoError(t, err)
	_, err = core.ParseLaunchAttrs("rtX", a, "Ascend910B3")
	require.NoError(t, err)
	last := a[len(a)-1]
	assert.EqualValues(t, abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, last.ID)
	assert.Equal(t, uint64(math.MaxUint64), binary.LittleEndian.Uint64(last.Value[:8]))

	// schemMode 2 is refused as the ACL attribute refuses it.
	a, err = taskCfgAttrs("rtX", &TaskCfg{SchemMode: 2})
	require.NoError(t, err)
	_, err = core.ParseLaunchAttrs("rtX", a, "Ascend910B3")
	assert.Error(t, err)
}

func TestFlagAttrs(t *testing.T) {
	_, err := flagAttrs("rtX", 0x200, nil)
	assert.Equal(t, abi.ACL_ERROR_RT_PARAM_INVALID, abi.CodeOf(err), "%v", err)

	a, err := flagAttrs("rtX", abi.RT_KERNEL_DUMPFLAG|abi.RT_KERNEL_CONVERT, nil)
	require.NoError(t, err)
	require.Len(t, a, 1)
	assert.EqualValues(t, abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, a[0].ID)
	assert.EqualValues(t, 1, a[0].Value[0])

	// A config that asked for no dump gets it from the flag, once.
	cfg, err := taskCfgAttrs("rtX", &TaskCfg{})
	require.NoError(t, err)
	a, err = flagAttrs("rtX", abi.RT_KERNEL_DUMPFLAG, cfg)
	require.NoError(t, err)
	assert.Len(t, a, len(cfg))
	n := 0
	for _, x := range a {
		if x.ID == abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP {
			n++
			assert.EqualValues(t, 1, x.Value[0])
		}
	}
	assert.Equal(t, 1, n)
}

func TestStubAndTilingLookup(t *testing.T) {
	b := core.NewBinary(nil, 0, "", []core.KernelEntry{{Name: "add_1"}, {Name: "add_12"}, {Name: "pick"}})
	const stubA, stubB = uintptr(0x1000), uintptr(0x2000)
	t.Cleanup(func() {
		stubs.mu.Lock()
		delete(stubs.m, stubA)
		stubs.mu.Unlock()
	})

	for key, name := range map[uint64]string{1: "add_1", 12: "add_12"} {
		f, err := tilingFunction("rtKernelLaunchWithHandleV2", b.H, key)
		require.NoError(t, err)
		assert.Equal(t, name, f.Entry.Name)
	}
	_, err := tilingFunction("rtKernelLaunchWithHandleV2", b.H, 2)
	requireRT(t, err, abi.ACL_ERROR_RT_KERNEL_LOOKUP, "rtKernelLaunchWithHandleV2")
	_, err = tilingFunction("rtKernelLaunchWithHandleV2", 0, 1)
	requireRT(t, err, abi.ACL_ERROR_RT_PARAM_INVALID, "rtKernelLaunchWithHandleV2")

	require.NoError(t, FunctionRegister(nil, b.H, stubA, "stubA", "pick", true))
	f, err := stubFunction("rtKernelLaunchWithFlagV2", stubA)
	require.NoError(t, err)
	assert.Equal(t, "pick", f.Entry.Name)
	requireRT(t, FunctionRegister(nil, b.H, stubB, "stubB", "nope", true), abi.ACL_ERROR_RT_KERNEL_LOOKUP, "rtFunctionRegister")
	requireRT(t, FunctionRegister(nil, b.H, 0, "stubB", "pick", true), abi.ACL_ERROR_RT_PARAM_INVALID, "rtFunctionRegister")
	_, err = stubFunction("rtKernelLaunchWithFlagV2", stubB)
	requireRT(t, err, abi.ACL_ERROR_RT_KERNEL_LOOKUP, "rtKernelLaunchWithFlagV2")

	// An unloaded binary's functions are gone: its stubs and tiling keys
	// name a stale handle.
	require.True(t, b.Unload())
	_, err = stubFunction("rtKernelLaunchWithFlagV2", stubA)
	requireRT(t, err, abi.ACL_ERROR_RT_INVALID_HANDLE, "rtKernelLaunchWithFlagV2")
	_, err = tilingFunction("rtKernelLaunchWithHandleV2", b.H, 1)
	requireRT(t, err, abi.ACL_ERROR_RT_INVALID_HANDLE, "rtKernelLaunchWithHandleV2")
}

func TestCString(t *testing.T) {
	assert.Equal(t, "libx.so", cString([]byte("libx.so\x00junk")))
	assert.Equal(t, "abc", cString([]byte("abc")))
	assert.Equal(t, "", cString([]byte{0, 'a'}))
}
