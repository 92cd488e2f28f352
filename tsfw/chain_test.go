package tsfw

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// ownProbe is an orderKernel that counts the times it ran inside a chain
// taken while a submitter helps its queue (an own chain).
type ownProbe struct {
	orderKernel
	d     *Device
	q     *Queue
	inOwn *atomic.Int32
}

func (k *ownProbe) RunBlock(b, n uint32) error {
	k.d.mu.Lock() // released while a chain runs
	if k.q.chain > 0 && k.q.helping > 0 {
		k.inOwn.Add(1)
	}
	k.d.mu.Unlock()
	return k.orderKernel.RunBlock(b, n)
}

// TestOwnChainOnFullRing: a submitter facing a full ring whose lane never
// wakes runs the queued one-block kernels itself, as chains (own chains);
// they run in order, each once, a failure in the middle is the stream's
// error, reported once, and virtual time is the sum of their costs.
func TestOwnChainOnFullRing(t *testing.T) {
	const cost = time.Microsecond
	d := newDev(t, Config{CubeCores: 1, QueueDepth: 64})
	q := newQ(t, d, 0)
	ghostLane(d) // the only core's lane: never runs
	log := &orderLog{}
	var inOwn atomic.Int32
	spec := KernelSpec{Blocks: 1, BlockCost: cost}
	const n = 300
	submitted := make(chan error, 1)
	go func() {
		for i := range n {
			k := &ownProbe{orderKernel: orderKernel{n: i, log: log, fail: i == 40}, d: d, q: q, inOwn: &inOwn}
			if err := q.Submit(KernelTask(k, spec)); err != nil {
				submitted <- err
				return
			}
		}
		submitted <- nil
	}()
	select {
	case err := <-submitted:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("Submit on a full ring did not run the kernels of a lane that never wakes")
	}
	err := q.Synchronize(-1)
	require.Error(t, err)
	assert.True(t, isCode(err, abi.ACL_ERROR_RT_AICORE_EXCEPTION), "%v", err)
	require.NoError(t, q.Synchronize(-1), "the error is reported once")
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, log.get())
	assert.Positive(t, inOwn.Load(), "no kernel ran in a chain of the helping submitter")
	assert.Equal(t, time.Duration(n)*(DefaultCost.TaskOverhead+cost), d.Now())
}
