package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"os"
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the model run instance family (acl/capture.go, acl/mdlri*.go).

// handleSlice views a C array of n handles as a []acl.Handle (nil for a
// NULL array).
func handleSlice(p unsafe.Pointer, n *C.uint32_t) []core.Handle {
	if p == nil || n == nil {
		return nil
	}
	return unsafe.Slice((*core.Handle)(p), int(*n))
}

//export npu_aclmdlRICaptureBegin
func npu_aclmdlRICaptureBegin(t *C.npu_thread, stream C.aclrtStream, mode C.aclmdlRICaptureMode) C.aclError {
	th := thread(t)
	return ret(th, acl.CaptureBegin(th, handle(unsafe.Pointer(stream)), int32(mode)))
}

//export npu_aclmdlRICaptureEnd
func npu_aclmdlRICaptureEnd(t *C.npu_thread, stream C.aclrtStream, modelRI *C.aclmdlRI) C.aclError {
	th := thread(t)
	return ret(th, acl.CaptureEnd(th, handle(unsafe.Pointer(stream)), handleOut(unsafe.Pointer(modelRI))))
}

//export npu_aclmdlRICaptureGetInfo
func npu_aclmdlRICaptureGetInfo(t *C.npu_thread, stream C.aclrtStream, status *C.aclmdlRICaptureStatus, modelRI *C.aclmdlRI) C.aclError {
	th := thread(t)
	return ret(th, acl.CaptureGetInfo(th, handle(unsafe.Pointer(stream)), (*int32)(unsafe.Pointer(status)), handleOut(unsafe.Pointer(modelRI))))
}

//export npu_aclmdlRICaptureThreadExchangeMode
func npu_aclmdlRICaptureThreadExchangeMode(t *C.npu_thread, mode *C.aclmdlRICaptureMode) C.aclError {
	th := thread(t)
	return ret(th, acl.CaptureThreadExchangeMode(th, (*int32)(unsafe.Pointer(mode))))
}

//export npu_aclmdlRIExecuteAsync
func npu_aclmdlRIExecuteAsync(t *C.npu_thread, modelRI C.aclmdlRI, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.ExecuteAsync(th, handle(unsafe.Pointer(modelRI)), handle(unsafe.Pointer(stream))))
}

//export npu_aclmdlRIExecute
func npu_aclmdlRIExecute(t *C.npu_thread, modelRI C.aclmdlRI, timeout C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.Execute(th, handle(unsafe.Pointer(modelRI)), int32(timeout)))
}

//export npu_aclmdlRIDestroy
func npu_aclmdlRIDestroy(t *C.npu_thread, modelRI C.aclmdlRI) C.aclError {
	th := thread(t)
	return ret(th, acl.Destroy(th, handle(unsafe.Pointer(modelRI))))
}

//export npu_aclmdlRIAbort
func npu_aclmdlRIAbort(t *C.npu_thread, modelRI C.aclmdlRI) C.aclError {
	th := thread(t)
	return ret(th, acl.Abort(th, handle(unsafe.Pointer(modelRI))))
}

//export npu_aclmdlRIBuildBegin
func npu_aclmdlRIBuildBegin(t *C.npu_thread, modelRI *C.aclmdlRI, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.BuildBegin(th, handleOut(unsafe.Pointer(modelRI)), uint32(flag)))
}

//export npu_aclmdlRIBindStream
func npu_aclmdlRIBindStream(t *C.npu_thread, modelRI C.aclmdlRI, stream C.aclrtStream, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.BindStream(th, handle(unsafe.Pointer(modelRI)), handle(unsafe.Pointer(stream)), uint32(flag)))
}

//export npu_aclmdlRIEndTask
func npu_aclmdlRIEndTask(t *C.npu_thread, modelRI C.aclmdlRI, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.EndTask(th, handle(unsafe.Pointer(modelRI)), handle(unsafe.Pointer(stream))))
}

//export npu_aclmdlRIBuildEnd
func npu_aclmdlRIBuildEnd(t *C.npu_thread, modelRI C.aclmdlRI, reserve unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.BuildEnd(th, handle(unsafe.Pointer(modelRI)), uintptr(reserve)))
}

//export npu_aclmdlRIUnbindStream
func npu_aclmdlRIUnbindStream(t *C.npu_thread, modelRI C.aclmdlRI, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.UnbindStream(th, handle(unsafe.Pointer(modelRI)), handle(unsafe.Pointer(stream))))
}

//export npu_aclmdlRIGetStreams
func npu_aclmdlRIGetStreams(t *C.npu_thread, modelRI C.aclmdlRI, streams *C.aclrtStream, numStreams *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetStreams(th, handle(unsafe.Pointer(modelRI)), handleSlice(unsafe.Pointer(streams), numStreams), (*uint32)(unsafe.Pointer(numStreams))))
}

//export npu_aclmdlRIGetTasksByStream
func npu_aclmdlRIGetTasksByStream(t *C.npu_thread, stream C.aclrtStream, tasks *C.aclmdlRITask, numTasks *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetTasksByStream(th, handle(unsafe.Pointer(stream)), handleSlice(unsafe.Pointer(tasks), numTasks), (*uint32)(unsafe.Pointer(numTasks))))
}

//export npu_aclmdlRITaskGetType
func npu_aclmdlRITaskGetType(t *C.npu_thread, task C.aclmdlRITask, typ *C.aclmdlRITaskType) C.aclError {
	th := thread(t)
	return ret(th, acl.TaskGetType(th, handle(unsafe.Pointer(task)), (*int32)(unsafe.Pointer(typ))))
}

//export npu_aclmdlRITaskGetSeqId
func npu_aclmdlRITaskGetSeqId(t *C.npu_thread, task C.aclmdlRITask, id *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.TaskGetSeqID(th, handle(unsafe.Pointer(task)), (*uint32)(unsafe.Pointer(id))))
}

//export npu_aclmdlRITaskGetParams
func npu_aclmdlRITaskGetParams(t *C.npu_thread, task C.aclmdlRITask, params *C.aclmdlRITaskParams) C.aclError {
	th := thread(t)
	return ret(th, acl.TaskGetParams(th, handle(unsafe.Pointer(task)), (*acl.RITaskParams)(unsafe.Pointer(params))))
}

//export npu_aclmdlRITaskSetParams
func npu_aclmdlRITaskSetParams(t *C.npu_thread, task C.aclmdlRITask, params *C.aclmdlRITaskParams) C.aclError {
	th := thread(t)
	return ret(th, acl.TaskSetParams(th, handle(unsafe.Pointer(task)), (*acl.RITaskParams)(unsafe.Pointer(params))))
}

//export npu_aclmdlRIKernelTaskGetAttribute
func npu_aclmdlRIKernelTaskGetAttribute(t *C.npu_thread, task C.aclmdlRITask, attrID C.aclrtLaunchKernelAttrId, attrValue *C.aclrtLaunchKernelAttrValue) C.aclError {
	th := thread(t)
	return ret(th, acl.KernelTaskGetAttribute(th, handle(unsafe.Pointer(task)), int32(attrID), (*[16]byte)(unsafe.Pointer(attrValue))))
}

//export npu_aclmdlRITaskDisable
func npu_aclmdlRITaskDisable(t *C.npu_thread, task C.aclmdlRITask) C.aclError {
	th := thread(t)
	return ret(th, acl.TaskDisable(th, handle(unsafe.Pointer(task))))
}

//export npu_aclmdlRIUpdate
func npu_aclmdlRIUpdate(t *C.npu_thread, modelRI C.aclmdlRI) C.aclError {
	th := thread(t)
	return ret(th, acl.Update(th, handle(unsafe.Pointer(modelRI))))
}

//export npu_aclmdlRISetName
func npu_aclmdlRISetName(t *C.npu_thread, modelRI C.aclmdlRI, name *C.char) C.aclError {
	th := thread(t)
	var s string
	if name != nil {
		s = C.GoString(name)
	}
	return ret(th, acl.SetName(th, handle(unsafe.Pointer(modelRI)), s, name == nil))
}

//export npu_aclmdlRIGetName
func npu_aclmdlRIGetName(t *C.npu_thread, modelRI C.aclmdlRI, maxLen C.uint32_t, name *C.char) C.aclError {
	th := thread(t)
	var buf []byte
	if name != nil {
		buf = unsafe.Slice((*byte)(unsafe.Pointer(name)), int(maxLen))
	}
	return ret(th, acl.GetName(th, handle(unsafe.Pointer(modelRI)), buf))
}

//export npu_aclmdlRIGetId
func npu_aclmdlRIGetId(t *C.npu_thread, modelRI C.aclmdlRI, id *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetID(th, handle(unsafe.Pointer(modelRI)), (*uint32)(unsafe.Pointer(id))))
}

//export npu_aclmdlRIDestroyRegisterCallback
func npu_aclmdlRIDestroyRegisterCallback(t *C.npu_thread, modelRI C.aclmdlRI, fn C.aclrtCallback, userData unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyRegisterCallback(th, handle(unsafe.Pointer(modelRI)), uintptr(unsafe.Pointer(fn)), hostFn(unsafe.Pointer(fn), userData)))
}

//export npu_aclmdlRIDestroyUnregisterCallback
func npu_aclmdlRIDestroyUnregisterCallback(t *C.npu_thread, modelRI C.aclmdlRI, fn C.aclrtCallback) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyUnregisterCallback(th, handle(unsafe.Pointer(modelRI)), uintptr(unsafe.Pointer(fn))))
}

//export npu_aclmdlRIDebugJsonPrint
func npu_aclmdlRIDebugJsonPrint(t *C.npu_thread, modelRI C.aclmdlRI, path *C.char, flags C.uint32_t) C.aclError {
	th := thread(t)
	var p string
	if path != nil {
		p = C.GoString(path)
	}
	return ret(th, acl.DebugJSONPrint(th, handle(unsafe.Pointer(modelRI)), p, uint32(flags)))
}

//export npu_aclmdlRIDebugPrint
func npu_aclmdlRIDebugPrint(t *C.npu_thread, modelRI C.aclmdlRI) C.aclError {
	th := thread(t)
	return ret(th, acl.DebugPrint(th, handle(unsafe.Pointer(modelRI)), os.Stderr))
}

//export npu_aclmdlRICaptureTaskGrpBegin
func npu_aclmdlRICaptureTaskGrpBegin(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.CaptureTaskGrpBegin(th, handle(unsafe.Pointer(stream))))
}

//export npu_aclmdlRICaptureTaskGrpEnd
func npu_aclmdlRICaptureTaskGrpEnd(t *C.npu_thread, stream C.aclrtStream, grp *C.aclrtTaskGrp) C.aclError {
	th := thread(t)
	return ret(th, acl.CaptureTaskGrpEnd(th, handle(unsafe.Pointer(stream)), handleOut(unsafe.Pointer(grp))))
}

//export npu_aclmdlRICaptureTaskUpdateBegin
func npu_aclmdlRICaptureTaskUpdateBegin(t *C.npu_thread, stream C.aclrtStream, grp C.aclrtTaskGrp) C.aclError {
	th := thread(t)
	return ret(th, acl.CaptureTaskUpdateBegin(th, handle(unsafe.Pointer(stream)), handle(unsafe.Pointer(grp))))
}

//export npu_aclmdlRICaptureTaskUpdateEnd
func npu_aclmdlRICaptureTaskUpdateEnd(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.CaptureTaskUpdateEnd(th, handle(unsafe.Pointer(stream))))
}
