package tsfw

import (
	"sync"
	"sync/atomic"
)

// Fault injection hooks (acl/faults.go holds the plan). The device model
// only offers the means: a hook that sees every task Queue.SubmitID
// accepts and may replace it, and Faulty, a task that fails with a given
// error when its turn comes, where the hardware would report it (the
// queue's asynchronous error, the task error hook).

// SubmitHook sees a task before it is queued on q and returns the task to
// queue instead (usually t itself).
type SubmitHook func(q *Queue, t Task) Task

var submitHook atomic.Pointer[SubmitHook]

// SetSubmitHook installs h (nil removes it). Unset, the submit path pays
// one atomic load.
func SetSubmitHook(h SubmitHook) {
	if h == nil {
		submitHook.Store(nil)
		return
	}
	submitHook.Store(&h)
}

// TaskClass says what a task does, for a SubmitHook.
type TaskClass uint8

// Task classes.
const (
	ClassOther  TaskClass = iota // events, notifies, host functions, built-ins
	ClassKernel                  // AI Core kernel
	ClassCopy                    // SDMA copy (1-D or 2-D)
	ClassMemset                  // SDMA memset
)

// Class returns what t does.
func (t *Task) Class() TaskClass {
	switch t.kind {
	case kindKernel:
		return ClassKernel
	case kindCopy, kindCopy2D:
		return ClassCopy
	case kindMemset:
		return ClassMemset
	}
	return ClassOther
}

// Kernel returns a kernel task's host code (nil for other tasks).
func (t *Task) Kernel() Kernel { return t.kern }

// Faulty returns a task that fails with err when it reaches its turn,
// instead of doing t's work; fire (optional) runs first, at that moment.
// A kernel keeps its geometry and fails from its first block (an AI Core
// exception or timeout, whose kernel completion still runs); any other
// task becomes a host task that fails.
func Faulty(t Task, err error, fire func()) Task {
	var once sync.Once
	trigger := func() {
		if fire != nil {
			once.Do(fire)
		}
	}
	if t.kind == kindKernel {
		t.kern = &faultyKernel{inner: t.kern, err: err, fire: trigger}
		return t
	}
	return HostTask(func() error {
		trigger()
		return err
	})
}

type faultyKernel struct {
	inner Kernel
	err   error
	fire  func()
}

func (k *faultyKernel) RunBlock(block, blocks uint32) error {
	k.fire()
	return k.err
}

func (k *faultyKernel) Done(err error) error { return k.inner.Done(err) }
