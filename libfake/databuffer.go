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

// Exports of the aclDataBuffer family (acl/databuffer.go). The opaque
// aclDataBuffer* the application holds is an acl.Handle.

func dataBufferHandle(p *C.aclDataBuffer) core.Handle { return handle(unsafe.Pointer(p)) }

//export npu_aclCreateDataBuffer
func npu_aclCreateDataBuffer(t *C.npu_thread, data unsafe.Pointer, size C.size_t) *C.aclDataBuffer {
	th := thread(t)
	h := acl.CreateDataBuffer(th, uintptr(data), uint64(size))
	return *(**C.aclDataBuffer)(unsafe.Pointer(&h))
}

//export npu_aclDestroyDataBuffer
func npu_aclDestroyDataBuffer(t *C.npu_thread, dataBuffer *C.aclDataBuffer) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyDataBuffer(th, dataBufferHandle(dataBuffer)))
}

//export npu_aclUpdateDataBuffer
func npu_aclUpdateDataBuffer(t *C.npu_thread, dataBuffer *C.aclDataBuffer, data unsafe.Pointer, size C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.UpdateDataBuffer(th, dataBufferHandle(dataBuffer), uintptr(data), uint64(size)))
}

//export npu_aclGetDataBufferAddr
func npu_aclGetDataBufferAddr(t *C.npu_thread, dataBuffer *C.aclDataBuffer) unsafe.Pointer {
	th := thread(t)
	b, err := acl.GetDataBuffer(th, "aclGetDataBufferAddr", dataBufferHandle(dataBuffer))
	if err != nil {
		ret(th, err)
		return nil
	}
	return *(*unsafe.Pointer)(unsafe.Pointer(&b.Addr))
}

//export npu_aclGetDataBufferSize
func npu_aclGetDataBufferSize(t *C.npu_thread, dataBuffer *C.aclDataBuffer) C.uint32_t {
	th := thread(t)
	b, err := acl.GetDataBuffer(th, "aclGetDataBufferSize", dataBufferHandle(dataBuffer))
	if err != nil {
		ret(th, err)
		return 0
	}
	return C.uint32_t(b.Size) // truncated, as the deprecated uint32_t form is
}

//export npu_aclGetDataBufferSizeV2
func npu_aclGetDataBufferSizeV2(t *C.npu_thread, dataBuffer *C.aclDataBuffer) C.size_t {
	th := thread(t)
	b, err := acl.GetDataBuffer(th, "aclGetDataBufferSizeV2", dataBufferHandle(dataBuffer))
	if err != nil {
		ret(th, err)
		return 0
	}
	return C.size_t(b.Size)
}
