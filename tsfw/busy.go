package tsfw

import "time"

// Busy reports (Config.OnBusy). A queue adds what each task it stamps
// will keep an engine busy to counters of its own and reports them
// together once its stamps have moved busyLag of device time past its
// last report, and when it is destroyed or its device closed; its first
// task is reported at once. Every stamp still tells OnBusy the task's end
// (with no busy time), so the device clock a shared node keeps advances
// as before. Why: the node's counters are one line that every launching
// thread of the process wrote at each launch; four threads launching into
// four streams fought over it (and over the device's submission number,
// ReserveSeq) on a 16-CPU host. A reader of the counters sees a stream's
// busy time at most busyLag of that stream's device time late, the lag
// the node allows its clock (docs/node.md).

// busyLag is how far a queue's stamps run ahead of its last busy report
// at most: the node's clock lag (emu clockLag).
const busyLag = 100 * time.Microsecond

// busyAcc is a queue's busy time stamped and not yet reported, guarded as
// the queue's vEnd: by d.mu, or by q.in.mu while the inbox is live.
type busyAcc struct {
	ns       [BusySDMA + 1]time.Duration // by BusyEngine
	at       time.Duration               // end of the task of the last report
	reported bool                        // a report was made (the first task reports at once)
}

// reportBusy adds what t, ending at end, keeps its engine busy to q's
// counters, and reports them when they are due (busyAcc).
// Precondition: d.mu held, or q.in.mu for a kernel stamped through the
// inbox (stamp); d.cfg.OnBusy set.
func (d *Device) reportBusy(q *Queue, t *Task, cost, end time.Duration) {
	engine := BusySDMA
	switch t.kind {
	case kindCopy, kindCopy2D, kindMemset, kindEngine:
		q.busy.ns[BusySDMA] += cost
	case kindKernel:
		busy := time.Duration(t.ks.Blocks) * t.ks.BlockCost
		switch t.ks.Kind {
		case CoreVector:
			engine = BusyVector
		case CoreMix:
			engine = BusyCube
			mv := t.ks.MixVector
			if mv == 0 {
				mv = 2
			}
			q.busy.ns[BusyVector] += busy * time.Duration(mv)
		default:
			engine = BusyCube
		}
		q.busy.ns[engine] += busy
	default:
		return
	}
	if !q.busy.reported || end >= q.busy.at+busyLag {
		q.busy.reported, q.busy.at = true, end
		if q.reportBusyTo(end) {
			return
		}
	}
	d.cfg.OnBusy(engine, 0, end) // the device clock only
}

// reportHeld reports q's busy time not reported yet, ending at q's last
// task's end (Destroy, Device.Close).
// Precondition: d.mu held, q's inbox closed.
func (q *Queue) reportHeld() {
	if q.d.cfg.OnBusy != nil {
		q.reportBusyTo(q.vEnd)
	}
}

// reportBusyTo reports q's held busy time of each engine to OnBusy, with
// end as the virtual end, and clears it; it reports whether it told any.
// Precondition: as reportBusy.
func (q *Queue) reportBusyTo(end time.Duration) bool {
	told := false
	for e, ns := range q.busy.ns {
		if ns != 0 {
			q.d.cfg.OnBusy(BusyEngine(e), ns, end)
			q.busy.ns[e] = 0
			told = true
		}
	}
	return told
}
