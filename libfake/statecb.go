package main

/*
#include "acl/acl.h"
#include "npu.h"
#include "statecb.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of the state callback family (acl/statecb.go): the Go callbacks
// call the application's function pointer through statecb.c.

//export npu_aclrtRegStreamStateCallback
func npu_aclrtRegStreamStateCallback(t *C.npu_thread, regName *C.char, callback C.aclrtStreamStateCallback, args unsafe.Pointer) C.aclError {
	th := thread(t)
	var cb acl.StreamStateFunc
	if callback != nil {
		f, a := C.uintptr_t(uintptr(unsafe.Pointer(callback))), C.uintptr_t(uintptr(args))
		cb = func(s acl.Handle, state int32) { C.npu_call_streamstate(f, C.uintptr_t(s), C.int32_t(state), a) }
	}
	return ret(th, acl.RegStreamStateCallback(th, C.GoString(regName), regName != nil, cb))
}

//export npu_aclrtRegDeviceStateCallback
func npu_aclrtRegDeviceStateCallback(t *C.npu_thread, regName *C.char, callback C.aclrtDeviceStateCallback, args unsafe.Pointer) C.aclError {
	th := thread(t)
	var cb acl.DeviceStateFunc
	if callback != nil {
		f, a := C.uintptr_t(uintptr(unsafe.Pointer(callback))), C.uintptr_t(uintptr(args))
		cb = func(dev int32, state int32) { C.npu_call_devicestate(f, C.int32_t(dev), C.int32_t(state), a) }
	}
	return ret(th, acl.RegDeviceStateCallback(th, C.GoString(regName), regName != nil, cb))
}
