package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// TestLaunchRunSharesSpec: a run of identical launches (launchKernelN)
// builds its task description once and gives it to every launch of the
// run: under a resource limit each of them is capped, so the run takes the
// virtual time of the same launches made one by one.
func TestLaunchRunSharesSpec(t *testing.T) {
	th, _, bin := kernelSetup(t)
	slow := function(t, th, bin, "slow")
	soc := th.Ctx.Dev.Emu.SoC
	require.Positive(t, soc.VectorCores, "the default SoC has vector cores")
	blocks := uint32(soc.VectorCores + 1)
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, slow, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	elapsed := func(launch func()) float32 { return defaultStreamElapsed(t, th, launch) }
	require.NoError(t, SetDeviceResLimit(th, 0, abi.ACL_RT_DEV_RES_VECTOR_CORE, 2))
	oneByOne := elapsed(func() {
		for range 3 {
			require.NoError(t, core.LaunchKernelWithConfig(th, slow, blocks, 0, nil, a))
		}
	})
	run := elapsed(func() { require.NoError(t, core.LaunchKernelWithConfigN(th, slow, blocks, 0, a, 3)) })
	assert.InDelta(t, 3*waves(int(blocks), 2), oneByOne, 0.01, "three capped launches")
	assert.InDelta(t, oneByOne, run, 0.001, "every launch of the run is capped")
	require.NoError(t, ResetDeviceResLimit(th, 0))
	free := elapsed(func() { require.NoError(t, core.LaunchKernelWithConfigN(th, slow, blocks, 0, a, 3)) })
	assert.InDelta(t, 3*waves(int(blocks), soc.VectorCores), free, 0.01, "the next run reads the limit again")
	require.NoError(t, BinaryUnLoad(th, bin))
}
