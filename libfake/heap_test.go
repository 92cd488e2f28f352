package main

import (
	"testing"

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
