package tsfw

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
)

// The AI Core engine. A kernel task has Blocks blocks of one CoreKind; the
// device has a cube pool and a vector pool of cores (Config.CubeCores,
// Config.VectorCores). When a kernel reaches the head of its queue the
// arbiter gives it as many free cores as it can use at once (its width:
// Blocks, capped by the pool and by KernelSpec.MaxCores; a batch kernel
// waits until its whole width is free, a normal one starts with any free
// core). The granted cores are run by lanes, at most Config.HostThreads of
// them (threads.go; watchResidency adds the rest if the blocks are stuck,
// residency.go):
// worker goroutines that take the next block number from a shared counter
// until none is left, so the blocks run in waves, really in parallel. Kernels
// of other queues start whenever cores are free and wait when not. The last
// lane to finish returns the cores and completes the task. A thread waiting
// for a queue may run the queue's kernel in place of a lane that has not
// woken yet (HelpQueue).
//
// Virtual time does not depend on how many cores happened to be free: a
// kernel lasts waves × BlockCost, where waves = ceil(Blocks / width) and
// width uses the whole pool (capped by MaxCores), so durations are
// deterministic. Contention between queues is real on the host but not
// charged on the virtual clock.
//
// A block that fails (a fault, a trap, a panic of a Go kernel) makes the
// task fail with its error, normally ACL_ERROR_RT_AICORE_EXCEPTION; the
// lanes start no further block once one has failed. A Timeout is checked
// against the wall-clock run time when the kernel ends (host code cannot
// be interrupted safely): a kernel that ran longer fails with
// ACL_ERROR_RT_AICORE_TIMEOUT.

// CoreKind is the kind of AI Core a kernel's blocks run on.
type CoreKind uint8

// Core kinds. On a SoC without a vector pool (VectorCores 0) vector
// kernels run on the cube pool, whose AI Cores carry the vector units, and
// a mix block takes one cube core only.
const (
	CoreCube   CoreKind = iota // AI Core (cube) kernels: one cube core per block
	CoreVector                 // vector kernels: one vector core per block
	CoreMix                    // mix kernels: one cube core + MixVector vector cores per block
)

func (k CoreKind) String() string {
	switch k {
	case CoreCube:
		return "cube"
	case CoreVector:
		return "vector"
	case CoreMix:
		return "mix"
	}
	return fmt.Sprintf("CoreKind(%d)", int(k))
}

// MaxBlocks is the largest blockDim a kernel task accepts.
const MaxBlocks = 65535

// defaultMixVector is the vector cores per mix block when the spec says 0
// (the 1:2 cube:vector ratio of the Atlas A2/A3 AI Core).
const defaultMixVector = 2

// Kernel is the host code of a kernel task's blocks.
type Kernel interface {
	// RunBlock runs block number block of blocks; it is called from
	// several goroutines at once. An error fails the task.
	RunBlock(block, blocks uint32) error
	// Done is called once, after the last block has returned, with the
	// task's error so far (nil when every block succeeded); its result
	// becomes the task's error.
	Done(err error) error
}

// KernelSpec is the geometry, resource and cost description of a kernel
// task.
type KernelSpec struct {
	Blocks    uint32        // blockDim, 1..MaxBlocks
	Kind      CoreKind      // pool(s) the blocks run on
	MixVector uint32        // mix kernels: vector cores per block (0: 2)
	BlockCost time.Duration // virtual duration of one block on one core
	MaxCores  uint32        // at most this many blocks at once (0: the pool); resource limits
	Batch     bool          // start only when the whole width is free (schedule mode 1)
	Timeout   time.Duration // wall-clock limit checked at the end (0: none)
	Resident  bool          // a host lane per granted core from the start (blocks wait for each other), not HostThreads
}

// KernelTask runs k's blocks on the AI Cores when the stream reaches it.
func KernelTask(k Kernel, spec KernelSpec) Task {
	return Task{kind: kindKernel, kern: k, ks: spec}
}

// ResetKernel makes *t KernelTask(k, *spec) in place: the composite
// form builds the Task in a temporary and copies it over (~85
// instructions of a launch loop's launch; a slot of a run is reused, so
// it must be cleared whole).
func (t *Task) ResetKernel(k Kernel, spec *KernelSpec) {
	*t = Task{}
	*t.SetKernel(k) = *spec
}

// SetKernel makes t (a zero Task) KernelTask(k, spec) and returns its
// spec for the caller to fill in place: a launch's description is then
// written once, not built and copied twice (launch + synchronize's path).
func (t *Task) SetKernel(k Kernel) *KernelSpec {
	t.kind, t.kern = kindKernel, k
	return &t.ks
}

func (s *KernelSpec) validate(k Kernel) error {
	switch {
	case k == nil:
		return abi.DevErrorf(abi.DevInvalidValue, "kernel task: nil kernel")
	case s.Blocks == 0 || s.Blocks > MaxBlocks:
		return abi.DevErrorf(abi.DevInvalidValue, "kernel task: %d blocks: want 1..%d", s.Blocks, MaxBlocks)
	case s.Kind > CoreMix:
		return abi.DevErrorf(abi.DevInvalidValue, "kernel task: invalid core kind %d", int(s.Kind))
	case s.BlockCost < 0 || s.Timeout < 0:
		return abi.DevErrorf(abi.DevInvalidValue, "kernel task: negative block cost or timeout")
	}
	return nil
}

// need returns the cube and vector cores one block takes on a device with
// the given vector pool.
func (s *KernelSpec) need(vectorCores int) (cube, vector int) {
	shared := vectorCores == 0
	switch s.Kind {
	case CoreVector:
		if shared {
			return 1, 0
		}
		return 0, 1
	case CoreMix:
		if shared {
			return 1, 0
		}
		mv := int(s.MixVector)
		if mv == 0 {
			mv = defaultMixVector
		}
		return 1, mv
	}
	return 1, 0
}

// width is how many blocks run at once when avail cube/vector cores are
// free: capped by Blocks and MaxCores; 0 when not even one block fits.
func (s *KernelSpec) width(cube, vector, availCube, availVector int) int {
	w := int(s.Blocks)
	if s.MaxCores > 0 {
		w = min(w, int(s.MaxCores))
	}
	if cube > 0 {
		w = min(w, availCube/cube)
	}
	if vector > 0 {
		w = min(w, availVector/vector)
	}
	return max(w, 0)
}

// duration is the virtual duration of the kernel on pools of the given
// sizes: waves × BlockCost.
func (s *KernelSpec) duration(cubeCores, vectorCores int) time.Duration {
	c, v := s.need(vectorCores)
	w := s.width(c, v, cubeCores, vectorCores)
	if w == 0 {
		// The pool cannot hold one block (a mix ratio above the vector
		// pool): the kernel runs one block at a time, see dispatchKernel.
		w = 1
	}
	waves := (int(s.Blocks) + w - 1) / w
	return time.Duration(waves) * s.BlockCost
}

// aicore is the AI Core state of a Device.
type aicore struct {
	cubeCores, vectorCores int
	threads                int // host lanes per kernel at most (Config.HostThreads)
	// Guarded by Device.mu.
	freeCube, freeVector int
	idle                 []*lane // parked lane workers (LIFO: the last freed is warm)
	lanes                int     // lane workers started
	runs                 []*krun // recycled run states
	running              []*krun // kernels on the cores
	abandoned            []*krun // kernels failed by the watchdog whose blocks have not returned (watchdog.go)
}

func (a *aicore) init(cfg Config) {
	a.cubeCores, a.vectorCores = cfg.CubeCores, cfg.VectorCores
	a.threads = max(cfg.HostThreads, 1)
	a.freeCube, a.freeVector = a.cubeCores, a.vectorCores
}

// lane is one worker goroutine standing for a granted core. A kernel is
// handed to it by setting run, then token, then kicking wake; whoever
// clears token first runs the kernel: the lane, or a thread waiting for
// the kernel's queue (HelpQueue). The token is apart from the wake-up so
// that a parked lane's kernel can still be taken: a send on a channel a
// goroutine waits on goes to that goroutine.
//
// An idle lane spins for a while (laneSpin) before it parks, and says when
// it parks: a kernel handed to a spinning lane costs one atomic store, not
// a futex wake-up and a thread switch, so a launch loop keeps its lane
// awake. The spin is bounded because on a host with few CPUs a spinning
// lane takes a CPU the launcher or another lane may need.
type lane struct {
	token  atomic.Bool
	parked atomic.Bool   // set before the lane blocks on wake (see kick)
	solo   atomic.Bool   // run has this lane alone (krun.solo); stored before token
	wake   chan struct{} // buffered 1; a kick may be stale
	run    *krun         // written under Device.mu before token is set
	owed   atomic.Bool   // the lane still owes Device.wg its Done (watchdog.go)
	turn   Turn          // its goroutine's scheduling tick (turn.go)
	_      [16]byte      // a cache line per lane: idle lanes poll token
}

// laneSpin bounds the wall time an idle lane polls its token before it
// parks: a few times the gap between two launches of a launch loop, well
// under the tens of µs a futex wake-up costs here.
const laneSpin = 20 * time.Microsecond

// kick hands l its next kernel (l.run is set): the token, then a wake-up
// only if the lane is parked. parked is stored before the lane's last look
// at its token and token before kick reads parked (sequentially consistent
// atomics), so either the lane sees the token or kick sees it parked.
func (l *lane) kick() {
	l.token.Store(true)
	if l.parked.Load() {
		select {
		case l.wake <- struct{}{}:
		default: // a kick is pending already
		}
	}
}

// krun is the shared state of one running kernel task. It holds what the
// lanes need of the task rather than a copy of it: the 224-byte descriptor
// would be read, copied and cleared again on the lane's side.
type krun struct {
	q      *Queue
	kern   Kernel
	ks     KernelSpec
	vEnd   time.Duration // the task's virtual end
	cube   int           // cores taken from each pool
	vector int
	start  time.Time
	lanes  []*lane       // the host lanes handed the kernel; guarded by Device.mu
	solo   bool          // one host lane (laneGrace)
	alone  bool          // one lane on one granted core: next, ended and left unused (short.go)
	extra  int           // granted cores without a lane yet (watchResidency); guarded by Device.mu
	ended  atomic.Uint32 // blocks that have returned

	next   atomic.Uint32 // next block number to run
	left   atomic.Int32  // lanes still running
	failed atomic.Bool
	errMu  sync.Mutex
	err    error // first block error; guarded by errMu

	abandoned atomic.Bool   // failed by the watchdog while its blocks ran (watchdog.go)
	gen       atomic.Uint64 // moves on when the run is recycled (Mark)
	watched   bool          // a Mark or watchResidency holds gen; guarded by Device.mu

	// The threads running the blocks of a kernel watchResidency watches
	// (residency.go): register is set at dispatch, before a lane is
	// handed r, and tells its runners to enter themselves in runners.
	register bool
	nrunner  atomic.Int32
	runners  [maxRunners]atomic.Int32 // OS thread ids; 0: a free slot

	batch [maxBatch]Kernel // a chain's batch (runChained)
}

// dispatchKernel starts q's head kernel on free cores, or leaves it queued
// until a completion frees enough of them.
// Precondition: d.mu held, t is q's head task and q has none in flight.
//
// With self set the caller takes the first granted core itself: that lane
// is not kicked and is returned, for the caller to run with runAsLane once
// it has released d.mu (nil when the kernel did not start).
func (d *Device) dispatchKernel(q *Queue, t *Task, self bool) *lane {
	a := &d.aic
	ks := &t.ks
	c, v := ks.need(a.vectorCores)
	full := ks.width(c, v, a.cubeCores, a.vectorCores)
	n := ks.width(c, v, a.freeCube, a.freeVector)
	if full == 0 {
		// More vector cores per block than the pool has: run one block at
		// a time on whatever the pool holds once it is entirely free.
		if a.freeCube < a.cubeCores || a.freeVector < a.vectorCores {
			return nil
		}
		n, c, v = 1, min(c, a.cubeCores), min(v, a.vectorCores)
	}
	if n == 0 || (ks.Batch && n < full) {
		return nil
	}
	var r *krun
	if k := len(a.runs); k > 0 {
		r = a.runs[k-1]
		a.runs = a.runs[:k-1]
	} else {
		r = new(krun)
	}
	r.q, r.kern, r.ks, r.vEnd, r.cube, r.vector = q, t.kern, t.ks, t.vEnd, n*c, n*v
	// n cores are granted on the virtual clock; at most a.threads host
	// lanes run the blocks (threads.go).
	h := n
	if !ks.Resident {
		h = min(n, a.threads)
	}
	r.solo = h == 1
	// A run alone on its core never shares its blocks: no lane joins it
	// (watchResidency is for granted cores without a lane), so it needs
	// no block counter, ended count or lane count (short.go).
	r.alone = h == 1 && n == 1 && shortOK()
	if !r.alone {
		r.next.Store(0)
		r.ended.Store(0)
		r.left.Store(int32(h))
	}
	if r.failed.Load() { // a store is an exchange: skip it when already clear
		r.failed.Store(false)
	}
	r.err = nil
	if ks.Timeout > 0 {
		r.start = time.Now()
		d.startWatchdog()
	}
	a.freeCube -= r.cube
	a.freeVector -= r.vector
	a.running = append(a.running, r)
	r.lanes = r.lanes[:0]
	q.inflight = true
	d.inflight++
	r.extra = n - h
	if r.register = r.extra > 0; r.register {
		r.resetRunners()
	}
	var mine *lane
	for i := range h {
		l := d.idleLane()
		l.run = r
		if solo := r.solo && a.threads > graceMinThreads; l.solo.Load() != solo {
			l.solo.Store(solo)
		}
		r.lanes = append(r.lanes, l)
		if self && i == 0 {
			mine = l // its token stays clear: nobody else takes this core
			continue
		}
		if i == 0 && q.lane.Load() != l {
			q.lane.Store(l) // HelpQueue's hint (short.go)
		}
		l.kick()
	}
	if r.extra > 0 {
		d.watchResidency(r)
	}
	return mine
}

// idleLane takes an idle lane, or starts one.
// Precondition: d.mu held.
func (d *Device) idleLane() *lane {
	a := &d.aic
	if k := len(a.idle); k > 0 {
		l := a.idle[k-1]
		a.idle = a.idle[:k-1]
		return l
	}
	l := &lane{wake: make(chan struct{}, 1)}
	a.lanes++
	d.wg.Add(1)
	l.owed.Store(true)
	go d.laneLoop(l)
	return l
}

// startInline starts q's head kernel with the calling thread as one of its
// lanes, if the head is a kernel that can start now, and returns that lane
// (see dispatchKernel), else nil. A submitter waiting for ring space runs
// its queue's kernels this way (Queue.spinSpace).
//
// Strict priority holds here as in the arbiter: the kernels of queues the
// arbiter takes before q (aheadOf) start first if they can, and while one
// of them still waits for cores q's kernel does not start inline, even if
// it would fit in the cores left (the arbiter itself would let it; the
// inline path is a shortcut and leaves that choice to the arbiter, which
// gets q back when the submitter stops waiting).
// Precondition: d.mu held.
func (d *Device) startInline(q *Queue) *lane {
	if q.count == 0 || q.inflight || q.destroyed || d.closing || q.ring[q.head].kind != kindKernel {
		return nil
	}
	// (q holds a task, so it is active: with one active queue there is
	// nothing ranked before it, short.go)
	if (d.busy.Load() != 1 || !shortOK()) && d.startAhead(q) {
		return nil
	}
	return d.dispatchKernel(q, &q.ring[q.head], true)
}

// startAhead starts, in the arbiter's order, the head kernels of the queues
// ranked before q (a higher priority, or the same priority and an earlier
// head) that can start now, and reports whether one of them is still
// waiting: for cores, or for the submitter helping its queue.
// Precondition: d.mu held, q has a head task.
func (d *Device) startAhead(q *Queue) bool {
	seq := q.headSeq()
	waiting := false
	for p := 0; p <= q.prio; p++ {
		cands := d.scratch[:0]
		for _, x := range d.active[p] {
			if x == q || x.inflight || x.count == 0 || x.ring[x.head].kind != kindKernel {
				continue
			}
			if p == q.prio && x.headSeq() > seq {
				continue
			}
			cands = append(cands, x)
		}
		for i := 1; i < len(cands); i++ {
			for j := i; j > 0 && cands[j].headSeq() < cands[j-1].headSeq(); j-- {
				cands[j], cands[j-1] = cands[j-1], cands[j]
			}
		}
		for _, x := range cands {
			if x.helping.Load() == 0 {
				d.dispatchKernel(x, &x.ring[x.head], false)
			}
			if !x.inflight {
				waiting = true
			}
		}
		clear(cands)
		d.scratch = cands[:0]
	}
	return waiting
}

// laneLoop is one core's worker: it runs blocks of the kernels handed to it.
// It is locked to its OS thread: lanes then keep their own threads, which
// the OS spreads over the host's CPUs, so the blocks of a kernel really run
// in parallel. Unlocked, a woken lane runs on whatever thread the Go
// scheduler picks, and the OS often wakes those threads on the CPU of the
// waker, serialising the blocks for milliseconds.
func (d *Device) laneLoop(l *lane) {
	defer func() {
		if l.owed.CompareAndSwap(true, false) {
			d.wg.Done()
		}
	}()
	runtime.LockOSThread()
	spareP.Do(addSpareP) // threads.go
	l.turn = Turn{}
	for {
		if l.token.CompareAndSwap(true, false) {
			d.runAsLane(l, &l.turn)
			continue
		}
		if poll(laneSpin, l.token.Load) {
			l.grace()
			continue
		}
		l.parked.Store(true)
		if l.token.Load() {
			l.parked.Store(false)
			continue
		}
		select {
		case <-l.wake:
		case <-d.quit:
			return
		}
		l.parked.Store(false)
		l.turn.woke()
	}
}

// laneGrace is how long a polling lane leaves a kernel it was just handed
// to a thread that may be about to wait for it, when the kernel has that
// lane alone: a launch followed by a synchronisation then runs the kernel
// on the synchronising thread (HelpQueue), whose CPU already holds the
// launch's descriptor, arguments and the device lock, instead of moving
// all of them to the lane's CPU and the completion back (several cache
// lines each way: ~0.1 µs each between two cores of a big machine, more
// between sockets). A kernel nobody waits for starts laneGrace later on
// the host; virtual time does not change.
const laneGrace = 2 * time.Microsecond

// graceMinThreads: with this many host threads or fewer there is no grace.
// Measured with launch + synchronize (npuemu_bench, taskset -c 0,1 on a
// 16-core Xeon, and this project's 2-CPU machine): with two CPUs the lane
// running the kernel on the other CPU while the launcher returns and
// starts its synchronisation beat running it on the launcher (1.2 µs
// against 1.7 µs); with 16, the grace won (2.7 µs against 1.75 µs).
const graceMinThreads = 2

// grace waits, after a poll saw l's token set, up to laneGrace for a
// waiting thread to take a solo kernel.
func (l *lane) grace() {
	if !l.solo.Load() {
		return
	}
	poll(laneGrace, func() bool { return !l.token.Load() })
}

// runAsLane runs l's kernel after the caller took l's token: the lane's
// goroutine, with its tick tk (turn.go), or a thread helping (HelpQueue),
// with its own tick or nil.
func (d *Device) runAsLane(l *lane, tk *Turn) { d.runInline(l, nil, 0, false, tk) }

// runInline is runAsLane for a submitter waiting for space in next's ring
// (spinSpace; nil for others): if l's kernel ends here and next still has
// more than limit tasks queued, next's following kernel is started with
// the caller as its lane in the same critical section, and that lane is
// returned (nil otherwise). With endClaim set the caller is the thread
// that claimed next (RunClaimed): if no kernel of next starts, the claim
// ends in the same critical section and ended is set (one lock less per
// claimed run).
func (d *Device) runInline(l *lane, next *Queue, limit uint64, endClaim bool, tk *Turn) (mine *lane, ended bool) {
	// Setting the token published l.run.
	r := l.run
	runLane(r, tk)
	if r.alone || r.left.Add(-1) == 0 {
		if r.abandoned.Load() {
			d.finishAbandoned(r, l)
			return nil, false
		}
		// The last lane goes idle inside finishKernel's critical section:
		// one lock instead of two on the path of every small kernel.
		return d.finishKernel(r, l, next, limit, endClaim)
	}
	d.mu.Lock()
	l.run = nil
	d.aic.idle = append(d.aic.idle, l)
	d.mu.Unlock()
	return nil, false
}

// maxHelp bounds the lanes one HelpQueue pass looks at.
const maxHelp = 8

// HelpQueue lets a thread that waits for q (a synchronisation with no
// timeout) run q's kernels itself: it takes the tokens of q's lanes that
// have not woken up yet and runs their blocks, until target tasks of q have
// completed or no token is left to take. Waking a parked lane costs tens of
// µs here; the waiting thread is already running, so a small kernel
// launched and then waited for completes in a few µs instead, without any
// thread switch. A token taken may already belong to the lane's next
// kernel, of any queue: the thread then runs that one, which is as
// correct. Virtual time does not change. tk, when not nil, is the
// thread's scheduling tick (ThreadTurn).
func (d *Device) HelpQueue(q *Queue, target uint64, tk *Turn) {
	var buf [maxHelp]*lane
	for q.completed.Load() < target {
		if d.helpLane(q, tk) {
			continue
		}
		lanes := buf[:0]
		d.mu.Lock()
		for _, r := range d.aic.running {
			if r.q == q {
				for _, l := range r.lanes {
					if len(lanes) < maxHelp {
						lanes = append(lanes, l)
					}
				}
			}
		}
		d.mu.Unlock()
		took := false
		for i, l := range lanes {
			// A lane that is polling takes its token within a few
			// hundred ns: leave it to run alongside, except for the first
			// lane (this thread runs blocks too) and a kernel alone on
			// its lane (laneGrace).
			if i > 0 && !l.parked.Load() {
				continue
			}
			if l.token.CompareAndSwap(true, false) {
				took = true
				d.runAsLane(l, tk)
			}
		}
		if !took {
			return // the lanes are awake and running it
		}
	}
}

// runLane runs blocks of r until none is left or one has failed.
func runLane(r *krun, tk *Turn) {
	blocks := r.ks.Blocks
	b := uint32(0)
	defer func() {
		if p := recover(); p != nil {
			r.fail(abi.DevErrorf(abi.DevAICoreException, "kernel block %d/%d panicked: %v", b, blocks, p))
		}
	}()
	if r.alone { // the blocks in order on this lane, counted here
		for ; b < blocks && !r.failed.Load(); b++ { // (failed: the watchdog abandoned it)
			if err := r.kern.RunBlock(b, blocks); err != nil {
				r.fail(err)
				return
			}
			if tk != nil {
				tk.blockEnded(r)
			}
		}
		return
	}
	slot := -1
	if r.register { // residency.go
		slot = r.enter()
	}
	for !r.failed.Load() {
		b = r.next.Add(1) - 1
		if b >= blocks {
			break
		}
		err := r.kern.RunBlock(b, blocks)
		r.ended.Add(1)
		if err != nil {
			r.fail(err)
			break
		}
		if tk != nil {
			tk.blockEnded(r)
		}
	}
	r.leave(slot)
}

func (r *krun) fail(err error) {
	r.errMu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.errMu.Unlock()
	r.failed.Store(true)
}

// finishKernel completes r's task once its last lane, l, has returned; l
// goes back to the idle list. With next set it then starts next's head
// kernel inline if next holds more than limit tasks (see runInline), and,
// with endClaim set, ends the caller's claim of next when none starts.
func (d *Device) finishKernel(r *krun, l *lane, next *Queue, limit uint64, endClaim bool) (mine *lane, ended bool) {
	err := r.err // every lane has returned: no concurrent writer
	if err == nil && r.ks.Timeout > 0 {
		if ran := time.Since(r.start); ran > r.ks.Timeout {
			err = abi.DevErrorf(abi.DevAICoreTimeout, "kernel of %d blocks ran %v, over its timeout of %v", r.ks.Blocks, ran.Round(time.Microsecond), r.ks.Timeout)
		}
	}
	err = callDone(r.kern, err)
	d.pace(r.vEnd)
	d.mu.Lock()
	q := r.q
	own := next != nil && next == q // the submitter runs its own kernels (spinSpace)
	for err == nil && (next == nil || own) && !r.abandoned.Load() {
		k := d.chainable(q, r, own, ownChain(next, limit))
		if k == 0 {
			break
		}
		d.complete(q, nil)
		err = d.runChain(q, r, k, own) // chain.go
	}
	a := &d.aic
	l.run = nil
	a.idle = append(a.idle, l)
	if r.abandoned.Load() {
		// The watchdog failed the task while this lane was on its way
		// here: the task, cores and in-flight count are settled.
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
		return nil, false
	}
	a.freeCube += r.cube
	a.freeVector += r.vector
	a.running = dropRun(a.running, r)
	r.recycle()
	a.runs = append(a.runs, r)
	d.inflight--
	d.complete(q, err)
	d.schedule()
	if next != nil && next.submitted.Load()-next.completed.Load() > limit {
		mine = d.startInline(next)
	}
	if endClaim && mine == nil {
		next.endClaim()
		ended = true
	}
	d.mu.Unlock()
	return mine, ended
}

// dropRun removes r from rs (its order does not matter: the arbiter never
// reads it) and clears the slot it leaves, so the run is not kept
// reachable there: the last run moves into r's place.
func dropRun(rs []*krun, r *krun) []*krun {
	for i, x := range rs {
		if x == r {
			last := len(rs) - 1
			rs[i] = rs[last]
			rs[last] = nil
			return rs[:last]
		}
	}
	return rs
}

func callDone(k Kernel, err error) (out error) {
	defer func() {
		if p := recover(); p != nil {
			out = abi.DevErrorf(abi.DevInternal, "kernel completion panicked: %v", p)
		}
	}()
	return k.Done(err)
}

// CoresInUse returns the cube and vector cores running kernel blocks now.
func (d *Device) CoresInUse() (cube, vector int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.aic.cubeCores - d.aic.freeCube, d.aic.vectorCores - d.aic.freeVector
}
