package tsfw

import "time"

// Mark is how far each busy queue of a device must get for the work
// submitted before the mark to be done. The acl layer keeps device memory
// freed while such work may still use it out of reuse until its mark has
// passed (aclrtFree returns at once, as documented, but a stale copy or
// kernel must never overwrite the memory's next owner).
//
// A kernel running at the mark counts until its blocks have returned, even
// if the watchdog failed its task meanwhile (watchdog.go): an abandoned
// kernel's memory stays out of reuse while it may still write it.
type Mark struct {
	qs   []markQ
	runs []markRun
}

type markRun struct {
	r   *krun
	gen uint64
}

type markQ struct {
	q      *Queue
	target uint64
}

// Mark returns the device's mark now: the submitted count of every queue
// holding tasks. It is empty when the device is idle.
func (d *Device) Mark() Mark {
	if d.busy.Load() == 0 {
		return Mark{} // no queue holds a task and no abandoned kernel runs
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var m Mark
	for _, l := range d.active {
		for _, q := range l {
			if s := q.submitted.Load(); q.completed.Load() < s {
				m.qs = append(m.qs, markQ{q, s})
			}
		}
	}
	for _, rs := range [][]*krun{d.aic.running, d.aic.abandoned} {
		for _, r := range rs {
			r.watched = true // its recycle moves gen on
			m.runs = append(m.runs, markRun{r, r.gen.Load()})
		}
	}
	return m
}

// Empty reports a mark taken on an idle device.
func (m Mark) Empty() bool { return len(m.qs) == 0 && len(m.runs) == 0 }

// Passed reports whether every queue has completed (or dropped) the work
// submitted before the mark. Two atomic loads per queue.
func (m Mark) Passed() bool {
	for _, x := range m.qs {
		if x.q.completed.Load() < x.target {
			return false
		}
	}
	for _, x := range m.runs {
		if x.r.gen.Load() == x.gen {
			return false
		}
	}
	return true
}

// Wait waits until the mark has passed or the deadline; it reports
// whether it passed.
func (m Mark) Wait(deadline time.Time) bool {
	for _, x := range m.qs {
		if x.q.completed.Load() < x.target && !x.q.waitFor(x.target, false, deadline, nil) {
			return false
		}
	}
	return m.Passed() // an abandoned kernel is not waited for
}
