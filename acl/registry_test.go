package acl

import (
	"bytes"
	"fmt"
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// regOp is one register (summary set) or unregister (summary "") of an
// object, or a read of the table (read set), which must show the model.
type regOp struct {
	id      uint64
	summary string
	read    bool
}

// TestRegistryExactAtEveryRead checks the batched registry against a model
// map: whatever the order of queued creates, destroys and re-creates, a
// read sees exactly the objects alive at that moment.
func TestRegistryExactAtEveryRead(t *testing.T) {
	const a, b = 0xfeed0001, 0xfeed0002
	reads := regOp{read: true}
	for name, ops := range map[string][]regOp{
		"create":                       {{id: a, summary: "a"}, reads},
		"create destroy":               {{id: a, summary: "a"}, {id: a}, reads},
		"create read destroy":          {{id: a, summary: "a"}, reads, {id: a}, reads},
		"stored, destroy and recreate": {{id: a, summary: "a"}, reads, {id: a}, {id: a, summary: "a2"}, reads},
		"stored, recreate and destroy": {{id: a, summary: "a"}, reads, {id: a}, {id: a, summary: "a2"}, {id: a}, reads},
		"replace":                      {{id: a, summary: "a"}, reads, {id: a, summary: "a3"}, reads},
		"two objects":                  {{id: a, summary: "a"}, {id: b, summary: "b"}, reads, {id: b}, reads, {id: a}, {id: b, summary: "b2"}, reads},
		"destroy unknown":              {{id: b}, reads},
	} {
		t.Run(name, func(t *testing.T) {
			model := map[uint64]string{}
			t.Cleanup(func() {
				core.Unregister(core.TableEvents, a)
				core.Unregister(core.TableEvents, b)
			})
			for i, op := range ops {
				switch {
				case op.read:
					got := map[uint64]string{}
					for _, r := range core.Registered(core.TableEvents) {
						if r.ID == a || r.ID == b {
							got[r.ID] = r.Summary
						}
					}
					require.Equal(t, model, got, "read after step %d", i)
				case op.summary != "":
					core.Register(core.TableEvents, core.Record{ID: op.id, Summary: op.summary})
					model[op.id] = op.summary
				default:
					core.Unregister(core.TableEvents, op.id)
					delete(model, op.id)
				}
			}
		})
	}
}

// TestRegistryQueueBounded: a program that never reads still has its
// changes applied once flushAt objects are queued.
func TestRegistryQueueBounded(t *testing.T) {
	const base = 0xbeef0000
	n := uint64(core.FlushAt + 10)
	t.Cleanup(func() {
		for i := range n {
			core.Unregister(core.TableEvents, base+i)
		}
		assert.Zero(t, countFrom(base), "all unregistered")
	})
	for i := range n {
		core.Register(core.TableEvents, core.Record{ID: base + i, Summary: fmt.Sprint(i)})
	}
	core.Reg.Mu.Lock()
	queued := len(core.Reg.Pending)
	core.Reg.Mu.Unlock()
	assert.Less(t, queued, core.FlushAt, "the queue was flushed on the way")
	assert.Equal(t, int(n), countFrom(base))
}

// countFrom counts the registered events with an id from base on.
func countFrom(base uint64) int {
	n := 0
	for _, r := range core.Registered(core.TableEvents) {
		if r.ID >= base {
			n++
		}
	}
	return n
}

// TestRegistryStreams: the leak report sees streams created and destroyed
// without any read in between exactly as they are.
func TestRegistryStreams(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	var hs [8]core.Handle
	for i := range hs {
		require.NoError(t, CreateStream(th, &hs[i]))
	}
	for _, h := range hs[:5] {
		require.NoError(t, core.DestroyStream(th, h, false))
	}
	streams := 0
	for _, l := range core.LiveObjects() {
		if l.Kind == "stream" {
			streams++
		}
	}
	assert.Equal(t, 1+3, streams, "the default stream and three of ours")
	for _, h := range hs[5:] {
		require.NoError(t, core.DestroyStream(th, h, false))
	}
	require.NoError(t, core.ResetDevice(th, 0))
}

// TestLeakReportPoolsImportsAndRIs covers the kinds the leak report reads
// outside the registry tables of the first version: imported shareable
// handles, memory pools and their allocated blocks, and model run
// instances, which aclFinalize destroys before the report is made.
func TestLeakReportPoolsImportsAndRIs(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	kinds := func() map[string]int {
		m := map[string]int{}
		for _, o := range core.LiveObjects() {
			m[o.Kind]++
		}
		return m
	}
	base := kinds()

	// A pool with one block allocated and one freed; a destroyed pool.
	var p, gone core.Handle
	require.NoError(t, MemPoolCreate(th, &p, poolProps(1<<20)))
	require.NoError(t, MemPoolCreate(th, &gone, poolProps(1<<20)))
	require.NoError(t, MemPoolDestroy(th, gone))
	var blk, freed uintptr
	require.NoError(t, MemPoolMallocAsync(th, &blk, 1000, p, 0))
	require.NoError(t, MemPoolMallocAsync(th, &freed, 1000, p, 0))
	require.NoError(t, MemPoolFreeAsync(th, freed, 0))

	// An imported handle, next to the allocation it shares.
	var h, share, imp uint64
	prop := PhysicalMemProp{MemAttr: abi.ACL_HBM_MEM_HUGE, Location: MemLocation{Id: 0, Type: abi.ACL_MEM_LOCATION_TYPE_DEVICE}}
	require.NoError(t, MallocPhysical(th, &h, 2<<20, &prop, 0))
	require.NoError(t, MemExportToShareableHandle(th, "aclrtMemExportToShareableHandle", h, 0, abi.ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &share))
	require.NoError(t, MemImportFromShareableHandle(th, "aclrtMemImportFromShareableHandle", share, 0, 0, &imp))

	// Two model run instances, one destroyed.
	var ri, riGone core.Handle
	require.NoError(t, BuildBegin(th, &ri, 0))
	require.NoError(t, BuildBegin(th, &riGone, 0))
	require.NoError(t, Destroy(th, riGone))

	got := kinds()
	want := maps.Clone(base)
	want["memory pool"]++
	want["pool block"]++
	want["physical memory"] += 2
	want["model run instance"]++
	assert.Equal(t, want, got)
	var imported bool
	for _, o := range core.LiveObjects() {
		imported = imported || o.Summary == fmt.Sprintf("handle %#x: imported from shareable handle %#x, %d bytes", imp, share, 2<<20)
	}
	assert.True(t, imported, "the imported handle is listed as such")

	// The imported handle goes with aclrtFreePhysical like any handle.
	require.NoError(t, FreePhysical(th, imp))
	want["physical memory"]--
	assert.Equal(t, want, kinds())

	// At aclFinalize the report still lists the instance it destroyed.
	var buf bytes.Buffer
	old := leakOut
	leakOut = &buf
	defer func() { leakOut = old }()
	t.Setenv(LeakCheckEnv, "1")
	require.NoError(t, Finalize(th))
	out := buf.String()
	for _, s := range []string{
		fmt.Sprintf("device 0 memory pool %#x", uintptr(p)),
		fmt.Sprintf("device 0 pool block %#x: 1024 bytes of memory pool %#x", blk, uintptr(p)),
		fmt.Sprintf("device 0 model run instance %#x", uintptr(ri)),
	} {
		assert.Contains(t, out, s)
	}
	assert.NotContains(t, out, fmt.Sprintf("%#x", uintptr(gone)))
	assert.NotContains(t, out, fmt.Sprintf("model run instance %#x", uintptr(riGone)))
	assert.NotContains(t, out, "imported")
	assert.Empty(t, core.LiveObjects(), "finalization empties the registry")
}
