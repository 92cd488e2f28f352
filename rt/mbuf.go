package rt

import "github.com/npuemu/npuemu/acl"

// The runtime's mbuf calls: an rtMbufPtr_t is an aclrtMbuf (rt-types.md),
// the objects are acl/mbuf.go's.

// MbufAlloc implements rtMbufAlloc.
func MbufAlloc(t *acl.Thread, out *acl.Handle, size uint64) error {
	return wrap("rtMbufAlloc", acl.AllocBuf(t, out, size))
}

// MbufFree implements rtMbufFree.
func MbufFree(t *acl.Thread, h acl.Handle) error { return wrap("rtMbufFree", acl.FreeBuf(t, h)) }

// MbufSetDataLen implements rtMbufSetDataLen.
func MbufSetDataLen(t *acl.Thread, h acl.Handle, n uint64) error {
	return wrap("rtMbufSetDataLen", acl.SetBufDataLen(t, h, n))
}

// MbufGetDataLen implements rtMbufGetDataLen.
func MbufGetDataLen(t *acl.Thread, h acl.Handle, n *uint64) error {
	return wrap("rtMbufGetDataLen", acl.GetBufDataLen(t, h, n))
}

// MbufGetBuffAddr implements rtMbufGetBuffAddr: the data area.
func MbufGetBuffAddr(t *acl.Thread, h acl.Handle, addr *uintptr) error {
	const fn = "rtMbufGetBuffAddr"
	if addr == nil {
		return invalid(fn, "buf must not be NULL")
	}
	m, err := acl.MbufInfo(fn, h)
	if err != nil {
		return wrap(fn, err)
	}
	*addr = m.Data
	return nil
}

// MbufGetBuffSize implements rtMbufGetBuffSize: the data area's size.
func MbufGetBuffSize(t *acl.Thread, h acl.Handle, size *uint64) error {
	const fn = "rtMbufGetBuffSize"
	if size == nil {
		return invalid(fn, "totalSize must not be NULL")
	}
	m, err := acl.MbufInfo(fn, h)
	if err != nil {
		return wrap(fn, err)
	}
	*size = m.Size
	return nil
}

// MbufGetPrivInfo implements rtMbufGetPrivInfo: the user-data area
// (aclrtGetBufUserData's bytes) and its size.
func MbufGetPrivInfo(t *acl.Thread, h acl.Handle, priv *uintptr, size *uint64) error {
	const fn = "rtMbufGetPrivInfo"
	if priv == nil || size == nil {
		return invalid(fn, "priv and size must not be NULL")
	}
	m, err := acl.MbufInfo(fn, h)
	if err != nil {
		return wrap(fn, err)
	}
	*priv, *size = m.User, m.UserSize
	return nil
}

// MbufCopyBufRef implements rtMbufCopyBufRef.
func MbufCopyBufRef(t *acl.Thread, h acl.Handle, out *acl.Handle) error {
	return wrap("rtMbufCopyBufRef", acl.CopyBufRef(t, h, out))
}

// MbufChainAppend implements rtMbufChainAppend.
func MbufChainAppend(t *acl.Thread, head, h acl.Handle) error {
	return wrap("rtMbufChainAppend", acl.AppendBufChain(t, head, h))
}

// MbufChainGetMbufNum implements rtMbufChainGetMbufNum.
func MbufChainGetMbufNum(t *acl.Thread, head acl.Handle, num *uint32) error {
	return wrap("rtMbufChainGetMbufNum", acl.GetBufChainNum(t, head, num))
}

// MbufChainGetMbuf implements rtMbufChainGetMbuf.
func MbufChainGetMbuf(t *acl.Thread, head acl.Handle, index uint32, out *acl.Handle) error {
	return wrap("rtMbufChainGetMbuf", acl.GetBufFromChain(t, head, index, out))
}
