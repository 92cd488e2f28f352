package acl

import (
	"testing"

	"github.com/npuemu/npuemu/rt/core"
	"github.com/stretchr/testify/require"
)

// BenchmarkMallocFree measures aclrtMalloc + aclrtFree of a small buffer:
// the reason allocations are kept out of go-memdb (docs/runtime.md).
func BenchmarkMallocFree(b *testing.B) {
	th := benchSetup(b)
	var p uintptr
	for b.Loop() {
		if err := Malloc(th, &p, 256, 0, core.MallocOpts{}); err != nil {
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
		core.Register(core.TableEvents, core.Record{ID: 1, Summary: "bench"})
		core.Unregister(core.TableEvents, 1)
	}
}

// BenchmarkStreamResolve measures resolving a stream handle (every
// asynchronous call does it).
func BenchmarkStreamResolve(b *testing.B) {
	th := benchSetup(b)
	var s core.Handle
	require.NoError(b, CreateStream(th, &s))
	for b.Loop() {
		if _, err := core.ResolveStream(th, "bench", s); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSetup(b *testing.B) *core.Thread {
	resetRuntime()
	b.Setenv("NPUEMU_DEVICES", "1")
	th := core.NewThread()
	require.NoError(b, Init(th, ""))
	require.NoError(b, SetDevice(th, 0))
	b.Cleanup(resetRuntime)
	return th
}
