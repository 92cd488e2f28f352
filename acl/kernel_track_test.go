package acl

import (
	"sync"
	"testing"
	"time"

	"github.com/npuemu/npuemu/rt/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTrackGateExcludes(t *testing.T) {
	g := &core.TrackGate{}
	var mu sync.Mutex
	inside, writers := 0, 0
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if i%4 == 0 {
					require.True(t, g.Lock())
					mu.Lock()
					assert.Zero(t, inside, "a reader inside while the writer holds the gate")
					assert.Zero(t, writers)
					writers++
					mu.Unlock()
					mu.Lock()
					writers--
					mu.Unlock()
					g.Unlock()
					continue
				}
				g.Enter()
				mu.Lock()
				assert.Zero(t, writers, "the writer inside while a reader holds the gate")
				inside++
				mu.Unlock()
				mu.Lock()
				inside--
				mu.Unlock()
				g.Leave()
			}
		}()
	}
	wg.Wait()
}

func TestTrackGateWaitsAreBounded(t *testing.T) {
	prev := core.GateWait
	core.GateWait = 20 * time.Millisecond
	t.Cleanup(func() { core.GateWait = prev })
	g := &core.TrackGate{}
	// A reader that never leaves: the writer gives up (its launch runs
	// untracked) and readers still get in.
	g.Enter()
	assert.False(t, g.Lock())
	g.Enter()
	g.Leave()
	g.Leave()
	// A writer that never leaves (a kernel that never ends): readers go
	// ahead after the bound, and another writer gives up.
	require.True(t, g.Lock())
	g.Enter()
	g.Leave()
	assert.False(t, g.Lock())
	g.Unlock()
	require.True(t, g.Lock())
	g.Unlock()
}

func TestUnitShift(t *testing.T) {
	for _, c := range []struct {
		n    uintptr
		want uint32
	}{{4096, 12}, {1 << 20, 12}, {1<<20 + 4096, 13}, {64 << 20, 18}, {1 << 40, 30}} {
		assert.Equal(t, c.want, core.UnitShift(c.n), "%d bytes", c.n)
		if c.want < 30 {
			assert.LessOrEqual(t, c.n>>c.want, uintptr(core.MaxUnits))
		}
	}
}
