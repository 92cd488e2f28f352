package sanitize

import (
	"fmt"
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

// rows is a strided footprint range: n rows of burst bytes, stride
// apart, from lo.
func rows(lo uintptr, burst, stride uintptr, n int, write bool) Range {
	return Range{Lo: lo, Hi: lo + burst, Stride: stride, Count: n, Write: write}
}

// twoLaunches queues a launch on s1 and one on s2 with nothing ordering
// them, after bufA was written whole and synchronised, and completes them
// with the footprints a and b.
func twoLaunches(c Check, a, b []Range) *fixture {
	f := newFixture(c)
	f.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	f.s.SyncStream("T", 1, "s0")
	p1 := f.launch("s1", 1, "k1", NoSync, nil)
	p2 := f.launch("s2", 2, "k2", NoSync, nil)
	f.s.Complete(p1, a, true)
	f.s.Complete(p2, b, true)
	return f
}

func TestStridedRowsInterleaved(t *testing.T) {
	// Even rows of 64 bytes on s1, odd rows on s2: no byte in common.
	f := twoLaunches(All, []Range{rows(bufA, 64, 128, 32, true)}, []Range{rows(bufA+64, 64, 128, 32, true)})
	assert.Empty(t, f.out.String())
	// Strided reads between strided writes: no race either.
	f = twoLaunches(All, []Range{rows(bufA, 64, 128, 32, true)}, []Range{rows(bufA+64, 64, 128, 32, false)})
	assert.Empty(t, f.out.String())
	// A strided write against a contiguous read inside one gap: nothing.
	f = twoLaunches(All, []Range{rows(bufA, 64, 128, 32, true)}, []Range{{Lo: bufA + 64, Hi: bufA + 128}})
	assert.Empty(t, f.out.String())
}

func TestStridedRowsOverlap(t *testing.T) {
	// Rows of 96 bytes every 128 on s1, rows of 64 from byte 64 on s2:
	// bytes 64..96 of each row in common: one race, naming the first.
	f := twoLaunches(All, []Range{rows(bufA, 96, 128, 32, true)}, []Range{rows(bufA+64, 64, 128, 32, true)})
	l := f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "write-write race")
	assert.Contains(t, l[0], fmt.Sprintf("%#x..%#x", bufA+64, bufA+96))
	// A contiguous write over one row of a strided read races.
	f = twoLaunches(All, []Range{rows(bufA, 64, 128, 32, false)}, []Range{{Lo: bufA + 30*128 + 8, Hi: bufA + 30*128 + 16, Write: true}})
	l = f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "read-write race")
}

func TestStridedIsOneRecord(t *testing.T) {
	// 1000 rows are one record: a race with the last row is found
	// although an allocation keeps 256 records.
	f := newFixture(All)
	const bufBig = bufA
	p1 := f.launch("s1", 1, "k1", NoSync, nil)
	p2 := f.launch("s2", 2, "k2", NoSync, nil)
	f.s.Complete(p1, []Range{rows(bufBig, 1, 4, 1000, true)}, true)
	f.s.Complete(p2, []Range{{Lo: bufBig + 999*4, Hi: bufBig + 999*4 + 1, Write: true}}, true)
	require.Len(t, f.lines(t, "racecheck"), 1, f.out.String())
}

func TestStridedReadOverGaps(t *testing.T) {
	// Rows written (strided), read back strided: the gaps were never
	// written and are not read: no initcheck.
	f := newFixture(All)
	p1 := f.launch("s1", 1, "w", NoSync, nil)
	f.s.Complete(p1, []Range{rows(bufA, 64, 256, 16, true)}, true)
	f.s.SyncStream("T", 1, "s1")
	p2 := f.launch("s2", 2, "r", NoSync, nil)
	f.s.Complete(p2, []Range{rows(bufA, 32, 256, 16, false)}, true)
	assert.Empty(t, f.out.String())
	// A strided read reaching into the gaps is reported, naming the rows.
	p3 := f.launch("s2", 2, "r2", NoSync, nil)
	f.s.Complete(p3, []Range{rows(bufA, 128, 256, 16, false)}, true)
	l := f.lines(t, "initcheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "reads 16 rows of 128 bytes 256 bytes apart")
	assert.Contains(t, l[0], fmt.Sprintf("byte %#x (offset 64)", bufA+64))
	// A host copy of the whole buffer reads the gaps: reported too.
	g := newFixture(All)
	q := g.launch("s1", 1, "w", NoSync, nil)
	g.s.Complete(q, []Range{rows(bufA, 64, 256, 16, true)}, true)
	g.s.SyncStream("T", 1, "s1")
	g.queue("T", "s1", 1, Op{API: "d2h", Acc: r(bufA, 256)})
	require.Len(t, g.lines(t, "initcheck"), 1, g.out.String())
}

func atomic(lo, hi uintptr, kind Mode) Range { return Range{Lo: lo, Hi: hi, Write: true, Atomic: kind} }

func TestAtomicStores(t *testing.T) {
	// Two streams adding into one buffer: reductions, no race.
	f := twoLaunches(All, []Range{atomic(bufA, bufA+256, AtomicAdd)}, []Range{atomic(bufA, bufA+256, AtomicAdd)})
	assert.Empty(t, f.out.String())
	// Strided atomic adds, overlapping: still none.
	f = twoLaunches(All, []Range{{Lo: bufA, Hi: bufA + 64, Stride: 128, Count: 8, Write: true, Atomic: AtomicAdd}},
		[]Range{atomic(bufA, bufA+1024, AtomicAdd)})
	assert.Empty(t, f.out.String())
	// An add against a plain write, a plain read, or a max: one race each.
	for _, c := range []struct {
		other Range
		what  string
	}{
		{Range{Lo: bufA + 64, Hi: bufA + 128, Write: true}, "atomic add-write race"},
		{Range{Lo: bufA + 64, Hi: bufA + 128}, "atomic add-read race"},
		{atomic(bufA+64, bufA+128, AtomicMax), "atomic add-atomic max race"},
	} {
		f = twoLaunches(All, []Range{atomic(bufA, bufA+256, AtomicAdd)}, []Range{c.other})
		l := f.lines(t, "racecheck")
		require.Len(t, l, 1, f.out.String())
		assert.Contains(t, l[0], c.what)
	}
	// Host read of an atomic's bytes before synchronising: synccheck.
	g := newFixture(All)
	g.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	g.s.SyncStream("T", 1, "s0")
	q := g.launch("s1", 1, "k", NoSync, nil)
	g.s.Complete(q, []Range{atomic(bufA, bufA+256, AtomicAdd)}, true)
	g.s.HostAccess("T", 1, &Op{API: "aclrtMemcpy", Acc: r(bufA, 32)})
	require.Len(t, g.lines(t, "synccheck"), 1, g.out.String())
}

func TestAtomicInitcheck(t *testing.T) {
	// An atomic add into memory nothing wrote reads it: initcheck.
	f := newFixture(All)
	p := f.launch("s1", 1, "acc", NoSync, nil)
	f.s.Complete(p, []Range{atomic(bufA, bufA+64, AtomicAdd), atomic(bufA, bufA+64, AtomicAdd)}, true)
	l := f.lines(t, "initcheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "atomically adds into 64 bytes")
	assert.Contains(t, l[0], "an atomic store reads")
	// Afterwards the bytes count as written.
	f.s.SyncStream("T", 1, "s1")
	f.queue("T", "s1", 1, Op{API: "d2h", Acc: r(bufA, 64)})
	assert.Len(t, f.lines(t, "initcheck"), 1, f.out.String())

	// Zeroed by a plain write of the same launch (a block fills, SyncAll,
	// all add): nothing.
	g := newFixture(All)
	q := g.launch("s1", 1, "acc", NoSync, nil)
	g.s.Complete(q, []Range{{Lo: bufA, Hi: bufA + 64, Write: true}, atomic(bufA, bufA+64, AtomicAdd)}, true)
	assert.Empty(t, g.out.String())

	// A plain read of bytes only the launch's atomics touched: the
	// atomic's report only.
	h := newFixture(All)
	q = h.launch("s1", 1, "acc", NoSync, nil)
	h.s.Complete(q, []Range{atomic(bufA, bufA+64, AtomicMax), {Lo: bufA, Hi: bufA + 64}}, true)
	l = h.lines(t, "initcheck")
	require.Len(t, l, 1, h.out.String())
	assert.Contains(t, l[0], "atomically maxes into")
}
