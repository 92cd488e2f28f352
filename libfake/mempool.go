package main

/*
#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// The Go mirror has the C layout (compile-time checks).
var (
	_ [unsafe.Sizeof(acl.MemPoolProps{}) - C.sizeof_aclrtMemPoolProps]byte
	_ [C.sizeof_aclrtMemPoolProps - unsafe.Sizeof(acl.MemPoolProps{})]byte
	_ [unsafe.Offsetof(acl.MemPoolProps{}.MaxSize) - unsafe.Offsetof(C.aclrtMemPoolProps{}.maxSize)]byte
	_ [unsafe.Offsetof(C.aclrtMemPoolProps{}.maxSize) - unsafe.Offsetof(acl.MemPoolProps{}.MaxSize)]byte
)

// Exports of acl_rt_memory_soma.h (acl/mempool.go).

//export npu_aclrtMemPoolCreate
func npu_aclrtMemPoolCreate(t *C.npu_thread, memPool *C.aclrtMemPool, props *C.aclrtMemPoolProps) C.aclError {
	th := thread(t)
	return ret(th, acl.MemPoolCreate(th, handleOut(unsafe.Pointer(memPool)), (*acl.MemPoolProps)(unsafe.Pointer(props))))
}

//export npu_aclrtMemPoolDestroy
func npu_aclrtMemPoolDestroy(t *C.npu_thread, memPool C.aclrtMemPool) C.aclError {
	th := thread(t)
	return ret(th, acl.MemPoolDestroy(th, handle(unsafe.Pointer(memPool))))
}

//export npu_aclrtMemPoolSetAttr
func npu_aclrtMemPoolSetAttr(t *C.npu_thread, memPool C.aclrtMemPool, attr C.aclrtMemPoolAttr, value unsafe.Pointer) C.aclError {
	th := thread(t)
	var v *uint64
	if value != nil {
		x := uint64(0)
		switch acl.MemPoolAttrWidth(int32(attr)) {
		case 4:
			x = uint64(*(*uint32)(value))
		case 8:
			x = *(*uint64)(value)
		}
		v = &x
	}
	return ret(th, acl.MemPoolSetAttr(th, handle(unsafe.Pointer(memPool)), int32(attr), v))
}

//export npu_aclrtMemPoolGetAttr
func npu_aclrtMemPoolGetAttr(t *C.npu_thread, memPool C.aclrtMemPool, attr C.aclrtMemPoolAttr, value unsafe.Pointer) C.aclError {
	th := thread(t)
	var x uint64
	v := &x
	if value == nil {
		v = nil
	}
	if err := acl.MemPoolGetAttr(th, handle(unsafe.Pointer(memPool)), int32(attr), v); err != nil {
		return ret(th, err)
	}
	if acl.MemPoolAttrWidth(int32(attr)) == 4 {
		*(*uint32)(value) = uint32(x)
	} else {
		*(*uint64)(value) = x
	}
	return 0
}

//export npu_aclrtMemPoolMallocAsync
func npu_aclrtMemPoolMallocAsync(t *C.npu_thread, ptr *unsafe.Pointer, size C.size_t, memPool C.aclrtMemPool, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemPoolMallocAsync(th, addrOut(ptr), uint64(size), handle(unsafe.Pointer(memPool)), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtMemPoolFreeAsync
func npu_aclrtMemPoolFreeAsync(t *C.npu_thread, ptr unsafe.Pointer, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemPoolFreeAsync(th, uintptr(ptr), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtMemPoolTrimTo
func npu_aclrtMemPoolTrimTo(t *C.npu_thread, memPool C.aclrtMemPool, minBytesToKeep C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemPoolTrimTo(th, handle(unsafe.Pointer(memPool)), uint64(minBytesToKeep)))
}
