package acl

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
				unregister(tableEvents, a)
				unregister(tableEvents, b)
			})
			for i, op := range ops {
				switch {
				case op.read:
					got := map[uint64]string{}
					for _, r := range registered(tableEvents) {
						if r.ID == a || r.ID == b {
							got[r.ID] = r.Summary
						}
					}
					require.Equal(t, model, got, "read after step %d", i)
				case op.summary != "":
					register(tableEvents, record{ID: op.id, Summary: op.summary})
					model[op.id] = op.summary
				default:
					unregister(tableEvents, op.id)
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
	n := uint64(flushAt + 10)
	t.Cleanup(func() {
		for i := range n {
			unregister(tableEvents, base+i)
		}
		assert.Zero(t, countFrom(base), "all unregistered")
	})
	for i := range n {
		register(tableEvents, record{ID: base + i, Summary: fmt.Sprint(i)})
	}
	reg.mu.Lock()
	queued := len(reg.pending)
	reg.mu.Unlock()
	assert.Less(t, queued, flushAt, "the queue was flushed on the way")
	assert.Equal(t, int(n), countFrom(base))
}

// countFrom counts the registered events with an id from base on.
func countFrom(base uint64) int {
	n := 0
	for _, r := range registered(tableEvents) {
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
	var hs [8]Handle
	for i := range hs {
		require.NoError(t, CreateStream(th, &hs[i]))
	}
	for _, h := range hs[:5] {
		require.NoError(t, DestroyStream(th, h, false))
	}
	streams := 0
	for _, l := range LiveObjects() {
		if l.Kind == "stream" {
			streams++
		}
	}
	assert.Equal(t, 1+3, streams, "the default stream and three of ours")
	for _, h := range hs[5:] {
		require.NoError(t, DestroyStream(th, h, false))
	}
	require.NoError(t, ResetDevice(th, 0))
}
