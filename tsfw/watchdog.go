package tsfw

import (
	"fmt"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// Runaway kernels (issue #14, point 6). Host code cannot be interrupted,
// so a kernel that outlives its timeout is abandoned instead: a watchdog
// goroutine per device, started with the first kernel that has a Timeout,
// looks at the running kernels every watchdogPeriod and, for one past its
// Timeout, fails its task with ACL_ERROR_RT_AICORE_TIMEOUT at that moment
// (the queue's asynchronous error and the task error hook, as any task
// failure), returns its cores to the pools and lets its queue go on. Its
// lanes keep their threads until the blocks return, if ever; the Device no
// longer waits for them (Close), its kernel completion (Kernel.Done, which
// releases the argument image) runs only when the last block returns, and
// a Mark taken while it ran does not pass before then, so the device
// memory freed meanwhile stays out of reuse (mark.go).
//
// Close abandons the kernels still running closeGrace after it began, so
// aclFinalize and aclrtResetDevice return in bounded time whatever a
// kernel does. A stream abort (Queue.Abort) returns at once and leaves a
// running kernel to finish, as before; past its timeout it is abandoned.
//
// Decision (merge of the launch fast path): a chain of one-block kernels
// (chain.go) is never abandoned, at close either; kernels with a Timeout
// never join a chain, and no chain starts once the device is closing, so
// only a chain already running when Close began is waited for in full.

// watchdogPeriod is how often the watchdog looks: a timeout fires at most
// this late.
const watchdogPeriod = 20 * time.Millisecond

// closeGrace is how long Close lets running kernels finish before it
// abandons them.
const closeGrace = 2 * time.Second

// startWatchdog starts d's watchdog once.
// Precondition: d.mu held.
func (d *Device) startWatchdog() {
	if d.wdOn {
		return
	}
	d.wdOn = true
	d.wg.Add(1)
	go d.watchdogLoop()
}

func (d *Device) watchdogLoop() {
	defer d.wg.Done()
	tick := time.NewTicker(watchdogPeriod)
	defer tick.Stop()
	for {
		select {
		case <-d.quit:
			return
		case now := <-tick.C:
			d.mu.Lock()
			d.expire(now)
			d.mu.Unlock()
		}
	}
}

// expire abandons the running kernels past their timeout, or past
// closeGrace once the device is closing.
// Precondition: d.mu held.
func (d *Device) expire(now time.Time) {
	a := &d.aic
	for i := 0; i < len(a.running); i++ {
		r := a.running[i]
		if r.q != nil && r.q.chain > 0 {
			// A chain of one-block kernels without a timeout
			// (chain.go) runs with d.mu released and its position
			// known to its lane only: it is not abandoned, Close
			// waits for it (no new chain starts once closing).
			continue
		}
		var err error
		switch {
		case r.ks.Timeout > 0 && now.Sub(r.start) > r.ks.Timeout:
			err = abi.DevErrorf(abi.DevAICoreTimeout, "kernel of %d blocks exceeded its timeout of %v and was abandoned (its host thread may still run; its memory stays out of reuse)", r.ks.Blocks, r.ks.Timeout)
		case d.closing && !d.closeStart.IsZero() && now.Sub(d.closeStart) > closeGrace:
			err = abi.DevErrorf(abi.DevTaskAbort, "kernel of %d blocks still ran %v after the device began to close and was abandoned", r.ks.Blocks, closeGrace)
		default:
			continue
		}
		d.abandon(r, err)
		i--
	}
}

// abandon fails r's task with err now and detaches it (see above).
// Precondition: d.mu held, r in d.aic.running.
func (d *Device) abandon(r *krun, err error) {
	a := &d.aic
	r.abandoned.Store(true)
	r.fail(err)
	a.running = dropRun(a.running, r)
	a.abandoned = append(a.abandoned, r)
	d.busy.Add(1)
	a.freeCube += r.cube
	a.freeVector += r.vector
	for _, l := range r.lanes {
		if l.run == r && l.owed.CompareAndSwap(true, false) {
			d.wg.Done() // Close does not wait for this lane's thread
		}
	}
	d.inflight--
	q := r.q
	d.complete(q, err)
	d.schedule()
}

// finishAbandoned ends an abandoned kernel once its last block returned.
// Precondition: d.mu not held.
func (d *Device) finishAbandoned(r *krun, l *lane) {
	callDone(r.kern, r.err)
	d.mu.Lock()
	a := &d.aic
	l.run = nil
	a.idle = append(a.idle, l)
	for i, x := range a.abandoned {
		if x == r {
			a.abandoned = append(a.abandoned[:i], a.abandoned[i+1:]...)
			d.busy.Add(-1)
			break
		}
	}
	r.recycle()
	a.runs = append(a.runs, r)
	d.mu.Unlock()
}

// recycle clears r for reuse and moves its generation on, which tells a
// Mark that the run is over, when one took it (watched).
// Precondition: d.mu held.
func (r *krun) recycle() {
	r.q, r.kern, r.err = nil, nil, nil
	for i := range r.lanes { // usually one: cheaper than a bulk clear
		r.lanes[i] = nil
	}
	r.lanes = r.lanes[:0]
	if r.abandoned.Load() { // (a store is an exchange)
		r.abandoned.Store(false)
	}
	if r.watched { // only a holder of the generation looks for the move
		r.watched = false
		r.gen.Add(1)
	}
}

// Abandoned returns how many kernels of d were abandoned and have not
// returned (npuemu info, tests).
func (d *Device) Abandoned() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.aic.abandoned)
}

func (r *krun) String() string { return fmt.Sprintf("kernel of %d blocks", r.ks.Blocks) }
