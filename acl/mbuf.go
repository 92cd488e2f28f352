package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// Shared buffers (aclrtMbuf: aclrtAllocBuf, aclrtFreeBuf, aclrtGetBufData,
// aclrtGetBufDataLen, aclrtSetBufDataLen, aclrtGetBufUserData,
// aclrtSetBufUserData, aclrtCopyBufRef, aclrtAppendBufChain,
// aclrtGetBufChainNum, aclrtGetBufFromChain) rest on the driver's mbufs
// (hal/mbuf.go), as on the real stack (acl-to-rt.tsv, rt-to-hal.tsv):
//
//	aclrtAllocBuf        → rtMbufAlloc           → halMbufAlloc
//	aclrtFreeBuf         → rtMbufFree            → halMbufFree
//	aclrtGetBufData      → rtMbufGetBuffAddr/Size → halMbufGetBuffAddr/Size
//	aclrtGet/SetBufDataLen → rtMbufGet/SetDataLen → halMbufGet/SetDataLen
//	aclrtGet/SetBufUserData → rtMbufGetPrivInfo  → halMbufGetPrivInfo
//	aclrtCopyBufRef      → rtMbufCopyBufRef      → halMbufCopyRef
//	aclrtAppendBufChain, aclrtGetBufChainNum, aclrtGetBufFromChain
//	                     → rtMbufChain*          → halMbufChain*
//
// An aclrtMbuf is the driver's Mbuf *. The driver calls go through
// rt/stack, so a hook on the hal symbols sees an ACL program's buffers in
// both layouts; the aclrt* → rt* step binds inside npuemu in both layouts
// (not among the routed calls). ACL checks its own arguments first
// (ACL_ERROR_INVALID_PARAM); a handle the driver does not know
// (DRV_ERROR_INVALID_VALUE: freed, foreign, of a runtime aclFinalize ended,
// a chain member where a head is needed) is ACL_ERROR_INVALID_PARAM too, as
// npuemu's ACL answered before the driver owned the buffers; any other
// driver error is converted to the rt code (abi.RTCodeOf). Decisions in
// docs/groups.md, "Shared buffers": the vendor documentation marks this API
// as reserved; npuemu implements what the function descriptions say, on
// every SoC. The user data is the driver's private area
// (hal.MbufPrivSize bytes).

// mbufErr is the ACL error of fn for a driver call's error.
func mbufErr(fn string, err error) error {
	if err == nil {
		return nil
	}
	if abi.DrvCodeOf(err) == abi.DRV_ERROR_INVALID_VALUE {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s", fn, abi.MessageOf(err))
	}
	return abi.Errorf(abi.RTCodeOf(err), "%s: %s", fn, abi.MessageOf(err))
}

// nonNullBuf checks an aclrtMbuf argument.
func nonNullBuf(fn, name string, h core.Handle) error {
	if h == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s must not be NULL", fn, name)
	}
	return nil
}

// AllocBuf implements aclrtAllocBuf: an mbuf with a data area of size
// bytes.
func AllocBuf(t *core.Thread, out *core.Handle, size uint64) error {
	const fn = "aclrtAllocBuf"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: buf must not be NULL", fn)
	}
	if size == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	}
	if _, _, err := core.SoC(fn); err != nil {
		return err
	}
	var m uintptr
	if err := stack.MbufAlloc(size, &m); err != nil {
		return mbufErr(fn, err)
	}
	*out = core.Handle(m)
	return nil
}

// FreeBuf implements aclrtFreeBuf: the mbuf and, for a chain's head, every
// mbuf appended to it.
func FreeBuf(t *core.Thread, h core.Handle) error {
	const fn = "aclrtFreeBuf"
	if err := nonNullBuf(fn, "buf", h); err != nil {
		return err
	}
	return mbufErr(fn, stack.MbufFree(uintptr(h)))
}

// GetBufData implements aclrtGetBufData: the data area's address and size.
func GetBufData(t *core.Thread, h core.Handle, data *uintptr, size *uint64) error {
	const fn = "aclrtGetBufData"
	if err := nonNullBuf(fn, "buf", h); err != nil {
		return err
	}
	if data == nil || size == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataPtr and size must not be NULL", fn)
	}
	var p uintptr
	var n uint64
	if err := stack.MbufGetBuffAddr(uintptr(h), &p); err != nil {
		return mbufErr(fn, err)
	}
	if err := stack.MbufGetBuffSize(uintptr(h), &n); err != nil {
		return mbufErr(fn, err)
	}
	*data, *size = p, n
	return nil
}

// GetBufDataLen implements aclrtGetBufDataLen.
func GetBufDataLen(t *core.Thread, h core.Handle, n *uint64) error {
	const fn = "aclrtGetBufDataLen"
	if err := nonNullBuf(fn, "buf", h); err != nil {
		return err
	}
	if n == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: len must not be NULL", fn)
	}
	return mbufErr(fn, stack.MbufGetDataLen(uintptr(h), n))
}

// SetBufDataLen implements aclrtSetBufDataLen: 0..the data area's size.
func SetBufDataLen(t *core.Thread, h core.Handle, n uint64) error {
	const fn = "aclrtSetBufDataLen"
	if err := nonNullBuf(fn, "buf", h); err != nil {
		return err
	}
	return mbufErr(fn, stack.MbufSetDataLen(uintptr(h), n))
}

// userArea returns the address of size bytes at offset of h's user data
// (the driver's private area).
func userArea(fn string, h core.Handle, size, offset uint64) (uintptr, error) {
	if err := nonNullBuf(fn, "buf", h); err != nil {
		return 0, err
	}
	var p uintptr
	var n uint32
	if err := stack.MbufGetPrivInfo(uintptr(h), &p, &n); err != nil {
		return 0, mbufErr(fn, err)
	}
	if size == 0 || size > uint64(n) || offset > uint64(n)-size {
		return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %d bytes at offset %d: the user-data area is %d bytes (size > 0, size + offset <= %d)", fn, size, offset, n, n)
	}
	return p + uintptr(offset), nil
}

// GetBufUserData implements aclrtGetBufUserData: len(dst) bytes of the
// user-data area at offset into dst.
func GetBufUserData(t *core.Thread, h core.Handle, dst []byte, offset uint64) error {
	const fn = "aclrtGetBufUserData"
	if dst == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataPtr must not be NULL", fn)
	}
	p, err := userArea(fn, h, uint64(len(dst)), offset)
	if err != nil {
		return err
	}
	copy(dst, core.HostBytes(p, uint64(len(dst))))
	return nil
}

// SetBufUserData implements aclrtSetBufUserData: src into the user-data
// area at offset.
func SetBufUserData(t *core.Thread, h core.Handle, src []byte, offset uint64) error {
	const fn = "aclrtSetBufUserData"
	if src == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dataPtr must not be NULL", fn)
	}
	p, err := userArea(fn, h, uint64(len(src)), offset)
	if err != nil {
		return err
	}
	copy(core.HostBytes(p, uint64(len(src))), src)
	return nil
}

// CopyBufRef implements aclrtCopyBufRef: a new head over buf's data area.
func CopyBufRef(t *core.Thread, h core.Handle, out *core.Handle) error {
	const fn = "aclrtCopyBufRef"
	if err := nonNullBuf(fn, "buf", h); err != nil {
		return err
	}
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: newBuf must not be NULL", fn)
	}
	var m uintptr
	if err := stack.MbufCopyRef(uintptr(h), &m); err != nil {
		return mbufErr(fn, err)
	}
	*out = core.Handle(m)
	return nil
}

// AppendBufChain implements aclrtAppendBufChain: buf joins the end of
// head's chain.
func AppendBufChain(t *core.Thread, head, buf core.Handle) error {
	const fn = "aclrtAppendBufChain"
	if err := nonNullBuf(fn, "headBuf", head); err != nil {
		return err
	}
	if err := nonNullBuf(fn, "buf", buf); err != nil {
		return err
	}
	return mbufErr(fn, stack.MbufChainAppend(uintptr(head), uintptr(buf)))
}

// GetBufChainNum implements aclrtGetBufChainNum: the mbufs of head's
// chain, head included.
func GetBufChainNum(t *core.Thread, head core.Handle, num *uint32) error {
	const fn = "aclrtGetBufChainNum"
	if err := nonNullBuf(fn, "headBuf", head); err != nil {
		return err
	}
	if num == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: num must not be NULL", fn)
	}
	return mbufErr(fn, stack.MbufChainGetMbufNum(uintptr(head), num))
}

// GetBufFromChain implements aclrtGetBufFromChain: member index of head's
// chain (0 is head).
func GetBufFromChain(t *core.Thread, head core.Handle, index uint32, out *core.Handle) error {
	const fn = "aclrtGetBufFromChain"
	if err := nonNullBuf(fn, "headBuf", head); err != nil {
		return err
	}
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: buf must not be NULL", fn)
	}
	var m uintptr
	if err := stack.MbufChainGetMbuf(uintptr(head), index, &m); err != nil {
		return mbufErr(fn, err)
	}
	*out = core.Handle(m)
	return nil
}
