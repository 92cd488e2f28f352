package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "npu.h"
#include "initcb.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the aclInit/aclFinalize hooks (acl/initcb.go).

//export npu_aclInitCallbackRegister
func npu_aclInitCallbackRegister(t *C.npu_thread, typ C.aclRegisterCallbackType, cbFunc C.aclInitCallbackFunc, userData unsafe.Pointer) C.aclError {
	th := thread(t)
	f, u := uintptr(unsafe.Pointer(cbFunc)), uintptr(userData)
	call := func(config []byte) {
		// A NUL-terminated copy in C memory: the callback gets text, its length
		// without the NUL, and may keep nothing past the call.
		p := C.CBytes(append(append([]byte(nil), config...), 0))
		defer C.free(p)
		C.npu_call_initcb(C.uintptr_t(f), (*C.char)(p), C.size_t(len(config)), C.uintptr_t(u))
	}
	if f == 0 {
		call = nil
	}
	return ret(th, acl.InitCallbackRegister(th, core.InitCallback{Type: int32(typ), Key: f, Call: call}))
}

//export npu_aclInitCallbackUnRegister
func npu_aclInitCallbackUnRegister(t *C.npu_thread, typ C.aclRegisterCallbackType, cbFunc C.aclInitCallbackFunc) C.aclError {
	th := thread(t)
	return ret(th, acl.InitCallbackUnRegister(th, int32(typ), uintptr(unsafe.Pointer(cbFunc))))
}

//export npu_aclFinalizeCallbackRegister
func npu_aclFinalizeCallbackRegister(t *C.npu_thread, typ C.aclRegisterCallbackType, cbFunc C.aclFinalizeCallbackFunc, userData unsafe.Pointer) C.aclError {
	th := thread(t)
	f, u := uintptr(unsafe.Pointer(cbFunc)), uintptr(userData)
	call := func() { C.npu_call_fincb(C.uintptr_t(f), C.uintptr_t(u)) }
	if f == 0 {
		call = nil
	}
	return ret(th, acl.FinalizeCallbackRegister(th, core.FinalizeCallback{Type: int32(typ), Key: f, Call: call}))
}

//export npu_aclFinalizeCallbackUnRegister
func npu_aclFinalizeCallbackUnRegister(t *C.npu_thread, typ C.aclRegisterCallbackType, cbFunc C.aclFinalizeCallbackFunc) C.aclError {
	th := thread(t)
	return ret(th, acl.FinalizeCallbackUnRegister(th, int32(typ), uintptr(unsafe.Pointer(cbFunc))))
}
