package tsfw

import (
	"strconv"
	"time"

	"github.com/npuemu/npuemu/timeline"
)

// The timeline hooks (docs/timeline.md). Two places report to the
// timeline package, each behind one test of timeline.Enabled: stamp, where
// every queued task gets its virtual start and end (queue.go), and
// complete, where every task retires (device.go); synchronous operations
// report from syncCharge. Nothing here runs when the timeline is off.

// TaskNamer may be implemented by a Kernel to name its tasks on the
// timeline (the kernel's function name).
type TaskNamer interface {
	TaskName() string
}

// tracedID is traceID, parsed once at NewDevice: read without d.mu by
// stamp on the inbox path (inbox.go).
func (d *Device) tracedID() int { return d.tlID }

// traceID is the device number of d for the timeline: the digits ending
// its name ("dev3" → 3), else 0.
func (d *Device) traceID() int {
	s := d.cfg.Name
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n, _ := strconv.Atoi(s[i:])
	return n
}

// traceTask reports t, just stamped on q; engine is the SDMA timeline it
// occupies (-1: none).
// Precondition: d.mu held, or q.in.mu for a kernel stamped through the
// inbox (the timeline recorder takes its own lock).
func (d *Device) traceTask(q *Queue, t *Task, engine int) {
	r := timeline.Task{
		Dev: d.tracedID(), Stream: q.id, Seq: t.seq, Kind: t.kind.String(),
		Start: t.vStart, End: t.vEnd, Engine: engine,
	}
	switch t.kind {
	case kindCopy, kindMemset:
		r.Bytes = t.n
	case kindCopy2D:
		r.Bytes = t.n * t.height
	case kindKernel:
		if n, ok := t.kern.(TaskNamer); ok {
			r.Name = n.TaskName()
		}
		ks := &t.ks
		c, v := ks.need(d.cost.vectorCores)
		w := ks.width(c, v, d.cost.cubeCores, d.cost.vectorCores)
		if w == 0 {
			w, c, v = 1, min(c, d.cost.cubeCores), min(v, d.cost.vectorCores)
		}
		r.Blocks, r.Core, r.Width, r.CubePer, r.VecPer, r.BlockCost = ks.Blocks, ks.Kind.String(), w, c, v, ks.BlockCost
		timeline.Launched(t.kern, r.Dev, t.seq)
	case kindRecord:
		r.Out = timeline.Link{Kind: "event", Dev: t.ev.d.traceID(), ID: int(t.ev.id), N: t.recSeq}
	case kindWait:
		if t.recSeq > 0 {
			r.In = timeline.Link{Kind: "event", Dev: t.ev.d.traceID(), ID: int(t.ev.id), N: t.recSeq}
		}
	case kindNotifyRecord:
		r.Out = timeline.Link{Kind: "notify", Dev: t.nt.d.traceID(), ID: int(t.nt.id)}
	case kindNotifyWait:
		r.In = timeline.Link{Kind: "notify", Dev: t.nt.d.traceID(), ID: int(t.nt.id)}
	case kindCntRecord:
		r.Out = timeline.Link{Kind: "cntnotify", Dev: t.cn.d.traceID(), ID: int(t.cn.id)}
	case kindCntWait:
		r.In = timeline.Link{Kind: "cntnotify", Dev: t.cn.d.traceID(), ID: int(t.cn.id)}
	}
	if t.kind.usesEngine() && t.kind != kindEngine {
		if t.kind == kindCopy || t.kind == kindCopy2D {
			r.Dir = t.dir.String()
		}
	}
	timeline.AddTask(&r)
}

// traceDone reports the completion of t with err.
// Precondition: d.mu held.
func (d *Device) traceDone(t *Task, err error) {
	if t.kind == kindKernel {
		timeline.Retired(t.kern, t.seq)
	}
	timeline.TaskDone(d.tracedID(), t.seq, err, nil)
}

// traceSync reports a synchronous operation (t: aclrtMemcpy / aclrtMemset)
// or a charge of host-side work on the device's behalf (t nil: managed
// pages migrated by a synchronous call) that occupied SDMA timeline engine
// from start to end.
// Precondition: d.mu held.
func (d *Device) traceSync(t *Task, engine int, start, end time.Duration) {
	dev := d.tracedID()
	if t == nil {
		timeline.Span(dev, "SVM", "svm", "managed migration", start, end,
			map[string]any{"engine": "SDMA " + strconv.Itoa(engine)})
		return
	}
	r := timeline.Task{Dev: dev, Stream: -1, Seq: d.seq.Load(), Kind: t.kind.String(), Start: start, End: end, Engine: engine, Bytes: t.n}
	if t.kind == kindCopy {
		r.Dir = t.dir.String()
	}
	timeline.AddTask(&r)
}

// VirtualEnd returns the virtual end of the latest task submitted to q:
// the device time at which q reaches a task submitted now (mstx marks
// placed on a stream).
func (q *Queue) VirtualEnd() time.Duration { return time.Duration(q.lastVEnd.Load()) }

// HostTime returns the device time the host has observed (synchronizes,
// synchronous copies): where a host-side annotation without a stream goes.
func (d *Device) HostTime() time.Duration { return time.Duration(d.vHost.Load()) }

// TraceID returns the device number the timeline uses for d.
func (d *Device) TraceID() int { return d.traceID() }

// Queues returns the device's live queues.
func (d *Device) Queues() []*Queue {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]*Queue, 0, len(d.queues))
	for _, q := range d.queues {
		if !q.destroyed {
			out = append(out, q)
		}
	}
	return out
}
