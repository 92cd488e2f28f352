package tsfw

import (
	"sync"
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

// batchKernel is a one-block kernel a chain may run in batches
// (BatchKernel), logging runs, completions and the size of each batch.
type batchKernel struct {
	n    int
	log  *batchLog
	fail bool
}

type batchLog struct {
	mu      sync.Mutex
	ran     []int
	done    []int
	failed  []int // kernels whose Done got an error
	batches []int // kernels handed to each RunBatch
}

func (k *batchKernel) run() error {
	k.log.mu.Lock()
	k.log.ran = append(k.log.ran, k.n)
	k.log.mu.Unlock()
	if k.fail {
		return abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "kernel %d failed", k.n)
	}
	return nil
}

func (k *batchKernel) RunBlock(b, n uint32) error { return k.run() }

func (k *batchKernel) Done(err error) error {
	k.log.mu.Lock()
	k.log.done = append(k.log.done, k.n)
	if err != nil {
		k.log.failed = append(k.log.failed, k.n)
	}
	k.log.mu.Unlock()
	return err
}

func (k *batchKernel) RunBatch(ks []Kernel) (int, error) {
	k.log.mu.Lock()
	k.log.batches = append(k.log.batches, len(ks))
	k.log.mu.Unlock()
	for i, x := range ks {
		if err := x.(*batchKernel).run(); err != nil {
			return i + 1, err
		}
	}
	return len(ks), nil
}

// TestChainBatches: kernels queued behind a running one run as a chain in
// batches of at most maxBatch (BatchKernel), each once and in order, each
// completed in order; a failing kernel ends its batch and its chain with
// its error, and the kernels behind it still run, as without batches.
func TestChainBatches(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	gate := make(chan struct{})
	first := &orderKernel{n: -1, log: &orderLog{}, gate: gate}
	spec := KernelSpec{Blocks: 1, BlockCost: time.Microsecond}
	require.NoError(t, q.Submit(KernelTask(first, spec)))
	log := &batchLog{}
	const n, bad = 100, 37
	for i := range n {
		require.NoError(t, q.Submit(KernelTask(&batchKernel{n: i, log: log, fail: i == bad}, spec)))
	}
	close(gate)
	err := q.Synchronize(-1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kernel 37 failed")
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, log.ran, "each kernel ran once, in order")
	assert.Equal(t, want, log.done, "each completed once, in order")
	assert.Equal(t, []int{bad}, log.failed)
	batched := false
	for _, b := range log.batches {
		assert.LessOrEqual(t, b, maxBatch)
		batched = batched || b > 1
	}
	assert.True(t, batched, "the queued kernels ran in batches: %v", log.batches)
}
