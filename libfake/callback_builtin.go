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

// Exports of the built-in tasks (acl/builtin.go): stream memory
// operations, reduce and random numbers.

//export npu_aclrtValueWrite
func npu_aclrtValueWrite(t *C.npu_thread, devAddr unsafe.Pointer, value C.uint64_t, flag C.uint32_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.ValueWrite(th, uintptr(devAddr), uint64(value), uint32(flag), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtValueWait
func npu_aclrtValueWait(t *C.npu_thread, devAddr unsafe.Pointer, value C.uint64_t, flag C.uint32_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.ValueWait(th, uintptr(devAddr), uint64(value), uint32(flag), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtReduceAsync
func npu_aclrtReduceAsync(t *C.npu_thread, dst, src unsafe.Pointer, count C.uint64_t, kind C.aclrtReduceKind, typ C.aclDataType, stream C.aclrtStream, reserve unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.ReduceAsync(th, uintptr(dst), uintptr(src), uint64(count), int32(kind), int32(typ), handle(unsafe.Pointer(stream)), uintptr(reserve)))
}

//export npu_aclrtRandomNumAsync
func npu_aclrtRandomNumAsync(t *C.npu_thread, taskInfo *C.aclrtRandomNumTaskInfo, stream C.aclrtStream, reserve unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.RandomNumAsync(th, (*acl.RandomNumTaskInfo)(unsafe.Pointer(taskInfo)), handle(unsafe.Pointer(stream)), uintptr(reserve)))
}
