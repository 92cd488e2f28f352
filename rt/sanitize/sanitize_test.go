package sanitize

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/timeline"
)

// Two allocations on device 0, one pinned host buffer; a freed hole.
const (
	bufA = 0x1000_0000
	bufB = 0x1010_0000
	hole = 0x1020_0000
	host = 0x7000_0000
	size = 0x1000
)

func lookup(addr uintptr) (Where, Region) {
	switch {
	case addr >= bufA && addr < bufA+size:
		return Inside, Region{Base: bufA, Size: size}
	case addr >= bufB && addr < bufB+size:
		return Inside, Region{Base: bufB, Size: size}
	case addr >= host && addr < host+size:
		return Inside, Region{Host: true, Base: host, Size: size}
	case addr >= 0x1000_0000 && addr < 0x2000_0000:
		return Unallocated, Region{}
	}
	return Outside, Region{}
}

type fixture struct {
	s   *State
	out bytes.Buffer
	tid map[string]int
}

func newFixture(c Check) *fixture {
	f := &fixture{}
	f.s = New(c, lookup, &f.out)
	return f
}

// Keys: strings stand for streams, events and threads.
func (f *fixture) queue(thread, stream string, id int32, op Op) {
	f.s.Queue(thread, 1, stream, 0, id, 1, &op)
}

func w(addr uintptr, n uint64) []Access { return []Access{{addr, n, Write}} }
func r(addr uintptr, n uint64) []Access { return []Access{{addr, n, Read}} }

func (f *fixture) lines(t *testing.T, check string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(f.out.String()), "\n") {
		if strings.HasPrefix(l, Prefix+check+":") {
			out = append(out, l)
		}
	}
	return out
}

func TestClock(t *testing.T) {
	var a, b Clock
	assert.Equal(t, uint64(1), a.Tick(2))
	assert.Equal(t, uint64(2), a.Tick(2))
	assert.Equal(t, uint64(1), b.Tick(0))
	assert.False(t, b.Covers(2, 1))
	b.Join(a)
	assert.True(t, b.Covers(2, 2))
	assert.False(t, b.Covers(2, 3))
	assert.True(t, b.Covers(0, 1))
	c := b.Copy()
	b.Tick(0)
	assert.Equal(t, uint64(1), c.Get(0), "a copy does not follow later ticks")
	assert.Equal(t, uint64(0), c.Get(7))
}

func TestRaceUnordered(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s1", 1, Op{API: "copy", Acc: w(bufA, 64)})
	f.queue("T", "s2", 2, Op{API: "memset", Acc: w(bufA+32, 64)})
	l := f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "write-write race")
	assert.Contains(t, l[0], "stream 1 of device 0")
	assert.Contains(t, l[0], "stream 2 of device 0")
	// Disjoint ranges and reads of both sides do not race.
	f.queue("T", "s1", 1, Op{API: "x", Acc: r(bufB, 8)})
	f.queue("T", "s2", 2, Op{API: "y", Acc: r(bufB, 8)})
	f.queue("T", "s2", 2, Op{API: "z", Acc: w(bufB+8, 8)})
	assert.Len(t, f.lines(t, "racecheck"), 1, f.out.String())
}

func TestEventOrders(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s1", 1, Op{API: "write", Acc: w(bufA, size)})
	f.queue("T", "s1", 1, Op{API: "record", Sync: Record, Key: "e"})
	f.queue("T", "s2", 2, Op{API: "wait", Sync: Wait, Key: "e", Strict: true})
	f.queue("T", "s2", 2, Op{API: "read", Acc: r(bufA, size)})
	// A task of s1 after the record is not ordered before s2's read.
	f.queue("T", "s1", 1, Op{API: "late", Acc: w(bufA, 8)})
	l := f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "read-write race")
	assert.Contains(t, l[0], "late")
	assert.Empty(t, f.lines(t, "synccheck"))
	assert.Empty(t, f.lines(t, "initcheck"))
}

func TestWaitBeforeRecord(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s2", 2, Op{API: "aclrtStreamWaitEvent", Sync: Wait, Key: "e", Strict: true})
	f.queue("T", "s2", 2, Op{API: "other", Sync: Wait, Key: "ipc"}) // not strict: no report
	require.Len(t, f.lines(t, "synccheck"), 1, f.out.String())
	f.s.SyncKey("T", 1, "e2", "aclrtSynchronizeEvent", 0, true, true)
	assert.Len(t, f.lines(t, "synccheck"), 2, f.out.String())
}

func TestHostSync(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s1", 1, Op{API: "d2h", Acc: append(r(bufA, 8), w(host, 8)...)})
	f.s.HostAccess("T", 1, &Op{API: "aclrtMemcpy", Acc: r(host, 8)})
	l := f.lines(t, "synccheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "host/device race")
	assert.Contains(t, l[0], "host thread 1")
	// initcheck: bufA was read before anything wrote it.
	require.Len(t, f.lines(t, "initcheck"), 1, f.out.String())

	// After the stream is synchronised the host read is ordered; a task
	// queued afterwards is ordered after the host's access.
	g := newFixture(All)
	g.queue("T", "s1", 1, Op{API: "d2h", Acc: w(host, 8)})
	g.s.SyncStream("T", 1, "s1")
	g.s.HostAccess("T", 1, &Op{API: "aclrtMemcpy", Acc: w(host, 8)})
	g.queue("T", "s2", 2, Op{API: "h2d", Acc: r(host, 8)})
	// Another thread that never synchronised races with s1's write.
	g.s.HostAccess("U", 2, &Op{API: "aclrtMemcpy", Acc: r(host, 8)})
	l = g.lines(t, "synccheck")
	require.Len(t, l, 1, g.out.String())
	assert.Contains(t, l[0], "host thread 2")

	// A device synchronisation orders every stream of the device.
	h := newFixture(All)
	h.queue("T", "s1", 1, Op{API: "a", Acc: w(bufA, 8)})
	h.queue("T", "s2", 2, Op{API: "b", Acc: w(bufB, 8)})
	h.s.SyncDevice("T", 1, 0)
	h.queue("T", "s3", 3, Op{API: "c", Acc: append(w(bufA, 8), w(bufB, 8)...)})
	assert.Empty(t, h.lines(t, "racecheck"), h.out.String())
}

func TestFreeInFlight(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s1", 1, Op{API: "memset", Acc: w(bufA, 8)})
	f.s.Free("T", 1, "aclrtFree", bufA)
	require.Len(t, f.lines(t, "synccheck"), 1, f.out.String())
	// The shadow is gone: the next user starts unwritten and unraced.
	f.queue("T", "s2", 2, Op{API: "memset", Acc: w(bufA, 8)})
	assert.Empty(t, f.lines(t, "racecheck"), f.out.String())

	g := newFixture(All)
	g.queue("T", "s1", 1, Op{API: "memset", Acc: w(bufA, 8)})
	g.s.SyncStream("T", 1, "s1")
	g.s.Free("T", 1, "aclrtFree", bufA)
	assert.Empty(t, g.out.String())
}

func TestMemcheck(t *testing.T) {
	f := newFixture(Memcheck)
	f.queue("T", "s1", 1, Op{API: "launch", Kernel: "k", Acc: []Access{{Addr: hole, Mode: Pointer}}})
	f.queue("T", "s1", 1, Op{API: "launch", Kernel: "k", Acc: []Access{{Addr: bufA + 4, Mode: Pointer}}})
	f.queue("T", "s1", 1, Op{API: "launch", Kernel: "k", Acc: []Access{{Addr: bufB, Mode: Pointer}}})
	l := f.lines(t, "memcheck")
	require.Len(t, l, 2, f.out.String())
	assert.Contains(t, l[0], "no live allocation")
	assert.Contains(t, l[1], "not 32-byte aligned")
	assert.Contains(t, l[1], `kernel "k"`)
}

func TestKernelFootprint(t *testing.T) {
	f := newFixture(All)
	// A kernel counts as writing its whole allocation: later reads are
	// initialised, and a second stream's kernel on it races.
	f.queue("T", "s1", 1, Op{API: "launch", Kernel: "k", Acc: []Access{{Addr: bufA, Mode: Pointer}}})
	f.queue("T", "s1", 1, Op{API: "d2h", Acc: r(bufA+100, 8)})
	assert.Empty(t, f.lines(t, "initcheck"), f.out.String())
	f.queue("T", "s2", 2, Op{API: "launch", Kernel: "k2", Acc: []Access{{Addr: bufA + 64, Mode: Pointer}}})
	require.Len(t, f.lines(t, "racecheck"), 1, f.out.String())
}

func TestDedupAndSummary(t *testing.T) {
	f := newFixture(Racecheck)
	for range 10 {
		f.queue("T", "s1", 1, Op{API: "a", Acc: w(bufA, 8)})
		f.queue("T", "s2", 2, Op{API: "b", Acc: w(bufA, 8)})
	}
	assert.Len(t, f.lines(t, "racecheck"), 2, "one line per distinct pair: s1→s2 and s2→s1\n"+f.out.String())
	assert.Equal(t, 19, f.s.Count())
	f.s.Summary()
	assert.Contains(t, f.out.String(), "summary: 19 report(s), 2 distinct (racecheck 19")
}

func TestRecordsStayBounded(t *testing.T) {
	f := newFixture(All)
	for i := range 10000 {
		f.queue("T", "s1", 1, Op{API: "a", Acc: w(bufA+uintptr(i%16)*8, 8)})
	}
	assert.LessOrEqual(t, len(f.s.shadows[bufA].recs), 16)
	assert.Len(t, f.s.shadows[bufA].written, 1)
}

func TestParse(t *testing.T) {
	c, err := Parse("memcheck,racecheck")
	require.NoError(t, err)
	assert.Equal(t, Memcheck|Racecheck, c)
	c, err = Parse("all")
	require.NoError(t, err)
	assert.Equal(t, All, c)
	c, err = Parse("initcheck,bogus")
	assert.ErrorContains(t, err, `"bogus"`)
	assert.Equal(t, Initcheck, c)
	assert.Equal(t, "initcheck", c.String())
}

func TestShadowSpans(t *testing.T) {
	sh := &shadow{}
	sh.addWritten(10, 20)
	sh.addWritten(30, 40)
	_, ok := sh.unwritten(12, 18)
	assert.False(t, ok)
	b, ok := sh.unwritten(15, 35)
	assert.True(t, ok)
	assert.Equal(t, uintptr(20), b)
	sh.addWritten(20, 30)
	_, ok = sh.unwritten(10, 40)
	assert.False(t, ok)
	assert.Len(t, sh.written, 1)
	b, ok = sh.unwritten(0, 5)
	assert.True(t, ok)
	assert.Equal(t, uintptr(0), b)
}

// TestStreamSlotsReused: a stream destroyed after the host synchronised
// with it gives its actor to the next stream; ordering is kept.
func TestStreamSlotsReused(t *testing.T) {
	f := newFixture(All)
	for i := range 100 {
		key := fmt.Sprint("s", i)
		f.queue("T", key, int32(i), Op{API: "memset", Acc: w(bufA, 8)})
		f.s.SyncStream("T", 1, key)
		f.s.ForgetStream(key)
	}
	assert.Len(t, f.s.actors, 2, "the host thread and one stream slot")
	assert.Empty(t, f.out.String())
	// A stream destroyed without a synchronisation keeps its slot: its
	// unfinished write still races.
	f.queue("T", "x", 200, Op{API: "memset", Acc: w(bufB, 8)})
	f.queue("T", "y", 201, Op{API: "memset", Acc: w(bufB, 8)})
	assert.Len(t, f.lines(t, "racecheck"), 1, f.out.String())
}

// TestAtomicWords: value words are synchronisation variables: written for
// initcheck, never racing; a wait on one orders after the write.
func TestAtomicWords(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s1", 1, Op{API: "aclrtMemsetAsync", Acc: w(bufA+64, 64)})
	f.queue("T", "s1", 1, Op{API: "aclrtValueWrite", Sync: Record, Key: "word", Acc: []Access{{bufA, 8, Write | Atomic}}})
	f.s.HostAccess("T", 1, &Op{API: "aclrtMemset", Acc: w(bufA, 8)})
	f.queue("T", "s2", 2, Op{API: "aclrtValueWrite", Sync: Record, Key: "word", Acc: []Access{{bufA, 8, Write | Atomic}}})
	f.queue("T", "s3", 3, Op{API: "aclrtValueWait", Sync: Wait, Key: "word"})
	f.queue("T", "s3", 3, Op{API: "aclrtMemcpyAsync", Acc: r(bufA, 8)})
	assert.Empty(t, f.out.String())
}

// TestOpaque: after work of unknown footprint, allocations that existed
// count as written; one made afterwards starts unwritten again.
func TestOpaque(t *testing.T) {
	f := newFixture(Initcheck)
	f.s.Forget(bufA)
	f.s.Opaque()
	f.queue("T", "s1", 1, Op{API: "d2h", Acc: r(bufA, 8)})
	assert.Empty(t, f.out.String())
	f.s.Forget(bufB) // made after the opaque work
	f.queue("T", "s1", 1, Op{API: "d2h", Acc: r(bufB, 8)})
	assert.Len(t, f.lines(t, "initcheck"), 1, f.out.String())
}

// TestReportsOnTimeline: with a timeline attached, a report is an instant
// event on its device.
func TestReportsOnTimeline(t *testing.T) {
	prev := timeline.Attach(timeline.NewRecorder())
	t.Cleanup(func() { timeline.Attach(prev) })
	f := newFixture(Racecheck)
	f.queue("T", "s1", 1, Op{API: "copy", Acc: w(bufA, 64)})
	f.queue("T", "s2", 2, Op{API: "memset", Acc: w(bufA, 64)})
	require.Len(t, f.lines(t, "racecheck"), 1)
	var out bytes.Buffer
	require.NoError(t, timeline.Current().WriteTo(&out, false))
	assert.Contains(t, out.String(), `"sanitize: racecheck"`)
	assert.Contains(t, out.String(), "write-write race")
}

// TestTrackWait: NPUEMU_SANITIZE_TRACK_WAIT is a positive Go duration;
// anything else keeps the default.
func TestTrackWait(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"": DefaultTrackWait, "500ms": 500 * time.Millisecond, "10m": 10 * time.Minute,
		"2": DefaultTrackWait, "-1s": DefaultTrackWait, "0s": DefaultTrackWait, "soon": DefaultTrackWait,
	} {
		t.Setenv(TrackWaitEnv, v)
		assert.Equal(t, want, TrackWait(), "%q", v)
	}
}
