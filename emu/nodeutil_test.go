package emu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/tsfw"
)

// clock_ns is the device clock: it follows the end of the stamped work
// (within clockLag), so busy time over elapsed clock is the share of busy
// cores, whatever the pacing.
func TestNodeUtilDeviceClock(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory holds the node window's address (the conformance case node_contend covers this path)")
	}
	cfg, _ := nodeTestConfig(t)
	n := newTestNode(t, cfg)
	dev, err := n.Device(0)
	require.NoError(t, err)
	rec := n.Dir().Device(0)
	base := n.Dir().Self().ClockBaseNS[0]
	q, err := dev.TS.NewQueue(0)
	require.NoError(t, err)
	defer q.Destroy(true)
	cubes := uint64(dev.SoC.CubeCores)
	overhead := uint64(CostModel(dev.SoC.Family).TaskOverhead)

	// One kernel on every cube core: the clock is its end.
	require.NoError(t, q.Submit(tsfw.KernelTask(nopKernel{}, tsfw.KernelSpec{Blocks: uint32(cubes), BlockCost: ms})))
	require.NoError(t, q.Synchronize(-1))
	assert.Equal(t, base+overhead+uint64(ms), rec.ClockNS)
	c0, b0 := rec.ClockNS, rec.BusyNS[NodeEngineAICore]

	// 100 one-block kernels of 1 ms back to back: 1 core of the pool busy.
	for range 100 {
		require.NoError(t, q.Submit(tsfw.KernelTask(nopKernel{}, tsfw.KernelSpec{Blocks: 1, BlockCost: ms})))
	}
	require.NoError(t, q.Synchronize(-1))
	dc := rec.ClockNS - c0
	end := 100 * (overhead + uint64(ms))
	assert.LessOrEqual(t, dc, end)
	assert.Greater(t, dc, end-clockLag, "the clock lags by clockLag at most")
	db := rec.BusyNS[NodeEngineAICore] - b0
	assert.Equal(t, 100*uint64(ms), db)
	pct := float64(db) / float64(dc*cubes) * 100
	assert.InDelta(t, 100/float64(cubes), pct, 0.2, "one core of %d busy", cubes)
}
