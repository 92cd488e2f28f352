package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of the shared-buffer family (acl/mbuf.go). The opaque aclrtMbuf
// the application holds is an acl.Handle.

// mbufUserMax bounds the slices built over the caller's user-data
// buffers (the area is 96 bytes; larger sizes are refused by acl).
const mbufUserMax = 4096

//export npu_aclrtAllocBuf
func npu_aclrtAllocBuf(t *C.npu_thread, buf *C.aclrtMbuf, size C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocBuf(th, handleOut(unsafe.Pointer(buf)), uint64(size)))
}

//export npu_aclrtFreeBuf
func npu_aclrtFreeBuf(t *C.npu_thread, buf C.aclrtMbuf) C.aclError {
	th := thread(t)
	return ret(th, acl.FreeBuf(th, handle(unsafe.Pointer(buf))))
}

//export npu_aclrtGetBufData
func npu_aclrtGetBufData(t *C.npu_thread, buf C.aclrtMbuf, dataPtr *unsafe.Pointer, size *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetBufData(th, handle(unsafe.Pointer(buf)), (*uintptr)(unsafe.Pointer(dataPtr)), (*uint64)(unsafe.Pointer(size))))
}

//export npu_aclrtGetBufDataLen
func npu_aclrtGetBufDataLen(t *C.npu_thread, buf C.aclrtMbuf, length *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetBufDataLen(th, handle(unsafe.Pointer(buf)), (*uint64)(unsafe.Pointer(length))))
}

//export npu_aclrtSetBufDataLen
func npu_aclrtSetBufDataLen(t *C.npu_thread, buf C.aclrtMbuf, length C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetBufDataLen(th, handle(unsafe.Pointer(buf)), uint64(length)))
}

// userBytes is the caller's user-data buffer as a slice: nil for NULL, a
// zero-length slice for sizes acl refuses anyway.
func userBytes(p unsafe.Pointer, size C.size_t) []byte {
	switch {
	case p == nil:
		return nil
	case size == 0 || size > mbufUserMax:
		return []byte{}
	}
	return unsafe.Slice((*byte)(p), int(size))
}

//export npu_aclrtGetBufUserData
func npu_aclrtGetBufUserData(t *C.npu_thread, buf C.aclrtMbuf, dataPtr unsafe.Pointer, size C.size_t, offset C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetBufUserData(th, handle(unsafe.Pointer(buf)), userBytes(dataPtr, size), uint64(offset)))
}

//export npu_aclrtSetBufUserData
func npu_aclrtSetBufUserData(t *C.npu_thread, buf C.aclrtMbuf, dataPtr unsafe.Pointer, size C.size_t, offset C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetBufUserData(th, handle(unsafe.Pointer(buf)), userBytes(dataPtr, size), uint64(offset)))
}

//export npu_aclrtCopyBufRef
func npu_aclrtCopyBufRef(t *C.npu_thread, buf C.aclrtMbuf, newBuf *C.aclrtMbuf) C.aclError {
	th := thread(t)
	return ret(th, acl.CopyBufRef(th, handle(unsafe.Pointer(buf)), handleOut(unsafe.Pointer(newBuf))))
}

//export npu_aclrtAppendBufChain
func npu_aclrtAppendBufChain(t *C.npu_thread, headBuf C.aclrtMbuf, buf C.aclrtMbuf) C.aclError {
	th := thread(t)
	return ret(th, acl.AppendBufChain(th, handle(unsafe.Pointer(headBuf)), handle(unsafe.Pointer(buf))))
}

//export npu_aclrtGetBufChainNum
func npu_aclrtGetBufChainNum(t *C.npu_thread, headBuf C.aclrtMbuf, num *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetBufChainNum(th, handle(unsafe.Pointer(headBuf)), (*uint32)(unsafe.Pointer(num))))
}

//export npu_aclrtGetBufFromChain
func npu_aclrtGetBufFromChain(t *C.npu_thread, headBuf C.aclrtMbuf, index C.uint32_t, buf *C.aclrtMbuf) C.aclError {
	th := thread(t)
	return ret(th, acl.GetBufFromChain(th, handle(unsafe.Pointer(headBuf)), uint32(index), handleOut(unsafe.Pointer(buf))))
}
