package core

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHandleTableConcurrentGet: lookups without a lock while another
// goroutine creates and destroys handles (past several index chunks) see
// either the live object of a handle or the stale error, never another
// object; a handle destroyed before the lookup starts is always stale.
func TestHandleTableConcurrentGet(t *testing.T) {
	tb := NewTable[int](KindStream)
	const n = 3 << IndexChunkBits
	hs := make([]Handle, n)
	for i := range hs {
		v := i
		hs[i] = tb.Add(&v)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var bad atomic.Int32
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				for i := range hs {
					h := Handle(atomic.LoadUintptr((*uintptr)(&hs[i])))
					if p, err := tb.Get(h); err == nil && *p%n != i {
						bad.Add(1)
					}
				}
			}
		}()
	}
	for round := 1; round <= 5; round++ {
		for i := range hs {
			old := Handle(atomic.LoadUintptr((*uintptr)(&hs[i])))
			require.True(t, tb.Remove(old))
			_, err := tb.Get(old)
			require.Error(t, err, "a removed handle is stale at once")
			v := i + round*n // a fresh object for the new occupant
			h := tb.Add(&v)
			atomic.StoreUintptr((*uintptr)(&hs[i]), uintptr(h))
		}
	}
	stop.Store(true)
	wg.Wait()
	assert.Zero(t, bad.Load(), "a lookup returned another handle's object")
	assert.Equal(t, n, tb.Len())
}

// TestThreadByID: registered threads resolve by id past one index chunk;
// unknown ids give nil.
func TestThreadByID(t *testing.T) {
	var ths []*Thread
	for range 1<<IndexChunkBits + 3 {
		ths = append(ths, NewThread())
	}
	for _, th := range ths {
		assert.Same(t, th, ThreadByID(th.ID))
	}
	assert.Nil(t, ThreadByID(0))
	assert.Nil(t, ThreadByID(ths[len(ths)-1].ID+1))
	assert.Nil(t, ThreadByID(1<<40))
}
