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

// Exports of the rest of the runtime's capture family (rt/capture_task.go,
// round 9). rtModel_t is aclmdlRI, rtTask_t aclmdlRITask, rtCondHandle_t
// aclmdlRICondHandle; rtTaskParams and rtTaskUpdateCfg_t are mirrored in
// rt (rt/zmirrors.go).

//export npu_rtModelCondHandleCreate
func npu_rtModelCondHandleCreate(t *C.npu_thread, mdl C.rtModel_t, defaultLaunchValue C.uint32_t, flag C.rtCondHandleFlag_t, h *C.rtCondHandle_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelCondHandleCreate(th, handle(unsafe.Pointer(mdl)), uint32(defaultLaunchValue), int32(flag), handleOut(unsafe.Pointer(h)))))
}

//export npu_rtModelCondHandleGetCondPtr
func npu_rtModelCondHandleGetCondPtr(t *C.npu_thread, h C.rtCondHandle_t, devPtr **C.uint64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelCondHandleGetCondPtr(th, handle(unsafe.Pointer(h)), (*uintptr)(unsafe.Pointer(devPtr)))))
}

//export npu_rtStreamAddCondTask
func npu_rtStreamAddCondTask(t *C.npu_thread, params C.rtCondTaskParams, stm C.rtStream_t, flags C.uint32_t) C.rtError_t {
	th := thread(t)
	p := condTaskParams(unsafe.Pointer(params.handle), int32(params._type), uint32(params.size), unsafe.Pointer(params.modelRIArray))
	return C.rtError_t(ret(th, rt.StreamAddCondTask(th, p, handle(unsafe.Pointer(stm)), uint32(flags))))
}

//export npu_rtStreamBeginCaptureToModel
func npu_rtStreamBeginCaptureToModel(t *C.npu_thread, stm C.rtStream_t, mdl C.rtModel_t, mode C.rtStreamCaptureMode) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamBeginCaptureToModel(th, handle(unsafe.Pointer(stm)), handle(unsafe.Pointer(mdl)), int32(mode))))
}

//export npu_rtModelDestroyRegisterCallback
func npu_rtModelDestroyRegisterCallback(t *C.npu_thread, mdl C.rtModel_t, fn C.rtCallback_t, ptr unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelDestroyRegisterCallback(th, handle(unsafe.Pointer(mdl)), uintptr(unsafe.Pointer(fn)), hostFn(unsafe.Pointer(fn), ptr))))
}

//export npu_rtModelDestroyUnregisterCallback
func npu_rtModelDestroyUnregisterCallback(t *C.npu_thread, mdl C.rtModel_t, fn C.rtCallback_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelDestroyUnregisterCallback(th, handle(unsafe.Pointer(mdl)), uintptr(unsafe.Pointer(fn)))))
}

//export npu_rtStreamGetTasks
func npu_rtStreamGetTasks(t *C.npu_thread, stm C.rtStream_t, tasks *C.rtTask_t, numTasks *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.StreamGetTasks(th, handle(unsafe.Pointer(stm)), handleSlice(unsafe.Pointer(tasks), numTasks), (*uint32)(unsafe.Pointer(numTasks)))))
}

//export npu_rtTaskGetType
func npu_rtTaskGetType(t *C.npu_thread, task C.rtTask_t, typ *C.rtTaskType) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.TaskGetType(th, handle(unsafe.Pointer(task)), (*int32)(unsafe.Pointer(typ)))))
}

//export npu_rtTaskGetSeqId
func npu_rtTaskGetSeqId(t *C.npu_thread, task C.rtTask_t, id *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.TaskGetSeqID(th, handle(unsafe.Pointer(task)), (*uint32)(unsafe.Pointer(id)))))
}

//export npu_rtModelTaskGetParams
func npu_rtModelTaskGetParams(t *C.npu_thread, task C.rtTask_t, params *C.rtTaskParams) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelTaskGetParams(th, handle(unsafe.Pointer(task)), (*rt.TaskParams)(unsafe.Pointer(params)))))
}

//export npu_rtModelTaskSetParams
func npu_rtModelTaskSetParams(t *C.npu_thread, task C.rtTask_t, params *C.rtTaskParams) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelTaskSetParams(th, handle(unsafe.Pointer(task)), (*rt.TaskParams)(unsafe.Pointer(params)))))
}

//export npu_rtModelKernelTaskGetAttribute
func npu_rtModelKernelTaskGetAttribute(t *C.npu_thread, task C.rtTask_t, attrID C.rtLaunchKernelAttrId, attrValue *C.rtLaunchKernelAttrVal_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelKernelTaskGetAttribute(th, handle(unsafe.Pointer(task)), int32(attrID), (*[16]byte)(unsafe.Pointer(attrValue)))))
}

//export npu_rtModelTaskDisable
func npu_rtModelTaskDisable(t *C.npu_thread, task C.rtTask_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelTaskDisable(th, handle(unsafe.Pointer(task)))))
}

//export npu_rtsLaunchUpdateTask
func npu_rtsLaunchUpdateTask(t *C.npu_thread, destStm C.rtStream_t, destTaskID C.uint32_t, stm C.rtStream_t, cfg *C.rtTaskUpdateCfg_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.LaunchUpdateTask(th, handle(unsafe.Pointer(destStm)), uint32(destTaskID), handle(unsafe.Pointer(stm)), (*rt.TaskUpdateCfg)(unsafe.Pointer(cfg)))))
}
