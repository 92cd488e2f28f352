package stack

import "github.com/npuemu/npuemu/hal"

// HALMbufCalls are the runtime's calls into the driver's mbuf family
// (rt-to-hal.tsv: rtMbufAlloc → halMbufAlloc, ..., rtMbufChainGetMbuf →
// halMbufChainGetMbuf). They cross into libascend_hal.so in both layouts,
// so the ACL shared-buffer calls (aclrtAllocBuf → rtMbufAlloc, ...) reach
// an interposed definition too. A nil field calls the hal package
// directly; a set one calls the interposed definition and returns its
// result as a driver error (nil for DRV_ERROR_NONE). An Mbuf * is a
// uintptr here.
type HALMbufCalls struct {
	Alloc           func(size uint64, out *uintptr) error
	Free            func(m uintptr) error
	GetBuffAddr     func(m uintptr, buf *uintptr) error
	GetBuffSize     func(m uintptr, size *uint64) error
	GetDataLen      func(m uintptr, n *uint64) error
	SetDataLen      func(m uintptr, n uint64) error
	GetPrivInfo     func(m uintptr, priv *uintptr, size *uint32) error
	CopyRef         func(m uintptr, out *uintptr) error
	ChainAppend     func(head, m uintptr) error
	ChainGetMbufNum func(head uintptr, num *uint32) error
	ChainGetMbuf    func(head uintptr, index uint32, out *uintptr) error
}

// HALMbuf is set once at load; see HALMbufCalls.
var HALMbuf HALMbufCalls

// MbufAlloc is halMbufAlloc as the runtime calls it.
func MbufAlloc(size uint64, out *uintptr) error {
	if f := HALMbuf.Alloc; f != nil {
		return f(size, out)
	}
	return hal.MbufAlloc(size, out)
}

// MbufFree is halMbufFree as the runtime calls it.
func MbufFree(m uintptr) error {
	if f := HALMbuf.Free; f != nil {
		return f(m)
	}
	return hal.MbufFree(m)
}

// MbufGetBuffAddr is halMbufGetBuffAddr as the runtime calls it.
func MbufGetBuffAddr(m uintptr, buf *uintptr) error {
	if f := HALMbuf.GetBuffAddr; f != nil {
		return f(m, buf)
	}
	return hal.MbufGetBuffAddr(m, buf)
}

// MbufGetBuffSize is halMbufGetBuffSize as the runtime calls it.
func MbufGetBuffSize(m uintptr, size *uint64) error {
	if f := HALMbuf.GetBuffSize; f != nil {
		return f(m, size)
	}
	return hal.MbufGetBuffSize(m, size)
}

// MbufGetDataLen is halMbufGetDataLen as the runtime calls it.
func MbufGetDataLen(m uintptr, n *uint64) error {
	if f := HALMbuf.GetDataLen; f != nil {
		return f(m, n)
	}
	return hal.MbufGetDataLen(m, n)
}

// MbufSetDataLen is halMbufSetDataLen as the runtime calls it.
func MbufSetDataLen(m uintptr, n uint64) error {
	if f := HALMbuf.SetDataLen; f != nil {
		return f(m, n)
	}
	return hal.MbufSetDataLen(m, n)
}

// MbufGetPrivInfo is halMbufGetPrivInfo as the runtime calls it.
func MbufGetPrivInfo(m uintptr, priv *uintptr, size *uint32) error {
	if f := HALMbuf.GetPrivInfo; f != nil {
		return f(m, priv, size)
	}
	return hal.MbufGetPrivInfo(m, priv, size)
}

// MbufCopyRef is halMbufCopyRef as the runtime calls it.
func MbufCopyRef(m uintptr, out *uintptr) error {
	if f := HALMbuf.CopyRef; f != nil {
		return f(m, out)
	}
	return hal.MbufCopyRef(m, out)
}

// MbufChainAppend is halMbufChainAppend as the runtime calls it.
func MbufChainAppend(head, m uintptr) error {
	if f := HALMbuf.ChainAppend; f != nil {
		return f(head, m)
	}
	return hal.MbufChainAppend(head, m)
}

// MbufChainGetMbufNum is halMbufChainGetMbufNum as the runtime calls it.
func MbufChainGetMbufNum(head uintptr, num *uint32) error {
	if f := HALMbuf.ChainGetMbufNum; f != nil {
		return f(head, num)
	}
	return hal.MbufChainGetMbufNum(head, num)
}

// MbufChainGetMbuf is halMbufChainGetMbuf as the runtime calls it.
func MbufChainGetMbuf(head uintptr, index uint32, out *uintptr) error {
	if f := HALMbuf.ChainGetMbuf; f != nil {
		return f(head, index, out)
	}
	return hal.MbufChainGetMbuf(head, index, out)
}
