package acl

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
)

// fpHost is a fake kernel host whose launches report an exact footprint:
// a launch of n blocks writes ranges[n] (and reads nothing).
type fpHost struct {
	*fakeHost
	mu     sync.Mutex
	blocks map[*byte]uint32
	ranges map[uint32][]sanitize.Range
}

func (h *fpHost) Run(fn, args uintptr, size uint64, block, blocks uint32, state []byte) error {
	h.mu.Lock()
	h.blocks[&state[0]] = blocks
	h.mu.Unlock()
	return h.fakeHost.Run(fn, args, size, block, blocks, state)
}

func (h *fpHost) Footprint(state []byte) ([]sanitize.Range, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.ranges[h.blocks[&state[0]]]
	return append([]sanitize.Range(nil), r...), ok
}

// TestSanitizeExactFootprint: launches whose host reports a footprint are
// checked with it when they complete: disjoint writes from two unordered
// streams are no race, overlapping ones are; a host without one keeps the
// whole-allocation footprint.
func TestSanitizeExactFootprint(t *testing.T) {
	out := useSanitizer(t, sanitize.All)
	h := &fpHost{fakeHost: newFakeHost(t), blocks: map[*byte]uint32{}, ranges: map[uint32][]sanitize.Range{}}
	th := setupPlatform(t, nil, emu.Platform{Kernels: h})
	require.NoError(t, SetDevice(th, 0))
	var bin core.Handle
	require.NoError(t, BinaryLoadFromFile(th, kernelFile(t, "KERNELS"), nil, &bin))
	f := function(t, th, bin, "echo")
	var s1, s2 core.Handle
	require.NoError(t, CreateStream(th, &s1))
	require.NoError(t, CreateStream(th, &s2))
	var buf uintptr
	require.NoError(t, Malloc(th, &buf, 4096, 0, core.MallocOpts{Fn: "aclrtMalloc"}))
	require.NoError(t, core.Memset(th, buf, 4096, 0, 4096))
	args := u64(uint64(buf))
	h.ranges[1] = []sanitize.Range{{Lo: buf, Hi: buf + 2048, Write: true}}
	h.ranges[2] = []sanitize.Range{{Lo: buf + 2048, Hi: buf + 4096, Block: 1, Write: true}}

	require.NoError(t, LaunchKernelWithHostArgs(th, f, 1, s1, nil, args, nil))
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 2, s2, nil, args, nil))
	require.NoError(t, core.SynchronizeDevice(th))
	assert.Empty(t, out.String(), "disjoint halves")

	h.mu.Lock()
	h.ranges[2] = []sanitize.Range{{Lo: buf + 1024, Hi: buf + 4096, Block: 1, Write: true}}
	h.mu.Unlock()
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 1, s1, nil, args, nil))
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 2, s2, nil, args, nil))
	require.NoError(t, core.SynchronizeDevice(th))
	r := reports(out, "racecheck")
	require.Len(t, r, 1, out.String())
	assert.Contains(t, r[0], "write-write race")

	// No footprint (3 blocks): the whole allocation, racing with a
	// disjoint one (a new buffer: a race is reported once per pair of
	// calls and streams on one allocation).
	var buf2 uintptr
	require.NoError(t, Malloc(th, &buf2, 4096, 0, core.MallocOpts{Fn: "aclrtMalloc"}))
	require.NoError(t, core.Memset(th, buf2, 4096, 0, 4096))
	h.mu.Lock()
	h.ranges[1] = []sanitize.Range{{Lo: buf2, Hi: buf2 + 32, Write: true}}
	h.mu.Unlock()
	out.Reset()
	args = u64(uint64(buf2))
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 1, s1, nil, args, nil))
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 3, s2, nil, args, nil))
	require.NoError(t, core.SynchronizeDevice(th))
	require.Len(t, reports(out, "racecheck"), 1, out.String())

	require.NoError(t, Free(th, buf, false))
	require.NoError(t, Free(th, buf2, false))
	require.NoError(t, core.DestroyStream(th, s1, false))
	require.NoError(t, core.DestroyStream(th, s2, false))
	require.NoError(t, BinaryUnLoad(th, bin))
}
