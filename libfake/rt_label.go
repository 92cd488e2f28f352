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

// Exports of the runtime's rts* label calls (rt/label.go, round 8).
// rtLabel_t is aclrtLabel; the switch list (void*) is aclrtLabelList.

//export npu_rtsLabelCreate
func npu_rtsLabelCreate(t *C.npu_thread, lbl *C.rtLabel_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.LabelCreate(th, handleOut(unsafe.Pointer(lbl)))))
}

//export npu_rtsLabelDestroy
func npu_rtsLabelDestroy(t *C.npu_thread, lbl C.rtLabel_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.LabelDestroy(th, handle(unsafe.Pointer(lbl)))))
}

//export npu_rtsLabelSwitchListCreate
func npu_rtsLabelSwitchListCreate(t *C.npu_thread, labels *C.rtLabel_t, num C.size_t, labelList *unsafe.Pointer) C.rtError_t {
	th := thread(t)
	hs := labelHandles(unsafe.Pointer(labels), num)
	return C.rtError_t(ret(th, rt.LabelSwitchListCreate(th, hs, uint64(num), handleOut(unsafe.Pointer(labelList)))))
}

//export npu_rtsLabelSwitchListDestroy
func npu_rtsLabelSwitchListDestroy(t *C.npu_thread, labelList unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.LabelSwitchListDestroy(th, handle(labelList))))
}

//export npu_rtsLabelSet
func npu_rtsLabelSet(t *C.npu_thread, lbl C.rtLabel_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.LabelSet(th, handle(unsafe.Pointer(lbl)), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsLabelSwitchByIndex
func npu_rtsLabelSwitchByIndex(t *C.npu_thread, ptr unsafe.Pointer, maxValue C.uint32_t, labelInfoPtr unsafe.Pointer, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.LabelSwitchByIndex(th, uintptr(ptr), uint32(maxValue), handle(labelInfoPtr), handle(unsafe.Pointer(stm)))))
}
