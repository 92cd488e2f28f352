package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func notifyWait(key string) Op {
	return Op{API: "aclrtWaitAndResetNotify", Sync: Wait, Key: key, Strict: true, Release: ReleaseConsume}
}
func notifyRecord(key string) Op { return Op{API: "aclrtRecordNotify", Sync: Record, Key: key} }

func TestNotifyWaitBeforeRecord(t *testing.T) {
	// s2 waits, then reads; s1 writes, then records the notify: the read
	// runs after the write.
	f := newFixture(All)
	f.queue("T", "s2", 2, notifyWait("n"))
	f.queue("T", "s2", 2, Op{API: "read", Acc: r(bufA, 64)})
	f.queue("T", "s1", 1, Op{API: "write", Acc: w(bufA, 64)})
	f.queue("T", "s1", 1, notifyRecord("n"))
	assert.Empty(t, f.out.String())
	// Later tasks of s2 stay ordered after the release.
	f.queue("T", "s2", 2, Op{API: "read2", Acc: r(bufA, 64)})
	assert.Empty(t, f.out.String())

	// A write after the record is not ordered before the read: a race.
	g := newFixture(All)
	g.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	g.s.SyncStream("T", 1, "s0")
	g.queue("T", "s2", 2, notifyWait("n"))
	g.queue("T", "s2", 2, Op{API: "read", Acc: r(bufA, 64)})
	g.queue("T", "s1", 1, notifyRecord("n"))
	g.queue("T", "s1", 1, Op{API: "write", Acc: w(bufA, 64)})
	l := g.lines(t, "racecheck")
	require.Len(t, l, 1, g.out.String())
	assert.Contains(t, l[0], "read-write race")
}

func TestNotifyOneRecordOneWait(t *testing.T) {
	// A record consumed by s2's wait does not release s3's later wait:
	// the next record does.
	f := newFixture(All)
	f.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	f.s.SyncStream("T", 1, "s0")
	f.queue("T", "s1", 1, notifyRecord("n"))
	f.queue("T", "s2", 2, notifyWait("n"))
	f.queue("T", "s2", 2, Op{API: "readA", Acc: r(bufA, 64)})
	f.queue("T", "s3", 3, notifyWait("n"))
	f.queue("T", "s3", 3, Op{API: "readB", Acc: r(bufA, 64)})
	f.queue("T", "s1", 1, Op{API: "write", Acc: w(bufA, 64)})
	f.queue("T", "s1", 1, notifyRecord("n"))
	// s3's read follows the second record (after the write); s2's read
	// followed the first only: it races with the write.
	l := f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "readA")
}

func TestValueWaitBeforeWrite(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s2", 2, Op{API: "aclrtValueWait", Sync: Wait, Key: "word", Release: ReleaseWritten})
	f.queue("T", "s2", 2, Op{API: "read", Acc: r(bufA, 64)})
	f.queue("T", "s1", 1, Op{API: "write", Acc: w(bufA, 64)})
	f.queue("T", "s1", 1, Op{API: "aclrtValueWrite", Sync: Record, Key: "word", Acc: []Access{{bufB, 8, Write | Atomic}}})
	assert.Empty(t, f.out.String())
}

func TestHeldRecordHoldsEventWaiter(t *testing.T) {
	// s2 is held by a notify wait; the event it records behind it is
	// held too, so s3's event wait on it holds s3 until s2 is released:
	// s3's read follows s2's write, and the wait is no "never recorded".
	f := newFixture(All)
	f.queue("T", "s2", 2, notifyWait("n"))
	f.queue("T", "s2", 2, Op{API: "write", Acc: w(bufA, 64)})
	f.queue("T", "s2", 2, Op{API: "aclrtRecordEvent", Sync: Record, Key: "e"})
	f.queue("T", "s3", 3, Op{API: "aclrtStreamWaitEvent", Sync: Wait, Key: "e", Strict: true})
	f.queue("T", "s3", 3, Op{API: "read", Acc: r(bufA, 64)})
	assert.Empty(t, f.out.String())
	f.queue("T", "s1", 1, notifyRecord("n"))
	assert.Empty(t, f.out.String())
	// An unordered reader on s4 races with s2's write.
	f.queue("T", "s4", 4, Op{API: "read4", Acc: r(bufA, 64)})
	l := f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "write (task 1 on stream 2")
}

func TestHeldStreamLetGoAtSync(t *testing.T) {
	// Released by something not seen (an IPC peer): the host's
	// synchronisation checks the held tasks, ordered by nothing new.
	f := newFixture(All)
	f.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	f.s.SyncStream("T", 1, "s0")
	f.queue("T", "s2", 2, Op{API: "aclrtWaitAndResetNotify", Sync: Wait, Key: "ipc", Release: ReleaseConsume})
	f.queue("T", "s2", 2, Op{API: "read", Acc: r(bufA, 64)})
	f.queue("T", "s1", 1, Op{API: "write", Acc: w(bufA, 64)})
	assert.Empty(t, f.out.String(), "held: not checked yet")
	f.s.SyncStream("T", 1, "s2")
	l := f.lines(t, "racecheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "write-read race")
	// Once let go, the stream's next tasks are checked at once.
	f.queue("T", "s2", 2, Op{API: "write2", Acc: w(bufA+128, 64)})
	f.queue("T", "s1", 1, Op{API: "read1", Acc: r(bufA+128, 64)})
	assert.Len(t, f.lines(t, "racecheck"), 2, f.out.String())
}

func TestFreeOfHeldTaskMemory(t *testing.T) {
	f := newFixture(All)
	f.queue("T", "s0", 0, Op{API: "h2d", Acc: w(bufA, size)})
	f.s.SyncStream("T", 1, "s0")
	f.queue("T", "s2", 2, notifyWait("n"))
	f.queue("T", "s2", 2, Op{API: "aclrtMemcpyAsync", Acc: r(bufA, 64)})
	f.s.Free("T", 1, "aclrtFree", bufA)
	l := f.lines(t, "synccheck")
	require.Len(t, l, 1, f.out.String())
	assert.Contains(t, l[0], "waits behind aclrtWaitAndResetNotify not yet released")
}

func TestHeldBounded(t *testing.T) {
	// A wait never released in view keeps at most maxHeld tasks.
	f := newFixture(All)
	f.queue("T", "s2", 2, notifyWait("n"))
	for i := 0; i < maxHeld+10; i++ {
		f.queue("T", "s2", 2, Op{API: "nop"})
	}
	f.s.mu.Lock()
	n := 0
	if hd := f.s.rel.held[f.s.byKey["s2"]]; hd != nil {
		n = len(hd.ops)
	}
	f.s.mu.Unlock()
	assert.LessOrEqual(t, n, maxHeld)
}

func TestLetGoFollowsHeldRecord(t *testing.T) {
	// s2 is held by an IPC notify (released by a peer); s3 waits for an
	// event s2 records behind it. Synchronising s3 alone proves both
	// released, in order: s3's read follows s2's write.
	f := newFixture(All)
	f.queue("T", "s2", 2, Op{API: "aclrtWaitAndResetNotify", Sync: Wait, Key: "ipc", Release: ReleaseConsume})
	f.queue("T", "s2", 2, Op{API: "write", Acc: w(bufA, 64)})
	f.queue("T", "s2", 2, Op{API: "aclrtRecordEvent", Sync: Record, Key: "e"})
	f.queue("T", "s3", 3, Op{API: "aclrtStreamWaitEvent", Sync: Wait, Key: "e", Strict: true})
	f.queue("T", "s3", 3, Op{API: "read", Acc: r(bufA, 64)})
	f.s.SyncStream("T", 1, "s3")
	f.s.SyncStream("T", 1, "s2")
	assert.Empty(t, f.out.String())
	// The host knows s3's read and s2's write happened: its copy of the
	// buffer is ordered after both.
	f.s.HostAccess("T", 1, &Op{API: "aclrtMemcpy", Acc: w(bufA, 64)})
	assert.Empty(t, f.out.String())

	// A cycle of held waits (a deadlock of the program) ends.
	g := newFixture(All)
	g.queue("T", "a", 1, Op{API: "wait", Sync: Wait, Key: "k1", Release: ReleaseConsume})
	g.queue("T", "a", 1, Op{API: "record", Sync: Record, Key: "k2"})
	g.queue("T", "b", 2, Op{API: "wait", Sync: Wait, Key: "k2", Release: ReleaseConsume})
	g.queue("T", "b", 2, Op{API: "record", Sync: Record, Key: "k1"})
	g.s.SyncDevice("T", 1, -1)
	g.s.mu.Lock()
	assert.Empty(t, g.s.rel.held)
	g.s.mu.Unlock()
}
