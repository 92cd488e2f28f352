package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the notify, IPC notify and counting notify families
// (acl/notify.go, acl/cntnotify.go).

// handles views a C array of num handles; NULL or num 0 is nil.
func handles(p unsafe.Pointer, num C.size_t) []core.Handle {
	if p == nil || num == 0 {
		return nil
	}
	return callerSlice[core.Handle]("num", p, uint64(num))
}

//export npu_aclrtCreateNotify
func npu_aclrtCreateNotify(t *C.npu_thread, notify *C.aclrtNotify, flag C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CreateNotify(th, handleOut(unsafe.Pointer(notify)), uint64(flag)))
}

//export npu_aclrtDestroyNotify
func npu_aclrtDestroyNotify(t *C.npu_thread, notify C.aclrtNotify) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyNotify(th, handle(unsafe.Pointer(notify))))
}

//export npu_aclrtRecordNotify
func npu_aclrtRecordNotify(t *C.npu_thread, notify C.aclrtNotify, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.RecordNotify(th, handle(unsafe.Pointer(notify)), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtWaitAndResetNotify
func npu_aclrtWaitAndResetNotify(t *C.npu_thread, notify C.aclrtNotify, stream C.aclrtStream, timeout C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.WaitAndResetNotify(th, handle(unsafe.Pointer(notify)), handle(unsafe.Pointer(stream)), uint32(timeout)))
}

//export npu_aclrtGetNotifyId
func npu_aclrtGetNotifyId(t *C.npu_thread, notify C.aclrtNotify, notifyId *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetNotifyID(th, handle(unsafe.Pointer(notify)), (*uint32)(unsafe.Pointer(notifyId))))
}

//export npu_aclrtNotifyBatchReset
func npu_aclrtNotifyBatchReset(t *C.npu_thread, notifies *C.aclrtNotify, num C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.NotifyBatchReset(th, handles(unsafe.Pointer(notifies), num)))
}

//export npu_aclrtNotifyGetExportKey
func npu_aclrtNotifyGetExportKey(t *C.npu_thread, notify C.aclrtNotify, key *C.char, length C.size_t, flags C.uint64_t) C.aclError {
	th := thread(t)
	var buf []byte
	if key != nil {
		buf = callerSlice[byte]("len", unsafe.Pointer(key), uint64(length))
	}
	return ret(th, acl.NotifyGetExportKey(th, handle(unsafe.Pointer(notify)), buf, uint64(flags)))
}

//export npu_aclrtNotifySetImportPid
func npu_aclrtNotifySetImportPid(t *C.npu_thread, notify C.aclrtNotify, pid *C.int32_t, num C.size_t) C.aclError {
	th := thread(t)
	var pids []int32
	if pid != nil && num > 0 {
		pids = callerSlice[int32]("num", unsafe.Pointer(pid), uint64(num))
	}
	return ret(th, acl.NotifySetImportPid(th, handle(unsafe.Pointer(notify)), pids))
}

//export npu_aclrtNotifyImportByKey
func npu_aclrtNotifyImportByKey(t *C.npu_thread, notify *C.aclrtNotify, key *C.char, flags C.uint64_t) C.aclError {
	th := thread(t)
	if key == nil {
		return ret(th, acl.NotifyImportByKey(th, handleOut(unsafe.Pointer(notify)), "", uint64(flags)))
	}
	// A key is at most 64 characters; read up to its NUL, never further
	// than a key buffer can be.
	n := 0
	for n < 128 && *(*byte)(unsafe.Add(unsafe.Pointer(key), n)) != 0 {
		n++
	}
	k := string(unsafe.Slice((*byte)(unsafe.Pointer(key)), n))
	return ret(th, acl.NotifyImportByKey(th, handleOut(unsafe.Pointer(notify)), k, uint64(flags)))
}

//export npu_aclrtCntNotifyCreate
func npu_aclrtCntNotifyCreate(t *C.npu_thread, cntNotify *C.aclrtCntNotify, flag C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CntNotifyCreate(th, handleOut(unsafe.Pointer(cntNotify)), uint64(flag)))
}

//export npu_aclrtCntNotifyDestroy
func npu_aclrtCntNotifyDestroy(t *C.npu_thread, cntNotify C.aclrtCntNotify) C.aclError {
	th := thread(t)
	return ret(th, acl.CntNotifyDestroy(th, handle(unsafe.Pointer(cntNotify))))
}

//export npu_aclrtCntNotifyRecord
func npu_aclrtCntNotifyRecord(t *C.npu_thread, cntNotify C.aclrtCntNotify, stream C.aclrtStream, info *C.aclrtCntNotifyRecordInfo) C.aclError {
	th := thread(t)
	return ret(th, acl.CntNotifyRecord(th, handle(unsafe.Pointer(cntNotify)), handle(unsafe.Pointer(stream)), (*acl.CntNotifyRecordInfo)(unsafe.Pointer(info))))
}

//export npu_aclrtCntNotifyWaitWithTimeout
func npu_aclrtCntNotifyWaitWithTimeout(t *C.npu_thread, cntNotify C.aclrtCntNotify, stream C.aclrtStream, info *C.aclrtCntNotifyWaitInfo) C.aclError {
	th := thread(t)
	return ret(th, acl.CntNotifyWaitWithTimeout(th, handle(unsafe.Pointer(cntNotify)), handle(unsafe.Pointer(stream)), (*acl.CntNotifyWaitInfo)(unsafe.Pointer(info))))
}

//export npu_aclrtCntNotifyReset
func npu_aclrtCntNotifyReset(t *C.npu_thread, cntNotify C.aclrtCntNotify, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.CntNotifyReset(th, handle(unsafe.Pointer(cntNotify)), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtCntNotifyGetId
func npu_aclrtCntNotifyGetId(t *C.npu_thread, cntNotify C.aclrtCntNotify, notifyId *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CntNotifyGetID(th, handle(unsafe.Pointer(cntNotify)), (*uint32)(unsafe.Pointer(notifyId))))
}
