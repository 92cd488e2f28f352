package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func (f *fixture) launch(stream string, id int32, kernel string, sync SyncKind, key any) *Pending {
	p := new(Pending)
	f.queue("T", stream, id, Op{API: "launch", Kernel: kernel, Sync: sync, Key: key, Pending: p,
		Acc: []Access{{Addr: bufA, Mode: Pointer}}})
	return p
}

func TestExactFootprintDisjoint(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	f.s.SyncStream("T", 1, "s0")
	p1 := f.launch("s1", 1, "k1", NoSync, nil)
	p2 := f.launch("s2", 2, "k2", NoSync, nil)
	// Completed in the opposite order to the queueing.
	f.s.Complete(p2, []Range{{Lo: bufA + size/2, Hi: bufA + size, Block: 1, Write: true}}, true)
	f.s.Complete(p1, []Range{{Lo: bufA, Hi: bufA + size/2, Block: 0, Write: true}}, true)
	assert.Empty(t, f.lines(t, "racecheck"), "disjoint writes do not race")
	// Overlapping writes race.
	f2 := newFixture(All)
	f2.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	f2.s.SyncStream("T", 1, "s0")
	q1 := f2.launch("s1", 1, "k1", NoSync, nil)
	q2 := f2.launch("s2", 2, "k2", NoSync, nil)
	f2.s.Complete(q1, []Range{{Lo: bufA, Hi: bufA + size/2 + 32, Write: true}}, true)
	f2.s.Complete(q2, []Range{{Lo: bufA + size/2, Hi: bufA + size, Write: true}}, true)
	l := f2.lines(t, "racecheck")
	require.Len(t, l, 1, f2.out.String())
	assert.Contains(t, l[0], "write-write race")
	assert.Contains(t, l[0], `"k1"`)
	assert.Contains(t, l[0], `"k2"`)
}

func TestExactFootprintOrderedAfter(t *testing.T) {
	// k2 is queued after an event wait on k1's record and completes
	// first in the sanitizer's view: still ordered, no race.
	f := newFixture(All)
	f.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	f.s.SyncStream("T", 1, "s0")
	p1 := f.launch("s1", 1, "k1", NoSync, nil)
	f.queue("T", "s1", 1, Op{API: "record", Sync: Record, Key: "e"})
	p2 := f.launch("s2", 2, "k2", Wait, "e")
	f.s.Complete(p2, []Range{{Lo: bufA, Hi: bufA + 64, Write: true}}, true)
	f.s.Complete(p1, []Range{{Lo: bufA, Hi: bufA + 64, Write: true}}, true)
	assert.Empty(t, f.lines(t, "racecheck"), f.out.String())
}

func TestExactFootprintInitcheck(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, 64)})
	p := new(Pending)
	// Complete may come before Queue.
	f.s.Complete(p, []Range{
		{Lo: bufA, Hi: bufA + 64, Block: 0},                     // written by the copy
		{Lo: bufA + 128, Hi: bufA + 160, Block: 1, Write: true}, // the launch writes
		{Lo: bufA + 128, Hi: bufA + 160, Block: 2},              // and reads back
		{Lo: bufB, Hi: bufB + 32, Block: 3},                     // never written
	}, true)
	f.queue("T", "s0", 0, Op{API: "launch", Kernel: "k", Pending: p, Acc: []Access{{Addr: bufA, Mode: Pointer}, {Addr: bufB, Mode: Pointer}}})
	l := f.lines(t, "initcheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], `kernel "k" block 3`)
	assert.Contains(t, l[0], "reads 32 bytes")
	// The bytes it wrote count as written afterwards.
	f.queue("T", "s0", 0, Op{API: "d2h", Acc: r(bufA+128, 32)})
	assert.Len(t, f.lines(t, "initcheck"), 1, f.out.String())
}

func TestInexactFootprintIsWholeAllocation(t *testing.T) {
	f := newFixture(All)
	p1 := f.launch("s1", 1, "k1", NoSync, nil)
	p2 := f.launch("s2", 2, "k2", NoSync, nil)
	f.s.Complete(p1, nil, false)
	f.s.Complete(p2, nil, false)
	require.Len(t, f.lines(t, "racecheck"), 1, f.out.String())
	assert.Empty(t, f.lines(t, "initcheck"), f.out.String())
}

func TestFreeWhileLaunchRuns(t *testing.T) {
	f := newFixture(All)
	p := f.launch("s1", 1, "k", NoSync, nil)
	f.s.Free("T", 1, "aclrtFree", bufA)
	l := f.lines(t, "synccheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], `kernel "k"`)
	f.s.Complete(p, nil, false)

	g := newFixture(All)
	q := g.launch("s1", 1, "k", NoSync, nil)
	g.s.SyncStream("T", 1, "s1")
	g.s.Complete(q, []Range{{Lo: bufA, Hi: bufA + 32, Write: true}}, true)
	g.s.Free("T", 1, "aclrtFree", bufA)
	assert.Empty(t, g.out.String())
}
