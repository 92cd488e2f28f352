package timeline

import (
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Env names the variable that turns the timeline on: NPUEMU_TIMELINE=FILE.
// "%p" in FILE is replaced by the process id (one file per process).
const Env = "NPUEMU_TIMELINE"

// HostEnv set to "0" leaves the host track (wall clock) out of the file.
const HostEnv = "NPUEMU_TIMELINE_HOST"

// MaxTasks bounds the tasks one recorder keeps (about 300 bytes each).
const MaxTasks = 1 << 20

// on is the one flag every hook tests.
var on atomic.Bool

// Enabled reports whether a recorder is collecting. Hooks on hot paths
// test it first and do nothing else when it is false.
func Enabled() bool { return on.Load() }

// Link ties a record (event record, notify record) to the waits it
// releases: tsfw reports the same Link on both sides, and the file draws a
// flow arrow from the record's end to the wait's start.
type Link struct {
	Kind string // "event", "notify", "cntnotify"; "" for none
	Dev  int    // the device of the event or notify
	ID   int    // its hardware id
	N    uint64 // events: the record's number; notifies: 0
}

// Pipe is the busy time of one pipe (MTE1, MTE2, MTE3, Vector, Cube,
// Scalar, FixPipe, ...) during one Ascend C kernel launch, in cycles of the
// AI Core clock (see CoreClockHz).
type Pipe struct {
	Name   string
	Cycles uint64
}

// CoreClockHz converts pipe cycles to time on the timeline: the 1.8 GHz
// AI Core clock of the Atlas A2 class the emulator models.
const CoreClockHz = 1.8e9

// Task is one task as tsfw queues it, with its device-clock times.
type Task struct {
	Dev    int    // device id
	Stream int    // queue id; -1: a synchronous operation (aclrtMemcpy)
	Seq    uint64 // device-wide submission order
	Kind   string // copy, copy2d, memset, record, wait, reset, host, kernel, notify record, ...
	Name   string // kernel name (kernels), else ""
	Start  time.Duration
	End    time.Duration

	Bytes  uint64 // copies and memsets
	Dir    string // copies: HostToDevice, ...
	Engine int    // SDMA engine index, -1 when none

	Blocks    uint32        // kernels: blockDim
	Core      string        // kernels: cube, vector, mix
	Width     int           // kernels: blocks running at once on the virtual clock
	CubePer   int           // kernels: cube cores per block
	VecPer    int           // kernels: vector cores per block
	BlockCost time.Duration // kernels: virtual time of one block

	Out Link // records: what this task releases
	In  Link // waits: what this task waits for

	// Set at completion.
	Err   string
	Pipes []Pipe

	flowOut, flowIn uint64 // resolved Out and In (AddTask)
}

// HostCall is one API call of a host thread, on the wall clock.
type HostCall struct {
	Tid   int
	Name  string
	Start int64 // wall clock, ns since the Unix epoch
	Dur   int64 // ns
	Ret   int64
}

type instant struct {
	ts   time.Duration
	name string
	cat  string
	args map[string]any
}

type counter struct {
	ts    time.Duration
	name  string
	value int64
}

// span is an interval on a named track of a device that is not a task:
// mstx ranges, SVM migrations.
type span struct {
	track      string
	cat        string
	name       string
	start, end time.Duration
	args       map[string]any
}

type devLog struct {
	tasks    taskList
	instants []instant
	counters []counter
	spans    []span
	now      time.Duration // start of the latest task queued: the host's view of the device clock
	flows    uint64        // flow ids handed out on this device
}

type flowRef struct {
	kind    string
	dev, id int
	n       uint64
}

// Recorder holds one collection in memory until it is written.
type Recorder struct {
	mu sync.Mutex
	// Guarded by mu.
	devs    map[int]*devLog
	links   map[flowRef]uint64   // event records: flow id by (event, record number)
	pending map[flowRef][]uint64 // notify records not yet paired with a wait
	last    map[flowRef]uint64   // counting notifies: the latest record's flow
	host    []HostCall
	kernels map[any]taskRef    // kernels queued and not yet retired (AttachPipes)
	subs    map[int]func(Task) // completion listeners (Subscribe)
	nextSub int
	tasks   int
	dropped int
	epoch   int64 // wall clock (ns) mapped to device time 0
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder {
	return &Recorder{
		devs:    map[int]*devLog{},
		links:   map[flowRef]uint64{},
		pending: map[flowRef][]uint64{},
		last:    map[flowRef]uint64{},
		kernels: map[any]taskRef{},
		epoch:   time.Now().UnixNano(),
	}
}

// cur is the recorder the hooks feed (nil when off).
var cur atomic.Pointer[Recorder]

// Attach makes r the recorder the hooks feed and turns them on; nil turns
// them off. It returns the recorder that was attached before.
func Attach(r *Recorder) *Recorder {
	old := cur.Swap(r)
	on.Store(r != nil)
	return old
}

// Current returns the attached recorder, or nil.
func Current() *Recorder { return cur.Load() }

// dev returns device id's log. Precondition: r.mu held.
func (r *Recorder) dev(id int) *devLog {
	l := r.devs[id]
	if l == nil {
		l = &devLog{}
		r.devs[id] = l
	}
	return l
}

// flowID draws the next flow id of device dev: unique in the file,
// deterministic for a deterministic submission sequence.
// Precondition: r.mu held.
func (r *Recorder) flowID(l *devLog, dev int) uint64 {
	l.flows++
	return uint64(dev+1)<<40 | l.flows
}

// AddTask records t (tsfw calls it under the device's lock, in submission
// order).
func AddTask(t *Task) {
	if r := cur.Load(); r != nil {
		r.AddTask(t)
	}
}

// AddTask records t.
func (r *Recorder) AddTask(t *Task) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tasks++
	l := r.dev(t.Dev)
	l.now = max(l.now, t.Start)
	if r.tasks > MaxTasks {
		r.dropped++
		return
	}
	n := l.tasks.push(t)
	n.flowOut, n.flowIn = r.link(l, n)
}

// TaskDone records the completion of task seq of device dev: its error
// (nil: success) and, for an Ascend C kernel, its per-pipe busy cycles.
func TaskDone(dev int, seq uint64, err error, pipes []Pipe) {
	if r := cur.Load(); r != nil {
		r.TaskDone(dev, seq, err, pipes)
	}
}

// TaskDone records the completion of a task.
func (r *Recorder) TaskDone(dev int, seq uint64, err error, pipes []Pipe) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.devs[dev]
	if l == nil {
		return
	}
	t := l.tasks.bySeq(seq)
	if t == nil {
		return // queued before the recorder was attached, or dropped
	}
	if err != nil {
		t.Err = err.Error()
	}
	if len(pipes) > 0 {
		t.Pipes = append([]Pipe(nil), pipes...)
	}
	if len(r.subs) > 0 {
		for _, id := range sortedKeys(r.subs) {
			r.subs[id](*t)
		}
	}
}

// Subscribe calls fn with every task recorded from now on, when it
// completes (aclprofModelSubscribe). fn runs under the device's and the
// recorder's locks: it must only hand the task on, never block or call
// into the timeline. cancel stops the calls.
func (r *Recorder) Subscribe(fn func(Task)) (cancel func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.subs == nil {
		r.subs = map[int]func(Task){}
	}
	r.nextSub++
	id := r.nextSub
	r.subs[id] = fn
	return func() {
		r.mu.Lock()
		delete(r.subs, id)
		r.mu.Unlock()
	}
}

func sortedKeys[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// Instant records an instant event on device dev at the device time the
// host has reached (the start of the latest task queued there): injected
// faults, sanitizer reports. args values must be JSON-encodable (strings,
// numbers, booleans); keys are written sorted.
func Instant(dev int, name string, args map[string]any) {
	if r := cur.Load(); r != nil {
		r.instant(dev, -1, "instant", name, args)
	}
}

// InstantAt is Instant at device time ts.
func InstantAt(dev int, ts time.Duration, name string, args map[string]any) {
	if r := cur.Load(); r != nil {
		r.instant(dev, ts, "instant", name, args)
	}
}

func (r *Recorder) instant(dev int, ts time.Duration, cat, name string, args map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.dev(dev)
	if ts < 0 {
		ts = l.now
	}
	l.instants = append(l.instants, instant{ts: ts, name: name, cat: cat, args: args})
}

// Counter records value as the new level of counter name (e.g. "HBM in
// use") of device dev, at the device time the host has reached.
func Counter(dev int, name string, value int64) {
	if r := cur.Load(); r != nil {
		r.mu.Lock()
		l := r.dev(dev)
		l.counters = append(l.counters, counter{ts: l.now, name: name, value: value})
		r.mu.Unlock()
	}
}

// Span records an interval on track of device dev: SVM migrations
// ("SVM"), mstx ranges ("mstx <domain>").
func Span(dev int, track, cat, name string, start, end time.Duration, args map[string]any) {
	if r := cur.Load(); r != nil {
		r.mu.Lock()
		l := r.dev(dev)
		l.spans = append(l.spans, span{track: track, cat: cat, name: name, start: start, end: end, args: args})
		r.mu.Unlock()
	}
}

// Mark records an mstx mark (an instant on the "mstx <domain>" track).
func Mark(dev int, domain, msg string, ts time.Duration) {
	if r := cur.Load(); r != nil {
		r.instant(dev, ts, "mstx", msg, map[string]any{"domain": domain, "track": "mstx " + domain})
	}
}

// Host records one API call of a host thread (wall clock).
func Host(c HostCall) {
	if r := cur.Load(); r != nil {
		r.mu.Lock()
		r.host = append(r.host, c)
		r.mu.Unlock()
	}
}

// DeviceNow returns the device time the host has reached on dev in the
// attached recorder (0 when off or unknown).
func DeviceNow(dev int) time.Duration {
	r := cur.Load()
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.devs[dev]; l != nil {
		return l.now
	}
	return 0
}

// Tasks returns a copy of the tasks recorded on dev, in submission order.
func (r *Recorder) Tasks(dev int) []Task {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.devs[dev]
	if l == nil {
		return nil
	}
	out := make([]Task, l.tasks.len())
	for i := range out {
		out[i] = *l.tasks.at(i)
	}
	return out
}

// TasksSince returns the tasks of every device with Seq > after[dev] (the
// op records of a profiling window), by device then submission order.
func (r *Recorder) TasksSince(after map[int]uint64) []Task {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Task
	for _, d := range r.sortedDevs() {
		ts := &r.devs[d].tasks
		for i := 0; i < ts.len(); i++ {
			if t := ts.at(i); t.Seq > after[d] {
				out = append(out, *t)
			}
		}
	}
	return out
}

// LastSeq returns, per device, the submission number of the latest task
// recorded.
func (r *Recorder) LastSeq() map[int]uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := map[int]uint64{}
	for d, l := range r.devs {
		if n := l.tasks.len(); n > 0 {
			m[d] = l.tasks.at(n - 1).Seq
		}
	}
	return m
}

// Precondition: r.mu held.
func (r *Recorder) sortedDevs() []int {
	ds := make([]int, 0, len(r.devs))
	for d := range r.devs {
		ds = append(ds, d)
	}
	sort.Ints(ds)
	return ds
}

// link resolves the flow ids of t's Out and In.
// Precondition: r.mu held.
func (r *Recorder) link(l *devLog, t *Task) (out, in uint64) {
	if t.Out.Kind != "" {
		key := flowRef{t.Out.Kind, t.Out.Dev, t.Out.ID, t.Out.N}
		switch t.Out.Kind {
		case "notify":
			// A notify is a flag: a record while one is pending pairs
			// with no wait of its own (tsfw's pairing).
			if len(r.pending[key]) == 0 {
				out = r.flowID(l, t.Dev)
				r.pending[key] = []uint64{out}
			}
		case "cntnotify":
			out = r.flowID(l, t.Dev)
			r.last[key] = out
		default:
			out = r.flowID(l, t.Dev)
			r.links[key] = out
		}
	}
	if t.In.Kind != "" {
		key := flowRef{t.In.Kind, t.In.Dev, t.In.ID, t.In.N}
		switch t.In.Kind {
		case "notify":
			if p := r.pending[key]; len(p) > 0 {
				in = p[0]
				r.pending[key] = p[1:]
			}
		case "cntnotify":
			in = r.last[key]
		default:
			in = r.links[key]
		}
	}
	return out, in
}

// ExpandPath replaces each "%p" of name with the process id.
func ExpandPath(name string) string {
	return strings.ReplaceAll(name, "%p", strconv.Itoa(os.Getpid()))
}

type taskRef struct {
	dev int
	seq uint64
}

// pointerLike reports whether k can key a map by identity.
func pointerLike(k any) bool {
	if k == nil {
		return false
	}
	switch reflect.TypeOf(k).Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Chan:
		return true
	}
	return false
}

// Launched notes that kernel k (a tsfw.Kernel, by identity) was queued as
// task seq of device dev, so that AttachPipes can find the task.
func Launched(k any, dev int, seq uint64) {
	if r := cur.Load(); r != nil && pointerLike(k) {
		r.mu.Lock()
		r.kernels[k] = taskRef{dev, seq}
		r.mu.Unlock()
	}
}

// Retired forgets kernel k once task seq has completed.
func Retired(k any, seq uint64) {
	if r := cur.Load(); r != nil && pointerLike(k) {
		r.mu.Lock()
		if ref, ok := r.kernels[k]; ok && ref.seq == seq {
			delete(r.kernels, k)
		}
		r.mu.Unlock()
	}
}

// AttachPipes attaches the per-pipe busy cycles of one kernel launch to
// its task. k is the tsfw.Kernel value the launch was queued with (for an
// ACL launch, the *acl.launch); call it before the task completes — from
// the kernel's RunBlock or Done, before Done recycles k. Cycles of several
// calls for the same pipe add up (one call per block is fine). It does
// nothing when the timeline is off or k is not a queued kernel.
func AttachPipes(k any, pipes []Pipe) {
	r := cur.Load()
	if r == nil || !pointerLike(k) || len(pipes) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, ok := r.kernels[k]
	if !ok {
		return
	}
	l := r.devs[ref.dev]
	if l == nil {
		return
	}
	t := l.tasks.bySeq(ref.seq)
	if t == nil {
		return
	}
next:
	for _, p := range pipes {
		for j := range t.Pipes {
			if t.Pipes[j].Name == p.Name {
				t.Pipes[j].Cycles += p.Cycles
				continue next
			}
		}
		t.Pipes = append(t.Pipes, p)
	}
	sort.Slice(t.Pipes, func(i, j int) bool { return t.Pipes[i].Name < t.Pipes[j].Name })
}
