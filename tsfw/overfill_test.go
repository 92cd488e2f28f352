package tsfw

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSubmitIDPast: behind a head that cannot finish, submissions past the
// depth return at once, with the ids and order a waiting submitter gets;
// RoomFor says how many completions each would have waited for, and
// WaitRoom returns once they are made.
func TestSubmitIDPast(t *testing.T) {
	const depth = 8
	d := newDev(t, Config{QueueDepth: depth})
	q := newQ(t, d, 0)
	g := newGate()
	_, err := q.SubmitID(g.task())
	require.NoError(t, err)
	<-g.started
	var mu sync.Mutex
	var ran []int
	host := func(i int) Task {
		return HostTask(func() error { mu.Lock(); ran = append(ran, i); mu.Unlock(); return nil })
	}
	const n = 3 * depth // past the depth more than twice: the ring grows past it
	var last uint32
	for i := range n {
		var id uint32
		var err error
		if i < depth-1 {
			id, err = q.SubmitID(host(i)) // fills the ring
		} else {
			var past bool
			id, past, err = q.SubmitIDPast(host(i))
			require.True(t, past, "task %d", i+2)
		}
		require.NoError(t, err)
		require.Equal(t, uint32(i+2), id) // the gate is task 1
		want := uint64(0)
		if int(id) > depth {
			want = uint64(int(id) - depth)
		}
		require.Equal(t, want, q.RoomFor(id), "task %d", id)
		last = id
	}
	require.False(t, q.Query())

	need := q.RoomFor(last)
	done := make(chan struct{})
	go func() { q.WaitRoom(need); close(done) }()
	g.open()
	<-done
	require.Equal(t, uint64(0), q.RoomFor(last))
	require.NoError(t, q.Synchronize(-1))
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	mu.Lock()
	require.Equal(t, want, ran)
	mu.Unlock()
}

// TestWaitRoomDestroyed: a wait for room in a queue destroyed meanwhile
// ends.
func TestWaitRoomDestroyed(t *testing.T) {
	const depth = 4
	d := newDev(t, Config{QueueDepth: depth})
	q := newQ(t, d, 0)
	g := newGate()
	_, err := q.SubmitID(g.task())
	require.NoError(t, err)
	<-g.started
	var last uint32
	for range 2 * depth {
		id, past, err := q.SubmitIDPast(HostTask(func() error { return nil }))
		require.NoError(t, err)
		require.Equal(t, int(id) > depth, past)
		last = id
	}
	need := q.RoomFor(last)
	require.Equal(t, uint64(last-depth), need)
	done := make(chan struct{})
	go func() { q.WaitRoom(need); close(done) }()
	q.Destroy(false)
	<-done
	g.open()
}
