package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of acl_rt_allocator.h (acl/allocator.go). Descriptions are
// handles; the application's callbacks cross as integers and are never
// called by npuemu.

// fnAddr returns a C function pointer (or any pointer) as an integer.
func fnAddr[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }

//export npu_aclrtAllocatorCreateDesc
func npu_aclrtAllocatorCreateDesc(t *C.npu_thread) C.aclrtAllocatorDesc {
	th := thread(t)
	h := acl.AllocatorCreateDesc(th)
	return *(*C.aclrtAllocatorDesc)(unsafe.Pointer(&h))
}

//export npu_aclrtAllocatorDestroyDesc
func npu_aclrtAllocatorDestroyDesc(t *C.npu_thread, desc C.aclrtAllocatorDesc) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocatorDestroyDesc(th, handle(unsafe.Pointer(desc))))
}

//export npu_aclrtAllocatorSetObjToDesc
func npu_aclrtAllocatorSetObjToDesc(t *C.npu_thread, desc C.aclrtAllocatorDesc, allocator C.aclrtAllocator) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocatorSetPart(th, "aclrtAllocatorSetObjToDesc", handle(unsafe.Pointer(desc)), core.AllocatorObj, uintptr(unsafe.Pointer(allocator))))
}

//export npu_aclrtAllocatorSetAllocFuncToDesc
func npu_aclrtAllocatorSetAllocFuncToDesc(t *C.npu_thread, desc C.aclrtAllocatorDesc, f C.aclrtAllocatorAllocFunc) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocatorSetPart(th, "aclrtAllocatorSetAllocFuncToDesc", handle(unsafe.Pointer(desc)), core.AllocatorAlloc, fnAddr(f)))
}

//export npu_aclrtAllocatorSetFreeFuncToDesc
func npu_aclrtAllocatorSetFreeFuncToDesc(t *C.npu_thread, desc C.aclrtAllocatorDesc, f C.aclrtAllocatorFreeFunc) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocatorSetPart(th, "aclrtAllocatorSetFreeFuncToDesc", handle(unsafe.Pointer(desc)), core.AllocatorFree, fnAddr(f)))
}

//export npu_aclrtAllocatorSetAllocAdviseFuncToDesc
func npu_aclrtAllocatorSetAllocAdviseFuncToDesc(t *C.npu_thread, desc C.aclrtAllocatorDesc, f C.aclrtAllocatorAllocAdviseFunc) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocatorSetPart(th, "aclrtAllocatorSetAllocAdviseFuncToDesc", handle(unsafe.Pointer(desc)), core.AllocatorAllocAdvise, fnAddr(f)))
}

//export npu_aclrtAllocatorSetGetAddrFromBlockFuncToDesc
func npu_aclrtAllocatorSetGetAddrFromBlockFuncToDesc(t *C.npu_thread, desc C.aclrtAllocatorDesc, f C.aclrtAllocatorGetAddrFromBlockFunc) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocatorSetPart(th, "aclrtAllocatorSetGetAddrFromBlockFuncToDesc", handle(unsafe.Pointer(desc)), core.AllocatorGetAddrFromBlock, fnAddr(f)))
}

//export npu_aclrtAllocatorRegister
func npu_aclrtAllocatorRegister(t *C.npu_thread, stream C.aclrtStream, desc C.aclrtAllocatorDesc) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocatorRegister(th, handle(unsafe.Pointer(stream)), handle(unsafe.Pointer(desc))))
}

// putPtr stores v through out, a pointer to any pointer-sized C type
// (NULL outputs are skipped).
func putPtr(out unsafe.Pointer, v uintptr) {
	if out != nil {
		*(*uintptr)(out) = v
	}
}

//export npu_aclrtAllocatorGetByStream
func npu_aclrtAllocatorGetByStream(t *C.npu_thread, stream C.aclrtStream, desc *C.aclrtAllocatorDesc, allocator *C.aclrtAllocator,
	allocFunc *C.aclrtAllocatorAllocFunc, freeFunc *C.aclrtAllocatorFreeFunc, adviseFunc *C.aclrtAllocatorAllocAdviseFunc,
	getAddrFunc *C.aclrtAllocatorGetAddrFromBlockFunc) C.aclError {
	th := thread(t)
	var p core.AllocatorParts
	if err := acl.AllocatorGetByStream(th, handle(unsafe.Pointer(stream)), &p); err != nil {
		return ret(th, err)
	}
	putPtr(unsafe.Pointer(desc), uintptr(p.Desc))
	putPtr(unsafe.Pointer(allocator), p.Obj)
	putPtr(unsafe.Pointer(allocFunc), p.Alloc)
	putPtr(unsafe.Pointer(freeFunc), p.Free)
	putPtr(unsafe.Pointer(adviseFunc), p.AllocAdvise)
	putPtr(unsafe.Pointer(getAddrFunc), p.GetAddrFromBlock)
	return 0
}

//export npu_aclrtAllocatorUnregister
func npu_aclrtAllocatorUnregister(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocatorUnregister(th, handle(unsafe.Pointer(stream))))
}
