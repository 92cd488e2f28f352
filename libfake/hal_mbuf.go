package main

/*
#include <stddef.h>
#include "ascend_hal.h"
#include "npu.h"
#include "stack.h"

enum {
    npu_off_QueueAttr_flowCtrlDropTime = offsetof(QueueAttr, flowCtrlDropTime),
    npu_off_QueueAttr_overWriteFlag = offsetof(QueueAttr, overWriteFlag),
};
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/stack"
)

// Exports of the driver's mbuf and queue families (hal/mbuf.go,
// hal/queue.go), and the wiring of their rt/stack boundary: the runtime's
// rtMbuf* calls reach an interposed halMbuf* definition. An Mbuf * is a
// tagged handle (hal.MbufTag), carried as a uintptr.

// QueueAttr's Go mirror must have the C layout.
var (
	_ [unsafe.Sizeof(hal.QueueAttr{}) - C.sizeof_QueueAttr]byte
	_ [C.sizeof_QueueAttr - unsafe.Sizeof(hal.QueueAttr{})]byte
	_ [unsafe.Offsetof(hal.QueueAttr{}.FlowCtrlDropTime) - C.npu_off_QueueAttr_flowCtrlDropTime]byte
	_ [C.npu_off_QueueAttr_flowCtrlDropTime - unsafe.Offsetof(hal.QueueAttr{}.FlowCtrlDropTime)]byte
	_ [unsafe.Offsetof(hal.QueueAttr{}.OverWriteFlag) - C.npu_off_QueueAttr_overWriteFlag]byte
	_ [C.npu_off_QueueAttr_overWriteFlag - unsafe.Offsetof(hal.QueueAttr{}.OverWriteFlag)]byte
)

// mbufOf is the handle value of an Mbuf * argument.
func mbufOf(p unsafe.Pointer) uintptr { return uintptr(p) }

// mbufOut is an Mbuf ** (or void **) output as a *uintptr.
func mbufOut(p unsafe.Pointer) *uintptr { return (*uintptr)(p) }

//export npu_halMbufAlloc
func npu_halMbufAlloc(t *C.npu_thread, size C.uint64_t, mbuf **C.Mbuf) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufAlloc(uint64(size), mbufOut(unsafe.Pointer(mbuf)))))
}

//export npu_halMbufFree
func npu_halMbufFree(t *C.npu_thread, mbuf *C.Mbuf) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufFree(mbufOf(unsafe.Pointer(mbuf)))))
}

//export npu_halMbufGetBuffAddr
func npu_halMbufGetBuffAddr(t *C.npu_thread, mbuf *C.Mbuf, buf *unsafe.Pointer) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufGetBuffAddr(mbufOf(unsafe.Pointer(mbuf)), mbufOut(unsafe.Pointer(buf)))))
}

//export npu_halMbufGetBuffSize
func npu_halMbufGetBuffSize(t *C.npu_thread, mbuf *C.Mbuf, totalSize *C.uint64_t) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufGetBuffSize(mbufOf(unsafe.Pointer(mbuf)), (*uint64)(unsafe.Pointer(totalSize)))))
}

//export npu_halMbufGetDataLen
func npu_halMbufGetDataLen(t *C.npu_thread, mbuf *C.Mbuf, length *C.uint64_t) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufGetDataLen(mbufOf(unsafe.Pointer(mbuf)), (*uint64)(unsafe.Pointer(length)))))
}

//export npu_halMbufSetDataLen
func npu_halMbufSetDataLen(t *C.npu_thread, mbuf *C.Mbuf, length C.uint64_t) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufSetDataLen(mbufOf(unsafe.Pointer(mbuf)), uint64(length))))
}

//export npu_halMbufGetPrivInfo
func npu_halMbufGetPrivInfo(t *C.npu_thread, mbuf *C.Mbuf, priv *unsafe.Pointer, size *C.uint) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufGetPrivInfo(mbufOf(unsafe.Pointer(mbuf)), mbufOut(unsafe.Pointer(priv)), (*uint32)(unsafe.Pointer(size)))))
}

//export npu_halMbufCopyRef
func npu_halMbufCopyRef(t *C.npu_thread, mbuf *C.Mbuf, newMbuf **C.Mbuf) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufCopyRef(mbufOf(unsafe.Pointer(mbuf)), mbufOut(unsafe.Pointer(newMbuf)))))
}

//export npu_halMbufChainAppend
func npu_halMbufChainAppend(t *C.npu_thread, mbufChainHead *C.Mbuf, mbuf *C.Mbuf) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufChainAppend(mbufOf(unsafe.Pointer(mbufChainHead)), mbufOf(unsafe.Pointer(mbuf)))))
}

//export npu_halMbufChainGetMbufNum
func npu_halMbufChainGetMbufNum(t *C.npu_thread, mbufChainHead *C.Mbuf, num *C.uint) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufChainGetMbufNum(mbufOf(unsafe.Pointer(mbufChainHead)), (*uint32)(unsafe.Pointer(num)))))
}

//export npu_halMbufChainGetMbuf
func npu_halMbufChainGetMbuf(t *C.npu_thread, mbufChainHead *C.Mbuf, index C.uint, mbuf **C.Mbuf) C.int {
	th := thread(t)
	return C.int(retDrv(th, hal.MbufChainGetMbuf(mbufOf(unsafe.Pointer(mbufChainHead)), uint32(index), mbufOut(unsafe.Pointer(mbuf)))))
}

//export npu_halQueueInit
func npu_halQueueInit(t *C.npu_thread, devId C.uint) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.QueueInit(uint32(devId)))
}

//export npu_halQueueCreate
func npu_halQueueCreate(t *C.npu_thread, devId C.uint, queAttr *C.QueueAttr, qid *C.uint) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.QueueCreate(uint32(devId), (*hal.QueueAttr)(unsafe.Pointer(queAttr)), (*uint32)(unsafe.Pointer(qid))))
}

//export npu_halQueueDestroy
func npu_halQueueDestroy(t *C.npu_thread, devId C.uint, qid C.uint) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.QueueDestroy(uint32(devId), uint32(qid)))
}

//export npu_halQueueEnQueue
func npu_halQueueEnQueue(t *C.npu_thread, devId C.uint, qid C.uint, mbuf unsafe.Pointer) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.QueueEnQueue(uint32(devId), uint32(qid), mbufOf(mbuf)))
}

//export npu_halQueueDeQueue
func npu_halQueueDeQueue(t *C.npu_thread, devId C.uint, qid C.uint, mbuf *unsafe.Pointer) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.QueueDeQueue(uint32(devId), uint32(qid), mbufOut(unsafe.Pointer(mbuf))))
}

//export npu_halQueuePeek
func npu_halQueuePeek(t *C.npu_thread, devId C.uint, qid C.uint, bufLen *C.uint64_t, timeout C.int) C.drvError_t {
	th := thread(t)
	return retDrv(th, hal.QueuePeek(uint32(devId), uint32(qid), (*uint64)(unsafe.Pointer(bufLen)), int32(timeout)))
}

// wireHALMbuf sets the stack.HALMbuf field of every mbuf call another
// library interposed (called once by wireStack).
func wireHALMbuf() {
	set := func(i C.int) bool { return C.npu_cross[i] != nil }
	drv := func(i C.int, r C.int32_t) error { return crossedDrv(i, int32(r)) }
	if set(C.NPU_X_halMbufAlloc) {
		stack.HALMbuf.Alloc = func(size uint64, out *uintptr) error {
			var m C.uintptr_t
			r := C.npu_x_halMbufAlloc(C.uint64_t(size), &m)
			*out = uintptr(m)
			return drv(C.NPU_X_halMbufAlloc, r)
		}
	}
	if set(C.NPU_X_halMbufFree) {
		stack.HALMbuf.Free = func(m uintptr) error {
			return drv(C.NPU_X_halMbufFree, C.npu_x_halMbufFree(C.uintptr_t(m)))
		}
	}
	if set(C.NPU_X_halMbufGetBuffAddr) {
		stack.HALMbuf.GetBuffAddr = func(m uintptr, buf *uintptr) error {
			var p C.uintptr_t
			r := C.npu_x_halMbufGetBuffAddr(C.uintptr_t(m), &p)
			*buf = uintptr(p)
			return drv(C.NPU_X_halMbufGetBuffAddr, r)
		}
	}
	if set(C.NPU_X_halMbufGetBuffSize) {
		stack.HALMbuf.GetBuffSize = func(m uintptr, size *uint64) error {
			var n C.uint64_t
			r := C.npu_x_halMbufGetBuffSize(C.uintptr_t(m), &n)
			*size = uint64(n)
			return drv(C.NPU_X_halMbufGetBuffSize, r)
		}
	}
	if set(C.NPU_X_halMbufGetDataLen) {
		stack.HALMbuf.GetDataLen = func(m uintptr, length *uint64) error {
			var n C.uint64_t
			r := C.npu_x_halMbufGetDataLen(C.uintptr_t(m), &n)
			*length = uint64(n)
			return drv(C.NPU_X_halMbufGetDataLen, r)
		}
	}
	if set(C.NPU_X_halMbufSetDataLen) {
		stack.HALMbuf.SetDataLen = func(m uintptr, length uint64) error {
			return drv(C.NPU_X_halMbufSetDataLen, C.npu_x_halMbufSetDataLen(C.uintptr_t(m), C.uint64_t(length)))
		}
	}
	if set(C.NPU_X_halMbufGetPrivInfo) {
		stack.HALMbuf.GetPrivInfo = func(m uintptr, priv *uintptr, size *uint32) error {
			var p C.uintptr_t
			var n C.uint32_t
			r := C.npu_x_halMbufGetPrivInfo(C.uintptr_t(m), &p, &n)
			*priv, *size = uintptr(p), uint32(n)
			return drv(C.NPU_X_halMbufGetPrivInfo, r)
		}
	}
	if set(C.NPU_X_halMbufCopyRef) {
		stack.HALMbuf.CopyRef = func(m uintptr, out *uintptr) error {
			var c C.uintptr_t
			r := C.npu_x_halMbufCopyRef(C.uintptr_t(m), &c)
			*out = uintptr(c)
			return drv(C.NPU_X_halMbufCopyRef, r)
		}
	}
	if set(C.NPU_X_halMbufChainAppend) {
		stack.HALMbuf.ChainAppend = func(head, m uintptr) error {
			return drv(C.NPU_X_halMbufChainAppend, C.npu_x_halMbufChainAppend(C.uintptr_t(head), C.uintptr_t(m)))
		}
	}
	if set(C.NPU_X_halMbufChainGetMbufNum) {
		stack.HALMbuf.ChainGetMbufNum = func(head uintptr, num *uint32) error {
			var n C.uint32_t
			r := C.npu_x_halMbufChainGetMbufNum(C.uintptr_t(head), &n)
			*num = uint32(n)
			return drv(C.NPU_X_halMbufChainGetMbufNum, r)
		}
	}
	if set(C.NPU_X_halMbufChainGetMbuf) {
		stack.HALMbuf.ChainGetMbuf = func(head uintptr, index uint32, out *uintptr) error {
			var m C.uintptr_t
			r := C.npu_x_halMbufChainGetMbuf(C.uintptr_t(head), C.uint32_t(index), &m)
			*out = uintptr(m)
			return drv(C.NPU_X_halMbufChainGetMbuf, r)
		}
	}
}
