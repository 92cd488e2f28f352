package acl

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// Shared buffers (aclrtMbuf: aclrtAllocBuf, aclrtFreeBuf, aclrtGetBufData,
// aclrtGetBufDataLen, aclrtSetBufDataLen, aclrtGetBufUserData,
// aclrtSetBufUserData, aclrtCopyBufRef, aclrtAppendBufChain,
// aclrtGetBufChainNum, aclrtGetBufFromChain). An mbuf is a head (data
// length, a user-data area, a place in a chain) over a data area that
// several heads may share (aclrtCopyBufRef).
//
// Decisions (docs/groups.md, "Shared buffers"):
//   - The vendor documentation marks this API as reserved ("not supported
//     yet", acl-functions.tsv); npuemu implements the behaviour the
//     function descriptions give, on every SoC, rather than refusing it.
//   - The data area is pinned host memory of the node (the pool of
//     aclrtMallocHost), reachable by the host and by device tasks; its size
//     is the size asked for.
//   - A new mbuf's data length is its whole data area; aclrtSetBufDataLen
//     sets 0..size.
//   - The user-data area is mbufUserData (96) bytes of pinned host memory
//     per head, zero at allocation (rtMbufGetPrivInfo hands out its
//     address); Get/Set copy size bytes at offset, size+offset <= 96.
//   - aclrtCopyBufRef makes a new head over the same data area (data
//     length and user data copied); the data area is freed with its last
//     head.
//   - aclrtAppendBufChain appends an mbuf that is in no chain to the chain
//     of a head that is no chain's tail member; index 0 of a chain is its
//     head. aclrtFreeBuf of a head frees its whole chain; freeing an
//     appended member alone is refused.

// kindMbuf tags aclrtMbuf handles.
const kindMbuf handleKind = 0x3B

// mbufUserData is the size of an mbuf's user-data area.
const mbufUserData = 96

// mbufData is a data area shared by the heads that reference it.
type mbufData struct {
	node *emu.Node
	addr uintptr
	size uint64
	refs int // guarded by mbufs.mu
}

// Mbuf is one aclrtMbuf head. Its fields are guarded by mbufs.mu.
type Mbuf struct {
	h       Handle
	data    *mbufData
	dataLen uint64
	user    uintptr // mbufUserData bytes of pinned host memory
	chain   []*Mbuf // the chain this head starts (itself first); nil for members
	inChain *Mbuf   // the head of the chain this mbuf was appended to
}

// mbufs guards every Mbuf's fields and the data areas' reference counts.
var mbufs struct {
	mu sync.Mutex // leaf, except that the handle table's lock nests inside
}

var mbufTable = newTable[Mbuf](kindMbuf)

// mbufOf resolves an aclrtMbuf handle for fn.
func mbufOf(fn, name string, h Handle) (*Mbuf, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s must not be NULL", fn, name)
	}
	if k, _, _ := h.parts(); k != kindMbuf {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s %#x is not an aclrtMbuf", fn, name, uintptr(h))
	}
	m, err := mbufTable.get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s %#x was freed or never allocated", fn, name, uintptr(h))
	}
	// aclFinalize ends the node and its pinned memory: an mbuf of an
	// earlier node is gone, never touched.
	if n, err := theNode(); err != nil || n != m.data.node {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s %#x belonged to a runtime that aclFinalize ended", fn, name, uintptr(h))
	}
	return m, nil
}

// AllocBuf implements aclrtAllocBuf: an mbuf with a data area of size
// bytes.
func AllocBuf(t *Thread, out *Handle, size uint64) error {
	const fn = "aclrtAllocBuf"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: buf must not be NULL", fn)
	}
	if size == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	}
	_, n, err := soc(fn)
	if err != nil {
		return err
	}
	p, err := n.Host().Alloc(size)
	if err != nil {
		return abi.Errorf(abi.CodeOf(err), "%s: %d bytes: %s", fn, size, messageOf(err))
	}
	user, err := newUserArea(fn, n)
	if err != nil {
		_ = n.Host().Free(p)
		return err
	}
	m := &Mbuf{data: &mbufData{node: n, addr: p, size: size, refs: 1}, dataLen: size, user: user}
	mbufs.mu.Lock()
	m.h = mbufTable.add(m)
	mbufs.mu.Unlock()
	*out = m.h
	return nil
}

// releaseLocked drops m's handle and its reference to the data area,
// freeing the area with its last head.
// Precondition: mbufs.mu held.
func (m *Mbuf) releaseLocked() error {
	mbufTable.remove(m.h)
	if err := m.data.node.Host().Free(m.user); err != nil {
		return err
	}
	m.data.refs--
	if m.data.refs == 0 {
		return m.data.node.Host().Free(m.data.addr)
	}
	return nil
}

// FreeBuf implements aclrtFreeBuf: the mbuf and, for a chain's head, every
// mbuf appended to it.
func FreeBuf(t *Thread, h Handle) error {
	const fn = "aclrtFreeBuf"
	m, err := mbufOf(fn, "buf", h)
	if err != nil {
		return err
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	if m.inChain != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: mbuf %#x is appended to the chain of %#x: free the chain's head", fn, uintptr(h), uintptr(m.inChain.h))
	}
	members := m.chain
	if members == nil {
		members = []*Mbuf{m}
	}
	var first error
	for _, x := range members {
		if err := x.releaseLocked(); err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return abi.Errorf(abi.CodeOf(first), "%s: %s", fn, messageOf(first))
	}
	return nil
}

// GetBufData implements aclrtGetBufData: the data area's address and size.
func GetBufData(t *Thread, h Handle, data *uintptr, size *uint64) error {
	const fn = "aclrtGetBufData"
	m, err := mbufOf(fn, "buf", h)
	if err != nil {
		return err
	}
	if data == nil || size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataPtr and size must not be NULL", fn)
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	*data, *size = m.data.addr, m.data.size
	return nil
}

// GetBufDataLen implements aclrtGetBufDataLen.
func GetBufDataLen(t *Thread, h Handle, n *uint64) error {
	const fn = "aclrtGetBufDataLen"
	m, err := mbufOf(fn, "buf", h)
	if err != nil {
		return err
	}
	if n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: len must not be NULL", fn)
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	*n = m.dataLen
	return nil
}

// SetBufDataLen implements aclrtSetBufDataLen: 0..the data area's size.
func SetBufDataLen(t *Thread, h Handle, n uint64) error {
	const fn = "aclrtSetBufDataLen"
	m, err := mbufOf(fn, "buf", h)
	if err != nil {
		return err
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	if n > m.data.size {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: len %d exceeds the data area (%d bytes)", fn, n, m.data.size)
	}
	m.dataLen = n
	return nil
}

// userRange checks size bytes at offset of the user-data area.
func userRange(fn string, size, offset uint64) error {
	if size == 0 || size > mbufUserData || offset > mbufUserData-size {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %d bytes at offset %d: the user-data area is %d bytes (size > 0, size + offset <= %d)", fn, size, offset, mbufUserData, mbufUserData)
	}
	return nil
}

// GetBufUserData implements aclrtGetBufUserData: len(dst) bytes of the
// user-data area at offset into dst.
func GetBufUserData(t *Thread, h Handle, dst []byte, offset uint64) error {
	const fn = "aclrtGetBufUserData"
	m, err := mbufOf(fn, "buf", h)
	if err != nil {
		return err
	}
	if dst == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataPtr must not be NULL", fn)
	}
	if err := userRange(fn, uint64(len(dst)), offset); err != nil {
		return err
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	copy(dst, hostBytes(m.user, mbufUserData)[offset:])
	return nil
}

// SetBufUserData implements aclrtSetBufUserData: src into the user-data
// area at offset.
func SetBufUserData(t *Thread, h Handle, src []byte, offset uint64) error {
	const fn = "aclrtSetBufUserData"
	m, err := mbufOf(fn, "buf", h)
	if err != nil {
		return err
	}
	if src == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataPtr must not be NULL", fn)
	}
	if err := userRange(fn, uint64(len(src)), offset); err != nil {
		return err
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	copy(hostBytes(m.user, mbufUserData)[offset:], src)
	return nil
}

// CopyBufRef implements aclrtCopyBufRef: a new head over buf's data area.
func CopyBufRef(t *Thread, h Handle, out *Handle) error {
	const fn = "aclrtCopyBufRef"
	m, err := mbufOf(fn, "buf", h)
	if err != nil {
		return err
	}
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: newBuf must not be NULL", fn)
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	user, err := newUserArea(fn, m.data.node)
	if err != nil {
		return err
	}
	copyHostBytes(user, m.user, mbufUserData)
	c := &Mbuf{data: m.data, dataLen: m.dataLen, user: user}
	m.data.refs++
	c.h = mbufTable.add(c)
	*out = c.h
	return nil
}

// AppendBufChain implements aclrtAppendBufChain: buf joins the end of
// head's chain.
func AppendBufChain(t *Thread, head, buf Handle) error {
	const fn = "aclrtAppendBufChain"
	hm, err := mbufOf(fn, "headBuf", head)
	if err != nil {
		return err
	}
	bm, err := mbufOf(fn, "buf", buf)
	if err != nil {
		return err
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	switch {
	case hm == bm:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: an mbuf cannot be appended to itself", fn)
	case hm.inChain != nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: headBuf %#x is itself a member of the chain of %#x", fn, uintptr(head), uintptr(hm.inChain.h))
	case bm.inChain != nil || len(bm.chain) > 1:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: buf %#x already belongs to a chain", fn, uintptr(buf))
	}
	if hm.chain == nil {
		hm.chain = []*Mbuf{hm}
	}
	hm.chain = append(hm.chain, bm)
	bm.inChain = hm
	return nil
}

// GetBufChainNum implements aclrtGetBufChainNum: the mbufs of head's
// chain, head included.
func GetBufChainNum(t *Thread, head Handle, num *uint32) error {
	const fn = "aclrtGetBufChainNum"
	hm, err := mbufOf(fn, "headBuf", head)
	if err != nil {
		return err
	}
	if num == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: num must not be NULL", fn)
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	if hm.inChain != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is a member of the chain of %#x, not a head", fn, uintptr(head), uintptr(hm.inChain.h))
	}
	*num = uint32(max(len(hm.chain), 1))
	return nil
}

// GetBufFromChain implements aclrtGetBufFromChain: member index of head's
// chain (0 is head).
func GetBufFromChain(t *Thread, head Handle, index uint32, out *Handle) error {
	const fn = "aclrtGetBufFromChain"
	hm, err := mbufOf(fn, "headBuf", head)
	if err != nil {
		return err
	}
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: buf must not be NULL", fn)
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	if hm.inChain != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is a member of the chain of %#x, not a head", fn, uintptr(head), uintptr(hm.inChain.h))
	}
	chain := hm.chain
	if chain == nil {
		chain = []*Mbuf{hm}
	}
	if int(index) >= len(chain) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: index %d: the chain has %d mbufs", fn, index, len(chain))
	}
	*out = chain[index].h
	return nil
}

// newUserArea allocates a zeroed user-data area on n.
func newUserArea(fn string, n *emu.Node) (uintptr, error) {
	p, err := n.Host().Alloc(mbufUserData)
	if err != nil {
		return 0, abi.Errorf(abi.CodeOf(err), "%s: user-data area: %s", fn, messageOf(err))
	}
	clear(hostBytes(p, mbufUserData))
	return p, nil
}

// MbufView is what the rt* mbuf calls read of one head.
type MbufView struct {
	Data, User     uintptr
	Size, UserSize uint64
}

// MbufInfo returns the data area and the user-data area of mbuf h (the
// rt* layer's rtMbufGetBuffAddr, rtMbufGetBuffSize, rtMbufGetPrivInfo).
func MbufInfo(fn string, h Handle) (MbufView, error) {
	m, err := mbufOf(fn, "memBuf", h)
	if err != nil {
		return MbufView{}, err
	}
	mbufs.mu.Lock()
	defer mbufs.mu.Unlock()
	return MbufView{Data: m.data.addr, Size: m.data.size, User: m.user, UserSize: mbufUserData}, nil
}

// copyHostBytes copies n bytes of C memory from src to dst. It is not
// inlined: a copy of a constant size between two views of C memory
// crashes the go1.26 compiler (ssa.disjointTypes).
//
//go:noinline
func copyHostBytes(dst, src uintptr, n uint64) {
	copy(hostBytes(dst, n), hostBytes(src, n))
}
