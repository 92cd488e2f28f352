package core

import (
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
)

// Runs of launches queued together. A run of identical launches one
// thread hands over at once (LaunchKernelN: the front's batches of up to
// 64) is prepared runChunk launches at a time and each chunk is queued in
// one pass of the stream's inbox (tsfw.Queue.SubmitRun: one lock, one
// count update) instead of one pass per launch; what the inbox cannot take
// (no room, no fast path) is queued one by one as before. Each launch
// still gets its own task id, in order, and fails or succeeds as it would
// alone. Not for a stream that captures, a sanitized process, or one
// using managed memory (launchManaged's work then stays in launch order
// with the queueing); nor for launches other than aclrtLaunchKernel-
// WithConfig's runs.

// runChunk is the launches queued in one pass: the lane waits for the
// inbox's lock while a pass stamps them, so a pass is kept short.
const runChunk = 16

// runQueueable reports whether a run on s may be queued in chunks.
func runQueueable(s *Stream) bool {
	return !Sanitizing && LoadedSVM() == nil && s.SQ != nil && !s.Capturing()
}

// launchRun makes the n launches of run rs (LaunchKernelN) in chunks;
// it returns the first error.
func launchRun(t *Thread, fn string, s *Stream, f *Function, a *Args, ah Handle, blocks uint32, cfg LaunchCfg, rs *runSpec, n int) error {
	var first error
	var tasks [runChunk]tsfw.Task
	var ls [runChunk]*Launch
	for done := 0; done < n; {
		k := 0
		for ; k < runChunk && done < n; done++ {
			l, err := prepareRunLaunch(t, fn, s, f, a, ah, blocks, cfg, rs, &tasks[k])
			if err != nil {
				if first == nil {
					first = err
				}
				continue
			}
			ls[k] = l
			k++
		}
		if err := s.queueRun(t, fn, tasks[:k], ls[:k], cfg); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// queueRun queues the prepared launches ls (tasks: their tasks, in order):
// as many as the inbox takes in one pass, the rest one by one
// (queueLaunch). It returns the first error.
func (s *Stream) queueRun(t *Thread, fn string, tasks []tsfw.Task, ls []*Launch, cfg LaunchCfg) error {
	if len(tasks) == 0 {
		return nil
	}
	if emu.SealPending() {
		emu.SealAll() // as QueueTask
	}
	for i := range tasks {
		t.numberTask(s.SQ, &tasks[i])
	}
	last, m := s.SQ.SubmitRun(tasks)
	if m > 0 {
		if h := cfg.handoff; h != nil {
			h.Queue, h.Last = s.SQ, last
		}
		_ = s.noteSubmit(t, fn, last, nil)
	}
	var first error
	for i := m; i < len(tasks); i++ {
		if err := queueLaunch(t, fn, s, ls[i], &tasks[i], cfg.handoff); err != nil && first == nil {
			first = err
		}
	}
	return first
}
