package core

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A thread that keeps hearing "not yet" gives its P away when a
// goroutine waits for one: with a single P, a goroutine made runnable
// before (a device engine's, a lane's) then runs. The first check comes
// with the notReadyClock-th answer.
func TestNotReadyYields(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	th := &Thread{ID: 1}
	var ran atomic.Bool
	go ran.Store(true) // runnable, but the only P is ours
	for range notReadyClock {
		th.NotReady()
	}
	assert.True(t, ran.Load(), "the other goroutine ran during the %dth answer's yield", notReadyClock)
	assert.Equal(t, uint32(notReadyClock), th.notReady)
	var nilThread *Thread
	nilThread.NotReady() // queries without a thread state count nothing
}

// A thread looks at most once every notReadyEvery: just after a look, its
// "not yet" answers do not yield even when a goroutine waits.
func TestNotReadyRateBound(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	th := &Thread{ID: 1}
	th.checked = time.Since(threadsEpoch) + time.Hour // "just looked", however slow this host
	var ran atomic.Bool
	go ran.Store(true)
	for range 4 * notReadyClock {
		th.NotReady()
	}
	assert.False(t, ran.Load(), "no look, no yield")
	th.checked = 0
	for range notReadyClock {
		th.NotReady()
	}
	assert.True(t, ran.Load(), "looked and yielded")
}

// BenchmarkNotReadyLook: what NotReady's look at the runtime costs
// (docs/runtime.md, "Polling"): go test ./rt/core -run x -bench NotReadyLook.
func BenchmarkNotReadyLook(b *testing.B) {
	th := &Thread{ID: 1}
	b.ReportAllocs()
	for b.Loop() { // notReadyClock answers, the last of them looks
		th.checked = 0
		for range notReadyClock {
			th.NotReady()
		}
	}
}
