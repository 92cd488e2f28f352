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

// Exports of the runtime's rt* IPC memory family (rt/ipc.go).

//export npu_rtsIpcMemGetExportKey
func npu_rtsIpcMemGetExportKey(t *C.npu_thread, ptr unsafe.Pointer, size C.size_t, key *C.char_t, length C.uint32_t, flags C.uint64_t) C.rtError_t {
	th := thread(t)
	s, err := rt.IpcMemGetExportKey(th, uintptr(ptr), uint64(size), key != nil, uint64(length), uint64(flags))
	if err == nil {
		putName((*C.char)(unsafe.Pointer(key)), uint64(length), s)
	}
	return C.rtError_t(ret(th, err))
}

//export npu_rtsIpcMemClose
func npu_rtsIpcMemClose(t *C.npu_thread, key *C.char_t) C.rtError_t {
	th := thread(t)
	s, null := cName((*C.char)(unsafe.Pointer(key)))
	return C.rtError_t(ret(th, rt.IpcMemClose(th, s, null)))
}

//export npu_rtsIpcMemImportByKey
func npu_rtsIpcMemImportByKey(t *C.npu_thread, ptr *unsafe.Pointer, key *C.char_t, flags C.uint64_t) C.rtError_t {
	th := thread(t)
	s, null := cName((*C.char)(unsafe.Pointer(key)))
	return C.rtError_t(ret(th, rt.IpcMemImportByKey(th, addrOut(ptr), s, null, uint64(flags))))
}

//export npu_rtsIpcMemSetImportPid
func npu_rtsIpcMemSetImportPid(t *C.npu_thread, key *C.char_t, pid *C.int32_t, num C.int) C.rtError_t {
	th := thread(t)
	s, null := cName((*C.char)(unsafe.Pointer(key)))
	var pids []int32
	if num > 0 {
		pids = pidList(unsafe.Pointer(pid), uint64(num))
	}
	return C.rtError_t(ret(th, rt.IpcMemSetImportPid(th, s, null, pids)))
}
