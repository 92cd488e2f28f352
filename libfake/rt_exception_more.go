package main

/*
#include "runtime/rt.h"
#include "npu.h"
#include "callback.h"
#include "statecb.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the runtime's exception calls, round 9
// (rt/exception_more.go). The rt callback types have the ACL ones' C
// signatures (rtTaskFailCallback is aclrtExceptionInfoCallback over the
// same record, rtsDeviceStateCallback passes the device id as uint32_t), so
// they are called through the same C helpers (callback.c, statecb.c).

func goCString(s *C.char_t) (string, bool) {
	if s == nil {
		return "", false
	}
	return C.GoString((*C.char)(unsafe.Pointer(s))), true
}

//export npu_rtRegTaskFailCallbackByModule
func npu_rtRegTaskFailCallbackByModule(t *C.npu_thread, moduleName *C.char_t, callback C.rtTaskFailCallback) C.rtError_t {
	th := thread(t)
	name, ok := goCString(moduleName)
	var fn core.ExceptionCallback
	if p := unsafe.Pointer(callback); p != nil {
		fn = excCallback(p)
	}
	return C.rtError_t(ret(th, rt.RegTaskFailCallbackByModule(th, name, ok, fn)))
}

//export npu_rtBinarySetExceptionCallback
func npu_rtBinarySetExceptionCallback(t *C.npu_thread, binHandle C.rtBinHandle, callback C.rtOpExceptionCallback, userData unsafe.Pointer) C.rtError_t {
	th := thread(t)
	var fn core.ExceptionCallback
	if p := unsafe.Pointer(callback); p != nil {
		fn = opExcCallback(p, userData)
	}
	return C.rtError_t(ret(th, rt.BinarySetExceptionCallback(th, handle(unsafe.Pointer(binHandle)), fn)))
}

//export npu_rtGetFuncHandleFromExceptionInfo
func npu_rtGetFuncHandleFromExceptionInfo(t *C.npu_thread, info *C.rtExceptionInfo_t, fn *C.rtFuncHandle) C.rtError_t {
	th := thread(t)
	var h uintptr
	var ph *uintptr
	if fn != nil {
		ph = &h
	}
	if err := rt.GetFuncHandleFromExceptionInfo(th, goExcInfo((*C.aclrtExceptionInfo)(unsafe.Pointer(info))), ph); err != nil {
		return C.rtError_t(ret(th, err))
	}
	*(*uintptr)(unsafe.Pointer(fn)) = h
	return 0
}

//export npu_rtsRegDeviceStateCallback
func npu_rtsRegDeviceStateCallback(t *C.npu_thread, regName *C.char_t, callback C.rtsDeviceStateCallback, args unsafe.Pointer) C.rtError_t {
	th := thread(t)
	name, ok := goCString(regName)
	var cb core.DeviceStateFunc
	if callback != nil {
		f, a := C.uintptr_t(uintptr(unsafe.Pointer(callback))), C.uintptr_t(uintptr(args))
		cb = func(dev int32, state int32) { C.npu_call_devicestate(f, C.int32_t(dev), C.int32_t(state), a) }
	}
	return C.rtError_t(ret(th, rt.RegDeviceStateCallback(th, name, ok, cb)))
}

//export npu_rtsRegStreamStateCallback
func npu_rtsRegStreamStateCallback(t *C.npu_thread, regName *C.char_t, callback C.rtsStreamStateCallback, args unsafe.Pointer) C.rtError_t {
	th := thread(t)
	name, ok := goCString(regName)
	var cb core.StreamStateFunc
	if callback != nil {
		f, a := C.uintptr_t(uintptr(unsafe.Pointer(callback))), C.uintptr_t(uintptr(args))
		cb = func(s core.Handle, state int32) { C.npu_call_streamstate(f, C.uintptr_t(s), C.int32_t(state), a) }
	}
	return C.rtError_t(ret(th, rt.RegStreamStateCallback(th, name, ok, cb)))
}

//export npu_rtsSetDeviceTaskAbortCallback
func npu_rtsSetDeviceTaskAbortCallback(t *C.npu_thread, regName *C.char_t, callback C.rtsDeviceTaskAbortCallback, args unsafe.Pointer) C.rtError_t {
	th := thread(t)
	name, ok := goCString(regName)
	var fn core.DeviceTaskAbortCallback
	if p := unsafe.Pointer(callback); p != nil {
		f, a := C.uintptr_t(uintptr(p)), C.uintptr_t(uintptr(args))
		fn = func(dev, stage int32, timeout uint32) int32 {
			return int32(C.npu_call_abortcb(f, C.int32_t(dev), C.int32_t(stage), C.uint32_t(timeout), a))
		}
	}
	return C.rtError_t(ret(th, rt.SetDeviceTaskAbortCallback(th, name, ok, fn)))
}

//export npu_rtGetMemUceInfo
func npu_rtGetMemUceInfo(t *C.npu_thread, deviceId C.uint32_t, memUceInfo *C.rtMemUceInfo) C.rtError_t {
	th := thread(t)
	var info rt.MemUceInfo
	var p *rt.MemUceInfo
	if memUceInfo != nil {
		p = &info
	}
	if err := rt.GetMemUceInfo(th, uint32(deviceId), p); err != nil {
		return C.rtError_t(ret(th, err))
	}
	var c C.rtMemUceInfo
	c.devid, c.count = C.uint32_t(info.DevID), C.uint32_t(info.Count)
	for i := range info.Count {
		c.repairAddr[i].ptr = C.uint64_t(info.Addrs[i].Addr)
		c.repairAddr[i].len = C.uint64_t(info.Addrs[i].Len)
	}
	*memUceInfo = c
	return 0
}

//export npu_rtMemUceRepair
func npu_rtMemUceRepair(t *C.npu_thread, deviceId C.uint32_t, memUceInfo *C.rtMemUceInfo) C.rtError_t {
	th := thread(t)
	var p *rt.MemUceInfo
	if memUceInfo != nil {
		p = &rt.MemUceInfo{DevID: uint32(memUceInfo.devid), Count: uint32(memUceInfo.count)}
		for i := range min(p.Count, uint32(len(p.Addrs))) {
			r := memUceInfo.repairAddr[i]
			p.Addrs[i] = core.MemUceInfo{Addr: uintptr(r.ptr), Len: uint64(r.len)}
		}
	}
	return C.rtError_t(ret(th, rt.MemUceRepair(th, uint32(deviceId), p)))
}

//export npu_rtsGetErrorVerbose
func npu_rtsGetErrorVerbose(t *C.npu_thread, deviceId C.uint32_t, errorInfo *C.rtErrorInfo) C.rtError_t {
	th := thread(t)
	var typ uint32
	var p *uint32
	if errorInfo != nil {
		p = &typ
	}
	if err := rt.GetErrorVerbose(th, uint32(deviceId), p); err != nil {
		return C.rtError_t(ret(th, err))
	}
	*errorInfo = C.rtErrorInfo{}
	errorInfo.errorType = C.rtErrType(typ)
	return 0
}

//export npu_rtsRepairError
func npu_rtsRepairError(t *C.npu_thread, deviceId C.uint32_t, errorInfo *C.rtErrorInfo) C.rtError_t {
	th := thread(t)
	var typ uint32
	if errorInfo != nil {
		typ = uint32(errorInfo.errorType)
	}
	return C.rtError_t(ret(th, rt.RepairError(th, uint32(deviceId), errorInfo != nil, typ)))
}
