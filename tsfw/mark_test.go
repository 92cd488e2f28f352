package tsfw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A mark covers the work queued before it, not after it, and passes once
// that work is done.
func TestMark(t *testing.T) {
	d := newDev(t, Config{})
	q := newQ(t, d, 0)
	assert.True(t, d.Mark().Empty(), "idle device")

	gate := make(chan struct{})
	require.NoError(t, q.Submit(HostTask(func() error { <-gate; return nil })))
	m := d.Mark()
	require.False(t, m.Empty())
	assert.False(t, m.Passed(), "the host task is still running")
	assert.False(t, m.Wait(time.Now()), "a passed deadline does not wait")

	close(gate)
	require.NoError(t, q.Synchronize(-1))
	assert.True(t, m.Passed())
	assert.True(t, m.Wait(time.Now().Add(time.Minute)))
	assert.True(t, d.Mark().Empty())
}
