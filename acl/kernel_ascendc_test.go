package acl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// cycleHost is a fake kernel host whose launches report cycles.
type cycleHost struct {
	*fakeHost
	busy   [core.KernelPipes]uint64
	cycles uint64
}

func (c *cycleHost) Cycles(state []byte) ([core.KernelPipes]uint64, uint64, uint32) {
	return c.busy, c.cycles, 3
}

func TestKernelCyclesRecord(t *testing.T) {
	h := &cycleHost{fakeHost: newFakeHost(t), cycles: 1_800_000}
	h.busy[1], h.busy[4] = 1000, 2000 // PIPE_V, PIPE_MTE2
	th := setupPlatform(t, nil, emu.Platform{Kernels: h})
	require.NoError(t, SetDevice(th, 0))
	var bin core.Handle
	require.NoError(t, BinaryLoadFromFile(th, kernelFile(t, "KERNELS"), nil, &bin))
	defer func() { require.NoError(t, BinaryUnLoad(th, bin)) }()
	f := function(t, th, bin, "cube")

	var hooked []core.KernelCycles
	core.SetKernelCyclesHook(func(k core.KernelCycles) { hooked = append(hooked, k) })
	defer core.SetKernelCyclesHook(nil)
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 3, 0, nil, a))
	require.NoError(t, core.SynchronizeStream(th, 0, -1))

	rec, ok := core.LastKernelCycles()
	require.True(t, ok)
	assert.Equal(t, "cube", rec.Kernel)
	assert.Equal(t, uint32(3), rec.Blocks)
	assert.Equal(t, uint64(1000), rec.Busy[1])
	assert.Equal(t, uint64(2000), rec.Busy[4])
	assert.Equal(t, uint64(1_800_000), rec.Cycles)
	require.Len(t, hooked, 1)
	assert.Equal(t, rec, hooked[0])

	// 1.8 M cycles at 1800 MHz (the default SoC is an A2) is 1 ms: the
	// block cost of the next launch of a kernel that declares none.
	fn, err := core.ResolveFunction("test", f)
	require.NoError(t, err)
	if core.ClockMHz(core.KernelSoC()) == 1800 {
		var spec tsfw.KernelSpec
		core.KernelSpec(&spec, fn, 3, core.LaunchCfg{}, 0)
		assert.Equal(t, time.Millisecond, spec.BlockCost)
	}
}

func TestCooperativeLaunchFits(t *testing.T) {
	coop := core.KernelEntry{Name: "k", Flags: core.KernelCooperative}
	s := tsfw.KernelSpec{Blocks: 40, Kind: tsfw.CoreVector}
	require.NoError(t, core.Cooperative("f", &coop, &s, 20, 40))
	assert.True(t, s.Batch, "a cooperative launch waits until all its blocks fit")

	s = tsfw.KernelSpec{Blocks: 41, Kind: tsfw.CoreVector}
	requireCode(t, core.Cooperative("f", &coop, &s, 20, 40), abi.ACL_ERROR_RT_PARAM_INVALID)

	s = tsfw.KernelSpec{Blocks: 21, Kind: tsfw.CoreMix}
	requireCode(t, core.Cooperative("f", &coop, &s, 24, 40), abi.ACL_ERROR_RT_PARAM_INVALID) // 40 vector cores hold 20 mix blocks

	s = tsfw.KernelSpec{Blocks: 30, Kind: tsfw.CoreVector, MaxCores: 8}
	requireCode(t, core.Cooperative("f", &coop, &s, 20, 40), abi.ACL_ERROR_RT_PARAM_INVALID) // a resource limit caps it

	plain := core.KernelEntry{Name: "p"}
	s = tsfw.KernelSpec{Blocks: 1000, Kind: tsfw.CoreVector}
	require.NoError(t, core.Cooperative("f", &plain, &s, 20, 40))
	assert.False(t, s.Batch)
}
