package main

/*
#include "acl/acl.h"
#include "npu.h"
#include "statecb.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the state callback family (rt/core/statecb.go): the Go callbacks
// call the application's function pointer through statecb.c.

//export npu_aclrtRegStreamStateCallback
func npu_aclrtRegStreamStateCallback(t *C.npu_thread, regName *C.char, callback C.aclrtStreamStateCallback, args unsafe.Pointer) C.aclError {
	th := thread(t)
	var cb core.StreamStateFunc
	if callback != nil {
		f, a := C.uintptr_t(uintptr(unsafe.Pointer(callback))), C.uintptr_t(uintptr(args))
		cb = func(s core.Handle, state int32) { C.npu_call_streamstate(f, C.uintptr_t(s), C.int32_t(state), a) }
	}
	return ret(th, core.RegStreamStateCallback(th, C.GoString(regName), regName != nil, cb))
}

//export npu_aclrtRegDeviceStateCallback
func npu_aclrtRegDeviceStateCallback(t *C.npu_thread, regName *C.char, callback C.aclrtDeviceStateCallback, args unsafe.Pointer) C.aclError {
	th := thread(t)
	var cb core.DeviceStateFunc
	if callback != nil {
		f, a := C.uintptr_t(uintptr(unsafe.Pointer(callback))), C.uintptr_t(uintptr(args))
		cb = func(dev int32, state int32) { C.npu_call_devicestate(f, C.int32_t(dev), C.int32_t(state), a) }
	}
	return ret(th, core.RegDeviceStateCallback(th, C.GoString(regName), regName != nil, cb))
}
