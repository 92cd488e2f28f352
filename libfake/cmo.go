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

// Exports of the cache-maintenance family (acl/cmo.go).

//export npu_aclrtCmoAsync
func npu_aclrtCmoAsync(t *C.npu_thread, src unsafe.Pointer, size C.size_t, cmoType C.aclrtCmoType, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.CmoAsync(th, uintptr(src), uint64(size), int32(cmoType), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtCmoGetDescSize
func npu_aclrtCmoGetDescSize(t *C.npu_thread, size *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CmoGetDescSize(th, (*uint64)(unsafe.Pointer(size))))
}

//export npu_aclrtCmoSetDesc
func npu_aclrtCmoSetDesc(t *C.npu_thread, cmoDesc, src unsafe.Pointer, size C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CmoSetDesc(th, uintptr(cmoDesc), uintptr(src), uint64(size)))
}

//export npu_aclrtCmoAsyncWithDesc
func npu_aclrtCmoAsyncWithDesc(t *C.npu_thread, cmoDesc unsafe.Pointer, cmoType C.aclrtCmoType, stream C.aclrtStream, reserve unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.CmoAsyncWithDesc(th, uintptr(cmoDesc), int32(cmoType), handle(unsafe.Pointer(stream)), uintptr(reserve)))
}
