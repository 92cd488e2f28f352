package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// countResolutions counts the stream resolutions of this package until
// the test ends.
func countResolutions(t *testing.T) *int {
	n := new(int)
	orig := core.StreamLookup
	core.StreamLookup = func(th *core.Thread, fn string, h core.Handle) (*core.Stream, error) {
		*n++
		return orig(th, fn, h)
	}
	t.Cleanup(func() { core.StreamLookup = orig })
	return n
}

// TestClaimedCrossingResolvesOnce: a combined launch + synchronize
// (libfake/launchq.go) resolves its stream once, in ClaimForSync, and
// carries it to the launches and the synchronisation; made with each step
// resolving its own, the same work resolves it three times. Both take the
// same virtual time.
func TestClaimedCrossingResolvesOnce(t *testing.T) {
	th, _, bin := kernelSetup(t)
	slow := function(t, th, bin, "slow")
	blocks := uint32(th.Ctx.Dev.Emu.SoC.VectorCores + 1) // two waves
	var a, s, e0, e1 core.Handle
	require.NoError(t, KernelArgsInit(th, slow, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	require.NoError(t, CreateStream(th, &s))
	require.NoError(t, core.CreateEvent(th, &e0))
	require.NoError(t, core.CreateEvent(th, &e1))
	elapsed := func(crossing func()) float32 {
		require.NoError(t, core.RecordEvent(th, e0, s, 0))
		require.NoError(t, core.SynchronizeStream(th, s, -1))
		crossing()
		require.NoError(t, core.RecordEvent(th, e1, s, 0))
		require.NoError(t, core.SynchronizeStream(th, s, -1))
		var ms float32
		require.NoError(t, core.EventElapsedTime(th, &ms, e0, e1))
		return ms
	}
	n := countResolutions(t)
	carried := elapsed(func() {
		*n = 0
		c := ClaimForSync(th, s)
		require.NotNil(t, c)
		_, err := HandOverLaunches(th, slow, blocks, s, c, a, 3)
		require.NoError(t, err)
		c.RunClaimed(th)
		require.NoError(t, SynchronizeClaimed(th, c))
		assert.Equal(t, 1, *n, "one resolution for the claim, the launches and the synchronisation")
	})
	each := elapsed(func() {
		*n = 0
		c := ClaimForSync(th, s)
		require.NotNil(t, c)
		_, err := HandOverLaunches(th, slow, blocks, s, nil, a, 3)
		require.NoError(t, err)
		c.RunClaimed(th)
		require.NoError(t, core.SynchronizeStream(th, s, -1))
		assert.Equal(t, 3, *n, "claim, launches and synchronisation each resolve")
	})
	assert.InDelta(t, 3*waves(int(blocks), th.Ctx.Dev.Emu.SoC.VectorCores), carried, 0.01, "three two-wave launches")
	assert.InDelta(t, each, carried, 0.001, "the same virtual time either way")

	// A carried stream that died meanwhile is resolved again: the
	// launch and the synchronisation fail as they did before.
	c := ClaimForSync(th, s)
	require.NotNil(t, c)
	c.RunClaimed(th)
	require.NoError(t, core.DestroyStream(th, s, false))
	_, errCarried := HandOverLaunches(th, slow, 1, s, c, a, 1)
	_, errEach := HandOverLaunches(th, slow, 1, s, nil, a, 1)
	require.Error(t, errEach)
	assert.Equal(t, errEach.Error(), errCarried.Error())
	assert.Equal(t, abi.Code(abi.ACL_ERROR_RT_INVALID_HANDLE), abi.CodeOf(errCarried))
	errCarried, errEach = SynchronizeClaimed(th, c), core.SynchronizeStream(th, s, -1)
	require.Error(t, errEach)
	assert.Equal(t, errEach.Error(), errCarried.Error())
	assert.Equal(t, abi.Code(abi.ACL_ERROR_RT_INVALID_HANDLE), abi.CodeOf(errCarried))

	require.NoError(t, core.DestroyEvent(th, e0))
	require.NoError(t, core.DestroyEvent(th, e1))
	require.NoError(t, BinaryUnLoad(th, bin))
}

// BenchmarkClaimedLaunchSync: the combined launch + synchronize of
// libfake/launchq.go (claim, hand-over of one launch, the claimed run, the
// synchronisation) with the stream carried from the claim ("carried") and
// with each step resolving it ("each"), without the C crossing.
func BenchmarkClaimedLaunchSync(b *testing.B) {
	th, f, a := launchBench(b)
	var sh core.Handle
	require.NoError(b, CreateStream(th, &sh))
	for _, carry := range []bool{true, false} {
		name := map[bool]string{true: "carried", false: "each"}[carry]
		b.Run(name, func(b *testing.B) {
			c0 := cpuTime()
			for b.Loop() {
				c := ClaimForSync(th, sh)
				on := c
				if !carry {
					on = nil
				}
				if _, err := HandOverLaunches(th, f, 1, sh, on, a, 1); err != nil {
					b.Fatal(err)
				}
				c.RunClaimed(th)
				var err error
				if carry {
					err = SynchronizeClaimed(th, c)
				} else {
					err = core.SynchronizeStream(th, sh, -1)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0)
		})
	}
}
