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

// Exports of the stream family (acl/stream.go). NULL streams reach acl as
// handle 0: the current context's default stream.

//export npu_aclrtCreateStream
func npu_aclrtCreateStream(t *C.npu_thread, stream *C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.CreateStream(th, handleOut(unsafe.Pointer(stream))))
}

//export npu_aclrtCreateStreamWithConfig
func npu_aclrtCreateStreamWithConfig(t *C.npu_thread, stream *C.aclrtStream, priority, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.CreateStreamWithConfig(th, handleOut(unsafe.Pointer(stream)), uint32(priority), uint32(flag)))
}

//export npu_aclrtDestroyStream
func npu_aclrtDestroyStream(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyStream(th, handle(unsafe.Pointer(stream)), false))
}

//export npu_aclrtDestroyStreamForce
func npu_aclrtDestroyStreamForce(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyStream(th, handle(unsafe.Pointer(stream)), true))
}

//export npu_aclrtSynchronizeStream
func npu_aclrtSynchronizeStream(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.SynchronizeStream(th, handle(unsafe.Pointer(stream)), -1))
}

//export npu_aclrtSynchronizeStreamWithTimeout
func npu_aclrtSynchronizeStreamWithTimeout(t *C.npu_thread, stream C.aclrtStream, timeout C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SynchronizeStream(th, handle(unsafe.Pointer(stream)), int32(timeout)))
}

//export npu_aclrtStreamQuery
func npu_aclrtStreamQuery(t *C.npu_thread, stream C.aclrtStream, status *C.aclrtStreamStatus) C.aclError {
	th := thread(t)
	return ret(th, acl.StreamQuery(th, handle(unsafe.Pointer(stream)), (*int32)(unsafe.Pointer(status))))
}

//export npu_aclrtStreamGetId
func npu_aclrtStreamGetId(t *C.npu_thread, stream C.aclrtStream, streamId *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.StreamGetID(th, handle(unsafe.Pointer(stream)), (*int32)(unsafe.Pointer(streamId))))
}

//export npu_aclrtStreamGetPriority
func npu_aclrtStreamGetPriority(t *C.npu_thread, stream C.aclrtStream, priority *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.StreamGetPriority(th, handle(unsafe.Pointer(stream)), (*uint32)(unsafe.Pointer(priority))))
}

//export npu_aclrtStreamGetFlags
func npu_aclrtStreamGetFlags(t *C.npu_thread, stream C.aclrtStream, flags *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.StreamGetFlags(th, handle(unsafe.Pointer(stream)), (*uint32)(unsafe.Pointer(flags))))
}

//export npu_aclrtGetStreamAvailableNum
func npu_aclrtGetStreamAvailableNum(t *C.npu_thread, streamCount *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetStreamAvailableNum(th, (*uint32)(unsafe.Pointer(streamCount))))
}

//export npu_aclrtSetStreamFailureMode
func npu_aclrtSetStreamFailureMode(t *C.npu_thread, stream C.aclrtStream, mode C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetStreamFailureMode(th, handle(unsafe.Pointer(stream)), uint64(mode)))
}

//export npu_aclrtSetStreamAttribute
func npu_aclrtSetStreamAttribute(t *C.npu_thread, stream C.aclrtStream, attr C.aclrtStreamAttr, value *C.aclrtStreamAttrValue) C.aclError {
	th := thread(t)
	return ret(th, acl.SetStreamAttribute(th, handle(unsafe.Pointer(stream)), int32(attr), (*acl.StreamAttrValue)(unsafe.Pointer(value))))
}

//export npu_aclrtGetStreamAttribute
func npu_aclrtGetStreamAttribute(t *C.npu_thread, stream C.aclrtStream, attr C.aclrtStreamAttr, value *C.aclrtStreamAttrValue) C.aclError {
	th := thread(t)
	return ret(th, acl.GetStreamAttribute(th, handle(unsafe.Pointer(stream)), int32(attr), (*acl.StreamAttrValue)(unsafe.Pointer(value))))
}
