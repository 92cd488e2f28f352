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

// Exports of the label family and of model stream control
// (acl/label.go, acl/streamctl.go).

//export npu_aclrtCreateLabel
func npu_aclrtCreateLabel(t *C.npu_thread, label *C.aclrtLabel) C.aclError {
	th := thread(t)
	return ret(th, acl.CreateLabel(th, handleOut(unsafe.Pointer(label))))
}

//export npu_aclrtDestroyLabel
func npu_aclrtDestroyLabel(t *C.npu_thread, label C.aclrtLabel) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyLabel(th, handle(unsafe.Pointer(label))))
}

//export npu_aclrtSetLabel
func npu_aclrtSetLabel(t *C.npu_thread, label C.aclrtLabel, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.SetLabel(th, handle(unsafe.Pointer(label)), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtCreateLabelList
func npu_aclrtCreateLabelList(t *C.npu_thread, labels *C.aclrtLabel, num C.size_t, labelList *C.aclrtLabelList) C.aclError {
	th := thread(t)
	hs := labelHandles(unsafe.Pointer(labels), num)
	return ret(th, acl.CreateLabelList(th, hs, uint64(num), handleOut(unsafe.Pointer(labelList))))
}

//export npu_aclrtDestroyLabelList
func npu_aclrtDestroyLabelList(t *C.npu_thread, labelList C.aclrtLabelList) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyLabelList(th, handle(unsafe.Pointer(labelList))))
}

//export npu_aclrtSwitchLabelByIndex
func npu_aclrtSwitchLabelByIndex(t *C.npu_thread, ptr unsafe.Pointer, maxValue C.uint32_t, labelList C.aclrtLabelList, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.SwitchLabelByIndex(th, uintptr(ptr), uint32(maxValue), handle(unsafe.Pointer(labelList)), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtActiveStream
func npu_aclrtActiveStream(t *C.npu_thread, activeStream, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.ActiveStream(th, handle(unsafe.Pointer(activeStream)), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtSwitchStream
func npu_aclrtSwitchStream(t *C.npu_thread, leftValue unsafe.Pointer, cond C.aclrtCondition, rightValue unsafe.Pointer, dataType C.aclrtCompareDataType, trueStream, falseStream, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.SwitchStream(th, uintptr(leftValue), int32(cond), uintptr(rightValue), int32(dataType),
		handle(unsafe.Pointer(trueStream)), handle(unsafe.Pointer(falseStream)), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtPersistentTaskClean
func npu_aclrtPersistentTaskClean(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.PersistentTaskClean(th, handle(unsafe.Pointer(stream))))
}

// labelHandles is the caller's array of num labels, nil for a NULL array.
// It is read only when num is in range; the count is refused before the
// array is looked at otherwise (an empty, non-nil slice).
func labelHandles(labels unsafe.Pointer, num C.size_t) []core.Handle {
	if labels == nil {
		return nil
	}
	n := 0
	if num > 0 && num <= core.MaxLabels {
		n = int(num)
	}
	if n == 0 {
		return []core.Handle{}
	}
	return unsafe.Slice((*core.Handle)(labels), n)
}
