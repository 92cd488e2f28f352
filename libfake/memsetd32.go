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

// Exports of the 32-bit memsets (acl/memsetd32.go).

//export npu_aclrtMemsetD32
func npu_aclrtMemsetD32(t *C.npu_thread, ptr unsafe.Pointer, memSize C.size_t, value C.uint32_t, N C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemsetD32(th, uintptr(ptr), uint64(memSize), uint32(value), uint64(N)))
}

//export npu_aclrtMemsetD32Async
func npu_aclrtMemsetD32Async(t *C.npu_thread, ptr unsafe.Pointer, memSize C.size_t, value C.uint32_t, N C.size_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemsetD32Async(th, uintptr(ptr), uint64(memSize), uint32(value), uint64(N), handle(unsafe.Pointer(stream))))
}
