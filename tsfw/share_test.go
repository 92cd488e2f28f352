package tsfw

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeArbiter holds the cores until busyUntil: a kernel ready before then
// starts then. It records what each claim asked for.
type fakeArbiter struct {
	mu        sync.Mutex
	busyUntil time.Duration
	claims    [][2]int
	durs      []time.Duration
}

func (f *fakeArbiter) Claim(start, dur time.Duration, cube, vector int) time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.claims = append(f.claims, [2]int{cube, vector})
	f.durs = append(f.durs, dur)
	return max(start, f.busyUntil)
}

// A kernel whose cores another holder keeps starts when they are released:
// its end, the queue's later tasks and the event after it move by the wait.
func TestCoreArbiterDelaysKernel(t *testing.T) {
	f := &fakeArbiter{busyUntil: 5 * time.Millisecond}
	d := newDev(t, Config{CubeCores: 4, VectorCores: 8, Cores: f})
	q := newQ(t, d, 0)
	e, err := d.NewEvent(0)
	require.NoError(t, err)
	spec := KernelSpec{Blocks: 6, Kind: CoreCube, BlockCost: time.Millisecond}
	require.NoError(t, q.Submit(KernelTask(newKernel(6), spec)))
	require.NoError(t, q.Submit(RecordTask(e)))
	require.NoError(t, q.Synchronize(-1))
	ts, ok := e.Timestamp()
	require.True(t, ok)
	kernel := DefaultCost.TaskOverhead + 2*time.Millisecond // 6 blocks on 4 cores: 2 waves
	assert.Equal(t, 5*time.Millisecond+kernel+DefaultCost.TaskOverhead, ts)
	require.Len(t, f.claims, 1, "only kernels are claimed")
	assert.Equal(t, [2]int{4, 0}, f.claims[0], "the width of the whole pool, in cube cores")
	assert.Equal(t, kernel, f.durs[0])
}

// The cores a claim names follow the kernel's kind, width and limits.
func TestCoreArbiterWidths(t *testing.T) {
	f := &fakeArbiter{}
	d := newDev(t, Config{CubeCores: 4, VectorCores: 8, Cores: f})
	q := newQ(t, d, 0)
	for _, spec := range []KernelSpec{
		{Blocks: 3, Kind: CoreVector},
		{Blocks: 20, Kind: CoreVector},
		{Blocks: 20, Kind: CoreMix},
		{Blocks: 20, Kind: CoreCube, MaxCores: 2},
		{Blocks: 1, Kind: CoreMix, MixVector: 16}, // more than the vector pool: one block on all of it
	} {
		require.NoError(t, q.Submit(KernelTask(newKernel(int(spec.Blocks)), spec)))
	}
	require.NoError(t, q.Synchronize(-1))
	assert.Equal(t, [][2]int{{0, 3}, {0, 8}, {4, 8}, {2, 0}, {1, 8}}, f.claims)
}

// An arbiter that never reports another holder changes no virtual time.
func TestCoreArbiterIdleKeepsTimes(t *testing.T) {
	run := func(cores CoreArbiter) []time.Duration {
		d := newDev(t, Config{CubeCores: 3, VectorCores: 5, Cores: cores})
		qs := []*Queue{newQ(t, d, 0), newQ(t, d, 1)}
		var out []time.Duration
		for i := range 8 {
			spec := KernelSpec{Blocks: uint32(1 + i*5%7), Kind: CoreKind(i % 3), BlockCost: time.Duration(1+i) * time.Microsecond}
			require.NoError(t, qs[i%2].Submit(KernelTask(newKernel(int(spec.Blocks)), spec)))
			require.NoError(t, qs[i%2].Synchronize(-1))
			out = append(out, time.Duration(qs[i%2].lastVEnd.Load()))
		}
		return out
	}
	assert.Equal(t, run(nil), run(&fakeArbiter{}))
}
