package tsfw

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTurnDue: a lane's turn is due laneTurn after its tick started, not
// before, and never before the clock was first read.
func TestTurnDue(t *testing.T) {
	var tk turn
	assert.False(t, tk.due(time.Hour), "tick not started")
	tk.since = time.Millisecond
	assert.False(t, tk.due(time.Millisecond+laneTurn-1))
	assert.True(t, tk.due(time.Millisecond+laneTurn))
}

// sleepKernel's blocks each sleep for its duration, counted in ran.
type sleepKernel struct {
	d   time.Duration
	ran atomic.Int32
}

func (k *sleepKernel) RunBlock(b, n uint32) error {
	time.Sleep(k.d)
	k.ran.Add(1)
	return nil
}

func (k *sleepKernel) Done(err error) error { return err }

// TestLaneGivesTurn: a lane that runs blocks for 3 × laneTurn in a row
// gives the Go scheduler turns between them (the stand-in for
// runtime.Gosched counts them), and every block still runs once.
func TestLaneGivesTurn(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1, HostThreads: 1})
	var yields atomic.Int32
	d.yieldHook = func() { yields.Add(1) }
	q := newQ(t, d, 0)
	const blocks = 15
	k := &sleepKernel{d: laneTurn / 5}
	require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: blocks})))
	// Waits without helping (Synchronize may run the blocks itself).
	for k.ran.Load() < blocks {
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, q.Synchronize(-1))
	assert.Equal(t, int32(blocks), k.ran.Load())
	assert.GreaterOrEqual(t, yields.Load(), int32(1), "the lane ran 3 × laneTurn without a turn")
}

// TestTurnSpacesReadings: blocks that end close together (tiny blocks)
// space the clock readings out up to every 64th block; a reading after a
// long gap reads after every block again.
func TestTurnSpacesReadings(t *testing.T) {
	tk := turn{d: newDev(t, Config{CubeCores: 1})}
	tk.d.yieldHook = func() {}
	reached := false
	for i := 0; i < 100000 && !reached; i++ {
		tk.blockEnded()
		reached = tk.every == 63
	}
	require.True(t, reached, "readings of blocks that end together are spaced out to every 64th block")
	tk.left, tk.last = 0, tk.last-laneTurn // the next block ends long after the last reading
	tk.blockEnded()
	assert.Equal(t, uint8(0), tk.every)
}
