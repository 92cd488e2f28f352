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
	if k.q.chain > 0 && k.q.helping.Load() > 0 {
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

// batchKernel is an orderKernel a chain may run in batches (BatchKernel),
// logging completions and the size of each batch in blog.
type batchKernel struct {
	orderKernel
	blog *batchLog
}

type batchLog struct {
	mu      sync.Mutex
	done    []int
	failed  []int // kernels whose Done got an error
	batches []int // kernels handed to each RunBatch
}

func (k *batchKernel) Done(err error) error {
	k.blog.mu.Lock()
	k.blog.done = append(k.blog.done, k.n)
	if err != nil {
		k.blog.failed = append(k.blog.failed, k.n)
	}
	k.blog.mu.Unlock()
	return err
}

func (k *batchKernel) RunBatch(ks []Kernel) (int, error) {
	k.blog.mu.Lock()
	k.blog.batches = append(k.blog.batches, len(ks))
	k.blog.mu.Unlock()
	for i, x := range ks {
		if err := x.(*batchKernel).RunBlock(0, 1); err != nil {
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
	log, blog := &orderLog{}, &batchLog{}
	const n, bad = 100, 37
	for i := range n {
		k := &batchKernel{orderKernel: orderKernel{n: i, log: log, fail: i == bad}, blog: blog}
		require.NoError(t, q.Submit(KernelTask(k, spec)))
	}
	close(gate)
	err := q.Synchronize(-1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kernel 37 failed")
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, log.get(), "each kernel ran once, in order")
	assert.Equal(t, want, blog.done, "each completed once, in order")
	assert.Equal(t, []int{bad}, blog.failed)
	batched := false
	for _, b := range blog.batches {
		assert.LessOrEqual(t, b, maxBatch)
		batched = batched || b > 1
	}
	assert.True(t, batched, "the queued kernels ran in batches: %v", blog.batches)
}

// doneBatchKernel is a batchKernel a chain also completes in batches
// (BatchDone), logging each DoneBatch's size; DoneBatch panics on kernel
// panicAt before completing it.
type doneBatchKernel struct {
	batchKernel
	panicAt int
	sizes   *[]int // guarded by blog.mu
}

func (k *doneBatchKernel) RunBatch(ks []Kernel) (int, error) {
	for i, x := range ks {
		if err := x.(*doneBatchKernel).RunBlock(0, 1); err != nil {
			return i + 1, err
		}
	}
	return len(ks), nil
}

func (k *doneBatchKernel) DoneBatch(ks []Kernel) {
	k.blog.mu.Lock()
	*k.sizes = append(*k.sizes, len(ks))
	k.blog.mu.Unlock()
	for i, x := range ks {
		if x.(*doneBatchKernel).n == k.panicAt {
			panic("done batch")
		}
		_ = x.Done(nil)
		ks[i] = nil
	}
}

// TestChainDoneBatches: the kernels a batch ran are completed in one call
// (BatchDone), each once and in order; when that call panics on one, the
// ones after it are completed one by one, as callDone would have.
func TestChainDoneBatches(t *testing.T) {
	d := newDev(t, Config{CubeCores: 1})
	q := newQ(t, d, 0)
	gate := make(chan struct{})
	require.NoError(t, q.Submit(KernelTask(&orderKernel{n: -1, log: &orderLog{}, gate: gate}, KernelSpec{Blocks: 1})))
	log, blog := &orderLog{}, &batchLog{}
	var sizes []int
	const n, bad = 100, 20
	for i := range n {
		k := &doneBatchKernel{batchKernel: batchKernel{orderKernel: orderKernel{n: i, log: log}, blog: blog}, panicAt: bad, sizes: &sizes}
		require.NoError(t, q.Submit(KernelTask(k, KernelSpec{Blocks: 1})))
	}
	close(gate)
	require.NoError(t, q.Synchronize(-1))
	var want []int
	for i := range n {
		if i != bad {
			want = append(want, i)
		}
	}
	assert.Equal(t, want, blog.done, "each completed once, in order; the one whose completion panicked not")
	blog.mu.Lock()
	defer blog.mu.Unlock()
	require.NotEmpty(t, sizes, "no batch was completed in one call")
	for _, s := range sizes {
		assert.Greater(t, s, 1)
		assert.Less(t, s, maxBatch, "the last kernel of a batch is completed alone")
	}
}
