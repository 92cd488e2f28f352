package main

/*
#include "acl/acl.h"
#include "npu.h"
#include "callback.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of device task abort and memory error repair (acl/taskabort.go,
// acl/uce.go).

//export npu_aclrtDeviceTaskAbort
func npu_aclrtDeviceTaskAbort(t *C.npu_thread, deviceId C.int32_t, timeout C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.DeviceTaskAbort(th, int32(deviceId), uint32(timeout)))
}

//export npu_aclrtSetDeviceTaskAbortCallback
func npu_aclrtSetDeviceTaskAbortCallback(t *C.npu_thread, regName *C.char, callback C.aclrtDeviceTaskAbortCallback, args unsafe.Pointer) C.aclError {
	th := thread(t)
	var name string
	if regName != nil {
		name = C.GoString(regName)
	}
	var fn core.DeviceTaskAbortCallback
	if p := unsafe.Pointer(callback); p != nil {
		f, a := C.uintptr_t(uintptr(p)), C.uintptr_t(uintptr(args))
		fn = func(dev, stage int32, timeout uint32) int32 {
			return int32(C.npu_call_abortcb(f, C.int32_t(dev), C.int32_t(stage), C.uint32_t(timeout), a))
		}
	}
	return ret(th, acl.SetDeviceTaskAbortCallback(th, name, fn))
}

// uceInfos views the application's aclrtMemUceInfo array (at most 2^20
// entries are looked at); the reserved words are left alone.
func uceInfos(p *C.aclrtMemUceInfo, n C.size_t) []C.aclrtMemUceInfo {
	if p == nil || n == 0 {
		return nil
	}
	arr := callerSlice[C.aclrtMemUceInfo]("arraySize", unsafe.Pointer(p), uint64(n))
	return arr[:min(len(arr), 1<<20)]
}

//export npu_aclrtGetMemUceInfo
func npu_aclrtGetMemUceInfo(t *C.npu_thread, deviceId C.int32_t, memUceInfoArray *C.aclrtMemUceInfo, arraySize C.size_t, retSize *C.size_t) C.aclError {
	th := thread(t)
	arr := uceInfos(memUceInfoArray, arraySize)
	out := make([]core.MemUceInfo, len(arr))
	var n uint64
	var pn *uint64
	if retSize != nil {
		pn = &n
	}
	if err := acl.GetMemUceInfo(th, int32(deviceId), out, memUceInfoArray != nil, pn); err != nil {
		return ret(th, err)
	}
	for i := range out[:n] {
		*(*uintptr)(unsafe.Pointer(&arr[i].addr)) = out[i].Addr
		arr[i].len = C.size_t(out[i].Len)
	}
	*retSize = C.size_t(n)
	return 0
}

//export npu_aclrtMemUceRepair
func npu_aclrtMemUceRepair(t *C.npu_thread, deviceId C.int32_t, memUceInfoArray *C.aclrtMemUceInfo, arraySize C.size_t) C.aclError {
	th := thread(t)
	arr := uceInfos(memUceInfoArray, arraySize)
	in := make([]core.MemUceInfo, len(arr))
	for i := range arr {
		in[i] = core.MemUceInfo{Addr: uintptr(arr[i].addr), Len: uint64(arr[i].len)}
	}
	return ret(th, acl.MemUceRepair(th, int32(deviceId), in, memUceInfoArray != nil))
}

//export npu_aclrtRepairError
func npu_aclrtRepairError(t *C.npu_thread, deviceId C.int32_t, errorInfo *C.aclrtErrorInfo) C.aclError {
	th := thread(t)
	return ret(th, acl.RepairError(th, int32(deviceId), (*acl.ErrorInfo)(unsafe.Pointer(errorInfo))))
}
