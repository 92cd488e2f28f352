package core

import (
	"encoding/binary"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// BinaryLoadOption is one aclrtBinaryLoadOption (type and the first word
// of its value union).
type BinaryLoadOption struct {
	Type  int32
	Value uint32
}

// LaunchAttr is one aclrtLaunchKernelAttr: its id and the 16 bytes of its
// value union.
type LaunchAttr struct {
	ID    int32
	Value [16]byte
}

// LaunchCfg is what the attributes of a launch ask for.
type LaunchCfg struct {
	batch   bool
	timeout time.Duration
	Engine  int32 // -1: the kernel's own kind
	flags   uint8 // 0/1 attributes given as 1 (launchFlagOf, capture.go)
	// a front hand-over: never wait for ring space (kernel_launch_handover.go)
	handoff *Handover
}

// HandedOver returns cfg for a launch of a front hand-over (ho: the
// hand-over's record; nil for a launch made at its call): it never waits
// for ring space (Stream.QueueTask, tsfw.Queue.SubmitTaskPast).
func (cfg LaunchCfg) HandedOver(ho *Handover) LaunchCfg {
	cfg.handoff = ho
	return cfg
}

func ParseLaunchAttrs(fn string, attrs []LaunchAttr, soc string) (LaunchCfg, error) {
	cfg := LaunchCfg{Engine: -1}
	var haveT, haveUs bool
	for _, a := range attrs {
		u8 := a.Value[0]
		u32 := binary.LittleEndian.Uint32(a.Value[:4])
		switch a.ID {
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
			if u8 > 1 {
				return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: schemMode %d: want 0 (normal) or 1 (batch)", fn, u8)
			}
			cfg.batch = u8 == 1
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
			haveT = true
			cfg.timeout = time.Duration(binary.LittleEndian.Uint16(a.Value[:2])) * time.Second
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
			haveUs = true
			us := uint64(u32) | uint64(binary.LittleEndian.Uint32(a.Value[4:8]))<<32
			cfg.timeout = time.Duration(min(us, math.MaxInt64/1000)) * time.Microsecond
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
			if u8 > 1 {
				return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d: value %d: want 0 or 1", fn, a.ID, u8)
			}
			cfg.flags |= launchFlagOf(a.ID, u8)
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
			if u32 != 0 {
				return cfg, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: dynamic UB (%d bytes) exists for SIMT kernels of the Ascend 950 only", fn, u32)
			}
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
			if !strings.HasPrefix(soc, "Ascend310P") {
				return cfg, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE is for Atlas inference (310P) only, not %s", fn, soc)
			}
			if u32 > abi.ACL_RT_ENGINE_TYPE_AIV {
				return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: engineType %d: want ACL_RT_ENGINE_TYPE_AIC (0) or _AIV (1)", fn, u32)
			}
			cfg.Engine = int32(u32)
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
			if u32 != 0 {
				return cfg, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: a non-zero blockDimOffset (310P core groups) is not emulated", fn)
			}
		default:
			return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtLaunchKernelAttrId %d", fn, a.ID)
		}
	}
	if haveT && haveUs {
		return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT and _TIMEOUT_US are mutually exclusive", fn)
	}
	return cfg, nil
}

// KernelSpec writes to *s the tsfw description of a launch of f (in
// place: launchSpec fills the task's own).
func KernelSpec(s *tsfw.KernelSpec, f *Function, blocks uint32, cfg LaunchCfg, units uint64) {
	*s = tsfw.KernelSpec{Blocks: blocks, Batch: cfg.batch, Timeout: cfg.timeout}
	if s.Timeout == 0 {
		// No timeout attribute: aclrtSetOpExecuteTimeOut's, if one was set.
		s.Timeout = OpExecuteTimeout()
	}
	switch f.Entry.Kind {
	case abi.ACL_KERNEL_TYPE_VECTOR:
		s.Kind = tsfw.CoreVector
	case abi.ACL_KERNEL_TYPE_MIX:
		s.Kind = tsfw.CoreMix
		s.MixVector = uint32(f.Entry.MixVector) / uint32(max(f.Entry.MixCube, 1))
	}
	switch cfg.Engine {
	case abi.ACL_RT_ENGINE_TYPE_AIC:
		s.Kind = tsfw.CoreCube
	case abi.ACL_RT_ENGINE_TYPE_AIV:
		s.Kind = tsfw.CoreVector
	}
	ns := float64(f.Entry.NsPerBlock)
	if m := f.Measured.Load(); m > 0 && f.Entry.NsPerBlock == 0 && f.Entry.NsPerUnit == 0 {
		ns = float64(m)
	}
	if f.Entry.NsPerUnit > 0 {
		per := (units + uint64(blocks) - 1) / uint64(blocks)
		ns += f.Entry.NsPerUnit * float64(per)
	}
	s.BlockCost = time.Duration(min(ns, float64(math.MaxInt64/2)))
}

// LaunchHeader is the host scratch in front of each launch image
// (libfake/kernel_host.h, npu_kstate).
const LaunchHeader = 32

// Launch is one queued kernel: the tsfw.Kernel of its task.
type Launch struct {
	*LaunchMem
	F      *Function
	Args   uintptr // what the kernel sees as its blob
	Size   uint64
	svm    *ManagedUse       // managed pages the kernel's arguments hold (managed.go)
	Attr   uint8             // launchCfg.flags, for aclmdlRIKernelTaskGetAttribute
	blocks uint32            // numBlocks, for the cycle record
	shard  uint8             // the shard of F.Bin's launch count this launch is in (Binary.AcquireIn)
	owner  *Stream           // the stream whose stock it returns to (GetLaunch); nil: the pool
	san    *sanitize.Pending // the sanitizer's pending check (launch_sanitize.go; nil when off)
	trk    *kernelTrack      // the sanitizer's page tracking (launch_track.go; nil when off)
}

// launches recycles launch objects and their host buffers. A launch takes
// its object from its stream's stock (Stream.launches), to which the
// object returns when the kernel completes; objects of no stream, and
// those beyond a stock's bound, go to this sync.Pool. (The pool alone had
// the lanes put every object back where the launching thread then had to
// take it from another processor's share: 16 % of the samples of four
// threads launching on a 16-CPU host.) An empty pool is refilled a slab at
// a time (newLaunches), so a launch loop that fills a ring (~1000
// launches in flight) makes a few slabs instead of paying a Go
// allocation, a C allocation and a page fault on each of its first
// thousand launches.
var launches sync.Pool

// stockLaunches bounds the launch objects a stream keeps given back: what
// a launch loop that fills the ring (1024 tasks) has in flight, so that its
// objects go round within the stream (256 sent a quarter of them through
// the pool: +5 % instructions per launch).
// A stream then keeps about as many objects as it once had in flight, as
// its ring keeps its size; its destruction hands them to the pool (drain).
const stockLaunches = 1024

// launchStock is a stream's launch objects: spares that its launches take
// (under spareMu, which only launching threads take) and those its
// completed kernels gave back (back, written by whoever completes them),
// the most recent of which are moved to the spares when they run out.
type launchStock struct {
	// mine is the launch object of a kernel run on a thread that claimed
	// the stream (a launch + synchronize runs its kernel itself,
	// tsfw/claim.go): that thread's next launch takes it back with one
	// exchange, where the lists cost two lock round trips each way.
	mine    atomic.Pointer[Launch]
	spareMu sync.Mutex
	spare   []*Launch
	back    launchReturns
}

// launchReturns is the launch objects a stream's completed kernels gave
// back.
type launchReturns struct {
	mu sync.Mutex
	l  []*Launch
}

// put keeps l unless the list is full.
func (r *launchReturns) put(l *Launch) bool {
	r.mu.Lock()
	ok := len(r.l) < stockLaunches
	if ok {
		r.l = append(r.l, l)
	}
	r.mu.Unlock()
	return ok
}

// putAll keeps as many of ls as the list has room for, under one lock,
// and returns the others.
func (r *launchReturns) putAll(ls []*Launch) []*Launch {
	r.mu.Lock()
	k := max(0, min(len(ls), stockLaunches-len(r.l)))
	r.l = append(r.l, ls[:k]...)
	r.mu.Unlock()
	return ls[k:]
}

// take pops a spare launch object, moving the most recently given-back
// ones (at most takeBatch) to the spares when there are none; nil when the
// stock is empty. The most recent first: a launch + synchronize loop then
// reuses the object (and argument buffer) its last kernel gave back, still
// in the cache, instead of going round all the objects an earlier launch
// loop left in the stock (that made it ~40 % slower on a 16-CPU host).
func (k *launchStock) take() *Launch {
	if k.mine.Load() != nil { // (a launch loop's never is: one load)
		if l := k.mine.Swap(nil); l != nil {
			return l
		}
	}
	k.spareMu.Lock()
	k.refill()
	var l *Launch
	if n := len(k.spare); n > 0 {
		l = k.spare[n-1]
		k.spare[n-1] = nil
		k.spare = k.spare[:n-1]
	}
	k.spareMu.Unlock()
	return l
}

// refill moves the most recently given-back objects (at most takeBatch)
// to the spares when there are none. Precondition: k.spareMu held.
func (k *launchStock) refill() {
	if len(k.spare) != 0 {
		return
	}
	k.back.mu.Lock()
	if n := len(k.back.l); n <= takeBatch {
		k.spare, k.back.l = k.back.l, k.spare // all of them: a swap
	} else {
		k.spare = append(k.spare, k.back.l[n-takeBatch:]...)
		clear(k.back.l[n-takeBatch:])
		k.back.l = k.back.l[:n-takeBatch]
	}
	k.back.mu.Unlock()
}

// launchStash is a run's spare launch objects (RunQueue), popped from the
// end of ls[:n].
type launchStash struct {
	ls [runChunk]*Launch
	n  int
}

// grab is take for a run: it fills the empty st with up to runChunk
// spares, in the order take would give them, under one lock instead of
// one per launch.
func (k *launchStock) grab(st *launchStash) {
	k.spareMu.Lock()
	k.refill()
	n := len(k.spare)
	m := min(n, len(st.ls))
	st.n = copy(st.ls[:], k.spare[n-m:])
	clear(k.spare[n-m:])
	k.spare = k.spare[:n-m]
	k.spareMu.Unlock()
}

// giveBack returns the spares a run grabbed and did not use, to be taken
// in the order they would have been; a destroyed stream's go to the pool.
func (k *launchStock) giveBack(ls []*Launch, dead bool) {
	if dead {
		for _, l := range ls {
			l.owner = nil
			launches.Put(l)
		}
		return
	}
	k.spareMu.Lock()
	k.spare = append(k.spare, ls...)
	k.spareMu.Unlock()
}

// takeBatch is the given-back launch objects take moves at once: one lock
// of the list the lanes write per takeBatch launches of a loop.
const takeBatch = 64

// drain moves the stock to the shared pool (the stream is destroyed: its
// launches put nothing back any more).
func (k *launchStock) drain() {
	k.spareMu.Lock()
	k.back.mu.Lock()
	for _, l := range k.spare {
		launches.Put(l)
	}
	for _, l := range k.back.l {
		launches.Put(l)
	}
	k.spare, k.back.l = nil, nil
	k.back.mu.Unlock()
	k.spareMu.Unlock()
	if l := k.mine.Swap(nil); l != nil {
		launches.Put(l)
	}
}

const (
	// SlabLaunches is the launch objects one slab holds.
	SlabLaunches = 128
	// LaunchSlot is each slab launch's share of the slab's C buffer: the
	// header and an argument image of up to 96 bytes (a dozen pointer
	// arguments). A launch whose image is larger gets a buffer of its own.
	LaunchSlot = 128
)

// launchSlab is launch objects allocated together; their buffers are
// slots of one C allocation, freed by a cleanup once no launch of the slab
// is reachable (an interior pointer keeps the whole slab alive).
type launchSlab struct {
	ls [SlabLaunches]Launch
	ms [SlabLaunches]LaunchMem
}

// LaunchMem is a launch's host buffer, apart from the launch so that a
// launch can swap a slab slot for a larger buffer of its own.
type LaunchMem struct {
	Host KernelHost
	Buf  []byte  // header, then the argument image
	Addr uintptr // address of buf
	// probe is host as a cycleProbe (nil when it is not one), asserted once
	// per buffer rather than at every completion (recordCycles).
	probe cycleProbe
}

// hostMem is C memory to free: the argument of a cleanup, which must not
// refer to the object it is attached to.
type hostMem struct {
	host KernelHost
	buf  []byte
}

func freeHostMem(m hostMem) { m.host.Free(m.buf) }

// newLaunches makes a slab of launches for h, pools all but one and
// returns that one.
func newLaunches(h KernelHost) *Launch {
	s := new(launchSlab)
	mem, addr := h.Alloc(SlabLaunches * LaunchSlot)
	clear(mem) // fault its pages in now, not one per first launch
	runtime.AddCleanup(s, freeHostMem, hostMem{h, mem})
	probe, _ := h.(cycleProbe)
	for i := range s.ls {
		m := &s.ms[i]
		m.probe = probe
		off := i * LaunchSlot
		m.Host, m.Buf, m.Addr = h, mem[off:off+LaunchSlot:off+LaunchSlot], addr+uintptr(off)
		s.ls[i].LaunchMem = m
		if i > 0 {
			launches.Put(&s.ls[i])
		}
	}
	return &s.ls[0]
}

// GetLaunch returns a launch object with a buffer for an image of n bytes
// on host h, the header cleared; s, when not nil, is the launch's stream,
// whose stock comes first and to which the object returns (PutLaunch).
func GetLaunch(s *Stream, h KernelHost, n int) *Launch { return getLaunch(s, h, n, nil) }

// getLaunch is GetLaunch taking the object from st, when not nil: a
// run's spares, grabbed from s's stock runChunk at a time.
func getLaunch(s *Stream, h KernelHost, n int, st *launchStash) *Launch {
	var l *Launch
	if s != nil {
		if st == nil {
			l = s.launches.take()
		} else {
			if st.n == 0 {
				s.launches.grab(st)
			}
			if st.n > 0 {
				st.n--
				l, st.ls[st.n] = st.ls[st.n], nil
			}
		}
	}
	if l == nil {
		l, _ = launches.Get().(*Launch)
		if l == nil {
			l = newLaunches(h)
		}
	}
	l.owner = s
	need := LaunchHeader + n
	if l.Host != h || cap(l.Buf) < need {
		m := &LaunchMem{Host: h}
		m.probe, _ = h.(cycleProbe)
		m.Buf, m.Addr = h.Alloc(max(need, 256))
		runtime.AddCleanup(m, freeHostMem, hostMem{h, m.Buf})
		l.LaunchMem = m
	}
	clear(l.Buf[:LaunchHeader])
	return l
}

func PutLaunch(l *Launch) {
	l.reset()
	if s := l.owner; s != nil {
		l.owner = nil
		if !s.Dead.Load() {
			if s.SQ != nil && s.SQ.Claimed() && s.launches.mine.Load() == nil && s.launches.mine.CompareAndSwap(nil, l) {
				return
			}
			if s.launches.back.put(l) {
				return
			}
		}
	}
	launches.Put(l)
}

// reset drops what l refers to but its stream and buffer (PutLaunch).
func (l *Launch) reset() {
	l.F = nil
	l.shard = 0
	l.san = nil
	l.trk = nil
	if l.svm != nil {
		l.svm.Release()
		l.svm = nil
	}
}

// RunBlock implements tsfw.Kernel.
func (l *Launch) RunBlock(b, n uint32) error {
	if l.trk != nil {
		l.trk.begin(l) // the sanitizer's gate and page tracking (kernel_track.go)
	}
	if err := l.Host.Run(l.F.Entry.Fn, l.Args, l.Size, b, n, l.Buf[:LaunchHeader]); err != nil {
		return l.fault(b, n, err) // carries the launch for the exception info
	}
	return nil
}

// batchLaunches bounds a batch (RunBatch): tsfw's chains are no longer.
const batchLaunches = 64

// jobBufs holds RunBatch's job lists (an interface call's argument, and
// handed on to C: on the stack it would be allocated at every batch).
var jobBufs = sync.Pool{New: func() any { return new([batchLaunches]emu.KernelJob) }}

// RunBatch implements tsfw.BatchKernel: the one block of l and of the
// launches after it in ks on the same host, in one call of the host
// (emu.BatchKernelHost). A launch the sanitizer watches, and one of
// another host, is not batched: it runs alone.
func (l *Launch) RunBatch(ks []tsfw.Kernel) (int, error) {
	bh, ok := l.Host.(emu.BatchKernelHost)
	if !ok || l.trk != nil || l.san != nil {
		return 1, l.RunBlock(0, 1)
	}
	jobs := jobBufs.Get().(*[batchLaunches]emu.KernelJob)
	defer jobBufs.Put(jobs)
	n := 0
	for _, k := range ks[:min(len(ks), len(jobs))] {
		x, ok := k.(*Launch)
		if !ok || x.Host != l.Host || x.trk != nil || x.san != nil {
			break
		}
		jobs[n] = emu.KernelJob{Fn: x.F.Entry.Fn, Args: x.Args, Size: x.Size, State: x.Addr}
		n++
	}
	ran, err := bh.RunOnes(jobs[:n])
	if err != nil && ran >= 1 && ran <= n {
		err = ks[ran-1].(*Launch).fault(0, 1, err)
	}
	return ran, err
}

// DoneBatch implements tsfw.BatchDone: Done(nil) of each of ks, kernels
// RunBatch ran without error, their launch objects given back to their
// stream's stock under one lock instead of one each, and the launch counts
// of one binary and shard released together. A kernel that is not a plain
// launch of l's stream is done alone.
func (l *Launch) DoneBatch(ks []tsfw.Kernel) {
	var ls [batchLaunches]*Launch
	n := 0
	s := l.owner
	var rb *Binary // launches of rb in shard rsh not released yet: rn
	var rsh uint8
	var rn int64
	for i, k := range ks {
		x, ok := k.(*Launch)
		if !ok || s == nil || x.owner != s || x.san != nil || n == len(ls) {
			_ = k.Done(nil)
			ks[i] = nil
			continue
		}
		x.recordCycles()
		x.Host.Flush(x.Buf[:LaunchHeader])
		if x.F.Bin != rb || x.shard != rsh {
			if rn > 0 {
				rb.releaseN(rsh, rn)
			}
			rb, rsh, rn = x.F.Bin, x.shard, 0
		}
		rn++
		x.reset()
		x.owner = nil
		ls[n] = x
		n++
		ks[i] = nil
	}
	if rn > 0 {
		rb.releaseN(rsh, rn)
	}
	rest := ls[:n]
	if n > 0 && !s.Dead.Load() {
		rest = s.launches.back.putAll(rest)
	}
	for _, x := range rest { // (what the stock did not keep)
		launches.Put(x)
	}
}

// Done implements tsfw.Kernel: the kernel's output is written, the binary
// released and the launch recycled.
func (l *Launch) Done(err error) error {
	l.recordCycles()
	if l.san != nil {
		l.sanitizeLaunchDone()
	}
	l.Host.Flush(l.Buf[:LaunchHeader])
	l.F.Bin.ReleaseIn(l.shard)
	PutLaunch(l)
	return err
}

func CheckBlocks(fn string, blocks uint32) error {
	if blocks == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: numBlocks must be > 0", fn)
	}
	if blocks > tsfw.MaxBlocks {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: numBlocks %d exceeds npuemu's limit of %d", fn, blocks, tsfw.MaxBlocks)
	}
	return nil
}
