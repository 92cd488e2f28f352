package acl

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
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
// Lock order: pools.mu → memPool.mu → poolDeps.mu, poolPtrs.mu (leaves),
// HBM locks.

// poolAlign is the granularity of pool blocks (the runtime's 512-byte
// allocation alignment).
const poolAlign = core.AllocAlign

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
	stream *core.Stream // the stream of the last FreeAsync (pending, idle)
	seq    uint64       // that free's number among the frees of stream (poolDeps)
	gen    uint64       // bumped at each FreeAsync: a stale free task does nothing
}

type memPool struct {
	h       core.Handle
	dev     *core.Device
	node    *emu.Node
	maxSize uint64

	mu sync.Mutex // guards the fields below
	// Attributes (REUSE_* are 0/1).
	followEvents, opportunistic, internalDeps uint32
	threshold                                 uint64
	reserved, reservedHigh, used, usedHigh    uint64
	free                                      []*poolBlock // pending and idle blocks
	inUse                                     int
	dead                                      bool
}

var memPools = core.NewTable[memPool](core.KindMemPool)

// pools is the set of live pools (stream synchronise and destroy visit
// them); poolPtrs maps an in-use block's address to its pool.
var (
	pools struct {
		mu  sync.Mutex
		set map[*memPool]struct{}
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
	p *memPool
	b *poolBlock
}

// MemPoolCreate implements aclrtMemPoolCreate. The pool reserves nothing
// up front; maxSize bounds what it may reserve.
func MemPoolCreate(t *core.Thread, out *core.Handle, props *MemPoolProps) error {
	const fn = "aclrtMemPoolCreate"
	if out == nil || props == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memPool and poolProps must not be NULL", fn)
	}
	switch {
	case props.AllocType != abi.ACL_MEM_ALLOCATION_TYPE_PINNED:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: allocType %d: only ACL_MEM_ALLOCATION_TYPE_PINNED (0)", fn, props.AllocType)
	case props.HandleType != abi.ACL_MEM_HANDLE_TYPE_NONE:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handleType %d: only ACL_MEM_HANDLE_TYPE_NONE (0)", fn, props.HandleType)
	case props.Location.Type != abi.ACL_MEM_LOCATION_TYPE_DEVICE:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: location type %d: only ACL_MEM_LOCATION_TYPE_DEVICE (1)", fn, props.Location.Type)
	case props.MaxSize == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: maxSize must not be 0", fn)
	}
	for _, b := range props.Reserved {
		if b != 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: reserved bytes must be zero", fn)
		}
	}
	if err := core.CheckDeviceID(fn, int32(props.Location.Id)); err != nil {
		return err
	}
	d, err := core.OpenDevice(fn, int32(props.Location.Id))
	if err != nil {
		return err
	}
	p := &memPool{dev: d, node: core.Runtime.Node.Load(), maxSize: props.MaxSize, followEvents: 1, opportunistic: 1, internalDeps: 1}
	p.h = memPools.Add(p)
	pools.mu.Lock()
	pools.ever.Store(true)
	if pools.set == nil {
		pools.set = map[*memPool]struct{}{}
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
	*out = p.h
	return nil
}

// resolvePool resolves a pool handle; pools of a finalized runtime are
// stale.
func resolvePool(fn string, h core.Handle) (*memPool, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memPool must not be NULL", fn)
	}
	p, err := memPools.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %v", fn, err)
	}
	if p.node != core.Runtime.Node.Load() {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pool %#x belongs to a finalized runtime", fn, uintptr(h))
	}
	return p, nil
}

// MemPoolDestroy implements aclrtMemPoolDestroy: idle memory goes back at
// once, blocks whose free is still queued when their stream reaches it.
// A pool with blocks still allocated is refused (their memory would be
// lost to the application).
func MemPoolDestroy(t *core.Thread, h core.Handle) error {
	const fn = "aclrtMemPoolDestroy"
	p, err := resolvePool(fn, h)
	if err != nil {
		return err
	}
	p.mu.Lock()
	if p.inUse > 0 {
		n := p.inUse
		p.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %d block(s) of the pool are still allocated (aclrtMemPoolFreeAsync them first)", fn, n)
	}
	p.dead = true
	p.trimLocked(0)
	p.mu.Unlock()
	memPools.Remove(h)
	core.Unregister(core.TableMemPools, uint64(h))
	return nil
}

// MemPoolAttrWidth returns the size in bytes of attribute attr's value
// (0 for an unknown attribute).
func MemPoolAttrWidth(attr int32) int {
	switch attr {
	case abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		return 4
	case abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH,
		abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
		return 8
	}
	return 0
}

// MemPoolSetAttr implements aclrtMemPoolSetAttr; v is the value read with
// MemPoolAttrWidth's width (nil: NULL value).
func MemPoolSetAttr(t *core.Thread, h core.Handle, attr int32, v *uint64) error {
	const fn = "aclrtMemPoolSetAttr"
	p, err := resolvePool(fn, h)
	if err != nil {
		return err
	}
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch attr {
	case abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		if *v > 1 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d: value %d: want 0 or 1", fn, attr, *v)
		}
		switch attr {
		case abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
			p.followEvents = uint32(*v)
		case abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
			p.opportunistic = uint32(*v)
		default:
			p.internalDeps = uint32(*v)
		}
	case abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
		p.threshold = *v
	case abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
		if *v != 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d: a high watermark can only be reset (value 0), not set to %d", fn, attr, *v)
		}
		// The watermark restarts from the current level: it is the
		// highest level since the reset, and the current one is part of it.
		if attr == abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH {
			p.reservedHigh = p.reserved
		} else {
			p.usedHigh = p.used
		}
	case abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d is read-only", fn, attr)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtMemPoolAttr %d", fn, attr)
	}
	return nil
}

// MemPoolGetAttr implements aclrtMemPoolGetAttr.
func MemPoolGetAttr(t *core.Thread, h core.Handle, attr int32, v *uint64) error {
	const fn = "aclrtMemPoolGetAttr"
	p, err := resolvePool(fn, h)
	if err != nil {
		return err
	}
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: value must not be NULL", fn)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch attr {
	case abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
		*v = uint64(p.followEvents)
	case abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
		*v = uint64(p.opportunistic)
	case abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		*v = uint64(p.internalDeps)
	case abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
		*v = p.threshold
	case abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
		*v = p.reserved
	case abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
		*v = p.reservedHigh
	case abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
		*v = p.used
	case abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
		*v = p.usedHigh
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtMemPoolAttr %d", fn, attr)
	}
	return nil
}

// poolStream resolves the stream of MallocAsync/FreeAsync: it must belong
// to the pool's device and not be recording tasks (capture, model build,
// persistent). The specification says nothing of pool allocations inside a
// captured graph (when a replay allocates, what a recorded free does), so
// npuemu refuses them rather than invent graph-owned allocations.
func poolStream(t *core.Thread, fn string, sh core.Handle) (*core.Stream, error) {
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return nil, err
	}
	if recorderOf(s) != nil || s.Flags&abi.ACL_STREAM_PERSISTENT != 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d records tasks (capture or model): stream-ordered allocation there is not supported by npuemu", fn, s.ID)
	}
	return s, nil
}

// MemPoolMallocAsync implements aclrtMemPoolMallocAsync: the address is
// returned at once; a block reused across streams makes the stream wait
// for the free first.
func MemPoolMallocAsync(t *core.Thread, out *uintptr, size uint64, h core.Handle, sh core.Handle) error {
	const fn = "aclrtMemPoolMallocAsync"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	if size == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	}
	p, err := resolvePool(fn, h)
	if err != nil {
		return err
	}
	s, err := poolStream(t, fn, sh)
	if err != nil {
		return err
	}
	if s.Ctx.Dev != p.dev {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d is on device %d, the pool on device %d", fn, s.ID, s.Ctx.Dev.ID, p.dev.ID)
	}
	want := core.AlignUp(size, poolAlign)
	p.mu.Lock()
	b, waitOn := p.pickLocked(want, s)
	if b == nil {
		b, err = p.growLocked(fn, want)
		if err != nil {
			p.mu.Unlock()
			return err
		}
	}
	if b.state != blockPending { // a pending block still counts as used
		p.used += b.size
		p.usedHigh = max(p.usedHigh, p.used)
	}
	b.state, b.stream = blockInUse, nil
	p.inUse++
	p.mu.Unlock()
	poolPtrs.mu.Lock()
	if poolPtrs.m == nil {
		poolPtrs.m = map[uintptr]poolRef{}
	}
	poolPtrs.m[b.base] = poolRef{p, b}
	poolPtrs.mu.Unlock()
	if waitOn != nil {
		// The freeing stream may be gone by now: its queue then ran or
		// dropped the free, and the block is free to use.
		ev := p.dev.Emu.TS.NewEventUnpooled(0)
		if waitOn.Queue(t, fn, tsfw.RecordTask(ev), core.Queued{Sync: ev, Internal: true}) == nil {
			if err := s.Submit(t, fn, tsfw.WaitTask(ev)); err != nil {
				ev.Destroy()
				p.release(b)
				return err
			}
		}
		ev.Destroy()
	}
	*out = b.base
	return nil
}

// pickLocked returns the smallest reusable block of at least want bytes
// for stream s, taking it off the free list, and the stream s must wait
// for when the block's free is still queued on another stream and nothing
// orders it before s yet.
// Precondition: p.mu held.
func (p *memPool) pickLocked(want uint64, s *core.Stream) (*poolBlock, *core.Stream) {
	best, bestWait := -1, false
	for i, b := range p.free {
		if b.size < want || (best >= 0 && b.size >= p.free[best].size) {
			continue
		}
		wait := false
		switch {
		case b.stream == s:
		case p.followEvents == 1 && b.stream != nil && poolOrdered(s, b.stream, b.seq):
		case b.state == blockIdle && p.opportunistic == 1:
		case b.state == blockPending && p.internalDeps == 1:
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
	var waitOn *core.Stream
	if bestWait {
		waitOn = b.stream
	}
	return b, waitOn
}

// growLocked reserves a new block of size bytes from HBM, first handing
// idle blocks back when the pool would exceed maxSize.
// Precondition: p.mu held.
func (p *memPool) growLocked(fn string, size uint64) (*poolBlock, error) {
	if size > p.maxSize {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: %d bytes exceed the pool's maxSize %d", fn, size, p.maxSize)
	}
	if p.reserved+size > p.maxSize {
		p.trimLocked(p.maxSize - size)
		if p.reserved+size > p.maxSize {
			return nil, abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION,
				"%s: %d bytes: the pool has %d of its maxSize %d bytes reserved and none of it reusable by this stream", fn, size, p.reserved, p.maxSize)
		}
	}
	addr, err := p.dev.Emu.HBM.Alloc(size, poolAlign)
	if err != nil {
		return nil, abi.Wrapf(err, "%s: %d bytes on device %d", fn, size, p.dev.ID)
	}
	p.reserved += size
	p.reservedHigh = max(p.reservedHigh, p.reserved)
	noteUsage(p.dev, abi.APP_MODULE_ID, int64(size))
	return &poolBlock{base: addr, size: size}, nil
}

// release undoes a MallocAsync whose stream wait could not be queued.
func (p *memPool) release(b *poolBlock) {
	poolPtrs.mu.Lock()
	delete(poolPtrs.m, b.base)
	poolPtrs.mu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inUse--
	p.used -= b.size
	b.state = blockIdle
	p.free = append(p.free, b)
}

// trimLocked hands idle blocks back to HBM, largest first, while the pool
// reserves more than keep bytes. Pending blocks stay: queued work may
// still use them. Precondition: p.mu held.
func (p *memPool) trimLocked(keep uint64) {
	sort.Slice(p.free, func(i, j int) bool { return p.free[i].size > p.free[j].size })
	kept := p.free[:0]
	for _, b := range p.free {
		if p.reserved > keep && b.state == blockIdle {
			p.dropLocked(b)
			continue
		}
		kept = append(kept, b)
	}
	clear(p.free[len(kept):])
	p.free = kept
}

// dropLocked returns b's memory to HBM. Precondition: p.mu held.
func (p *memPool) dropLocked(b *poolBlock) {
	_, _ = p.dev.Emu.HBM.Free(b.base)
	p.reserved -= b.size
	noteUsage(p.dev, abi.APP_MODULE_ID, -int64(b.size))
}

// MemPoolFreeAsync implements aclrtMemPoolFreeAsync: the block returns to
// its pool when the stream reaches the free (and at once for later
// allocations on the same stream).
func MemPoolFreeAsync(t *core.Thread, ptr uintptr, sh core.Handle) error {
	const fn = "aclrtMemPoolFreeAsync"
	if ptr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	s, err := poolStream(t, fn, sh)
	if err != nil {
		return err
	}
	poolPtrs.mu.Lock()
	r, ok := poolPtrs.m[ptr]
	if ok && r.p.dev != s.Ctx.Dev {
		poolPtrs.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: %#x belongs to a pool of device %d, the stream to device %d", fn, ptr, r.p.dev.ID, s.Ctx.Dev.ID)
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
	p.mu.Lock()
	b.gen++
	gen := b.gen
	b.state, b.stream, b.seq = blockPending, s, seq
	p.free = append(p.free, b)
	p.inUse--
	p.mu.Unlock()
	if err := s.Submit(t, fn, tsfw.HostTask(func() error { p.freeDone(b, gen); return nil })); err != nil {
		p.mu.Lock()
		for i, x := range p.free {
			if x == b {
				p.free = append(p.free[:i], p.free[i+1:]...)
				break
			}
		}
		b.state, b.stream = blockInUse, nil
		p.inUse++
		p.mu.Unlock()
		poolPtrs.mu.Lock()
		poolPtrs.m[ptr] = r
		poolPtrs.mu.Unlock()
		return err
	}
	return nil
}

// freeDone runs when the stream reaches a FreeAsync: the block becomes
// idle unless it was reused since (gen changed); a destroyed pool hands it
// back to HBM.
func (p *memPool) freeDone(b *poolBlock, gen uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if b.gen != gen || b.state != blockPending {
		return
	}
	b.state = blockIdle
	p.used -= b.size
	if p.dead {
		p.trimLocked(0)
	}
}

// livePools returns the pools of device d, destroyed ones included while
// frees are still queued for them (forgotten once empty).
func livePools(d *core.Device) []*memPool {
	if !pools.ever.Load() {
		return nil
	}
	pools.mu.Lock()
	defer pools.mu.Unlock()
	var out []*memPool
	for p := range pools.set {
		p.mu.Lock()
		gone := p.dead && len(p.free) == 0
		p.mu.Unlock()
		if gone {
			delete(pools.set, p)
			continue
		}
		if p.dev == d {
			out = append(out, p)
		}
	}
	return out
}

// poolsSynced applies RELEASE_THRESHOLD after stream s was synchronised:
// the pools of its device give idle memory above the threshold back.
func poolsSynced(s *core.Stream) { poolsSyncedDevice(s.Ctx.Dev) }

// poolsSyncedDevice applies RELEASE_THRESHOLD to the pools of d after a
// synchronise that involved it: aclrtSynchronizeStream, -Device and
// -Event (and their WithTimeout forms) all make frees that were reached
// idle, and the threshold caps what the pool keeps of them.
func poolsSyncedDevice(d *core.Device) {
	for _, p := range livePools(d) {
		p.mu.Lock()
		if p.reserved > p.threshold {
			p.trimLocked(p.threshold)
		}
		p.mu.Unlock()
	}
}

// poolStreamGone settles the frees queued on a destroyed stream: its queue
// ran or dropped them, so the blocks are idle.
func poolStreamGone(s *core.Stream) {
	poolDepsStreamGone(s)
	for _, p := range livePools(s.Ctx.Dev) {
		p.mu.Lock()
		for _, b := range p.free {
			if b.stream == s {
				if b.state == blockPending {
					b.state = blockIdle
					p.used -= b.size
				}
				b.stream = nil
			}
		}
		if p.dead {
			p.trimLocked(0)
		}
		p.mu.Unlock()
	}
}

// MemPoolTrimTo implements aclrtMemPoolTrimTo: idle memory goes back to
// the device until the pool reserves at most minBytesToKeep bytes (or
// nothing idle is left), whatever the release threshold.
func MemPoolTrimTo(t *core.Thread, h core.Handle, keep uint64) error {
	const fn = "aclrtMemPoolTrimTo"
	p, err := resolvePool(fn, h)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.trimLocked(keep)
	p.mu.Unlock()
	return nil
}

// frontier maps a stream to the number of its pool frees some stream or
// event record is known to be ordered after.
type frontier map[*core.Stream]uint64

// poolDeps tracks the event dependencies REUSE_FOLLOW_EVENT_DEPENDENCIES
// follows. It stays empty (and its hooks cost one atomic load) until the
// first aclrtMemPoolFreeAsync of the process.
var poolDeps struct {
	active atomic.Bool

	mu    sync.Mutex                // guards the maps below; a leaf lock
	frees map[*core.Stream]uint64   // FreeAsync calls issued per stream
	known map[*core.Stream]frontier // per stream: other streams' frees it waited for
	cover map[*core.Event]frontier  // per event: its last record's snapshot
}

// poolFreeIssued numbers a new FreeAsync on s.
func poolFreeIssued(s *core.Stream) uint64 {
	poolDeps.mu.Lock()
	defer poolDeps.mu.Unlock()
	if poolDeps.frees == nil {
		poolDeps.frees = map[*core.Stream]uint64{}
		poolDeps.known = map[*core.Stream]frontier{}
		poolDeps.cover = map[*core.Event]frontier{}
		poolDeps.active.Store(true)
	}
	poolDeps.frees[s]++
	return poolDeps.frees[s]
}

// poolOrdered reports whether stream s waited, through events, for the
// seq-th free of stream a. Lock order: memPool.mu → poolDeps.mu.
func poolOrdered(s, a *core.Stream, seq uint64) bool {
	if !poolDeps.active.Load() {
		return false
	}
	poolDeps.mu.Lock()
	defer poolDeps.mu.Unlock()
	return poolDeps.known[s][a] >= seq
}

// executes reports whether a task submitted to s runs now, in stream
// order, rather than being recorded (capture, model build): only the
// former orders frees.
func executes(s *core.Stream) bool {
	return recorderOf(s) == nil && s.Flags&abi.ACL_STREAM_PERSISTENT == 0
}

// poolEventRecorded notes that e was recorded on s: the record covers
// every free s is ordered after, and replaces the previous snapshot.
func poolEventRecorded(e *core.Event, s *core.Stream) {
	if !poolDeps.active.Load() {
		return
	}
	poolDeps.mu.Lock()
	defer poolDeps.mu.Unlock()
	if !executes(s) {
		delete(poolDeps.cover, e)
		return
	}
	k, own := poolDeps.known[s], poolDeps.frees[s]
	if len(k) == 0 && own == 0 {
		delete(poolDeps.cover, e)
		return
	}
	f := make(frontier, len(k)+1)
	for a, n := range k {
		f[a] = n
	}
	if own > 0 {
		f[s] = own
	}
	poolDeps.cover[e] = f
}

// poolEventWaited notes that s waits for e's last record: s is ordered
// after every free the record covers.
func poolEventWaited(s *core.Stream, e *core.Event) {
	if !poolDeps.active.Load() {
		return
	}
	poolDeps.mu.Lock()
	defer poolDeps.mu.Unlock()
	c := poolDeps.cover[e]
	if len(c) == 0 || !executes(s) {
		return
	}
	k := poolDeps.known[s]
	if k == nil {
		k = frontier{}
		poolDeps.known[s] = k
	}
	for a, n := range c {
		if a != s && k[a] < n {
			k[a] = n
		}
	}
}

// poolEventGone forgets e's snapshot: at destroy, and at reset (a wait on
// a reset event need not wait for the earlier record).
func poolEventGone(e *core.Event) {
	if !poolDeps.active.Load() {
		return
	}
	poolDeps.mu.Lock()
	delete(poolDeps.cover, e)
	poolDeps.mu.Unlock()
}

// poolDepsStreamGone forgets destroyed stream s everywhere: its blocks
// become idle without a stream (poolStreamGone), so no order through it is
// needed any more.
func poolDepsStreamGone(s *core.Stream) {
	if !poolDeps.active.Load() {
		return
	}
	poolDeps.mu.Lock()
	defer poolDeps.mu.Unlock()
	delete(poolDeps.frees, s)
	delete(poolDeps.known, s)
	for _, k := range poolDeps.known {
		delete(k, s)
	}
	for e, c := range poolDeps.cover {
		delete(c, s)
		if len(c) == 0 {
			delete(poolDeps.cover, e)
		}
	}
}

// registerPool records memory pool p (aclrtMemPoolCreate).
func registerPool(p *memPool) {
	core.Register(core.TableMemPools, core.Record{ID: uint64(p.h), Device: int(p.dev.ID),
		Summary: fmt.Sprintf("%#x: maxSize %d bytes", uintptr(p.h), p.maxSize)})
}

// livePoolBlocks lists the blocks of memory pools not freed with
// aclrtMemPoolFreeAsync, by address.
func livePoolBlocks() []core.Live {
	n := core.Runtime.Node.Load()
	type blk struct {
		base uintptr
		size uint64
		p    *memPool
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
	out := make([]core.Live, 0, len(bs))
	for _, b := range bs {
		out = append(out, core.Live{Kind: "pool block", Device: int(b.p.dev.ID),
			Summary: fmt.Sprintf("%#x: %d bytes of memory pool %#x", b.base, b.size, uintptr(b.p.h))})
	}
	return out
}
