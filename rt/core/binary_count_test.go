package core

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/emu"
)

// closeCounter is a KernelHost that only counts Close calls.
type closeCounter struct {
	emu.KernelHost // nil: any other call panics
	mu             sync.Mutex
	closed         int
}

func (c *closeCounter) Close(uintptr) {
	c.mu.Lock()
	c.closed++
	c.mu.Unlock()
}

func (c *closeCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// TestBinaryCountShards: launches counted in different shards keep an
// unloaded binary open until the last is released, whichever shard it is
// in; a launch after the unload fails and closes nothing twice.
func TestBinaryCountShards(t *testing.T) {
	h := &closeCounter{}
	b := NewBinary(h, 1, "", nil)
	require.NoError(t, b.AcquireIn("t", 1))
	require.NoError(t, b.AcquireIn("t", 2))
	require.NoError(t, b.AcquireIn("t", 1+binShards)) // shard 1 again
	b.ReleaseIn(2)
	require.True(t, b.Unload())
	b.MaybeClose()
	assert.Zero(t, h.count(), "two launches in flight")
	assert.Error(t, b.AcquireIn("t", 3), "the binary is unloaded")
	assert.Zero(t, h.count(), "a refused launch does not close it")
	b.ReleaseIn(1)
	assert.Zero(t, h.count(), "one launch in flight")
	b.ReleaseIn(1 + binShards)
	assert.Equal(t, 1, h.count(), "closed after the last release")
	b.MaybeClose()
	assert.Equal(t, 1, h.count(), "closed once")
}

// TestBinaryCountConcurrent: threads launching and releasing in their
// shards while the binary is unloaded close it exactly once, after every
// launch that was accepted is released.
func TestBinaryCountConcurrent(t *testing.T) {
	for range 50 {
		h := &closeCounter{}
		b := NewBinary(h, 1, "", nil)
		var wg sync.WaitGroup
		var mu sync.Mutex
		open := 0 // accepted launches not yet released, and a close seen early
		early := false
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 200 {
					if b.AcquireIn("t", uint8(w)) != nil {
						return
					}
					mu.Lock()
					open++
					mu.Unlock()
					mu.Lock()
					open--
					if h.count() != 0 {
						early = true
					}
					mu.Unlock()
					b.ReleaseIn(uint8(w))
				}
			}()
		}
		require.True(t, b.Unload())
		b.MaybeClose()
		wg.Wait()
		assert.False(t, early, "closed while a launch was in flight")
		assert.Zero(t, open)
		assert.Equal(t, 1, h.count(), "closed once")
	}
}
