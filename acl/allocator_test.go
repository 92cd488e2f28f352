package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

func TestAllocatorRegistration(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	var s1, s2 core.Handle
	require.NoError(t, CreateStream(th, &s1))
	require.NoError(t, CreateStream(th, &s2))

	d := AllocatorCreateDesc(th)
	require.NotZero(t, d)
	// Every setter refuses NULL, and a NULL or garbage description.
	for part := core.AllocatorObj; part <= core.AllocatorGetAddrFromBlock; part++ {
		requireCode(t, AllocatorSetPart(th, "set", d, part, 0), abi.ACL_ERROR_INVALID_PARAM)
		requireCode(t, AllocatorSetPart(th, "set", 0, part, 1), abi.ACL_ERROR_INVALID_PARAM)
		requireCode(t, AllocatorSetPart(th, "set", s1, part, 1), abi.ACL_ERROR_INVALID_PARAM)
	}
	// An incomplete description cannot be registered.
	requireCode(t, AllocatorRegister(th, s1, d), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, AllocatorSetPart(th, "set", d, core.AllocatorObj, 0x1000))
	require.NoError(t, AllocatorSetPart(th, "set", d, core.AllocatorAlloc, 0x2000))
	require.NoError(t, AllocatorSetPart(th, "set", d, core.AllocatorFree, 0x3000))
	requireCode(t, AllocatorRegister(th, s1, d), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, AllocatorSetPart(th, "set", d, core.AllocatorGetAddrFromBlock, 0x5000))
	requireCode(t, AllocatorRegister(th, 0, d), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, AllocatorRegister(th, s1, 0), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, AllocatorRegister(th, s1, d))

	var got core.AllocatorParts
	require.NoError(t, AllocatorGetByStream(th, s1, &got))
	assert.Equal(t, core.AllocatorParts{Desc: d, Obj: 0x1000, Alloc: 0x2000, Free: 0x3000, GetAddrFromBlock: 0x5000}, got)
	require.NoError(t, AllocatorGetByStream(th, s2, &got))
	assert.Equal(t, core.AllocatorParts{}, got, "a stream without registration")
	requireCode(t, AllocatorGetByStream(th, 0, &got), abi.ACL_ERROR_INVALID_PARAM)

	// The last registration wins; a registration is a snapshot.
	d2 := AllocatorCreateDesc(th)
	for part, v := range []uintptr{0x10, 0x20, 0x30, 0x40, 0x50} {
		require.NoError(t, AllocatorSetPart(th, "set", d2, part, v))
	}
	require.NoError(t, AllocatorRegister(th, s1, d2))
	require.NoError(t, AllocatorSetPart(th, "set", d2, core.AllocatorAlloc, 0x99))
	require.NoError(t, AllocatorDestroyDesc(th, d2))
	require.NoError(t, AllocatorGetByStream(th, s1, &got))
	assert.Equal(t, core.AllocatorParts{Desc: d2, Obj: 0x10, Alloc: 0x20, Free: 0x30, AllocAdvise: 0x40, GetAddrFromBlock: 0x50}, got)
	requireCode(t, AllocatorDestroyDesc(th, d2), abi.ACL_ERROR_INVALID_PARAM)

	// Unregister: repeated or unknown is a success.
	require.NoError(t, AllocatorRegister(th, s2, d))
	assert.Equal(t, 2, core.AllocatorRegistered())
	require.NoError(t, AllocatorUnregister(th, s1))
	require.NoError(t, AllocatorUnregister(th, s1))
	requireCode(t, AllocatorUnregister(th, 0), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, AllocatorGetByStream(th, s1, &got))
	assert.Equal(t, core.AllocatorParts{}, got)

	// Destroying the stream drops its registration.
	require.NoError(t, core.DestroyStream(th, s2, false))
	assert.Zero(t, core.AllocatorRegistered())
	require.NoError(t, AllocatorUnregister(th, s2))
	require.NoError(t, AllocatorDestroyDesc(th, d))
	require.NoError(t, core.DestroyStream(th, s1, false))
	assert.Zero(t, core.AllocDescs.Len())
}

func TestAllocatorRegisterSoC(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend310B1"})
	require.NoError(t, SetDevice(th, 0))
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	d := AllocatorCreateDesc(th)
	for part, v := range []uintptr{1, 2, 3, 4, 5} {
		require.NoError(t, AllocatorSetPart(th, "set", d, part, v))
	}
	requireCode(t, core.CheckSoC("aclrtAllocatorRegister"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	require.NoError(t, AllocatorDestroyDesc(th, d))
	require.NoError(t, core.DestroyStream(th, s, false))
}
