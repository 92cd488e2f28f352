package core

import (
	"testing"

	"github.com/npuemu/npuemu/tsfw"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunNumbers: a run reserves its numbers on its stream's device at
// once; the thread's tasks for that device take them in order, a task for
// another device takes none (the device numbers it), and EndRun drops
// what is left; a run of one reserves nothing.
func TestRunNumbers(t *testing.T) {
	d, other := tsfw.NewDevice(tsfw.Config{Name: "d"}), tsfw.NewDevice(tsfw.Config{Name: "o"})
	t.Cleanup(d.Close)
	t.Cleanup(other.Close)
	q, err := d.NewQueue(0)
	require.NoError(t, err)
	oq, err := other.NewQueue(0)
	require.NoError(t, err)
	s := &Stream{SQ: q}
	th := &Thread{}
	task := func(on *tsfw.Queue) uint64 {
		x := tsfw.KernelTask(nil, tsfw.KernelSpec{Blocks: 1})
		th.numberTask(on, &x)
		return x.Seq()
	}

	th.BeginRun(s, 3)
	first := d.ReserveSeq(1) - 3
	assert.Equal(t, first, task(q))
	assert.Zero(t, task(oq), "another device's task: numbered when stamped")
	assert.Equal(t, first+1, task(q))
	th.EndRun()
	assert.Zero(t, task(q), "the run's last number is dropped")

	th.BeginRun(s, 1)
	assert.Zero(t, task(q), "a run of one reserves nothing")
	assert.Equal(t, first+4, d.ReserveSeq(1))
	th.EndRun()
}
