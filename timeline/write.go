package timeline

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

// Track layout of the file (docs/timeline.md). Each device is a process,
// pid DevicePID(dev); the host is pid HostPID. Within a device process:
const (
	HostPID       = 1
	devPIDBase    = 1000
	TidInstants   = 1     // instants (injected faults, sanitizer reports)
	TidSDMA       = 100   // + engine index
	TidPipe       = 300   // + index of the pipe name, sorted
	TidNamed      = 500   // + index of a named track (SVM, mstx <domain>), sorted
	TidSync       = 999   // synchronous operations (aclrtMemcpy, aclrtMemset)
	TidStream     = 1000  // + queue id
	TidCubeCore   = 10000 // + core index
	TidVectorCore = 20000 // + core index
)

// DevicePID is the process id the file gives device dev.
func DevicePID(dev int) int { return devPIDBase + dev }

// prim is one primary event of a device (a task, a span, an instant, a
// counter level) with its sort key; what a task implies (its flows, its
// engine and core slices, its pipes) is written right after it.
type prim struct {
	ts   time.Duration
	ord  int
	kind uint8 // primTask, primSpan, primInstant, primCounter
	idx  int   // into the devLog slice of its kind
}

const (
	primTask uint8 = iota
	primSpan
	primInstant
	primCounter
)

// usec renders ns as microseconds with three decimals (exact).
func usec(d time.Duration) string {
	ns := int64(d)
	sign := ""
	if ns < 0 {
		sign, ns = "-", -ns
	}
	return fmt.Sprintf("%s%d.%03d", sign, ns/1000, ns%1000)
}

func jstr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// jargs renders m with sorted keys.
func jargs(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		v, err := json.Marshal(m[k])
		if err != nil {
			v = []byte(jstr(fmt.Sprint(m[k])))
		}
		b = append(b, jstr(k)...)
		b = append(b, ':')
		b = append(b, v...)
	}
	return string(append(b, '}'))
}

// kv is an ordered argument list.
type kv []any

func (a kv) render() string {
	b := []byte{'{'}
	for i := 0; i+1 < len(a); i += 2 {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, jstr(a[i].(string))...)
		b = append(b, ':')
		switch v := a[i+1].(type) {
		case string:
			b = append(b, jstr(v)...)
		case raw:
			b = append(b, v...)
		default:
			b = append(b, fmt.Sprint(v)...)
		}
	}
	return string(append(b, '}'))
}

// raw is pre-rendered JSON.
type raw string

func complete(name, cat string, pid, tid int, start, end time.Duration, args string) []byte {
	return fmt.Appendf(nil, `{"name":%s,"cat":%q,"ph":"X","pid":%d,"tid":%d,"ts":%s,"dur":%s,"args":%s}`,
		jstr(name), cat, pid, tid, usec(start), usec(max(end-start, 0)), args)
}

func meta(kind string, pid, tid int, key string, val string) []byte {
	return fmt.Appendf(nil, `{"name":%q,"ph":"M","pid":%d,"tid":%d,"args":{%q:%s}}`, kind, pid, tid, key, val)
}

// taskName is how a task is labelled: the kernel name, else its kind.
func taskName(t *Task) string {
	if t.Name != "" {
		return t.Name
	}
	return t.Kind
}

// taskArgs is the argument object of a task's slice on its stream.
func taskArgs(t *Task) string {
	a := kv{"kind", t.Kind, "seq", t.Seq, "stream", t.Stream}
	if t.Kind == "kernel" {
		a = append(a, "blocks", t.Blocks, "core", t.Core, "width", t.Width)
	}
	if t.Bytes > 0 || t.Dir != "" {
		a = append(a, "bytes", t.Bytes)
	}
	if t.Dir != "" {
		a = append(a, "dir", t.Dir)
	}
	if t.Engine >= 0 {
		a = append(a, "engine", "SDMA "+strconv.Itoa(t.Engine))
	}
	if t.Out.Kind != "" {
		a = append(a, t.Out.Kind, t.Out.ID)
	}
	if t.In.Kind != "" {
		a = append(a, t.In.Kind, t.In.ID)
	}
	if t.Err != "" {
		a = append(a, "error", t.Err)
	}
	if len(t.Pipes) > 0 {
		p := kv{}
		for _, x := range t.Pipes {
			p = append(p, x.Name, x.Cycles)
		}
		a = append(a, "pipe_cycles", raw(p.render()))
	}
	return a.render()
}

// deviceTracks names the tracks of one device and the tids of the pipe
// and named tracks.
// Precondition: r.mu held.
func deviceTracks(l *devLog) (threads map[int]string, pipeTid, namedTid map[string]int) {
	threads = map[int]string{}
	pipeNames, named := map[string]bool{}, map[string]bool{}
	for i := 0; i < l.tasks.len(); i++ {
		t := l.tasks.at(i)
		for _, p := range t.Pipes {
			pipeNames[p.Name] = true
		}
		if t.Stream < 0 {
			threads[TidSync] = "Synchronous ops"
		} else {
			threads[TidStream+t.Stream] = "Stream " + strconv.Itoa(t.Stream)
		}
		if t.Engine >= 0 {
			threads[TidSDMA+t.Engine] = "SDMA " + strconv.Itoa(t.Engine)
		}
		if t.Err != "" {
			threads[TidInstants] = "Instants"
		}
		if t.Kind == "kernel" {
			for i := 0; i < max(t.Width, 1) && i < int(t.Blocks); i++ {
				for c := 0; c < t.CubePer; c++ {
					tid := TidCubeCore + i*t.CubePer + c
					threads[tid] = "AI Core " + strconv.Itoa(tid-TidCubeCore)
				}
				for c := 0; c < t.VecPer; c++ {
					tid := TidVectorCore + i*t.VecPer + c
					threads[tid] = "Vector Core " + strconv.Itoa(tid-TidVectorCore)
				}
			}
		}
	}
	for _, sp := range l.spans {
		named[sp.track] = true
	}
	for _, in := range l.instants {
		if t, ok := in.args["track"].(string); ok {
			named[t] = true
		} else {
			threads[TidInstants] = "Instants"
		}
	}
	pipeTid, namedTid = indexOf(pipeNames, TidPipe), indexOf(named, TidNamed)
	for n, tid := range pipeTid {
		threads[tid] = "Pipe " + n
	}
	for n, tid := range namedTid {
		threads[tid] = n
	}
	return threads, pipeTid, namedTid
}

// writeDevice writes the events of one device: its metadata, then its
// primary events sorted by (time, recording order), each task followed by
// the events it implies. Nothing is rendered ahead, so the memory needed
// is a few words per primary event however many cores a kernel used.
// Precondition: r.mu held.
func (r *Recorder) writeDevice(dev int, l *devLog, line func([]byte)) {
	pid := DevicePID(dev)
	threads, pipeTid, namedTid := deviceTracks(l)
	line(meta("process_name", pid, 0, "name", jstr("NPU "+strconv.Itoa(dev)+" (device clock)")))
	line(meta("process_sort_index", pid, 0, "sort_index", strconv.Itoa(pid)))
	tids := make([]int, 0, len(threads))
	for tid := range threads {
		tids = append(tids, tid)
	}
	sort.Ints(tids)
	for _, tid := range tids {
		line(meta("thread_name", pid, tid, "name", jstr(threads[tid])))
		line(meta("thread_sort_index", pid, tid, "sort_index", strconv.Itoa(tid)))
	}

	prims := make([]prim, 0, l.tasks.len()+len(l.spans)+len(l.instants)+len(l.counters))
	for i := 0; i < l.tasks.len(); i++ {
		prims = append(prims, prim{ts: l.tasks.at(i).Start, kind: primTask, idx: i})
	}
	for i := range l.spans {
		prims = append(prims, prim{ts: l.spans[i].start, kind: primSpan, idx: i})
	}
	for i := range l.instants {
		prims = append(prims, prim{ts: l.instants[i].ts, kind: primInstant, idx: i})
	}
	for i := range l.counters {
		prims = append(prims, prim{ts: l.counters[i].ts, kind: primCounter, idx: i})
	}
	for i := range prims {
		prims[i].ord = i
	}
	sort.Slice(prims, func(i, j int) bool {
		if prims[i].ts != prims[j].ts {
			return prims[i].ts < prims[j].ts
		}
		return prims[i].ord < prims[j].ord
	})
	for _, p := range prims {
		switch p.kind {
		case primTask:
			writeTask(pid, l.tasks.at(p.idx), pipeTid, line)
		case primSpan:
			sp := &l.spans[p.idx]
			line(complete(sp.name, sp.cat, pid, namedTid[sp.track], sp.start, sp.end, jargs(sp.args)))
		case primInstant:
			in := &l.instants[p.idx]
			tid := TidInstants
			if t, ok := in.args["track"].(string); ok {
				tid = namedTid[t]
			}
			line(fmt.Appendf(nil, `{"name":%s,"cat":%q,"ph":"i","s":"t","pid":%d,"tid":%d,"ts":%s,"args":%s}`,
				jstr(in.name), in.cat, pid, tid, usec(in.ts), jargs(in.args)))
		case primCounter:
			c := &l.counters[p.idx]
			line(fmt.Appendf(nil, `{"name":%s,"cat":"counter","ph":"C","pid":%d,"tid":0,"ts":%s,"args":{"bytes":%d}}`,
				jstr(c.name), pid, usec(c.ts), c.value))
		}
	}
}

// writeTask writes t's slice on its stream and what it implies: flow ends,
// its SDMA engine slice, a failure instant, its core and pipe slices.
func writeTask(pid int, t *Task, pipeTid map[string]int, line func([]byte)) {
	tid := TidStream + t.Stream
	if t.Stream < 0 {
		tid = TidSync
	}
	line(complete(taskName(t), "task", pid, tid, t.Start, t.End, taskArgs(t)))
	if t.flowOut != 0 {
		line(fmt.Appendf(nil, `{"name":%q,"cat":"flow","ph":"s","id":%d,"pid":%d,"tid":%d,"ts":%s}`,
			t.Out.Kind, t.flowOut, pid, tid, usec(t.Start)))
	}
	if t.flowIn != 0 {
		line(fmt.Appendf(nil, `{"name":%q,"cat":"flow","ph":"f","bp":"e","id":%d,"pid":%d,"tid":%d,"ts":%s}`,
			t.In.Kind, t.flowIn, pid, tid, usec(t.Start)))
	}
	if t.Engine >= 0 {
		line(complete(taskName(t), "engine", pid, TidSDMA+t.Engine, t.Start, t.End,
			kv{"seq", t.Seq, "stream", t.Stream, "bytes", t.Bytes}.render()))
	}
	if t.Err != "" {
		line(fmt.Appendf(nil, `{"name":%s,"cat":"instant","ph":"i","s":"t","pid":%d,"tid":%d,"ts":%s,"args":%s}`,
			jstr("task failed: "+taskName(t)), pid, TidInstants, usec(t.End),
			kv{"seq", t.Seq, "stream", t.Stream, "error", t.Err}.render()))
	}
	if t.Kind != "kernel" {
		return
	}
	coreEvents(pid, t, line)
	for _, p := range t.Pipes {
		busy := time.Duration(float64(p.Cycles) * 1e9 / CoreClockHz)
		line(complete(taskName(t), "pipe", pid, pipeTid[p.Name], t.Start, t.Start+busy,
			kv{"seq", t.Seq, "cycles", p.Cycles}.render()))
	}
}

// indexOf numbers the sorted names from base.
func indexOf(names map[string]bool, base int) map[string]int {
	s := make([]string, 0, len(names))
	for n := range names {
		s = append(s, n)
	}
	sort.Strings(s)
	m := map[string]int{}
	for i, n := range s {
		m[n] = base + i
	}
	return m
}

// coreEvents draws which cores ran t's blocks when, on the virtual clock:
// the blocks run in waves of t.Width after the task's fixed overhead, core
// i taking blocks i, i+Width, ...; one slice per core.
func coreEvents(pid int, t *Task, line func([]byte)) {
	w := max(t.Width, 1)
	waves := (int(t.Blocks) + w - 1) / w
	begin := max(t.End-time.Duration(waves)*t.BlockCost, t.Start)
	for i := 0; i < w && i < int(t.Blocks); i++ {
		n := (int(t.Blocks) - i + w - 1) / w
		s, e := begin, begin+time.Duration(n)*t.BlockCost
		args := kv{"seq", t.Seq, "stream", t.Stream, "first_block", i, "blocks", n, "block_step", w}.render()
		for c := 0; c < t.CubePer; c++ {
			line(complete(taskName(t), "core", pid, TidCubeCore+i*t.CubePer+c, s, e, args))
		}
		for c := 0; c < t.VecPer; c++ {
			line(complete(taskName(t), "core", pid, TidVectorCore+i*t.VecPer+c, s, e, args))
		}
	}
}

// WriteTo writes the whole collection as a trace-event JSON object, one
// event per line: per device its metadata and its events in time order
// (each task followed by the events it implies), then the host track
// (unless withHost is false).
func (r *Recorder) WriteTo(w io.Writer, withHost bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"npuemu timeline 1\",\"clock\":\"device virtual time, us\",\"tasks\":%d,\"dropped\":%d},\n\"traceEvents\":[\n", r.tasks, r.dropped)
	first := true
	line := func(b []byte) {
		if !first {
			bw.WriteString(",\n")
		}
		first = false
		bw.Write(b)
	}
	for _, d := range r.sortedDevs() {
		r.writeDevice(d, r.devs[d], line)
	}
	if withHost && len(r.host) > 0 {
		r.hostEvents(line)
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}

// hostEvents renders the API calls of the host threads: one track per
// thread, wall clock since the recorder started (or the first call, if
// earlier), which is where device time 0 is put (with NPUEMU_PACING=1 the two clocks agree; at the default
// pacing 0 the device clock runs ahead of the wall clock).
// Precondition: r.mu held.
func (r *Recorder) hostEvents(line func([]byte)) {
	calls := append([]HostCall(nil), r.host...)
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].Start < calls[j].Start })
	// A call may have begun before the library finished loading (the
	// first one waits for the Go runtime): it starts the host clock then.
	epoch := min(r.epoch, calls[0].Start)
	line([]byte(fmt.Sprintf(`{"name":"process_name","cat":"host","ph":"M","pid":%d,"tid":0,"args":{"name":"Host API calls (wall clock)"}}`, HostPID)))
	named := map[int]bool{}
	for _, c := range calls {
		if !named[c.Tid] {
			named[c.Tid] = true
			line(fmt.Appendf(nil, `{"name":"thread_name","cat":"host","ph":"M","pid":%d,"tid":%d,"args":{"name":"Thread %d"}}`, HostPID, c.Tid, c.Tid))
		}
		s := time.Duration(c.Start - epoch)
		line(fmt.Appendf(nil, `{"name":%s,"cat":"host","ph":"X","pid":%d,"tid":%d,"ts":%s,"dur":%s,"args":{"ret":%d}}`,
			jstr(c.Name), HostPID, c.Tid, usec(s), usec(time.Duration(c.Dur)), c.Ret))
	}
}

// WriteFile writes the collection to path (through a temporary file in
// the same directory, renamed into place).
func (r *Recorder) WriteFile(path string, withHost bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".timeline-*")
	if err != nil {
		return err
	}
	if err := r.WriteTo(tmp, withHost); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	os.Chmod(tmp.Name(), 0o644)
	return os.Rename(tmp.Name(), path)
}
