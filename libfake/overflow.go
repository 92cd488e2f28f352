package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of the float overflow family (acl/overflow.go).

//export npu_aclrtSetStreamOverflowSwitch
func npu_aclrtSetStreamOverflowSwitch(t *C.npu_thread, stream C.aclrtStream, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetStreamOverflowSwitch(th, handle(unsafe.Pointer(stream)), uint32(flag)))
}

//export npu_aclrtGetStreamOverflowSwitch
func npu_aclrtGetStreamOverflowSwitch(t *C.npu_thread, stream C.aclrtStream, flag *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetStreamOverflowSwitch(th, handle(unsafe.Pointer(stream)), (*uint32)(unsafe.Pointer(flag))))
}

//export npu_aclrtGetOverflowStatus
func npu_aclrtGetOverflowStatus(t *C.npu_thread, outputAddr unsafe.Pointer, outputSize C.size_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.GetOverflowStatus(th, uintptr(outputAddr), uint64(outputSize), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtResetOverflowStatus
func npu_aclrtResetOverflowStatus(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.ResetOverflowStatus(th, handle(unsafe.Pointer(stream))))
}

//export npu_aclrtCtxGetFloatOverflowAddr
func npu_aclrtCtxGetFloatOverflowAddr(t *C.npu_thread, overflowAddr *unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.CtxGetFloatOverflowAddr(th, addrOut(overflowAddr)))
}
