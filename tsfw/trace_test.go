package tsfw

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/timeline"
)

// pipeKernel reports pipe cycles from each block, as an Ascend C kernel
// does through timeline.AttachPipes.
type pipeKernel struct{}

func (k *pipeKernel) RunBlock(b, n uint32) error {
	timeline.AttachPipes(k, []timeline.Pipe{{Name: "MTE2", Cycles: 100}, {Name: "Vector", Cycles: 50}})
	return nil
}
func (k *pipeKernel) Done(err error) error { return err }
func (k *pipeKernel) TaskName() string     { return "pipes" }

type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur"`
	ID   uint64         `json:"id"`
	Args map[string]any `json:"args"`
}

// TestTimelineHooks drives a device with the timeline on: a notify pairs
// record and wait as a flow, a kernel's blocks land on its cores and its
// reported pipe cycles on its task and the pipe tracks, a failed task is
// an instant, and timeline.Instant lands on the Instants track.
func TestTimelineHooks(t *testing.T) {
	r := timeline.NewRecorder()
	old := timeline.Attach(r)
	defer timeline.Attach(old)
	const dev = 7 // other tests' devices feed the recorder too; this one is ours
	d := newDev(t, Config{Name: "dev7", CubeCores: 4, VectorCores: 8})
	q1, err := d.NewQueue(0)
	require.NoError(t, err)
	q2, err := d.NewQueue(0)
	require.NoError(t, err)
	n, err := d.NewNotify()
	require.NoError(t, err)
	defer n.Destroy()

	require.NoError(t, q1.Submit(NotifyRecordTask(n)))
	require.NoError(t, q2.Submit(NotifyWaitTask(n, 0)))
	k := &pipeKernel{}
	require.NoError(t, q2.Submit(KernelTask(k, KernelSpec{Blocks: 6, Kind: CoreVector, BlockCost: 100 * time.Nanosecond})))
	require.NoError(t, q1.Submit(HostTask(func() error { return errors.New("boom") })))
	require.NoError(t, q2.Synchronize(-1))
	require.Error(t, q1.Synchronize(-1))
	timeline.Instant(dev, "injected fault", map[string]any{"kind": "ecc", "addr": 4096})

	tasks := r.Tasks(dev)
	require.Len(t, tasks, 4)
	kinds := []string{}
	for _, tk := range tasks {
		kinds = append(kinds, tk.Kind)
	}
	assert.Equal(t, []string{"notify record", "notify wait", "kernel", "host"}, kinds)
	assert.Equal(t, "pipes", tasks[2].Name)
	assert.Equal(t, []timeline.Pipe{{Name: "MTE2", Cycles: 600}, {Name: "Vector", Cycles: 300}}, tasks[2].Pipes)
	assert.Equal(t, 6, tasks[2].Width)
	assert.Equal(t, "boom", tasks[3].Err)
	assert.GreaterOrEqual(t, tasks[1].Start, tasks[0].End, "the wait starts after the record")

	var buf bytes.Buffer
	require.NoError(t, r.WriteTo(&buf, false))
	var f struct {
		Events []traceEvent `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &f), buf.String())
	pid := timeline.DevicePID(dev)
	threads := map[int]string{}
	var flows, cores, pipes, instants []traceEvent
	for _, e := range f.Events {
		if e.Pid != pid {
			continue
		}
		switch {
		case e.Ph == "M" && e.Name == "thread_name":
			threads[e.Tid] = e.Args["name"].(string)
		case e.Cat == "flow":
			flows = append(flows, e)
		case e.Cat == "core":
			cores = append(cores, e)
		case e.Cat == "pipe":
			pipes = append(pipes, e)
		case e.Ph == "i":
			instants = append(instants, e)
		}
	}
	require.Len(t, flows, 2)
	assert.Equal(t, "s", flows[0].Ph)
	assert.Equal(t, "f", flows[1].Ph)
	assert.Equal(t, flows[0].ID, flows[1].ID)
	assert.Equal(t, "notify", flows[0].Name)
	assert.Len(t, cores, 6)
	for _, c := range cores {
		assert.Contains(t, threads[c.Tid], "Vector Core ")
	}
	require.Len(t, pipes, 2)
	assert.Equal(t, "Pipe MTE2", threads[pipes[0].Tid])
	assert.EqualValues(t, 600, pipes[0].Args["cycles"])
	require.Len(t, instants, 2)
	names := []string{instants[0].Name, instants[1].Name}
	assert.ElementsMatch(t, []string{"task failed: host", "injected fault"}, names)
	for _, in := range instants {
		assert.Equal(t, "Instants", threads[in.Tid])
	}
}

// BenchmarkSubmitTimeline is BenchmarkSubmit with the timeline on: the
// cost of recording a task (compare the two; with it off the hooks are one
// atomic load each).
func BenchmarkSubmitTimeline(b *testing.B) {
	old := timeline.Attach(timeline.NewRecorder())
	defer timeline.Attach(old)
	BenchmarkSubmit(b)
}
