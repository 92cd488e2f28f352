package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/stack"
	"github.com/npuemu/npuemu/tsfw"
)

// interposeCopies replaces the driver's copy calls of rt/stack with
// recorders for the test, and restores them after it.
func interposeCopies(t *testing.T, calls *[]string, result abi.DrvCode) {
	saved := stack.HAL
	t.Cleanup(func() { stack.HAL = saved })
	drv := func(name string) error {
		*calls = append(*calls, name)
		if result != abi.DRV_ERROR_NONE {
			return abi.DrvErrorf(result, "%s (interposed) returned %d", name, result)
		}
		return nil
	}
	stack.HAL.SdmaCopy = func(dst uintptr, size uint64, src uintptr, n uint64) error { return drv("halSdmaCopy") }
	stack.HAL.HalMemcpy = func(dst uintptr, size uint64, src uintptr, n uint64, info *hal.MemcpyInfo) error {
		require.Equal(t, uint32(abi.DRV_MEMCPY_DEVICE_TO_HOST), info.Dir)
		require.Equal(t, uint32(3), info.Devid, "halMemcpy names the source's device")
		return drv("halMemcpy")
	}
	stack.HAL.DrvMemcpy = func(dst uintptr, destMax uint64, src uintptr, n uint64) error { return drv("drvMemcpy") }
	stack.HAL.SyncCopy = true
}

// The synchronous copy picks its driver call by direction (docs/stack.md).
func TestDriverCopyPicksTheCallByDirection(t *testing.T) {
	var calls []string
	interposeCopies(t, &calls, abi.DRV_ERROR_NONE)
	a2 := &Device{ID: 3, Emu: &emu.Device{ID: 3, SoC: emu.SoC{Family: emu.FamilyA2}}}
	d950 := &Device{ID: 3, Emu: &emu.Device{ID: 3, SoC: emu.SoC{Family: emu.Family950}}}
	for _, c := range []struct {
		p    copyPlan
		want string
	}{
		{copyPlan{tsfw.DeviceToHost, a2}, "halMemcpy"},
		{copyPlan{tsfw.DeviceToDevice, a2}, "halSdmaCopy"},
		{copyPlan{tsfw.DeviceToDevice, d950}, "drvMemcpy"},
		{copyPlan{tsfw.HostToDevice, a2}, "drvMemcpy"},
		{copyPlan{tsfw.HostToHost, a2}, "drvMemcpy"},
		{copyPlan{tsfw.PeerToPeer, a2}, "drvMemcpy"},
	} {
		calls = nil
		require.NoError(t, driverCopy("aclrtMemcpy", 0x1000, 64, 0x2000, 64, c.p))
		assert.Equal(t, []string{c.want}, calls, "%s on %s", c.p.Dir, c.p.Dev.Emu.SoC.Family)
	}
}

// A driver refusal reaches the caller converted to the rt code.
func TestDriverCopyConvertsTheRefusal(t *testing.T) {
	var calls []string
	interposeCopies(t, &calls, abi.DRV_ERROR_OUT_OF_MEMORY)
	d := &Device{ID: 3, Emu: &emu.Device{ID: 3, SoC: emu.SoC{Family: emu.FamilyA2}}}
	err := driverCopy("aclrtMemcpy", 0x1000, 64, 0x2000, 64, copyPlan{tsfw.HostToDevice, d})
	require.Error(t, err)
	assert.Equal(t, abi.ACL_ERROR_RT_MEMORY_ALLOCATION, abi.CodeOf(err))
	assert.Contains(t, abi.MessageOf(err), "drvMemcpy")
}

// halMemcpy2D is called again while it reports progress short of the
// whole copy; a call without progress is an error, not a loop.
func TestDriverCopy2DFollowsFixedSize(t *testing.T) {
	saved := stack.HAL
	t.Cleanup(func() { stack.HAL = saved })
	var seen []uint64
	step := uint64(100)
	stack.HAL.Memcpy2D = func(p *hal.Memcpy2D) error {
		assert.Equal(t, uint32(abi.DEVMM_MEMCPY2D_SYNC), p.Type)
		assert.Equal(t, uint32(abi.DRV_MEMCPY_HOST_TO_DEVICE), p.Copy2d.Direction)
		seen = append(seen, p.Copy2d.Fixed_size)
		p.Copy2d.Fixed_size += step
		return nil
	}
	require.True(t, Copy2DThroughDriver())
	require.NoError(t, DriverCopy2D("aclrtMemcpy2d", 0x1000, 64, 0x2000, 64, 50, 6, tsfw.HostToDevice))
	assert.Equal(t, []uint64{0, 100, 200}, seen)

	step = 0
	err := DriverCopy2D("aclrtMemcpy2d", 0x1000, 64, 0x2000, 64, 50, 6, tsfw.HostToDevice)
	require.Error(t, err)
	assert.Equal(t, abi.ACL_ERROR_RT_DRV_INTERNAL_ERROR, abi.CodeOf(err))

	stack.HAL.Memcpy2D = func(p *hal.Memcpy2D) error { return abi.DrvErrorf(abi.DRV_ERROR_OVER_LIMIT, "refused") }
	err = DriverCopy2D("aclrtMemcpy2d", 0x1000, 64, 0x2000, 64, 50, 6, tsfw.HostToDevice)
	assert.Equal(t, abi.ACL_ERROR_RT_OVER_LIMIT, abi.CodeOf(err))
}
