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

// Exports of the descriptor and two-level copies (acl/memcpydesc.go).

//export npu_aclrtGetMemcpyDescSize
func npu_aclrtGetMemcpyDescSize(t *C.npu_thread, kind C.aclrtMemcpyKind, descSize *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetMemcpyDescSize(th, int32(kind), (*uint64)(unsafe.Pointer(descSize))))
}

//export npu_aclrtSetMemcpyDesc
func npu_aclrtSetMemcpyDesc(t *C.npu_thread, desc unsafe.Pointer, kind C.aclrtMemcpyKind, srcAddr, dstAddr unsafe.Pointer, count C.size_t, config unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.SetMemcpyDesc(th, uintptr(desc), int32(kind), uintptr(srcAddr), uintptr(dstAddr), uint64(count), config != nil))
}

//export npu_aclrtMemcpyAsyncWithDesc
func npu_aclrtMemcpyAsyncWithDesc(t *C.npu_thread, desc unsafe.Pointer, kind C.aclrtMemcpyKind, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemcpyAsyncWithDesc(th, uintptr(desc), int32(kind), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtMemcpyAsyncWithOffset
func npu_aclrtMemcpyAsyncWithOffset(t *C.npu_thread, dst *unsafe.Pointer, destMax, dstDataOffset C.size_t, src *unsafe.Pointer, count, srcDataOffset C.size_t, kind C.aclrtMemcpyKind, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemcpyAsyncWithOffset(th, uintptr(unsafe.Pointer(dst)), uint64(destMax), uint64(dstDataOffset),
		uintptr(unsafe.Pointer(src)), uint64(count), uint64(srcDataOffset), int32(kind), handle(unsafe.Pointer(stream))))
}
