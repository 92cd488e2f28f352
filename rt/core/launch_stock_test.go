package core

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
)

// goHost is a KernelHost whose memory is Go memory; nothing else is used.
type goHost struct{ emu.KernelHost }

func (goHost) Alloc(n int) ([]byte, uintptr) {
	b := make([]byte, n)
	return b, reflect.ValueOf(b).Pointer()
}

func (goHost) Free([]byte) {}

// TestLaunchStock: a launch object returns to its stream's stock and the
// stream's next launch takes it again, the most recently given back
// first; the stock keeps at most stockLaunches; a dead stream's objects go
// to the pool.
func TestLaunchStock(t *testing.T) {
	var h goHost
	s := &Stream{}
	l := GetLaunch(s, h, 8)
	require.Same(t, s, l.owner)
	PutLaunch(l)
	assert.Nil(t, l.owner, "a returned object belongs to nobody")
	assert.Equal(t, 1, len(s.launches.back.l))
	l2 := GetLaunch(s, h, 8)
	assert.Same(t, l, l2, "the stream's object, taken back")
	assert.Empty(t, s.launches.back.l)

	ls := make([]*Launch, stockLaunches+10)
	for i := range ls {
		ls[i] = GetLaunch(s, h, 8)
	}
	for _, x := range ls {
		PutLaunch(x)
	}
	assert.Equal(t, stockLaunches, len(s.launches.back.l), "the rest went to the pool")
	x := GetLaunch(s, h, 8)
	assert.Same(t, ls[stockLaunches-1], x, "the most recently given back first (still in the cache)")
	assert.Equal(t, stockLaunches-takeBatch, len(s.launches.back.l), "one batch moved to the spares")
	assert.Equal(t, takeBatch-1, len(s.launches.spare))
	PutLaunch(x)

	// A kernel ending while its stream is claimed (the launching thread
	// runs it, tsfw/claim.go) leaves its object for that thread's next
	// launch, outside the lists; one at most.
	q := newClaimQueue(t)
	s.SQ = q
	q.Claim()
	c1, c2 := GetLaunch(s, h, 8), GetLaunch(s, h, 8)
	nb := len(s.launches.back.l)
	PutLaunch(c1)
	PutLaunch(c2)
	assert.Same(t, c1, s.launches.mine.Load())
	assert.Equal(t, nb+1, len(s.launches.back.l), "the second went to the list")
	assert.Same(t, c1, GetLaunch(s, h, 8), "taken back first")
	assert.Nil(t, s.launches.mine.Load())
	q.RunClaimed() // (nothing queued: ends the claim)
	PutLaunch(c1)
	assert.Nil(t, s.launches.mine.Load(), "no claim: the lists")
	s.SQ = nil

	n := len(s.launches.back.l)
	s.Dead.Store(true)
	PutLaunch(l2)
	assert.Equal(t, n, len(s.launches.back.l), "a dead stream keeps nothing more")
	s.launches.drain()
	assert.Empty(t, s.launches.back.l, "a destroyed stream's stock goes to the pool")
	assert.Empty(t, s.launches.spare)
}

// newClaimQueue is a queue of a device of its own, closed at the test's end.
func newClaimQueue(t *testing.T) *tsfw.Queue {
	d := tsfw.NewDevice(tsfw.Config{})
	t.Cleanup(d.Close)
	q, err := d.NewQueue(0)
	require.NoError(t, err)
	return q
}

// TestRunQueueStash: a run takes its launch objects from the stream's
// stock a chunk at a time, in the order single launches would, and gives
// the ones it did not use back in that order (End).
func TestRunQueueStash(t *testing.T) {
	var h goHost
	s := &Stream{}
	ls := make([]*Launch, 20)
	for i := range ls {
		ls[i] = GetLaunch(s, h, 8)
	}
	for _, x := range ls {
		PutLaunch(x)
	}
	var q RunQueue
	q.Begin(nil, "aclrtLaunchKernelWithConfig", s, LaunchCfg{})
	assert.Same(t, ls[19], q.Launch(h, 8), "the most recently given back first")
	assert.Equal(t, runChunk-1, q.stash.n, "a chunk taken at once")
	assert.Same(t, ls[18], q.Launch(h, 8))
	require.NoError(t, q.Flush())
	q.End()
	assert.Zero(t, q.stash.n)
	assert.Same(t, ls[17], GetLaunch(s, h, 8), "the unused ones are back, in order")
	assert.Equal(t, 20-3, len(s.launches.spare))
}

// flushHost is a goHost whose Flush does nothing.
type flushHost struct{ goHost }

func (flushHost) Flush([]byte) {}

// TestLaunchDoneBatch: a batch of launches completed in one call releases
// each one's binary count and gives the objects of the batch's stream back
// to its stock together; a launch of another stream is done alone, to
// its own stock; every kernel is marked done.
func TestLaunchDoneBatch(t *testing.T) {
	var h flushHost
	s, other := &Stream{}, &Stream{}
	f := &Function{Bin: &Binary{}}
	mk := func(on *Stream) *Launch {
		l := GetLaunch(on, h, 8)
		require.NoError(t, f.Bin.AcquireIn("test", 3))
		l.F, l.shard = f, 3
		return l
	}
	ls := []*Launch{mk(s), mk(s), mk(other), mk(s)}
	ks := make([]tsfw.Kernel, len(ls))
	for i, l := range ls {
		ks[i] = l
	}
	require.EqualValues(t, 4, f.Bin.inflightLaunches())
	ls[0].DoneBatch(ks)
	assert.Zero(t, f.Bin.inflightLaunches(), "every launch released its binary")
	assert.Equal(t, make([]tsfw.Kernel, len(ks)), ks, "every kernel marked done")
	assert.Equal(t, []*Launch{ls[0], ls[1], ls[3]}, s.launches.back.l, "the stream's, in order")
	assert.Equal(t, []*Launch{ls[2]}, other.launches.back.l)
	for _, l := range ls {
		assert.Nil(t, l.owner)
		assert.Nil(t, l.F)
	}
}

// TestBinCredit: a run counts its launches of a binary a chunk at a time,
// gives back what it did not use, starts over for another binary, and
// takes nothing from an unloaded one.
func TestBinCredit(t *testing.T) {
	var c binCredit
	b, b2 := &Binary{}, &Binary{}
	for range runChunk + 1 {
		require.NoError(t, c.take("f", b, 2))
	}
	assert.EqualValues(t, 2*runChunk, b.inflightLaunches(), "two chunks taken ahead")
	require.NoError(t, c.take("f", b2, 2))
	assert.EqualValues(t, runChunk+1, b.inflightLaunches(), "another binary: the rest given back")
	c.giveBack()
	assert.EqualValues(t, 1, b2.inflightLaunches())
	c.giveBack()
	assert.EqualValues(t, 1, b2.inflightLaunches(), "nothing twice")
	b.Unloaded.Store(true)
	require.Error(t, c.take("f", b, 2))
	assert.EqualValues(t, runChunk+1, b.inflightLaunches(), "an unloaded binary counts nothing more")
}
