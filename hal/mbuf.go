package hal

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// The driver's shared buffers (halMbufAlloc, halMbufFree,
// halMbufGetBuffAddr, halMbufGetBuffSize, halMbufGetDataLen,
// halMbufSetDataLen, halMbufGetPrivInfo, halMbufCopyRef,
// halMbufChainAppend, halMbufChainGetMbufNum, halMbufChainGetMbuf): the one
// model of mbufs. The runtime's rtMbuf* calls and ACL's aclrt*Buf calls
// rest on it (through rt/stack), as on the real stack, where an rtMbufPtr_t
// and an aclrtMbuf are the driver's Mbuf *. The prototypes are not in
// hal-api.md; cmd/specgen/hal_public.go records where they come from.
//
// An mbuf is a head (data length, a private area, a place in a chain) over
// a data area that several heads may share (halMbufCopyRef). Decisions
// (docs/hal.md, "Buffers and queues"):
//   - the data area is pinned host memory of the node (the pool of
//     aclrtMallocHost and halMemAlloc(MEM_HOST)), of exactly the size asked
//     for: the host writes it and device copies reach it;
//   - a new mbuf's data length is its whole data area; SetDataLen accepts
//     0..size;
//   - each head has a private area (halMbufGetPrivInfo) of MbufPrivSize
//     bytes of pinned host memory, zero at allocation;
//   - CopyRef makes a new head over the same data area (data length and
//     private area copied); the data area is freed with its last head;
//   - ChainAppend appends an mbuf that is in no chain (and starts none) to
//     the end of a head's chain; index 0 of a chain is its head; freeing a
//     head frees its chain; freeing an appended member alone is refused;
//   - a Mbuf * is a tagged handle, not an address (MbufTag in the top
//     byte, a generation, a slot): a freed or foreign value is
//     DRV_ERROR_INVALID_VALUE, never a crash. An mbuf of a node that
//     aclFinalize closed is gone (its memory went with the node);
//   - every bad argument is DRV_ERROR_INVALID_VALUE; a pool that cannot
//     hold the data area is DRV_ERROR_OUT_OF_MEMORY.

// MbufPrivSize is the size of an mbuf's private area (the runtime's
// rtMbufGetPrivInfo and ACL's user data, aclrtGetBufUserData).
const MbufPrivSize = 96

// MbufTag is the top byte of every Mbuf * npuemu hands out (the same tag
// ACL's handles of shared buffers carried before the driver owned them).
const MbufTag = 0x3B

// mbufData is a data area shared by the heads that reference it.
type mbufData struct {
	node *emu.Node
	addr uintptr
	size uint64
	refs int // guarded by mbufs.mu
}

// mbufHead is one Mbuf. Its fields are guarded by mbufs.mu.
type mbufHead struct {
	h       uintptr
	data    *mbufData
	dataLen uint64
	priv    uintptr      // MbufPrivSize bytes of pinned host memory
	chain   []*mbufHead  // the chain this head starts (itself first); nil for none
	inChain *mbufHead    // the head of the chain this mbuf was appended to
	queued  *queueRecord // the queue holding this mbuf, nil when none
}

// mbufs is the driver's table of heads.
var mbufs struct {
	mu    sync.Mutex // leaf, except that queues.mu is taken before it
	slots []*mbufHead
	gens  []uint32
	free  []uint32
	node  *emu.Node // the node of the last allocation
}

const mbufGenMask = 1<<24 - 1

func mbufHandle(gen, idx uint32) uintptr {
	return uintptr(uint64(MbufTag)<<56 | uint64(gen&mbufGenMask)<<32 | uint64(idx))
}

// addLocked gives m a handle.
// Precondition: mbufs.mu held.
func (m *mbufHead) addLocked() {
	var idx uint32
	if n := len(mbufs.free); n > 0 {
		idx = mbufs.free[n-1]
		mbufs.free = mbufs.free[:n-1]
	} else {
		idx = uint32(len(mbufs.slots))
		mbufs.slots = append(mbufs.slots, nil)
		mbufs.gens = append(mbufs.gens, 0)
	}
	mbufs.gens[idx]++
	mbufs.slots[idx] = m
	m.h = mbufHandle(mbufs.gens[idx], idx)
}

// removeLocked ends m's handle.
// Precondition: mbufs.mu held.
func (m *mbufHead) removeLocked() {
	idx := uint32(uint64(m.h))
	mbufs.slots[idx] = nil
	mbufs.free = append(mbufs.free, idx)
}

// mbufLocked resolves handle h for fn (name is the parameter's name).
// Precondition: mbufs.mu held.
func mbufLocked(fn, name string, h uintptr) (*mbufHead, error) {
	if h == 0 {
		return nil, nullArg(fn, name)
	}
	v := uint64(h)
	idx, gen := uint32(v), uint32(v>>32)&mbufGenMask
	if v>>56 != MbufTag || uint64(idx) >= uint64(len(mbufs.slots)) || mbufs.slots[idx] == nil || mbufs.gens[idx]&mbufGenMask != gen {
		return nil, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %s %#x is no mbuf (freed, or never allocated)", fn, name, h)
	}
	m := mbufs.slots[idx]
	if m.data.node != emu.Loaded() {
		// aclFinalize closed the node, and its memory with it.
		m.removeLocked()
		return nil, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %s %#x belonged to an emulated node that was closed (aclFinalize)", fn, name, h)
	}
	return m, nil
}

// newPrivArea allocates a zeroed private area on n.
func newPrivArea(fn string, n *emu.Node) (uintptr, error) {
	p, err := n.Host().Alloc(MbufPrivSize)
	if err != nil {
		return 0, abi.DrvErrorf(abi.DRV_ERROR_OUT_OF_MEMORY, "%s: private area: %s", fn, message(err))
	}
	clear(bytesAt(p, MbufPrivSize))
	return p, nil
}

// MbufAlloc implements halMbufAlloc: an mbuf with a data area of size
// bytes.
func MbufAlloc(size uint64, out *uintptr) error {
	const fn = "halMbufAlloc"
	if out == nil {
		return nullArg(fn, "mbuf")
	}
	if size == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: size must not be 0", fn)
	}
	n, err := node(fn)
	if err != nil {
		return err
	}
	p, err := n.Host().Alloc(size)
	if err != nil {
		return abi.DrvErrorf(abi.DRV_ERROR_OUT_OF_MEMORY, "%s: %d bytes: %s", fn, size, message(err))
	}
	priv, err := newPrivArea(fn, n)
	if err != nil {
		_ = n.Host().Free(p)
		return err
	}
	m := &mbufHead{data: &mbufData{node: n, addr: p, size: size, refs: 1}, dataLen: size, priv: priv}
	mbufs.mu.Lock()
	if mbufs.node != n {
		// A new node: the heads of closed ones are gone (their memory
		// went with their node); end their handles now.
		for _, x := range mbufs.slots {
			if x != nil && x.data.node != n {
				x.removeLocked()
			}
		}
		mbufs.node = n
	}
	m.addLocked()
	mbufs.mu.Unlock()
	*out = m.h
	return nil
}

// releaseLocked ends m's handle and its reference to the data area,
// freeing the area with its last head.
// Precondition: mbufs.mu held.
func (m *mbufHead) releaseLocked() error {
	m.removeLocked()
	first := m.data.node.Host().Free(m.priv)
	m.data.refs--
	if m.data.refs == 0 {
		if err := m.data.node.Host().Free(m.data.addr); first == nil {
			first = err
		}
	}
	return first
}

// freeLocked frees head m and the chain it starts.
// Precondition: mbufs.mu held; m starts no chain's membership (inChain nil).
func (m *mbufHead) freeLocked(fn string) error {
	members := m.chain
	if members == nil {
		members = []*mbufHead{m}
	}
	var first error
	for _, x := range members {
		if err := x.releaseLocked(); err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return drvWrap(fn, first)
	}
	return nil
}

// MbufFree implements halMbufFree: the mbuf and, for a chain's head, every
// mbuf appended to it.
func MbufFree(h uintptr) error {
	const fn = "halMbufFree"
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	m, err := mbufLocked(fn, "mbuf", h)
	if err != nil {
		return err
	}
	switch {
	case m.inChain != nil:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: mbuf %#x is appended to the chain of %#x: free the chain's head", fn, h, m.inChain.h)
	case m.queued != nil:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: mbuf %#x is in queue %d: dequeue it first", fn, h, m.queued.qid)
	}
	return m.freeLocked(fn)
}

// MbufGetBuffAddr implements halMbufGetBuffAddr: the data area's address.
func MbufGetBuffAddr(h uintptr, buf *uintptr) error {
	const fn = "halMbufGetBuffAddr"
	if buf == nil {
		return nullArg(fn, "buf")
	}
	return withMbuf(fn, h, func(m *mbufHead) error { *buf = m.data.addr; return nil })
}

// MbufGetBuffSize implements halMbufGetBuffSize: the data area's size.
func MbufGetBuffSize(h uintptr, size *uint64) error {
	const fn = "halMbufGetBuffSize"
	if size == nil {
		return nullArg(fn, "totalSize")
	}
	return withMbuf(fn, h, func(m *mbufHead) error { *size = m.data.size; return nil })
}

// MbufGetDataLen implements halMbufGetDataLen.
func MbufGetDataLen(h uintptr, n *uint64) error {
	const fn = "halMbufGetDataLen"
	if n == nil {
		return nullArg(fn, "len")
	}
	return withMbuf(fn, h, func(m *mbufHead) error { *n = m.dataLen; return nil })
}

// MbufSetDataLen implements halMbufSetDataLen: 0..the data area's size.
func MbufSetDataLen(h uintptr, n uint64) error {
	const fn = "halMbufSetDataLen"
	return withMbuf(fn, h, func(m *mbufHead) error {
		if n > m.data.size {
			return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: len %d exceeds the data area (%d bytes)", fn, n, m.data.size)
		}
		m.dataLen = n
		return nil
	})
}

// MbufGetPrivInfo implements halMbufGetPrivInfo: the private area's
// address and size.
func MbufGetPrivInfo(h uintptr, priv *uintptr, size *uint32) error {
	const fn = "halMbufGetPrivInfo"
	if priv == nil || size == nil {
		return nullArg(fn, "priv and size")
	}
	return withMbuf(fn, h, func(m *mbufHead) error { *priv, *size = m.priv, MbufPrivSize; return nil })
}

// withMbuf runs f on the live mbuf h under the family's lock (f takes no
// other lock).
func withMbuf(fn string, h uintptr, f func(m *mbufHead) error) error {
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	m, err := mbufLocked(fn, "mbuf", h)
	if err != nil {
		return err
	}
	return f(m)
}

// MbufCopyRef implements halMbufCopyRef: a new head over h's data area,
// with h's data length and a copy of its private area.
func MbufCopyRef(h uintptr, out *uintptr) error {
	const fn = "halMbufCopyRef"
	if out == nil {
		return nullArg(fn, "newMbuf")
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	m, err := mbufLocked(fn, "mbuf", h)
	if err != nil {
		return err
	}
	priv, err := newPrivArea(fn, m.data.node)
	if err != nil {
		return err
	}
	copyHostN(priv, m.priv, MbufPrivSize)
	c := &mbufHead{data: m.data, dataLen: m.dataLen, priv: priv}
	m.data.refs++
	c.addLocked()
	*out = c.h
	return nil
}

// MbufChainAppend implements halMbufChainAppend: h joins the end of head's
// chain.
func MbufChainAppend(head, h uintptr) error {
	const fn = "halMbufChainAppend"
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	hm, err := mbufLocked(fn, "mbufChainHead", head)
	if err != nil {
		return err
	}
	bm, err := mbufLocked(fn, "mbuf", h)
	if err != nil {
		return err
	}
	switch {
	case hm == bm:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: an mbuf cannot be appended to itself", fn)
	case hm.inChain != nil:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: mbufChainHead %#x is itself a member of the chain of %#x", fn, head, hm.inChain.h)
	case bm.inChain != nil || len(bm.chain) > 1:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: mbuf %#x already belongs to a chain", fn, h)
	case bm.queued != nil:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: mbuf %#x is in queue %d", fn, h, bm.queued.qid)
	}
	if hm.chain == nil {
		hm.chain = []*mbufHead{hm}
	}
	hm.chain = append(hm.chain, bm)
	bm.inChain = hm
	return nil
}

// chainLocked is the chain head h starts, head first.
// Precondition: mbufs.mu held.
func chainLocked(fn string, h uintptr) ([]*mbufHead, error) {
	hm, err := mbufLocked(fn, "mbufChainHead", h)
	if err != nil {
		return nil, err
	}
	if hm.inChain != nil {
		return nil, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x is a member of the chain of %#x, not a head", fn, h, hm.inChain.h)
	}
	if hm.chain == nil {
		return []*mbufHead{hm}, nil
	}
	return hm.chain, nil
}

// MbufChainGetMbufNum implements halMbufChainGetMbufNum: the mbufs of
// head's chain, head included.
func MbufChainGetMbufNum(head uintptr, num *uint32) error {
	const fn = "halMbufChainGetMbufNum"
	if num == nil {
		return nullArg(fn, "num")
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	chain, err := chainLocked(fn, head)
	if err != nil {
		return err
	}
	*num = uint32(len(chain))
	return nil
}

// MbufChainGetMbuf implements halMbufChainGetMbuf: member index of head's
// chain (0 is head).
func MbufChainGetMbuf(head uintptr, index uint32, out *uintptr) error {
	const fn = "halMbufChainGetMbuf"
	if out == nil {
		return nullArg(fn, "mbuf")
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	chain, err := chainLocked(fn, head)
	if err != nil {
		return err
	}
	if uint64(index) >= uint64(len(chain)) {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: index %d: the chain has %d mbufs", fn, index, len(chain))
	}
	*out = chain[index].h
	return nil
}

// MbufLive reports how many mbuf heads of the current node are allocated
// (tests and leak checks).
func MbufLive() int {
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	n, cur := 0, emu.Loaded()
	for _, m := range mbufs.slots {
		if m != nil && m.data.node == cur {
			n++
		}
	}
	return n
}

// copyHostN copies n bytes of C memory from src to dst. It is not inlined
// and takes the size as a parameter: a copy of a constant size between two
// views of C memory crashes the go1.26 compiler (ssa.disjointTypes).
//
//go:noinline
func copyHostN(dst, src uintptr, n uint64) {
	copy(bytesAt(dst, n), bytesAt(src, n))
}
