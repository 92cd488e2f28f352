package tsfw

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// TestSubmitGraph replays a two-queue graph (fork through one event, join
// through another) several times: every replay keeps the cross-queue order
// and the queue order, like the same tasks submitted one by one.
func TestSubmitGraph(t *testing.T) {
	d := newDev(t, Config{SDMAEngines: 2})
	q0, q1 := newQ(t, d, 0), newQ(t, d, 0)
	fork, join := newEv(t, d), newEv(t, d)
	var l log
	tasks := []Task{
		HostTask(l.add("a")), RecordTask(fork),
		WaitTask(fork), HostTask(l.add("b")), RecordTask(join),
		WaitTask(join), HostTask(l.add("c")),
	}
	qidx := []uint16{0, 0, 1, 1, 1, 0, 0}
	for _, task := range tasks {
		require.NoError(t, task.Validate())
	}
	for range 3 {
		require.NoError(t, d.SubmitGraph([]*Queue{q0, q1}, tasks, qidx))
	}
	require.NoError(t, q0.Synchronize(-1))
	require.NoError(t, q1.Synchronize(-1))
	assert.Equal(t, []string{"a", "b", "c", "a", "b", "c", "a", "b", "c"}, l.list())
	assert.Equal(t, uint64(12), q0.completed.Load())

	requireErr := func(err error, code abi.Code) {
		t.Helper()
		require.Error(t, err)
		assert.True(t, isCode(err, code), "%v", err)
	}
	requireErr(d.SubmitGraph([]*Queue{q0}, tasks[:1], nil), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireErr(d.SubmitGraph([]*Queue{q0}, tasks[:3], []uint16{0, 0, 1}), abi.ACL_ERROR_RT_PARAM_INVALID)
	other := newDev(t, Config{})
	requireErr(other.SubmitGraph([]*Queue{q0}, tasks[:1], []uint16{0}), abi.ACL_ERROR_RT_STREAM_CONTEXT)
	require.NoError(t, q0.Synchronize(-1))

	in := (&tasks[2]).Info()
	assert.Equal(t, "wait", in.Kind)
	assert.True(t, tasks[1].IsRecord())
	assert.Same(t, join, tasks[5].Event())
	moved := tasks[5].WithEvent(fork)
	assert.Same(t, fork, moved.Event())
}

// TestSubmitAfter: a running host task queues its continuation on its own
// full queue (depth 2) and on another queue; nothing waits for ring
// space, the tasks run in order, and none starts on the virtual clock
// before the deciding task ended.
func TestSubmitAfter(t *testing.T) {
	d := newDev(t, Config{QueueDepth: 2})
	q0, q1 := newQ(t, d, 0), newQ(t, d, 0)
	e0, e1 := newEv(t, d), newEv(t, d)
	var l log
	var decided time.Duration
	decide := func() error {
		decided = q0.RunningEnd()
		cont := []Task{HostTask(l.add("b")), HostTask(l.add("c")), RecordTask(e0), HostTask(l.add("d")), RecordTask(e1)}
		return d.SubmitAfter(decided, []*Queue{q0, q1}, cont, []uint16{0, 0, 0, 0, 1})
	}
	require.NoError(t, q0.Submit(HostTask(l.add("a"))))
	require.NoError(t, q0.Submit(HostTask(decide)))
	// A Synchronize covers the tasks queued before it: wait for the
	// decision first, then for what it queued.
	require.NoError(t, q0.Synchronize(-1))
	require.NoError(t, q0.Synchronize(-1))
	require.NoError(t, q1.Synchronize(-1))
	got := l.list()
	assert.Equal(t, []string{"a", "b", "c"}, got[:3])
	assert.ElementsMatch(t, []string{"a", "b", "c", "d"}, got)
	assert.Positive(t, decided)
	assert.Greater(t, time.Duration(e0.lastRecVEnd.Load()), decided)
	assert.Greater(t, time.Duration(e1.lastRecVEnd.Load()), decided)

	requireErr := func(err error, code abi.Code) {
		t.Helper()
		require.Error(t, err)
		assert.True(t, isCode(err, code), "%v", err)
	}
	requireErr(d.SubmitAfter(0, []*Queue{q0}, []Task{HostTask(l.add("x"))}, nil), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireErr(d.SubmitAfter(0, []*Queue{q0}, []Task{HostTask(l.add("x"))}, []uint16{1}), abi.ACL_ERROR_RT_PARAM_INVALID)
	other := newDev(t, Config{})
	requireErr(other.SubmitAfter(0, []*Queue{q0}, nil, nil), abi.ACL_ERROR_RT_STREAM_CONTEXT)
	q1.Destroy(true)
	requireErr(d.SubmitAfter(0, []*Queue{q1}, []Task{HostTask(l.add("x"))}, []uint16{0}), abi.ACL_ERROR_RT_STREAM_ABORT)
}
