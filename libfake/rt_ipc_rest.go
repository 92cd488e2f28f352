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

// Exports of the runtime's IPC memory attribute and inter-server whitelist
// calls (rt/ipc_rest.go).

//export npu_rtIpcSetMemoryAttr
func npu_rtIpcSetMemoryAttr(t *C.npu_thread, name *C.char_t, typ C.uint32_t, attr C.uint64_t) C.rtError_t {
	th := thread(t)
	s, null := cName((*C.char)(unsafe.Pointer(name)))
	return C.rtError_t(ret(th, rt.IpcSetMemoryAttr(th, s, null, uint32(typ), uint64(attr))))
}

// serverPids reads num rtServerPid records (nil for NULL).
func serverPids(sp *C.rtServerPid, num C.size_t) []rt.ServerPids {
	var out []rt.ServerPids
	for _, s := range callerSlice[C.rtServerPid]("num", unsafe.Pointer(sp), uint64(num)) {
		out = append(out, rt.ServerPids{SDID: uint32(s.sdid), Pids: callerSlice[int32]("serverPids num", unsafe.Pointer(s.pid), uint64(s.num))})
	}
	return out
}

//export npu_rtIpcMemImportPidInterServer
func npu_rtIpcMemImportPidInterServer(t *C.npu_thread, key *C.char_t, serverPidsArg *C.rtServerPid, num C.size_t) C.rtError_t {
	th := thread(t)
	s, null := cName((*C.char)(unsafe.Pointer(key)))
	return C.rtError_t(ret(th, rt.IpcMemImportPidInterServer(th, s, null, serverPids(serverPidsArg, num))))
}

//export npu_rtNotifySetImportPidInterServer
func npu_rtNotifySetImportPidInterServer(t *C.npu_thread, notify C.rtNotify_t, serverPidsArg *C.rtServerPid, num C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.NotifySetImportPidInterServer(th, handle(unsafe.Pointer(notify)), serverPids(serverPidsArg, num))))
}
