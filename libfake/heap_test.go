package main

import (
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestGCPercentFor: the heap floor's GC percentage puts the goal (live ×
// (1 + p/100)) at the floor at least, and is the runtime's default from a
// live heap of half the floor up.
func TestGCPercentFor(t *testing.T) {
	const floor = 32 << 20
	require.Equal(t, 800, gcPercentFor(0, floor), "before any collection: 8 × the runtime's 4 MiB")
	require.Equal(t, 1500, gcPercentFor(2<<20, floor))
	require.Equal(t, 100, gcPercentFor(16<<20, floor))
	require.Equal(t, 100, gcPercentFor(1<<30, floor))
	for _, live := range []uint64{1, 3, 1000, 3 << 20, 5<<20 + 7, 16<<20 - 1} {
		p := uint64(gcPercentFor(live, floor))
		require.GreaterOrEqual(t, live+live*p/100+1, uint64(floor), "live %d: %d%%", live, p)
		require.Less(t, live+live*(p-1)/100, uint64(floor), "live %d: %d%% is more than needed", live, p)
	}
}

// TestHeapFloorFollowsLiveHeap: while GOGC is unset, the library's load
// armed the floor, and each collection sets the GC percentage from the
// live heap it found: the runtime's 100 with 24 MiB live, more again
// once that is garbage.
func TestHeapFloorFollowsLiveHeap(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: the library leaves the GC percentage alone")
	}
	gogc := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	// settle collects until the percentage satisfies ok (the cleanup that
	// sets it runs after a collection, on the runtime's own goroutine).
	settle := func(ok func(uint64) bool) uint64 {
		for range 500 {
			runtime.GC()
			metrics.Read(gogc)
			if p := gogc[0].Value.Uint64(); ok(p) {
				return p
			}
			time.Sleep(2 * time.Millisecond)
		}
		metrics.Read(gogc)
		return gogc[0].Value.Uint64()
	}
	live := make([][]byte, 24)
	for i := range live {
		live[i] = make([]byte, 1<<20)
		live[i][0] = 1
	}
	require.Equal(t, uint64(100), settle(func(p uint64) bool { return p == 100 }), "24 MiB live")
	runtime.KeepAlive(live) // (its last use: garbage from here on)
	require.Greater(t, settle(func(p uint64) bool { return p > 100 }), uint64(100), "the 24 MiB are garbage")
}
