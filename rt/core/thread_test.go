package core

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A thread that keeps hearing "not yet" gives its P away, once every
// notReadyCheck answers, when a goroutine waits for one: with a single P,
// a goroutine made runnable before (a device engine's, a lane's) then
// runs.
func TestNotReadyYields(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	th := &Thread{ID: 1}
	var ran atomic.Bool
	go ran.Store(true) // runnable, but the only P is ours
	for range notReadyCheck {
		th.NotReady()
	}
	assert.True(t, ran.Load(), "the other goroutine ran during the %dth answer's yield", notReadyCheck)
	assert.Equal(t, uint32(notReadyCheck), th.notReady)
	var nilThread *Thread
	nilThread.NotReady() // queries without a thread state count nothing
}
