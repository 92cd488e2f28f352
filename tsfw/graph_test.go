package tsfw

import (
	"testing"

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
