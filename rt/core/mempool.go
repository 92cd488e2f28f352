package core

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
)

// Stream-ordered memory pools (acl_rt_memory_soma.h, Atlas A2 only).
//
// A pool grows on demand: each block it hands out is one HBM block of the
// pool's device (so aclrtGetMemInfo and copies see it as device memory),
// and a block given back with aclrtMemPoolFreeAsync stays reserved by the
// pool for reuse. A block's life: in use → pending (FreeAsync queued a
// host task on its stream, not yet reached) → idle (the stream passed the
// free). Reuse picks the smallest fitting block among those the request's
// stream may take:
//
//   - a block freed on the same stream, pending or idle (stream order makes
//     the free precede every later task);
//   - an idle block freed on another stream, with REUSE_ALLOW_OPPORTUNISTIC;
//   - a block, pending or idle, freed on another stream A when the
//     requesting stream already waited (aclrtStreamWaitEvent), directly or
//     through other streams, for an event recorded on A after the free,
//     with REUSE_FOLLOW_EVENT_DEPENDENCIES: the application's own
//     dependency orders the free before the reuse, no wait is added;
//   - a pending block freed on another stream, with
//     REUSE_ALLOW_INTERNAL_DEPENDENCIES: an event recorded on the freeing
//     stream is waited for by the allocating one.
//
// The event dependencies are tracked like vector clocks (poolDeps): each
// FreeAsync numbers the frees of its stream; a record snapshots what its
// stream is ordered after (its own frees and what it waited for); a wait
// merges the event's snapshot into the waiting stream's. Idle blocks go
// back to HBM at aclrtMemPoolTrimTo, when a new block would exceed
// maxSize, and at a stream, device or event synchronise while the
// reservation exceeds RELEASE_THRESHOLD.
//
// Lock order: pools.mu → MemPool.Mu → PoolDeps.Mu, poolPtrs.mu (leaves),
// HBM locks.

// poolAlign is the granularity of pool blocks (the runtime's 512-byte
// allocation alignment).
const poolAlign = AllocAlign

type blockState int

const (
	blockInUse blockState = iota
	blockPending
	blockIdle
)

type poolBlock struct {
	base   uintptr
	size   uint64
	state  blockState
	stream *Stream // the stream of the last FreeAsync (pending, idle)
	seq    uint64  // that free's number among the frees of stream (poolDeps)
	gen    uint64  // bumped at each FreeAsync: a stale free task does nothing
}

type MemPool struct {
	H       Handle
	Dev     *Device
	node    *emu.Node
	maxSize uint64

	Mu sync.Mutex // guards the fields below
	// Attributes (REUSE_* are 0/1).
	FollowEvents, Opportunistic, InternalDeps uint32
	Threshold                                 uint64
	Reserved, ReservedHigh, Used, UsedHigh    uint64
	free                                      []*poolBlock // pending and idle blocks
	inUse                                     int
	dead                                      bool
}

var memPools = NewTable[MemPool](KindMemPool)

// pools is the set of live pools (stream synchronise and destroy visit
// them); poolPtrs maps an in-use block's address to its pool.
var (
	pools struct {
		mu  sync.Mutex
		set map[*MemPool]struct{}
		// ever: a pool was created. Until then livePools takes no lock:
		// every stream synchronisation asks for the pools.
		ever atomic.Bool
	}
	poolPtrs struct {
		mu sync.Mutex
		m  map[uintptr]poolRef
	}
)

type poolRef struct {
	p *MemPool
	b *poolBlock
}

// ResolvePool resolves a pool handle; pools of a finalized runtime are
// stale.
func ResolvePool(fn string, h Handle) (*MemPool, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: MemPool must not be NULL", fn)
	}
	p, err := memPools.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %v", fn, err)
	}
	if p.node != Runtime.Node.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pool %#x belongs to a finalized runtime", fn, uintptr(h))
	}
	return p, nil
}

// pickLocked returns the smallest reusable block of at least want bytes
// for stream s, taking it off the free list, and the stream s must wait
// for when the block's free is still queued on another stream and nothing
// orders it before s yet.
// Precondition: p.mu held.
func (p *MemPool) pickLocked(want uint64, s *Stream) (*poolBlock, *Stream) {
	best, bestWait := -1, false
	for i, b := range p.free {
		if b.size < want || (best >= 0 && b.size >= p.free[best].size) {
			continue
		}
		wait := false
		switch {
		case b.stream == s:
		case p.FollowEvents == 1 && b.stream != nil && poolOrdered(s, b.stream, b.seq):
		case b.state == blockIdle && p.Opportunistic == 1:
		case b.state == blockPending && p.InternalDeps == 1:
			wait = true
		default:
			continue
		}
		best, bestWait = i, wait
	}
	if best < 0 {
		return nil, nil
	}
	b := p.free[best]
	p.free = append(p.free[:best], p.free[best+1:]...)
	var waitOn *Stream
	if bestWait {
		waitOn = b.stream
	}
	return b, waitOn
}

// growLocked reserves a new block of size bytes from HBM, first handing
// idle blocks back when the pool would exceed maxSize.
// Precondition: p.mu held.
func (p *MemPool) growLocked(fn string, size uint64) (*poolBlock, error) {
	if size > p.maxSize {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: %d bytes exceed the pool's maxSize %d", fn, size, p.maxSize)
	}
	if p.Reserved+size > p.maxSize {
		p.trimLocked(p.maxSize - size)
		if p.Reserved+size > p.maxSize {
			return nil, abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION,
				"%s: %d bytes: the pool has %d of its maxSize %d bytes reserved and none of it reusable by this stream", fn, size, p.Reserved, p.maxSize)
		}
	}
	addr, err := p.Dev.Emu.HBM.Alloc(size, poolAlign)
	if err != nil {
		return nil, abi.Wrapf(err, "%s: %d bytes on device %d", fn, size, p.Dev.ID)
	}
	p.Reserved += size
	p.ReservedHigh = max(p.ReservedHigh, p.Reserved)
	p.Dev.Emu.NoteUsage(abi.APP_MODULE_ID, int64(size))
	return &poolBlock{base: addr, size: size}, nil
}

// release undoes a MallocAsync whose stream wait could not be queued.
func (p *MemPool) release(b *poolBlock) {
	poolPtrs.mu.Lock()
	delete(poolPtrs.m, b.base)
	poolPtrs.mu.Unlock()
	p.Mu.Lock()
	defer p.Mu.Unlock()
	p.inUse--
	p.Used -= b.size
	b.state = blockIdle
	p.free = append(p.free, b)
}

// trimLocked hands idle blocks back to HBM, largest first, while the pool
// reserves more than keep bytes. Pending blocks stay: queued work may
// still use them. Precondition: p.mu held.
func (p *MemPool) trimLocked(keep uint64) {
	sort.Slice(p.free, func(i, j int) bool { return p.free[i].size > p.free[j].size })
	kept := p.free[:0]
	for _, b := range p.free {
		if p.Reserved > keep && b.state == blockIdle {
			p.dropLocked(b)
			continue
		}
		kept = append(kept, b)
	}
	clear(p.free[len(kept):])
	p.free = kept
}

// dropLocked returns b's memory to HBM. Precondition: p.mu held.
func (p *MemPool) dropLocked(b *poolBlock) {
	_, _ = p.Dev.Emu.HBM.Free(b.base)
	p.Reserved -= b.size
	p.Dev.Emu.NoteUsage(abi.APP_MODULE_ID, -int64(b.size))
}

// freeDone runs when the stream reaches a FreeAsync: the block becomes
// idle unless it was reused since (gen changed); a destroyed pool hands it
// back to HBM.
func (p *MemPool) freeDone(b *poolBlock, gen uint64) {
	p.Mu.Lock()
	defer p.Mu.Unlock()
	if b.gen != gen || b.state != blockPending {
		return
	}
	b.state = blockIdle
	p.Used -= b.size
	if p.dead {
		p.trimLocked(0)
	}
}

// livePools returns the pools of device d, destroyed ones included while
// frees are still queued for them (forgotten once empty).
func livePools(d *Device) []*MemPool {
	if !pools.ever.Load() {
		return nil
	}
	pools.mu.Lock()
	defer pools.mu.Unlock()
	var out []*MemPool
	for p := range pools.set {
		p.Mu.Lock()
		gone := p.dead && len(p.free) == 0
		p.Mu.Unlock()
		if gone {
			delete(pools.set, p)
			continue
		}
		if p.Dev == d {
			out = append(out, p)
		}
	}
	return out
}

// PoolsSynced applies RELEASE_THRESHOLD after stream s was synchronised:
// the pools of its device give idle memory above the threshold back.
func PoolsSynced(s *Stream) { PoolsSyncedDevice(s.Ctx.Dev) }

// PoolsSyncedDevice applies RELEASE_THRESHOLD to the pools of d after a
// synchronise that involved it: aclrtSynchronizeStream, -Device and
// -Event (and their WithTimeout forms) all make frees that were reached
// idle, and the threshold caps what the pool keeps of them. Inlined: a
// process that never made a pool pays one load.
func PoolsSyncedDevice(d *Device) {
	if pools.ever.Load() {
		poolsSynced(d)
	}
}

func poolsSynced(d *Device) {
	for _, p := range livePools(d) {
		p.Mu.Lock()
		if p.Reserved > p.Threshold {
			p.trimLocked(p.Threshold)
		}
		p.Mu.Unlock()
	}
}

// PoolStreamGone settles the frees queued on a destroyed stream: its queue
// ran or dropped them, so the blocks are idle.
func PoolStreamGone(s *Stream) {
	poolDepsStreamGone(s)
	for _, p := range livePools(s.Ctx.Dev) {
		p.Mu.Lock()
		for _, b := range p.free {
			if b.stream == s {
				if b.state == blockPending {
					b.state = blockIdle
					p.Used -= b.size
				}
				b.stream = nil
			}
		}
		if p.dead {
			p.trimLocked(0)
		}
		p.Mu.Unlock()
	}
}

// frontier maps a stream to the number of its pool frees some stream or
// event record is known to be ordered after.
type frontier map[*Stream]uint64

// PoolDeps tracks the event dependencies REUSE_FOLLOW_EVENT_DEPENDENCIES
// follows. It stays empty (and its hooks cost one atomic load) until the
// first aclrtMemPoolFreeAsync of the process.
var PoolDeps struct {
	active atomic.Bool

	Mu    sync.Mutex           // guards the maps below; a leaf lock
	Frees map[*Stream]uint64   // FreeAsync calls issued per stream
	known map[*Stream]frontier // per stream: other streams' frees it waited for
	cover map[*Event]frontier  // per event: its last record's snapshot
}

// poolFreeIssued numbers a new FreeAsync on s.
func poolFreeIssued(s *Stream) uint64 {
	PoolDeps.Mu.Lock()
	defer PoolDeps.Mu.Unlock()
	if PoolDeps.Frees == nil {
		PoolDeps.Frees = map[*Stream]uint64{}
		PoolDeps.known = map[*Stream]frontier{}
		PoolDeps.cover = map[*Event]frontier{}
		PoolDeps.active.Store(true)
	}
	PoolDeps.Frees[s]++
	return PoolDeps.Frees[s]
}

// poolOrdered reports whether stream s waited, through events, for the
// seq-th free of stream a. Lock order: MemPool.mu → poolDeps.mu.
func poolOrdered(s, a *Stream, seq uint64) bool {
	if !PoolDeps.active.Load() {
		return false
	}
	PoolDeps.Mu.Lock()
	defer PoolDeps.Mu.Unlock()
	return PoolDeps.known[s][a] >= seq
}

// executes reports whether a task submitted to s runs now, in stream
// order, rather than being recorded (capture, model build): only the
// former orders frees.
func executes(s *Stream) bool {
	return s.Rec.Load() == nil && s.Flags&abi.ACL_STREAM_PERSISTENT == 0
}

// PoolEventRecorded notes that e was recorded on s: the record covers
// every free s is ordered after, and replaces the previous snapshot.
func PoolEventRecorded(e *Event, s *Stream) {
	if !PoolDeps.active.Load() {
		return
	}
	PoolDeps.Mu.Lock()
	defer PoolDeps.Mu.Unlock()
	if !executes(s) {
		delete(PoolDeps.cover, e)
		return
	}
	k, own := PoolDeps.known[s], PoolDeps.Frees[s]
	if len(k) == 0 && own == 0 {
		delete(PoolDeps.cover, e)
		return
	}
	f := make(frontier, len(k)+1)
	for a, n := range k {
		f[a] = n
	}
	if own > 0 {
		f[s] = own
	}
	PoolDeps.cover[e] = f
}

// PoolEventWaited notes that s waits for e's last record: s is ordered
// after every free the record covers.
func PoolEventWaited(s *Stream, e *Event) {
	if !PoolDeps.active.Load() {
		return
	}
	PoolDeps.Mu.Lock()
	defer PoolDeps.Mu.Unlock()
	c := PoolDeps.cover[e]
	if len(c) == 0 || !executes(s) {
		return
	}
	k := PoolDeps.known[s]
	if k == nil {
		k = frontier{}
		PoolDeps.known[s] = k
	}
	for a, n := range c {
		if a != s && k[a] < n {
			k[a] = n
		}
	}
}

// PoolEventGone forgets e's snapshot: at destroy, and at reset (a wait on
// a reset event need not wait for the earlier record).
func PoolEventGone(e *Event) {
	if !PoolDeps.active.Load() {
		return
	}
	PoolDeps.Mu.Lock()
	delete(PoolDeps.cover, e)
	PoolDeps.Mu.Unlock()
}

// poolDepsStreamGone forgets destroyed stream s everywhere: its blocks
// become idle without a stream (poolStreamGone), so no order through it is
// needed any more.
func poolDepsStreamGone(s *Stream) {
	if !PoolDeps.active.Load() {
		return
	}
	PoolDeps.Mu.Lock()
	defer PoolDeps.Mu.Unlock()
	delete(PoolDeps.Frees, s)
	delete(PoolDeps.known, s)
	for _, k := range PoolDeps.known {
		delete(k, s)
	}
	for e, c := range PoolDeps.cover {
		delete(c, s)
		if len(c) == 0 {
			delete(PoolDeps.cover, e)
		}
	}
}

// registerPool records memory pool p (aclrtMemPoolCreate).
func registerPool(p *MemPool) {
	Register(TableMemPools, Record{ID: uint64(p.H), Device: int(p.Dev.ID),
		Summary: fmt.Sprintf("%#x: maxSize %d bytes", uintptr(p.H), p.maxSize)})
}

// LivePoolBlocks lists the blocks of memory pools not freed with
// aclrtMemPoolFreeAsync, by address.
func LivePoolBlocks() []Live {
	n := Runtime.Node.Load()
	type blk struct {
		base uintptr
		size uint64
		p    *MemPool
	}
	var bs []blk
	poolPtrs.mu.Lock()
	for base, r := range poolPtrs.m {
		if r.p.node == n {
			bs = append(bs, blk{base, r.b.size, r.p})
		}
	}
	poolPtrs.mu.Unlock()
	sort.Slice(bs, func(i, j int) bool { return bs[i].base < bs[j].base })
	out := make([]Live, 0, len(bs))
	for _, b := range bs {
		out = append(out, Live{Kind: "pool block", Device: int(b.p.Dev.ID),
			Summary: fmt.Sprintf("%#x: %d bytes of memory pool %#x", b.base, b.size, uintptr(b.p.H))})
	}
	return out
}

// NewMemPool creates a pool of device d that may reserve up to maxSize
// bytes, with the default attributes.
func NewMemPool(d *Device, maxSize uint64) *MemPool {
	p := &MemPool{Dev: d, node: Runtime.Node.Load(), maxSize: maxSize, FollowEvents: 1, Opportunistic: 1, InternalDeps: 1}
	p.H = memPools.Add(p)
	pools.mu.Lock()
	pools.ever.Store(true)
	if pools.set == nil {
		pools.set = map[*MemPool]struct{}{}
	}
	for old := range pools.set { // pools of a finalized runtime died with its node
		if old.node != p.node {
			delete(pools.set, old)
		}
	}
	pools.set[p] = struct{}{}
	pools.mu.Unlock()
	poolPtrs.mu.Lock()
	for base, r := range poolPtrs.m {
		if r.p.node != p.node {
			delete(poolPtrs.m, base)
		}
	}
	poolPtrs.mu.Unlock()
	registerPool(p)
	return p
}

// Destroy releases p's handle and idle memory; refused while blocks are
// still allocated.
func (p *MemPool) Destroy(fn string) error {
	p.Mu.Lock()
	if p.inUse > 0 {
		n := p.inUse
		p.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %d block(s) of the pool are still allocated (aclrtMemPoolFreeAsync them first)", fn, n)
	}
	p.dead = true
	p.trimLocked(0)
	p.Mu.Unlock()
	memPools.Remove(p.H)
	Unregister(TableMemPools, uint64(p.H))
	return nil
}

// MallocAsync takes a block of at least size bytes for stream s: a block
// reused across streams makes s wait for its free first.
func (p *MemPool) MallocAsync(t *Thread, fn string, s *Stream, size uint64) (uintptr, error) {
	want := AlignUp(size, poolAlign)
	p.Mu.Lock()
	b, waitOn := p.pickLocked(want, s)
	if b == nil {
		var err error
		b, err = p.growLocked(fn, want)
		if err != nil {
			p.Mu.Unlock()
			return 0, err
		}
	}
	if b.state != blockPending { // a pending block still counts as used
		p.Used += b.size
		p.UsedHigh = max(p.UsedHigh, p.Used)
	}
	b.state, b.stream = blockInUse, nil
	p.inUse++
	p.Mu.Unlock()
	poolPtrs.mu.Lock()
	if poolPtrs.m == nil {
		poolPtrs.m = map[uintptr]poolRef{}
	}
	poolPtrs.m[b.base] = poolRef{p, b}
	poolPtrs.mu.Unlock()
	if waitOn != nil {
		// The freeing stream may be gone by now: its queue then ran or
		// dropped the free, and the block is free to use.
		ev := p.Dev.Emu.TS.NewEventUnpooled(0)
		if waitOn.Queue(t, fn, tsfw.RecordTask(ev), Queued{Sync: ev, Internal: true}) == nil {
			if err := s.Submit(t, fn, tsfw.WaitTask(ev)); err != nil {
				ev.Destroy()
				p.release(b)
				return 0, err
			}
		}
		ev.Destroy()
	}
	return b.base, nil
}

// FreeAsync returns the pool block at ptr to its pool when stream s
// reaches the free (and at once for later allocations on s).
func FreeAsync(t *Thread, fn string, s *Stream, ptr uintptr) error {
	poolPtrs.mu.Lock()
	r, ok := poolPtrs.m[ptr]
	if ok && r.p.Dev != s.Ctx.Dev {
		poolPtrs.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x belongs to a pool of device %d, the stream to device %d", fn, ptr, r.p.Dev.ID, s.Ctx.Dev.ID)
	}
	if ok {
		delete(poolPtrs.m, ptr)
	}
	poolPtrs.mu.Unlock()
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x is not an allocated block of a memory pool (already freed?)", fn, ptr)
	}
	p, b := r.p, r.b
	seq := poolFreeIssued(s)
	p.Mu.Lock()
	b.gen++
	gen := b.gen
	b.state, b.stream, b.seq = blockPending, s, seq
	p.free = append(p.free, b)
	p.inUse--
	p.Mu.Unlock()
	if err := s.Submit(t, fn, tsfw.HostTask(func() error { p.freeDone(b, gen); return nil })); err != nil {
		p.Mu.Lock()
		for i, x := range p.free {
			if x == b {
				p.free = append(p.free[:i], p.free[i+1:]...)
				break
			}
		}
		b.state, b.stream = blockInUse, nil
		p.inUse++
		p.Mu.Unlock()
		poolPtrs.mu.Lock()
		poolPtrs.m[ptr] = r
		poolPtrs.mu.Unlock()
		return err
	}
	return nil
}

// Trim gives idle memory back until p reserves at most keep bytes.
func (p *MemPool) Trim(keep uint64) {
	p.Mu.Lock()
	p.trimLocked(keep)
	p.Mu.Unlock()
}
