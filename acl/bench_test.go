package acl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkMallocFree measures aclrtMalloc + aclrtFree of a small buffer:
// the reason allocations are kept out of go-memdb (docs/runtime.md).
func BenchmarkMallocFree(b *testing.B) {
	th := benchSetup(b)
	var p uintptr
	for b.Loop() {
		if err := Malloc(th, &p, 256, 0, MallocOpts{}); err != nil {
			b.Fatal(err)
		}
		if err := Free(th, p, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRegistryWrite measures queuing one registry insert + delete, the
// cost a create/destroy pays; BenchmarkRegistryFlush measures applying the
// queue to go-memdb.
func BenchmarkRegistryWrite(b *testing.B) {
	for b.Loop() {
		register(tableEvents, record{ID: 1, Summary: "bench"})
		unregister(tableEvents, 1)
	}
}

// BenchmarkStreamResolve measures resolving a stream handle (every
// asynchronous call does it).
func BenchmarkStreamResolve(b *testing.B) {
	th := benchSetup(b)
	var s Handle
	require.NoError(b, CreateStream(th, &s))
	for b.Loop() {
		if _, err := resolveStream(th, "bench", s); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSetup(b *testing.B) *Thread {
	resetRuntime()
	b.Setenv("NPUEMU_DEVICES", "1")
	th := NewThread()
	require.NoError(b, Init(th, ""))
	require.NoError(b, SetDevice(th, 0))
	b.Cleanup(resetRuntime)
	return th
}
