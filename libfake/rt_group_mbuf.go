package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's core-group and mbuf calls (rt/group.go,
// rt/mbuf.go). An rtMbufPtr_t is the acl.Handle of an aclrtMbuf.

var (
	_ [unsafe.Sizeof(rt.GroupInfo{}) - C.sizeof_rtGroupInfo_t]byte
	_ [C.sizeof_rtGroupInfo_t - unsafe.Sizeof(rt.GroupInfo{})]byte
)

//export npu_rtGetGroupCount
func npu_rtGetGroupCount(t *C.npu_thread, cnt *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetGroupCount(th, (*uint32)(unsafe.Pointer(cnt)))))
}

//export npu_rtSetGroup
func npu_rtSetGroup(t *C.npu_thread, groupId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetGroup(th, int32(groupId))))
}

//export npu_rtGetGroupInfo
func npu_rtGetGroupInfo(t *C.npu_thread, groupId C.int32_t, groupInfo *C.rtGroupInfo_t, cnt C.uint32_t) C.rtError_t {
	th := thread(t)
	var out []rt.GroupInfo
	if groupInfo != nil && cnt > 0 && cnt <= 1<<16 {
		out = unsafe.Slice((*rt.GroupInfo)(unsafe.Pointer(groupInfo)), int(cnt))
	}
	return C.rtError_t(ret(th, rt.GetGroupInfo(th, int32(groupId), out)))
}

//export npu_rtMbufAlloc
func npu_rtMbufAlloc(t *C.npu_thread, memBuf *C.rtMbufPtr_t, size C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufAlloc(th, handleOut(unsafe.Pointer(memBuf)), uint64(size))))
}

//export npu_rtMbufFree
func npu_rtMbufFree(t *C.npu_thread, memBuf C.rtMbufPtr_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufFree(th, handle(unsafe.Pointer(memBuf)))))
}

//export npu_rtMbufSetDataLen
func npu_rtMbufSetDataLen(t *C.npu_thread, memBuf C.rtMbufPtr_t, length C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufSetDataLen(th, handle(unsafe.Pointer(memBuf)), uint64(length))))
}

//export npu_rtMbufGetDataLen
func npu_rtMbufGetDataLen(t *C.npu_thread, memBuf C.rtMbufPtr_t, length *C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufGetDataLen(th, handle(unsafe.Pointer(memBuf)), (*uint64)(unsafe.Pointer(length)))))
}

//export npu_rtMbufGetBuffAddr
func npu_rtMbufGetBuffAddr(t *C.npu_thread, memBuf C.rtMbufPtr_t, buf *unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufGetBuffAddr(th, handle(unsafe.Pointer(memBuf)), (*uintptr)(unsafe.Pointer(buf)))))
}

//export npu_rtMbufGetBuffSize
func npu_rtMbufGetBuffSize(t *C.npu_thread, memBuf C.rtMbufPtr_t, totalSize *C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufGetBuffSize(th, handle(unsafe.Pointer(memBuf)), (*uint64)(unsafe.Pointer(totalSize)))))
}

//export npu_rtMbufGetPrivInfo
func npu_rtMbufGetPrivInfo(t *C.npu_thread, memBuf C.rtMbufPtr_t, priv *unsafe.Pointer, size *C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufGetPrivInfo(th, handle(unsafe.Pointer(memBuf)), (*uintptr)(unsafe.Pointer(priv)), (*uint64)(unsafe.Pointer(size)))))
}

//export npu_rtMbufCopyBufRef
func npu_rtMbufCopyBufRef(t *C.npu_thread, memBuf C.rtMbufPtr_t, newMemBuf *C.rtMbufPtr_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufCopyBufRef(th, handle(unsafe.Pointer(memBuf)), handleOut(unsafe.Pointer(newMemBuf)))))
}

//export npu_rtMbufChainAppend
func npu_rtMbufChainAppend(t *C.npu_thread, memBufChainHead C.rtMbufPtr_t, memBuf C.rtMbufPtr_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufChainAppend(th, handle(unsafe.Pointer(memBufChainHead)), handle(unsafe.Pointer(memBuf)))))
}

//export npu_rtMbufChainGetMbufNum
func npu_rtMbufChainGetMbufNum(t *C.npu_thread, memBufChainHead C.rtMbufPtr_t, num *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufChainGetMbufNum(th, handle(unsafe.Pointer(memBufChainHead)), (*uint32)(unsafe.Pointer(num)))))
}

//export npu_rtMbufChainGetMbuf
func npu_rtMbufChainGetMbuf(t *C.npu_thread, memBufChainHead C.rtMbufPtr_t, index C.uint32_t, memBuf *C.rtMbufPtr_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MbufChainGetMbuf(th, handle(unsafe.Pointer(memBufChainHead)), uint32(index), handleOut(unsafe.Pointer(memBuf)))))
}
