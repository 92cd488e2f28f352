package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"os"
	"unsafe"

	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's capture family (rt/capture.go, round 8).
// rtModel_t is aclmdlRI, rtTaskGrp_t is aclrtTaskGrp.

//export npu_rtStreamBeginCapture
func npu_rtStreamBeginCapture(t *C.npu_thread, stm C.rtStream_t, mode C.rtStreamCaptureMode) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamBeginCapture(th, handle(unsafe.Pointer(stm)), int32(mode))))
}

//export npu_rtStreamEndCapture
func npu_rtStreamEndCapture(t *C.npu_thread, stm C.rtStream_t, captureMdl *C.rtModel_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamEndCapture(th, handle(unsafe.Pointer(stm)), handleOut(unsafe.Pointer(captureMdl)))))
}

//export npu_rtThreadExchangeCaptureMode
func npu_rtThreadExchangeCaptureMode(t *C.npu_thread, mode *C.rtStreamCaptureMode) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ThreadExchangeCaptureMode(th, (*int32)(unsafe.Pointer(mode)))))
}

//export npu_rtsStreamBeginTaskGrp
func npu_rtsStreamBeginTaskGrp(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamBeginTaskGrp(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtsStreamEndTaskGrp
func npu_rtsStreamEndTaskGrp(t *C.npu_thread, stm C.rtStream_t, grp *C.rtTaskGrp_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamEndTaskGrp(th, handle(unsafe.Pointer(stm)), handleOut(unsafe.Pointer(grp)))))
}

//export npu_rtsStreamBeginTaskUpdate
func npu_rtsStreamBeginTaskUpdate(t *C.npu_thread, stm C.rtStream_t, grp C.rtTaskGrp_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamBeginTaskUpdate(th, handle(unsafe.Pointer(stm)), handle(unsafe.Pointer(grp)))))
}

//export npu_rtsStreamEndTaskUpdate
func npu_rtsStreamEndTaskUpdate(t *C.npu_thread, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamEndTaskUpdate(th, handle(unsafe.Pointer(stm)))))
}

//export npu_rtModelGetStreams
func npu_rtModelGetStreams(t *C.npu_thread, mdl C.rtModel_t, streams *C.rtStream_t, numStreams *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelGetStreams(th, handle(unsafe.Pointer(mdl)), handleSlice(unsafe.Pointer(streams), numStreams), (*uint32)(unsafe.Pointer(numStreams)))))
}

//export npu_rtModelDebugJsonPrint
func npu_rtModelDebugJsonPrint(t *C.npu_thread, mdl C.rtModel_t, path *C.char, flags C.uint32_t) C.rtError_t {
	th := thread(t)
	var p string
	if path != nil {
		p = C.GoString(path)
	}
	return C.rtError_t(ret(th, rt.ModelDebugJsonPrint(th, handle(unsafe.Pointer(mdl)), p, path == nil, uint32(flags))))
}

//export npu_rtModelUpdate
func npu_rtModelUpdate(t *C.npu_thread, mdl C.rtModel_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelUpdate(th, handle(unsafe.Pointer(mdl)))))
}

//export npu_rtModelDebugDotPrint
func npu_rtModelDebugDotPrint(t *C.npu_thread, mdl C.rtModel_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelDebugDotPrint(th, handle(unsafe.Pointer(mdl)), os.Stderr)))
}
