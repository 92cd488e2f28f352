package rt

import (
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// The runtime's mbuf calls: each is one call of the driver's mbuf family
// (rt-to-hal.tsv), made through rt/stack so that an interposed hal*
// definition sees it. An rtMbufPtr_t is the driver's Mbuf * (and an
// aclrtMbuf, rt-types.md). Driver errors are converted by rt-types.md
// §8.4 (DRV_ERROR_INVALID_VALUE → ACL_ERROR_RT_PARAM_INVALID, ...); the
// runtime's own NULL checks answer ACL_ERROR_RT_PARAM_INVALID before the
// driver is asked.

// MbufAlloc implements rtMbufAlloc.
func MbufAlloc(t *core.Thread, out *core.Handle, size uint64) error {
	const fn = "rtMbufAlloc"
	if out == nil {
		return invalid(fn, "memBuf must not be NULL")
	}
	var m uintptr
	if err := stack.MbufAlloc(size, &m); err != nil {
		return wrap(fn, err)
	}
	*out = core.Handle(m)
	return nil
}

// MbufFree implements rtMbufFree.
func MbufFree(t *core.Thread, h core.Handle) error {
	return wrap("rtMbufFree", stack.MbufFree(uintptr(h)))
}

// MbufSetDataLen implements rtMbufSetDataLen.
func MbufSetDataLen(t *core.Thread, h core.Handle, n uint64) error {
	return wrap("rtMbufSetDataLen", stack.MbufSetDataLen(uintptr(h), n))
}

// MbufGetDataLen implements rtMbufGetDataLen.
func MbufGetDataLen(t *core.Thread, h core.Handle, n *uint64) error {
	const fn = "rtMbufGetDataLen"
	if n == nil {
		return invalid(fn, "len must not be NULL")
	}
	return wrap(fn, stack.MbufGetDataLen(uintptr(h), n))
}

// MbufGetBuffAddr implements rtMbufGetBuffAddr: the data area.
func MbufGetBuffAddr(t *core.Thread, h core.Handle, addr *uintptr) error {
	const fn = "rtMbufGetBuffAddr"
	if addr == nil {
		return invalid(fn, "buf must not be NULL")
	}
	return wrap(fn, stack.MbufGetBuffAddr(uintptr(h), addr))
}

// MbufGetBuffSize implements rtMbufGetBuffSize: the data area's size.
func MbufGetBuffSize(t *core.Thread, h core.Handle, size *uint64) error {
	const fn = "rtMbufGetBuffSize"
	if size == nil {
		return invalid(fn, "totalSize must not be NULL")
	}
	return wrap(fn, stack.MbufGetBuffSize(uintptr(h), size))
}

// MbufGetPrivInfo implements rtMbufGetPrivInfo: the private area
// (aclrtGetBufUserData's bytes) and its size, widened to the runtime's
// uint64_t.
func MbufGetPrivInfo(t *core.Thread, h core.Handle, priv *uintptr, size *uint64) error {
	const fn = "rtMbufGetPrivInfo"
	if priv == nil || size == nil {
		return invalid(fn, "priv and size must not be NULL")
	}
	var p uintptr
	var n uint32
	if err := stack.MbufGetPrivInfo(uintptr(h), &p, &n); err != nil {
		return wrap(fn, err)
	}
	*priv, *size = p, uint64(n)
	return nil
}

// MbufCopyBufRef implements rtMbufCopyBufRef.
func MbufCopyBufRef(t *core.Thread, h core.Handle, out *core.Handle) error {
	const fn = "rtMbufCopyBufRef"
	if out == nil {
		return invalid(fn, "newMemBuf must not be NULL")
	}
	var m uintptr
	if err := stack.MbufCopyRef(uintptr(h), &m); err != nil {
		return wrap(fn, err)
	}
	*out = core.Handle(m)
	return nil
}

// MbufChainAppend implements rtMbufChainAppend.
func MbufChainAppend(t *core.Thread, head, h core.Handle) error {
	return wrap("rtMbufChainAppend", stack.MbufChainAppend(uintptr(head), uintptr(h)))
}

// MbufChainGetMbufNum implements rtMbufChainGetMbufNum.
func MbufChainGetMbufNum(t *core.Thread, head core.Handle, num *uint32) error {
	const fn = "rtMbufChainGetMbufNum"
	if num == nil {
		return invalid(fn, "num must not be NULL")
	}
	return wrap(fn, stack.MbufChainGetMbufNum(uintptr(head), num))
}

// MbufChainGetMbuf implements rtMbufChainGetMbuf.
func MbufChainGetMbuf(t *core.Thread, head core.Handle, index uint32, out *core.Handle) error {
	const fn = "rtMbufChainGetMbuf"
	if out == nil {
		return invalid(fn, "memBuf must not be NULL")
	}
	var m uintptr
	if err := stack.MbufChainGetMbuf(uintptr(head), index, &m); err != nil {
		return wrap(fn, err)
	}
	*out = core.Handle(m)
	return nil
}
