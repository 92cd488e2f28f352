package acl

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// hostPages returns n page-aligned bytes of host memory (kept alive by the
// returned slice).
func hostPages(n int) (uintptr, []byte) {
	b := make([]byte, n+4096)
	p := (uintptr(unsafe.Pointer(&b[0])) + 4095) &^ 4095
	return p, b
}

// Registration is the driver's halHostRegister / halHostUnregisterEx, through
// rt/stack: an interposed definition sees the map type and decides.
func TestHostRegistrationThroughStack(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	var regFlags, unregFlags []uint32
	refuse := false
	stack.HAL.HostRegister = func(src uintptr, size uint64, flag, dev uint32, dst *uintptr) error {
		regFlags = append(regFlags, flag)
		if refuse {
			return abi.DrvErrorf(abi.DRV_ERROR_OUT_OF_MEMORY, "refused by the test hook")
		}
		return hal.HostRegister(src, size, flag, dev, dst)
	}
	stack.HAL.HostUnregisterEx = func(src uintptr, dev, flag uint32) error {
		unregFlags = append(unregFlags, flag)
		return hal.HostUnregister("halHostUnregisterEx", src, dev, flag, true)
	}
	stack.HAL.HostRegisterCapabilities = func(dev, acc uint32, out *uint32) error {
		*out = abi.HOST_MEM_MAP_NOT_SUPPORTED
		return nil
	}
	t.Cleanup(func() {
		stack.HAL.HostRegister, stack.HAL.HostUnregisterEx, stack.HAL.HostRegisterCapabilities = nil, nil, nil
	})

	p, keep := hostPages(3 * 4096)
	defer runtime.KeepAlive(keep)
	var dp uintptr
	require.NoError(t, HostRegister(th, p, 4096, abi.ACL_HOST_REGISTER_MAPPED, &dp))
	assert.Equal(t, p, dp)
	require.NoError(t, HostRegisterV2(th, p+4096, 4096, abi.ACL_HOST_REG_PINNED))
	assert.Equal(t, []uint32{abi.HOST_MEM_MAP_DEV, abi.HOST_MEM_MAP_DMA}, regFlags)
	requireCode(t, HostGetDevicePointer(th, p+4096, &dp, 0), abi.ACL_ERROR_RT_PARAM_INVALID) // pinned only: no device address

	refuse = true
	requireCode(t, HostRegister(th, p+2*4096, 4096, abi.ACL_HOST_REGISTER_MAPPED, &dp), abi.ACL_ERROR_RT_MEMORY_ALLOCATION)
	requireCode(t, HostGetDevicePointer(th, p+2*4096, &dp, 0), abi.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED)
	requireCode(t, HostRegister(th, 0, 4096, abi.ACL_HOST_REGISTER_MAPPED, &dp), abi.ACL_ERROR_INVALID_PARAM)
	assert.Len(t, regFlags, 3, "ACL's argument check answers before the driver")

	require.NoError(t, HostUnregister(th, p+4096))
	require.NoError(t, HostUnregister(th, p))
	requireCode(t, HostUnregister(th, p), abi.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED)
	assert.Equal(t, []uint32{abi.HOST_MEM_MAP_DMA, abi.HOST_MEM_MAP_DEV, abi.HOST_MEM_MAP_DEV}, unregFlags)

	c := uint32(7)
	require.NoError(t, HostMemMapCapabilities(th, 0, abi.ACL_RT_HAC_TYPE_AIC, &c))
	assert.Equal(t, uint32(abi.ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED), c, "the driver's answer")
	require.NoError(t, core.ResetDevice(th, 0))
}

// An export whose no-whitelist attribute the driver refuses is withdrawn
// again, through the same boundary.
func TestIpcExportThroughStack(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	var d uintptr
	require.NoError(t, Malloc(th, &d, 2<<20, 0, core.MallocOpts{}))
	var destroyed []string
	stack.HAL.ShmemSetAttribute = func(name string, typ uint32, attr uint64) error {
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "refused by the test hook")
	}
	stack.HAL.ShmemDestroyHandle = func(name string) error {
		destroyed = append(destroyed, name)
		return hal.ShmemDestroyHandle(name)
	}
	t.Cleanup(func() { stack.HAL.ShmemSetAttribute, stack.HAL.ShmemDestroyHandle = nil, nil })

	_, err := IpcMemGetExportKey(th, d, 2<<20, true, ipcKeyLen, abi.ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
	requireCode(t, err, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	require.Len(t, destroyed, 1)
	var p uintptr
	assert.Error(t, hal.ShmemOpenHandle("halShmemOpenHandle", -1, destroyed[0], &p), "the name is withdrawn")

	key, err := IpcMemGetExportKey(th, d, 2<<20, true, ipcKeyLen, abi.ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT)
	require.NoError(t, err)
	require.NoError(t, IpcMemClose(th, key, false))
	assert.Equal(t, []string{destroyed[0], key}, destroyed)
	require.NoError(t, Free(th, d, false))
	require.NoError(t, core.ResetDevice(th, 0))
}
