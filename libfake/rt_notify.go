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

// Exports of the runtime's rts* notify and counting-notify calls
// (rt/notify.go, rt/cntnotify.go, round 8). Handles are the ACL ones
// (rtNotify_t == aclrtNotify, rtCntNotify_t == aclrtCntNotify).

//export npu_rtsNotifyCreate
func npu_rtsNotifyCreate(t *C.npu_thread, notify *C.rtNotify_t, flag C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.NotifyCreate(th, handleOut(unsafe.Pointer(notify)), uint64(flag))))
}

//export npu_rtsNotifyDestroy
func npu_rtsNotifyDestroy(t *C.npu_thread, notify C.rtNotify_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.NotifyDestroy(th, handle(unsafe.Pointer(notify)))))
}

//export npu_rtsNotifyRecord
func npu_rtsNotifyRecord(t *C.npu_thread, notify C.rtNotify_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.NotifyRecord(th, handle(unsafe.Pointer(notify)), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsNotifyWaitAndReset
func npu_rtsNotifyWaitAndReset(t *C.npu_thread, notify C.rtNotify_t, stm C.rtStream_t, timeout C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.NotifyWaitAndReset(th, handle(unsafe.Pointer(notify)), handle(unsafe.Pointer(stm)), uint32(timeout))))
}

//export npu_rtsNotifyGetId
func npu_rtsNotifyGetId(t *C.npu_thread, notify C.rtNotify_t, notifyId *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.NotifyGetID(th, handle(unsafe.Pointer(notify)), (*uint32)(unsafe.Pointer(notifyId)))))
}

//export npu_rtsNotifyBatchReset
func npu_rtsNotifyBatchReset(t *C.npu_thread, notifies *C.rtNotify_t, num C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.NotifyBatchReset(th, handles(unsafe.Pointer(notifies), C.size_t(num)))))
}

//export npu_rtsNotifyGetExportKey
func npu_rtsNotifyGetExportKey(t *C.npu_thread, notify C.rtNotify_t, key *C.char_t, length C.uint32_t, flag C.uint64_t) C.rtError_t {
	th := thread(t)
	var buf []byte
	if key != nil {
		buf = callerSlice[byte]("len", unsafe.Pointer(key), uint64(length))
	}
	return C.rtError_t(ret(th, rt.NotifyGetExportKey(th, handle(unsafe.Pointer(notify)), buf, uint64(flag))))
}

//export npu_rtsNotifyImportByKey
func npu_rtsNotifyImportByKey(t *C.npu_thread, notify *C.rtNotify_t, key *C.char_t, flag C.uint64_t) C.rtError_t {
	th := thread(t)
	k := ""
	if key != nil {
		// A key is at most 64 characters; read up to its NUL, never
		// further than a key buffer can be.
		n := 0
		for n < 128 && *(*byte)(unsafe.Add(unsafe.Pointer(key), n)) != 0 {
			n++
		}
		k = string(unsafe.Slice((*byte)(unsafe.Pointer(key)), n))
	}
	return C.rtError_t(ret(th, rt.NotifyImportByKey(th, handleOut(unsafe.Pointer(notify)), k, uint64(flag))))
}

//export npu_rtsNotifySetImportPid
func npu_rtsNotifySetImportPid(t *C.npu_thread, notify C.rtNotify_t, pid *C.int32_t, num C.int) C.rtError_t {
	th := thread(t)
	var pids []int32
	if pid != nil && num > 0 {
		pids = callerSlice[int32]("num", unsafe.Pointer(pid), uint64(num))
	}
	return C.rtError_t(ret(th, rt.NotifySetImportPid(th, handle(unsafe.Pointer(notify)), pids)))
}

//export npu_rtCntNotifyCreateServer
func npu_rtCntNotifyCreateServer(t *C.npu_thread, cntNotify *C.rtCntNotify_t, flags C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CntNotifyCreateServer(th, handleOut(unsafe.Pointer(cntNotify)), uint64(flags))))
}

//export npu_rtCntNotifyDestroy
func npu_rtCntNotifyDestroy(t *C.npu_thread, inCntNotify C.rtCntNotify_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CntNotifyDestroy(th, handle(unsafe.Pointer(inCntNotify)))))
}

//export npu_rtsCntNotifyRecord
func npu_rtsCntNotifyRecord(t *C.npu_thread, cntNotify C.rtCntNotify_t, stm C.rtStream_t, info *C.rtCntNotifyRecordInfo_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CntNotifyRecord(th, handle(unsafe.Pointer(cntNotify)), handle(unsafe.Pointer(stm)), (*rt.CntNotifyRecordInfo)(unsafe.Pointer(info)))))
}

//export npu_rtsCntNotifyWaitWithTimeout
func npu_rtsCntNotifyWaitWithTimeout(t *C.npu_thread, cntNotify C.rtCntNotify_t, stm C.rtStream_t, info *C.rtCntNotifyWaitInfo_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CntNotifyWaitWithTimeout(th, handle(unsafe.Pointer(cntNotify)), handle(unsafe.Pointer(stm)), (*rt.CntNotifyWaitInfo)(unsafe.Pointer(info)))))
}

//export npu_rtsCntNotifyReset
func npu_rtsCntNotifyReset(t *C.npu_thread, cntNotify C.rtCntNotify_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CntNotifyReset(th, handle(unsafe.Pointer(cntNotify)), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsCntNotifyGetId
func npu_rtsCntNotifyGetId(t *C.npu_thread, cntNotify C.rtCntNotify_t, notifyId *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CntNotifyGetID(th, handle(unsafe.Pointer(cntNotify)), (*uint32)(unsafe.Pointer(notifyId)))))
}
