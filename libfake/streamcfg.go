package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
)

// Exports of the stream config handle family (acl/streamcfg.go). The handle
// is C memory owned by the application, laid out as acl.StreamConfig.

//export npu_aclrtCreateStreamConfigHandle
func npu_aclrtCreateStreamConfigHandle(t *C.npu_thread) *C.aclrtStreamConfigHandle {
	th := thread(t)
	p := C.calloc(1, C.size_t(unsafe.Sizeof(C.aclrtStreamConfigHandle{})))
	if p == nil {
		ret(th, abi.Errorf(abi.ACL_ERROR_BAD_ALLOC, "aclrtCreateStreamConfigHandle: out of host memory"))
		return nil
	}
	acl.AddStreamConfig((*acl.StreamConfig)(p))
	return (*C.aclrtStreamConfigHandle)(p)
}

//export npu_aclrtDestroyStreamConfigHandle
func npu_aclrtDestroyStreamConfigHandle(t *C.npu_thread, handle *C.aclrtStreamConfigHandle) C.aclError {
	th := thread(t)
	if err := acl.DestroyStreamConfig(th, (*acl.StreamConfig)(unsafe.Pointer(handle))); err != nil {
		return ret(th, err)
	}
	C.free(unsafe.Pointer(handle))
	return 0
}

//export npu_aclrtSetStreamConfigOpt
func npu_aclrtSetStreamConfigOpt(t *C.npu_thread, handle *C.aclrtStreamConfigHandle, attr C.aclrtStreamConfigAttr, attrValue unsafe.Pointer, valueSize C.size_t) C.aclError {
	th := thread(t)
	var v uint64
	switch {
	case attrValue == nil:
	case valueSize == 4:
		v = uint64(*(*uint32)(attrValue))
	case valueSize == 8:
		v = *(*uint64)(attrValue)
	}
	return ret(th, acl.SetStreamConfigOpt(th, (*acl.StreamConfig)(unsafe.Pointer(handle)), int32(attr), v, attrValue != nil, uint64(valueSize)))
}

//export npu_aclrtCreateStreamV2
func npu_aclrtCreateStreamV2(t *C.npu_thread, stream *C.aclrtStream, handle *C.aclrtStreamConfigHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.CreateStreamV2(th, handleOut(unsafe.Pointer(stream)), (*acl.StreamConfig)(unsafe.Pointer(handle))))
}
