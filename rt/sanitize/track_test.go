package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// launchAB queues a launch with pointer arguments into bufA and bufB.
func (f *fixture) launchAB(stream string, id int32, kernel string) *Pending {
	p := new(Pending)
	f.queue("T", stream, id, Op{API: "launch", Kernel: kernel, Pending: p,
		Acc: []Access{{Addr: bufA, Mode: Pointer}, {Addr: bufB, Mode: Pointer}}})
	return p
}

func TestPagedDisjointWritesDoNotRace(t *testing.T) {
	f := newFixture(All)
	p1 := f.launch("s1", 1, "k1", NoSync, nil)
	p2 := f.launch("s2", 2, "k2", NoSync, nil)
	f.s.CompletePaged(p2, []PageRange{{bufA, bufA + size, WrotePages}, {bufA + 1000, bufA + size, Changed}}, []uintptr{bufA})
	f.s.CompletePaged(p1, []PageRange{{bufA, bufA + size, WrotePages}, {bufA, bufA + 1000, Changed}}, []uintptr{bufA})
	assert.Empty(t, f.lines(t, "racecheck"), f.out.String())
	// Pages written count as written whole afterwards.
	f.s.SyncDevice("T", 1, 0)
	f.queue("T", "s1", 1, Op{API: "d2h", Acc: r(bufA, size)})
	assert.Empty(t, f.out.String())
}

func TestPagedOverlapIsOneRace(t *testing.T) {
	f := newFixture(All)
	p1 := f.launch("s1", 1, "k1", NoSync, nil)
	p2 := f.launch("s2", 2, "k2", NoSync, nil)
	f.s.CompletePaged(p1, []PageRange{{bufA, bufA + 2000, Changed}}, []uintptr{bufA})
	f.s.CompletePaged(p2, []PageRange{{bufA + 100, bufA + 200, Changed}, {bufA + 300, bufA + 400, Changed}, {bufA + 1000, bufA + 1100, Changed}}, []uintptr{bufA})
	l := f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "write-write race")
	assert.Contains(t, l[0], `"k1"`)
	assert.Contains(t, l[0], `"k2"`)
	assert.Equal(t, 1, f.s.Count(), "three ranges of one launch are one race")
}

func TestPagedReadPageRaces(t *testing.T) {
	// Reads are known per page: a page read and a byte of it written by
	// an unordered task race.
	f := newFixture(All)
	f.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	f.s.SyncStream("T", 1, "s0")
	p1 := f.launch("s1", 1, "k1", NoSync, nil)
	f.s.CompletePaged(p1, []PageRange{{bufA, bufA + size, ReadPages}}, []uintptr{bufA})
	f.queue("T", "s2", 2, Op{API: "memset", Acc: w(bufA+16, 16)})
	l := f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "read-write race")
}

func TestPagedInitcheck(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, 64)})
	f.s.SyncStream("T", 1, "s0")
	p := f.launchAB("s0", 0, "k")
	// bufA's page holds 64 written bytes: not certainly uninitialised;
	// bufB's was never written.
	f.s.CompletePaged(p, []PageRange{{bufA, bufA + size, ReadPages}, {bufB, bufB + size, ReadPages}}, []uintptr{bufA, bufB})
	l := f.lines(t, "initcheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], `kernel "k"`)
	assert.Contains(t, l[0], "none of which was ever written")
	// A page the launch wrote to counts as written for its reads.
	g := newFixture(All)
	q := g.launchAB("s0", 0, "k")
	g.s.CompletePaged(q, []PageRange{{bufB, bufB + size, ReadPages}, {bufB, bufB + size, WrotePages}}, []uintptr{bufB})
	assert.Empty(t, g.lines(t, "initcheck"), g.out.String())
}

func TestPagedUntrackedArgumentIsWhole(t *testing.T) {
	// bufB was not tracked (its allocation could not be): it counts as
	// read and written whole, as before.
	f := newFixture(All)
	p1 := f.launchAB("s1", 1, "k1")
	f.s.CompletePaged(p1, nil, []uintptr{bufA})
	f.queue("T", "s2", 2, Op{API: "memset", Acc: w(bufB+8, 8)})
	f.queue("T", "s2", 2, Op{API: "memset", Acc: w(bufA+8, 8)})
	l := f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "0x10100008")
}

func TestReadAfterRunningLaunchIsNotInitchecked(t *testing.T) {
	// A copy queued after a launch that has not completed reads what the
	// launch may write: no initcheck report; once the launch completed
	// without writing, a read is reported again.
	f := newFixture(All)
	p := f.launch("s1", 1, "k", NoSync, nil)
	f.queue("T", "s1", 1, Op{API: "d2h", Acc: r(bufA, size)})
	assert.Empty(t, f.out.String())
	f.s.CompletePaged(p, nil, []uintptr{bufA})
	f.queue("T", "s1", 1, Op{API: "d2h", Acc: r(bufA, size)})
	assert.Len(t, f.lines(t, "initcheck"), 1, f.out.String())
}

func TestCoalesce(t *testing.T) {
	sp := []span{{0, 10}, {12, 20}, {100, 110}, {111, 120}, {500, 510}}
	assert.Equal(t, sp, coalesce(append([]span(nil), sp...), 5))
	assert.Equal(t, []span{{0, 20}, {100, 120}, {500, 510}}, coalesce(append([]span(nil), sp...), 3))
	assert.Equal(t, []span{{0, 510}}, coalesce(append([]span(nil), sp...), 1))
}
