package tsfw

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/timeline"
)

// Config describes one device's task scheduler.
type Config struct {
	Name        string    // "dev0", for messages
	SDMAEngines int       // copy/memset engines that run concurrently (0: 1)
	QueueDepth  int       // RTSQ ring entries per stream (0: 1024)
	MaxEvents   int       // event-id pool size (0: 65536)
	MaxNotifies int       // notify-id pool size, plain and counting (0: 65535)
	Cost        CostModel // zero fields take DefaultCost's
	Pacing      float64   // 0: as fast as possible; 1: wall clock follows virtual time
	CubeCores   int       // AI Core cube pool (0: 1)
	VectorCores int       // AI Core vector pool (0: vector kernels share the cube pool)
	HostThreads int       // lanes one kernel's blocks run on at most (0: HostThreads(), threads.go)

	// OnBusy, when set, is told the busy time tasks will add to an
	// engine and a virtual end (utilization counters and device clock
	// of a shared node): kernels in core-nanoseconds (blocks × block
	// cost) on BusyCube or BusyVector, copies and memsets on BusySDMA.
	// Each queue sums its tasks' busy time and reports it at most
	// busyLag of device time late, and when it is destroyed or the
	// device closed (busy.go); every task's stamp tells its end (busy
	// 0 when nothing is due). Called where the task is stamped: under
	// the device's submission lock, or under the queue's inbox lock for
	// a kernel launched into a busy stream (inbox.go), so calls for
	// different streams may run at once: it must be safe for concurrent
	// use, and must not block or call back.
	OnBusy func(engine BusyEngine, busy, end time.Duration)

	// Cores, when set, shares the AI Cores with kernels outside this
	// Device (share.go); nil: the Device has them alone.
	Cores CoreArbiter
}

// BusyEngine names the engine of an OnBusy report.
type BusyEngine uint8

// Engines of OnBusy.
const (
	BusyCube BusyEngine = iota
	BusyVector
	BusySDMA
)

// Priority levels of a queue: 0 is the highest.
const (
	PriorityGreatest = 0
	PriorityLeast    = 7
	numPriorities    = PriorityLeast + 1
)

const (
	defaultQueueDepth = 1024
	defaultMaxEvents  = 65536
	initialRing       = 16
	// spinRounds bounds the busy phase of waits and idle engines: each
	// round is one runtime.Gosched (~0.1–0.5 µs here), so a few µs in all.
	spinRounds = 32
)

// Device is the task scheduler of one device: its queues, SDMA engines,
// event pool and virtual clock.
type Device struct {
	cfg   Config
	cost  CostModel
	epoch time.Time // wall-clock origin of virtual time, for pacing

	// probe stands in for probeRunner in tests (residency.go); set before
	// the first kernel.
	probe func(tid int32, withSleep bool) runnerState
	// yieldHook stands in for runtime.Gosched in tests (turn.go); set
	// before the first kernel.
	yieldHook func()

	vHost atomic.Int64  // virtual time the host has observed (syncs, sync copies)
	seq   atomic.Uint64 // submission order of tasks (stamp), across queues

	doorbell chan struct{} // kicks the scheduler goroutine (cross-device waits, pacing)
	quit     chan struct{}
	wg       sync.WaitGroup
	// sched is the scheduler goroutine's state (schedIdle, schedRunning,
	// schedClosed): it starts with the first kick, so a device that is
	// never kicked from outside starts none; schedDone closes when a
	// started one returns.
	sched     atomic.Int32
	schedDone chan struct{}

	mu sync.Mutex
	// now is the virtual end of the latest completed task: written at
	// every completion, mostly under mu, so here with what mu guards,
	// not beside vHost, which every stamp reads.
	now atomic.Int64
	// Guarded by mu.
	queues     []*Queue
	active     [numPriorities][]*Queue // queues holding tasks, per priority
	engines    []*engine
	free       []*engine       // idle engines (LIFO: the last freed is still warm)
	sdmaFree   []time.Duration // virtual time each SDMA timeline becomes free
	nextQID    int
	inflight   int // tasks running on engines or host goroutines
	closing    bool
	closed     bool
	wdOn       bool         // the watchdog runs (watchdog.go)
	busy       atomic.Int32 // active queues + abandoned kernels: 0 is an idle device (Mark's fast path)
	closeStart time.Time    // when Close began (watchdog.go)
	space      sync.Cond    // a ring slot freed, or a queue/device went away
	idle       sync.Cond    // a task completed while closing
	scratch    []*Queue
	shortHeads int // kernels newHead dispatched without a pass (short.go; tests)
	paceT      *time.Timer
	paceOn     bool
	paceAt     time.Time

	tlID int // timeline device number (traceID), fixed at NewDevice: stamp reads it without mu (trace.go)

	aic aicore     // AI Core pools and block workers (aicore.go)
	vw  memWatch   // wakes value waits on memory changes (builtin.go)
	nf  notifyPool // notify ids (notify.go)

	evMu sync.Mutex
	// Guarded by evMu.
	evFree  []int32
	evNext  int32
	evLive  int
	evOther int32 // ids handed to unpooled events
}

type engine struct {
	id      int
	ch      chan struct{}
	started bool // its goroutine runs: started with its first job (Device.mu)
	job     job  // written under Device.mu before the send on ch
}

type job struct {
	q *Queue
	t Task
}

// NewDevice starts the scheduler and SDMA engine goroutines of one device.
func NewDevice(cfg Config) *Device {
	if cfg.SDMAEngines <= 0 {
		cfg.SDMAEngines = 1
	}
	if cfg.QueueDepth <= 0 {
		cfg.QueueDepth = defaultQueueDepth
	}
	if cfg.MaxEvents <= 0 {
		cfg.MaxEvents = defaultMaxEvents
	}
	if cfg.Pacing < 0 {
		cfg.Pacing = 0
	}
	if cfg.CubeCores <= 0 {
		cfg.CubeCores = 1
	}
	cfg.VectorCores = max(cfg.VectorCores, 0)
	if cfg.HostThreads <= 0 {
		cfg.HostThreads = HostThreads()
	}
	if cfg.Name == "" {
		cfg.Name = "dev"
	}
	d := &Device{
		cfg:       cfg,
		cost:      cfg.Cost.withDefaults(),
		epoch:     time.Now(),
		doorbell:  make(chan struct{}, 1),
		quit:      make(chan struct{}),
		schedDone: make(chan struct{}),
		sdmaFree:  make([]time.Duration, cfg.SDMAEngines),
	}
	d.space.L = &d.mu
	d.idle.L = &d.mu
	d.tlID = d.traceID()
	d.aic.init(cfg)
	d.cost.cubeCores, d.cost.vectorCores = cfg.CubeCores, cfg.VectorCores
	// An engine's goroutine starts with its first job (dispatch): a
	// process that never queues a copy starts none, one that copies
	// serially one (the free list is last in, first out).
	for i := range cfg.SDMAEngines {
		e := &engine{id: i, ch: make(chan struct{}, 1)}
		d.engines = append(d.engines, e)
		d.free = append(d.free, e)
	}
	return d
}

// Name returns the configured device name.
func (d *Device) Name() string { return d.cfg.Name }

// Config returns the configuration with defaults applied.
func (d *Device) Config() Config {
	c := d.cfg
	c.Cost = d.cost
	return c
}

// Now returns the device's virtual clock: the virtual end of the latest
// completed task.
func (d *Device) Now() time.Duration { return time.Duration(d.now.Load()) }

func atomicMax(a *atomic.Int64, v time.Duration) {
	for {
		old := a.Load()
		if int64(v) <= old || a.CompareAndSwap(old, int64(v)) {
			return
		}
	}
}

// poll calls ready until it reports true or about limit has passed, and
// returns its last answer; it reads the clock every 64 calls. Launching
// threads (C threads' goroutines) and lanes are locked to their OS
// threads, and for a locked goroutine runtime.Gosched, like parking, is a
// hand-off of the thread (futex wake-ups both ways); so once it has polled
// yieldAfter, poll yields the OS thread instead at each clock reading
// (sched_yield: back at once on an idle CPU; on a busy one it lets another
// runnable thread in, maybe the one being waited for). Not before: a
// system call costs more here than most waits last.
func poll(limit time.Duration, ready func() bool) bool {
	var start time.Time
	for i := 1; ; i++ {
		if ready() {
			return true
		}
		if i&63 == 0 {
			now := time.Now()
			if start.IsZero() {
				start = now
				continue
			}
			waited := now.Sub(start)
			if waited > limit {
				return ready()
			}
			if waited > yieldAfter {
				syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
			}
		}
	}
}

// yieldAfter is how long poll polls before it starts yielding.
const yieldAfter = 5 * time.Microsecond

// The scheduler goroutine's states (Device.sched).
const (
	schedIdle    = iota // not started
	schedRunning        // started; Close waits for schedDone
	schedClosed         // Close has run: none starts
)

// kick makes the scheduler goroutine run an arbitration pass, starting it
// on the first kick. It never blocks, so it may be called with any lock
// held.
func (d *Device) kick() {
	if d.sched.Load() == schedIdle && d.sched.CompareAndSwap(schedIdle, schedRunning) {
		go d.schedulerLoop()
	}
	select {
	case d.doorbell <- struct{}{}:
	default:
	}
}

func (d *Device) schedulerLoop() {
	defer close(d.schedDone)
	for {
		select {
		case <-d.doorbell:
			d.mu.Lock()
			d.schedule()
			d.mu.Unlock()
		case <-d.quit:
			return
		}
	}
}

// engineLoop runs the tasks handed to one SDMA engine.
func (d *Device) engineLoop(e *engine) {
	defer d.wg.Done()
	// A copy from a bad address becomes an asynchronous task error instead
	// of killing the process.
	debug.SetPanicOnFault(true)
	for {
		got := false
		for range spinRounds {
			select {
			case <-e.ch:
				got = true
			default:
				runtime.Gosched()
				continue
			}
			break
		}
		if !got {
			select {
			case <-e.ch:
			case <-d.quit:
				return
			}
		}
		// The send on e.ch published e.job; nobody writes it again until
		// the engine is back on the free list.
		j := &e.job
		err := runEngineTask(&j.t)
		d.pace(j.t.vEnd)
		d.mu.Lock()
		q := j.q
		e.job = job{}
		d.free = append(d.free, e)
		d.inflight--
		d.complete(q, err)
		d.schedule()
		d.mu.Unlock()
	}
}

// runEngineTask executes a copy, memset or engine function.
func runEngineTask(t *Task) (err error) {
	if engineGate != nil { // the sanitizer's page tracking (gate.go)
		engineGate.Enter()
		defer engineGate.Leave()
	}
	defer func() {
		if r := recover(); r != nil {
			err = abi.DevErrorf(abi.DevSDMAError, "%s task (dst %#x, src %#x, %d bytes) faulted: %v", t.kind, t.dst, t.src, t.n, r)
		}
	}()
	switch t.kind {
	case kindCopy:
		memmove(t.dst, t.src, t.n)
	case kindCopy2D:
		for i := range t.height {
			memmove(t.dst+uintptr(i*t.dpitch), t.src+uintptr(i*t.spitch), t.n)
		}
	case kindMemset:
		memset(t.dst, t.value, t.n)
	case kindEngine:
		return t.fn()
	}
	return nil
}

func (d *Device) runHost(q *Queue, t Task) {
	defer d.wg.Done()
	err := callHost(t.fn)
	d.pace(t.vEnd)
	d.mu.Lock()
	d.inflight--
	d.complete(q, err)
	d.schedule()
	d.mu.Unlock()
}

func callHost(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = abi.DevErrorf(abi.DevInternal, "host task panicked: %v", r)
		}
	}()
	return fn()
}

// due returns the wall-clock time at which a task ending at virtual time v
// may complete under pacing.
func (d *Device) due(v time.Duration) time.Time {
	return d.epoch.Add(time.Duration(float64(v) / d.cfg.Pacing))
}

// pace sleeps until the task ending at virtual time v may complete.
// Precondition: d.mu not held.
func (d *Device) pace(v time.Duration) {
	if d.cfg.Pacing <= 0 {
		return
	}
	if w := time.Until(d.due(v)); w > 0 {
		time.Sleep(w)
	}
}

// paceReady reports whether an inline task ending at v may complete now;
// if not, it arms a timer that kicks the scheduler when it may.
// Precondition: d.mu held.
func (d *Device) paceReady(v time.Duration) bool {
	if d.cfg.Pacing <= 0 {
		return true
	}
	at := d.due(v)
	w := time.Until(at)
	if w <= 0 {
		return true
	}
	if !d.paceOn || at.Before(d.paceAt) {
		if d.paceT == nil {
			d.paceT = time.AfterFunc(w, d.paceFired)
		} else {
			d.paceT.Reset(w)
		}
		d.paceOn, d.paceAt = true, at
	}
	return false
}

func (d *Device) paceFired() {
	d.mu.Lock()
	d.paceOn = false
	d.mu.Unlock()
	d.kick()
}

// schedule is the arbiter: it runs every task that can run now, taking
// queues in strict priority order (0 first) and, within one priority, in
// the submission order of their head tasks. Event tasks complete inline;
// copies go to free SDMA engines; host tasks to a new runtime goroutine.
// After any inline completion the pass restarts from the highest priority,
// since the completion may have exposed a more urgent head.
// Precondition: d.mu held.
func (d *Device) schedule() {
	if d.busy.Load() == 0 && shortOK() {
		return // no active queue: a pass would look at nothing (short.go)
	}
	for d.schedulePass() {
	}
}

// schedulePass reports whether a task completed inline.
func (d *Device) schedulePass() bool {
	for p := range d.active {
		if len(d.active[p]) == 0 {
			continue
		}
		if l := d.active[p]; len(l) == 1 {
			if q := l[0]; !q.inflight && d.dispatch(q) {
				return true
			}
			continue
		}
		cands := d.scratch[:0]
		for _, q := range d.active[p] {
			if !q.inflight {
				cands = append(cands, q)
			}
		}
		// Insertion sort by head submission order: the lists are short.
		for i := 1; i < len(cands); i++ {
			for j := i; j > 0 && cands[j].headSeq() < cands[j-1].headSeq(); j-- {
				cands[j], cands[j-1] = cands[j-1], cands[j]
			}
		}
		progressed := false
		for _, q := range cands {
			if d.dispatch(q) {
				progressed = true
				break
			}
		}
		clear(cands)
		d.scratch = cands[:0]
		if progressed {
			return true
		}
	}
	return false
}

// dispatch starts or completes q's head task if it is ready; it reports
// whether the task completed inline.
// Precondition: d.mu held, q has a head task and none in flight.
func (d *Device) dispatch(q *Queue) bool {
	t := &q.ring[q.head]
	switch t.kind {
	case kindCopy, kindCopy2D, kindMemset, kindEngine:
		if len(d.free) == 0 {
			return false
		}
		e := d.free[len(d.free)-1]
		d.free = d.free[:len(d.free)-1]
		e.job = job{q: q, t: *t}
		q.inflight = true
		d.inflight++
		if !e.started {
			e.started = true
			d.wg.Add(1)
			go d.engineLoop(e)
		}
		e.ch <- struct{}{} // buffered and empty: the engine was idle
		return false
	case kindHost:
		q.inflight = true
		d.inflight++
		d.wg.Add(1)
		go d.runHost(q, *t)
		return false
	case kindKernel:
		if q.helping.Load() == 0 { // else the waiting submitter starts it (spinSpace)
			d.dispatchKernel(q, t, false)
		}
		return false
	case kindRecord:
		if !d.paceReady(t.vEnd) {
			return false
		}
		t.ev.complete(t.recSeq, t.vEnd, d)
	case kindWait:
		if !t.ev.waitDone(t.recSeq, d) {
			done, err := d.waitExpired(t)
			if done {
				d.complete(q, err)
			}
			return done
		}
		if !d.paceReady(t.vEnd) {
			return false
		}
	case kindNotifyRecord, kindNotifyWait, kindCntRecord, kindCntWait, kindCntReset, kindWaitDone:
		done, err := d.dispatchSignal(t)
		if done {
			d.complete(q, err)
		}
		return done
	case kindReset:
		if !d.paceReady(t.vEnd) {
			return false
		}
		t.ev.reset()
	}
	d.complete(q, nil)
	return true
}

// complete retires q's head task. completeChain (chain.go) is its body
// for several tasks at once, kept apart: complete is on every kernel's
// path, and one function for both cost a launch + synchronize ~30
// instructions (a loop and a call more). Keep the two in step.
// Precondition: d.mu held.
func (d *Device) complete(q *Queue, err error) {
	if err != nil && d.deferReport(q, err) {
		return // completed by the report goroutine (builtin_ctl.go)
	}
	t := &q.ring[q.head]
	if timeline.Enabled() {
		d.traceDone(t, err)
	}
	atomicMax(&d.now, t.vEnd)
	*t = Task{}
	q.head++
	if q.head == len(q.ring) {
		q.head = 0
	}
	q.count--
	q.inflight = false
	q.cancelled = false
	if err != nil && q.err == nil {
		q.err = err
		q.hasErr.Store(true)
	}
	q.completed.Add(1)
	q.pull() // the launches queued meanwhile (inbox.go)
	q.wakeWaiters()
	if q.count == 0 {
		d.deactivate(q)
	}
	if q.blocked > 0 {
		d.space.Broadcast()
	}
	if d.closing {
		d.idle.Broadcast()
	}
	d.memChanged()
}

// deactivate removes an empty queue from the arbiter's lists.
// Precondition: d.mu held.
func (d *Device) deactivate(q *Queue) {
	if !q.active {
		return
	}
	l := d.active[q.prio]
	for i, x := range l {
		if x == q {
			if i < len(l)-1 { // (the common last one moves nothing: no barriered copy)
				copy(l[i:], l[i+1:])
			}
			l[len(l)-1] = nil
			d.active[q.prio] = l[:len(l)-1]
			break
		}
	}
	q.active = false
	d.busy.Add(-1)
	if q.destroyed {
		q.ring = nil
	}
}

// earliestSDMA returns the SDMA timeline that frees first (lowest index on
// ties), so the choice depends on the submission sequence only.
// Precondition: d.mu held.
func (d *Device) earliestSDMA() int {
	k := 0
	for i, f := range d.sdmaFree {
		if f < d.sdmaFree[k] {
			k = i
		}
	}
	return k
}

// NewQueue creates one RTSQ. priority must be in 0 (highest) … 7 (lowest).
func (d *Device) NewQueue(priority int) (*Queue, error) {
	if priority < PriorityGreatest || priority > PriorityLeast {
		return nil, abi.DevErrorf(abi.DevInvalidValue, "%s: queue priority %d outside %d..%d", d.cfg.Name, priority, PriorityGreatest, PriorityLeast)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closing {
		return nil, abi.DevErrorf(abi.DevTaskAbort, "%s: device is closed", d.cfg.Name)
	}
	q := &Queue{d: d, prio: priority, id: d.nextQID, depth: d.cfg.QueueDepth}
	d.nextQID++
	d.queues = append(d.queues, q)
	return q, nil
}

// Synchronize waits until every task submitted to any queue of the device
// before the call has completed, and returns (and clears) the first
// asynchronous task error found. timeout < 0 waits forever; on expiry it
// returns ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
func (d *Device) Synchronize(timeout time.Duration) error { return d.SynchronizeTurn(timeout, nil) }

// SynchronizeTurn is Synchronize for a host thread with its scheduling
// tick tk (Queue.SynchronizeTurn).
func (d *Device) SynchronizeTurn(timeout time.Duration, tk *Turn) error {
	d.mu.Lock()
	qs := make([]*Queue, len(d.queues))
	targets := make([]uint64, len(d.queues))
	copy(qs, d.queues)
	for i, q := range qs {
		targets[i] = q.submitted.Load()
	}
	d.mu.Unlock()
	var deadline time.Time
	if timeout >= 0 {
		deadline = time.Now().Add(timeout)
	}
	for i, q := range qs {
		if !q.waitFor(targets[i], timeout < 0, deadline, tk) {
			return abi.DevErrorf(abi.DevStreamTimeout, "%s: device synchronize timed out after %v", d.cfg.Name, timeout)
		}
	}
	var first error
	for _, q := range qs {
		if err := q.takeErr(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// syncCharge reserves an SDMA timeline for a synchronous operation issued
// by the host now and returns its virtual end.
// t is the operation, nil for a charge (ChargeNow), for the timeline.
func (d *Device) syncCharge(cost time.Duration, t *Task) (time.Duration, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closing {
		return 0, abi.DevErrorf(abi.DevTaskAbort, "%s: device is closed", d.cfg.Name)
	}
	k := d.earliestSDMA()
	start := max(d.sdmaFree[k], time.Duration(d.vHost.Load()))
	end := start + cost
	d.sdmaFree[k] = end
	if timeline.Enabled() {
		d.traceSync(t, k, start, end)
	}
	return end, nil
}

func (d *Device) syncDone(end time.Duration) {
	d.memChanged() // a synchronous write may satisfy a value wait
	d.pace(end)
	atomicMax(&d.vHost, end)
	atomicMax(&d.now, end)
}

// CopyNow copies n bytes on the calling goroutine (aclrtMemcpy): it does
// not wait for queued tasks, and it occupies an SDMA timeline of the
// virtual clock for the copy's cost.
func (d *Device) CopyNow(dst, src uintptr, n uint64, dir CopyDir) error {
	t := CopyTask(dst, src, n, dir)
	return d.runNow(&t)
}

// MemsetNow fills n bytes at dst with value on the calling goroutine
// (aclrtMemset), charged like CopyNow.
func (d *Device) MemsetNow(dst uintptr, value byte, n uint64) error {
	t := MemsetTask(dst, value, n)
	return d.runNow(&t)
}

func (d *Device) runNow(t *Task) error {
	if err := t.validate(); err != nil {
		return err
	}
	end, err := d.syncCharge(d.cost.cost(t), t)
	if err != nil {
		return err
	}
	old := debug.SetPanicOnFault(true)
	err = runEngineTask(t)
	debug.SetPanicOnFault(old)
	d.syncDone(end)
	return err
}

// Close drains the device and stops its goroutines. Tasks that can still
// run are run; once nothing is in flight and no head can start (e.g. a wait
// for an event of another device that will never be recorded), the rest
// are dropped. Later calls fail with ACL_ERROR_RT_DEVICE_TASK_ABORT.
func (d *Device) Close() {
	d.mu.Lock()
	if d.closing {
		d.mu.Unlock()
		return
	}
	d.closing = true
	d.closeStart = time.Now()
	for _, q := range d.queues {
		q.closeInbox()
		q.cancelWait() // value waits and callbacks would never return
	}
	for {
		d.schedule()
		if d.pending() == 0 {
			break
		}
		if d.inflight == 0 && !d.paceOn {
			for _, q := range d.queues {
				q.drop()
			}
			break
		}
		// Only while Close waits: abandons kernels that outlive
		// closeGrace (watchdog.go). A device closed idle starts none.
		d.startWatchdog()
		d.idle.Wait()
	}
	d.closed = true
	for _, q := range d.queues {
		q.destroyed = true
		q.reportHeld() // busy.go
	}
	d.queues = nil
	if d.paceT != nil {
		d.paceT.Stop()
	}
	d.space.Broadcast()
	close(d.quit)
	d.mu.Unlock()
	d.wg.Wait()
	if d.sched.Swap(schedClosed) == schedRunning {
		<-d.schedDone
	}
}

// pending counts the tasks still queued on the device.
// Precondition: d.mu held.
func (d *Device) pending() int {
	n := 0
	for _, l := range d.active {
		for _, q := range l {
			n += q.count
		}
	}
	return n
}

func (d *Device) String() string { return fmt.Sprintf("tsfw.Device(%s)", d.cfg.Name) }
