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
	var tk Turn
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
	d := newDev(t, Config{CubeCores: 1})
	d.yieldHook = func() {}
	r := &krun{q: newQ(t, d, 0)}
	var tk Turn
	reached := false
	for i := 0; i < 100000 && !reached; i++ {
		tk.blockEnded(r)
		reached = tk.every == 63
	}
	require.True(t, reached, "readings of blocks that end together are spaced out to every 64th block")
	tk.left, tk.last = 0, tk.last-laneTurn // the next block ends long after the last reading
	tk.blockEnded(r)
	assert.Equal(t, uint8(0), tk.every)
}

// TestThreadGivesTurn: a thread that runs a kernel's blocks itself while
// it synchronises (HelpQueue takes the token of a lane that never runs)
// gives the scheduler turns when it passes its tick (SynchronizeTurn),
// and none without one (Synchronize).
func TestThreadGivesTurn(t *testing.T) {
	for _, withTurn := range []bool{true, false} {
		d := newDev(t, Config{CubeCores: 1})
		var yields atomic.Int32
		d.yieldHook = func() { yields.Add(1) }
		q := newQ(t, d, 0)
		ghostLane(d) // the only core's lane: the synchronising thread runs the blocks
		// 30 blocks of laneTurn/10: a block would have to take 9 times
		// its time for the readings around it to look like an absence.
		const blocks = 30
		k := &sleepKernel{d: laneTurn / 10}
		require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: blocks})))
		var tk *Turn
		if withTurn {
			tt := ThreadTurn()
			tk = &tt
		}
		require.NoError(t, q.SynchronizeTurn(-1, tk))
		assert.Equal(t, int32(blocks), k.ran.Load())
		if withTurn {
			assert.GreaterOrEqual(t, yields.Load(), int32(1), "the thread ran 3 × laneTurn of blocks without a turn")
		} else {
			assert.Zero(t, yields.Load(), "a thread without a turn gave one")
		}
	}
}

// TestThreadTurnAway: a thread's turn whose last reading is laneTurn old
// (the thread was away: in C, or parked) starts a new tick at the next
// reading instead of giving a turn; a lane's, never away, gives it.
func TestThreadTurnAway(t *testing.T) {
	for _, thread := range []bool{true, false} {
		d := newDev(t, Config{CubeCores: 1})
		yields := 0
		d.yieldHook = func() { yields++ }
		var tk Turn
		if thread {
			tk = ThreadTurn()
		}
		now := time.Since(laneClock)
		tk.since, tk.last = now-2*laneTurn, now-laneTurn
		tk.blockEnded(&krun{q: newQ(t, d, 0)})
		if thread {
			assert.Zero(t, yields, "a thread back after laneTurn away gave a turn")
		} else {
			assert.Equal(t, 1, yields, "a lane past its turn gave none")
		}
		assert.GreaterOrEqual(t, tk.since, now, "no new tick")
	}
}

// TestThreadParkedNewTick: a thread that parks in SynchronizeTurn (the
// queue's head is a host task that waits) starts a new tick when it
// wakes.
func TestThreadParkedNewTick(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	release := make(chan struct{})
	require.NoError(t, q.Submit(HostTask(func() error { <-release; return nil })))
	go func() {
		for q.Parked() == 0 {
			time.Sleep(time.Millisecond)
		}
		close(release)
	}()
	tk := ThreadTurn()
	before := time.Since(laneClock)
	require.NoError(t, q.SynchronizeTurn(-1, &tk))
	assert.Greater(t, tk.since, before, "the tick did not start anew after parking")
	var none *Turn
	assert.NotPanics(t, none.parked)
}
