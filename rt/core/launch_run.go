package core

import "github.com/npuemu/npuemu/tsfw"

// Runs of launches queued together. A run of identical launches one
// thread hands over at once (LaunchKernelN: the front's batches of up to
// 64) is prepared runChunk launches at a time and each chunk is queued in
// one pass of the stream's inbox (tsfw.Queue.SubmitRun: one lock, one
// count update) instead of one pass per launch; what the inbox cannot take
// (no room, no fast path) is queued one by one as before. Each launch
// still gets its own task id, in order, and fails or succeeds as it would
// alone. Not for a stream that captures, a sanitized process, or one
// using managed memory (launchManaged's work then stays in launch order
// with the queueing). Runs of aclrtLaunchKernelWithConfig (launchRun),
// aclrtLaunchKernel (LaunchKernelDeviceN) and aclrtLaunchKernelWith-
// HostArgs (acl's hostArgsN: Ascend C's <<<>>>) are queued so.

// runChunk is the launches queued in one pass: the lane waits for the
// inbox's lock while a pass stamps them, so a pass is kept short.
const runChunk = 16

// RunQueueable reports whether a run on s may be queued in chunks.
func RunQueueable(s *Stream) bool {
	return !Sanitizing && LoadedSVM() == nil && s.SQ != nil && !s.Capturing()
}

// RunQueue gathers the prepared launches of a run and queues them
// runChunk at a time (queueRun). Begin it and defer End, add the
// launches (AddImage, or slot and add), then Flush.
type RunQueue struct {
	t     *Thread
	fn    string
	s     *Stream
	ho    *Handover
	k     int
	first error
	tasks [runChunk]tsfw.Task
	ls    [runChunk]*Launch
	// The stream's spare launch objects, grabbed runChunk at a time
	// (Launch): one lock of the stock per chunk, not per launch; and the
	// binary's launch count, taken runChunk at a time (binCredit).
	stash  launchStash
	credit binCredit
}

// Begin starts a run of launches t makes on s with configuration cfg;
// End must follow (deferred: it gives back what the run took ahead, also
// after a panic).
func (q *RunQueue) Begin(t *Thread, fn string, s *Stream, cfg LaunchCfg) {
	q.t, q.fn, q.s, q.ho, q.k, q.first = t, fn, s, cfg.handoff, 0, nil
	q.stash.n, q.credit = 0, binCredit{}
}

// Launch is GetLaunch(s, h, n) for a launch of the run.
func (q *RunQueue) Launch(h KernelHost, n int) *Launch { return getLaunch(q.s, h, n, &q.stash) }

// AddImage prepares launch l of f with image img (as SubmitImage) and
// gathers it; a failure is kept as the run's error if it is the first.
func (q *RunQueue) AddImage(f *Function, l *Launch, img []byte, blocks uint32, cfg LaunchCfg, units uint64) {
	var spec tsfw.KernelSpec
	if err := launchSpec(q.t, q.fn, q.s, f, blocks, cfg, units, &spec); err != nil {
		PutLaunch(l)
		q.fail(err)
		return
	}
	if err := prepareLaunch(q.t, q.fn, q.s, f, l, img, blocks, cfg, &q.credit); err != nil {
		q.fail(err)
		return
	}
	q.tasks[q.k].ResetKernel(l, &spec)
	q.add(l)
}

// Flush queues what is gathered and returns the run's first error.
func (q *RunQueue) Flush() error {
	q.flush()
	return q.first
}

// End gives back the spare launch objects and launch counts the run took
// ahead and did not use.
func (q *RunQueue) End() {
	if st := &q.stash; st.n > 0 {
		q.s.launches.giveBack(st.ls[:st.n], q.s.Dead.Load())
		clear(st.ls[:st.n])
		st.n = 0
	}
	q.credit.giveBack()
}

// binCredit is launch counts of one binary in one shard taken ahead for a
// run's launches (Binary.acquireN), runChunk at a time: one atomic add per
// chunk instead of one per launch.
type binCredit struct {
	b     *Binary
	shard uint8
	n     int64
}

// take counts one launch of b in shard sh from the credit, taking more
// when it is spent or for another binary.
func (c *binCredit) take(fn string, b *Binary, sh uint8) error {
	if c.n > 0 && c.b == b && c.shard == sh {
		c.n--
		return nil
	}
	c.giveBack()
	if err := b.acquireN(fn, sh, runChunk); err != nil {
		return err
	}
	c.b, c.shard, c.n = b, sh, runChunk-1
	return nil
}

// giveBack releases the counts not used.
func (c *binCredit) giveBack() {
	if c.n > 0 {
		c.b.releaseN(c.shard, c.n)
		c.n = 0
	}
}

// slot is the task slot of the next launch gathered.
func (q *RunQueue) slot() *tsfw.Task { return &q.tasks[q.k] }

// add gathers prepared launch l, whose task is in slot, and queues the
// chunk when it is full.
func (q *RunQueue) add(l *Launch) {
	q.ls[q.k] = l
	if q.k++; q.k == runChunk {
		q.flush()
	}
}

// flush queues the gathered chunk.
func (q *RunQueue) flush() {
	q.fail(q.s.queueRun(q.t, q.fn, q.tasks[:q.k], q.ls[:q.k], q.ho))
	q.k = 0
}

// fail keeps err if it is the run's first.
func (q *RunQueue) fail(err error) {
	if err != nil && q.first == nil {
		q.first = err
	}
}

// launchRun makes the n launches of run rs (LaunchKernelN) in chunks;
// it returns the first error.
func launchRun(t *Thread, fn string, s *Stream, f *Function, a *Args, ah Handle, blocks uint32, cfg LaunchCfg, rs *runSpec, n int) error {
	var q RunQueue
	q.Begin(t, fn, s, cfg)
	defer q.End()
	for range n {
		l, err := prepareRunLaunch(t, fn, s, f, a, ah, blocks, cfg, rs, q.slot(), &q)
		if err != nil {
			q.fail(err)
			continue
		}
		q.add(l)
	}
	return q.Flush()
}
