package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's rts* model calls (rt/model.go, round 8).
// rtModel_t is aclmdlRI.

//export npu_rtsModelCreate
func npu_rtsModelCreate(t *C.npu_thread, mdl *C.rtModel_t, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelCreate(th, handleOut(unsafe.Pointer(mdl)), uint32(flag))))
}

//export npu_rtsModelBindStream
func npu_rtsModelBindStream(t *C.npu_thread, mdl C.rtModel_t, stm C.rtStream_t, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelBindStream(th, handle(unsafe.Pointer(mdl)), handle(unsafe.Pointer(stm)), uint32(flag))))
}

//export npu_rtsEndGraph
func npu_rtsEndGraph(t *C.npu_thread, mdl C.rtModel_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EndGraph(th, handle(unsafe.Pointer(mdl)), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsModelLoadComplete
func npu_rtsModelLoadComplete(t *C.npu_thread, mdl C.rtModel_t, reserve unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelLoadComplete(th, handle(unsafe.Pointer(mdl)), uintptr(reserve))))
}

//export npu_rtsModelUnbindStream
func npu_rtsModelUnbindStream(t *C.npu_thread, mdl C.rtModel_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelUnbindStream(th, handle(unsafe.Pointer(mdl)), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsModelExecute
func npu_rtsModelExecute(t *C.npu_thread, mdl C.rtModel_t, timeout C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelExecuteSync(th, handle(unsafe.Pointer(mdl)), int32(timeout))))
}

//export npu_rtsModelAbort
func npu_rtsModelAbort(t *C.npu_thread, mdl C.rtModel_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelAbort(th, handle(unsafe.Pointer(mdl)))))
}

//export npu_rtModelDestroy
func npu_rtModelDestroy(t *C.npu_thread, mdl C.rtModel_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelDestroy(th, handle(unsafe.Pointer(mdl)))))
}

//export npu_rtsModelSetName
func npu_rtsModelSetName(t *C.npu_thread, mdl C.rtModel_t, mdlName *C.char) C.rtError_t {
	th := thread(t)
	var s string
	if mdlName != nil {
		s = C.GoString(mdlName)
	}
	return C.rtError_t(ret(th, rt.ModelSetName(th, handle(unsafe.Pointer(mdl)), s, mdlName == nil)))
}

//export npu_rtsModelGetName
func npu_rtsModelGetName(t *C.npu_thread, mdl C.rtModel_t, maxLen C.uint32_t, mdlName *C.char) C.rtError_t {
	th := thread(t)
	var buf []byte
	if mdlName != nil {
		buf = unsafe.Slice((*byte)(unsafe.Pointer(mdlName)), int(maxLen))
	}
	return C.rtError_t(ret(th, rt.ModelGetName(th, handle(unsafe.Pointer(mdl)), buf)))
}

//export npu_rtModelGetId
func npu_rtModelGetId(t *C.npu_thread, mdl C.rtModel_t, modelId *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelGetID(th, handle(unsafe.Pointer(mdl)), (*uint32)(unsafe.Pointer(modelId)))))
}
