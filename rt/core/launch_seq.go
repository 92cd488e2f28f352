package core

import "github.com/npuemu/npuemu/tsfw"

// Runs of launches are numbered at once. The device numbers every task it
// is given, in submission order: equal-priority streams take turns by it.
// A run of launches one thread makes in one call (the n of
// LaunchKernelN, LaunchKernelDeviceN and acl's hostArgsN: what the front
// hands over) reserves its numbers with one write of the device's counter
// (tsfw.Device.ReserveSeq) instead of one per launch: threads launching
// into their own streams wrote that counter's line at every launch, and
// on a 16-CPU host four of them fought over it. The run ranks as if
// submitted at once when it began, which is when the program made its
// launches (the front had deferred them); a launch of the run that fails
// leaves its number unused. Tasks a capturing stream records take no
// number (QueueTask numbers only what goes to the device).

// seqRun is the numbers reserved for the run t is making: next up to end
// (excluded) on device dev.
type seqRun struct {
	dev       *tsfw.Device
	next, end uint64
}

// BeginRun reserves numbers for the n launches t is about to make on s
// (nothing for n < 2); EndRun must follow.
func (t *Thread) BeginRun(s *Stream, n int) {
	if n < 2 || s.SQ == nil {
		return
	}
	d := s.SQ.Device()
	first := d.ReserveSeq(n)
	t.run = seqRun{dev: d, next: first, end: first + uint64(n)}
}

// EndRun drops what is left of t's run (numbers of failed launches).
func (t *Thread) EndRun() { t.run = seqRun{} }

// numberTask gives task the run's next number when the run is on q's
// device and task has none yet (queueRun numbers a chunk ahead).
func (t *Thread) numberTask(q *tsfw.Queue, task *tsfw.Task) {
	if r := &t.run; r.next < r.end && r.dev == q.Device() && task.Seq() == 0 {
		task.Number(r.next)
		r.next++
	}
}
