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
// runChunk at a time (queueRun). Begin it, add the launches (AddImage, or
// slot and add), then Flush.
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
	// (Launch): one lock of the stock per chunk, not per launch.
	stash launchStash
}

// Begin starts a run of launches t makes on s with configuration cfg.
func (q *RunQueue) Begin(t *Thread, fn string, s *Stream, cfg LaunchCfg) {
	q.t, q.fn, q.s, q.ho, q.k, q.first = t, fn, s, cfg.handoff, 0, nil
	q.stash.n = 0
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
	if err := prepareLaunch(q.t, q.fn, q.s, f, l, img, blocks, cfg); err != nil {
		q.fail(err)
		return
	}
	q.tasks[q.k] = tsfw.KernelTask(l, spec)
	q.add(l)
}

// Flush queues what is gathered, gives the spares not used back, and
// returns the run's first error.
func (q *RunQueue) Flush() error {
	q.flush()
	if st := &q.stash; st.n > 0 {
		q.s.launches.giveBack(st.ls[:st.n], q.s.Dead.Load())
		clear(st.ls[:st.n])
		st.n = 0
	}
	return q.first
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
	for range n {
		l, err := prepareRunLaunch(t, fn, s, f, a, ah, blocks, cfg, rs, q.slot(), &q.stash)
		if err != nil {
			q.fail(err)
			continue
		}
		q.add(l)
	}
	return q.Flush()
}
