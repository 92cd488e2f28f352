package acl

import (
	"testing"

	"github.com/npuemu/npuemu/rt/core"
	"github.com/stretchr/testify/require"
)

// BenchmarkStreamCreateDestroy measures aclrtCreateStream followed by
// aclrtDestroyStream, in batches of 64 so that creates and destroys each
// see a populated device (the bench's stream_limit workload does 1983).
func BenchmarkStreamCreateDestroy(b *testing.B) {
	th := benchSetup(b)
	var hs [64]core.Handle
	for b.Loop() {
		for i := range hs {
			if err := CreateStream(th, &hs[i]); err != nil {
				b.Fatal(err)
			}
		}
		for i := range hs {
			if err := core.DestroyStream(th, hs[i], false); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(hs)), "ns/stream")
	require.Empty(b, core.Registered(core.TableStreams)[1:], "only the default stream is left")
}

// BenchmarkRegistryFlush measures applying a full queue (flushAt inserts)
// and then as many deletes: the price of the batched go-memdb writes, per
// change.
func BenchmarkRegistryFlush(b *testing.B) {
	for b.Loop() {
		for i := range uint64(core.FlushAt - 1) {
			core.Register(core.TableEvents, core.Record{ID: i + 1, Summary: "bench"})
		}
		core.RegistryDB()
		for i := range uint64(core.FlushAt - 1) {
			core.Unregister(core.TableEvents, i+1)
		}
		core.RegistryDB()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*2*(core.FlushAt-1)), "ns/change")
}

// BenchmarkNotifyCreateDestroy measures aclrtCreateNotify followed by
// aclrtDestroyNotify in batches of 64: the registry hooks must keep this
// near the stream figure (a queued change, no memdb transaction).
func BenchmarkNotifyCreateDestroy(b *testing.B) {
	th := benchSetup(b)
	var hs [64]core.Handle
	for b.Loop() {
		for i := range hs {
			if err := CreateNotify(th, &hs[i], 0); err != nil {
				b.Fatal(err)
			}
		}
		for i := range hs {
			if err := DestroyNotify(th, hs[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(hs)), "ns/notify")
	require.Empty(b, core.Registered(core.TableNotifies), "every notify unregistered")
}
