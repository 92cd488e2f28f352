package main

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "mstx/ms_tools_ext_mem.h"
#include "npu.h"

static inline void *npu_prof_ptr(uintptr_t v) { return (void *)v; }
static inline void npu_prof_set_int(void *p, int v) { *(int *)p = v; }
static inline int npu_prof_get_int(void *p) { return *(int *)p; }
static inline uint64_t npu_prof_opname(aclprofEventAttributes *a) {
    return a->message.tensorInfo ? a->message.tensorInfo->opNameId : 0;
}
*/
import "C"

import (
	"strconv"
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of acl/acl_prof.h (acl/prof*.go) and mstx (acl/mstx.go).

// cbytes views n bytes at p (nil when p is NULL); a length no buffer can
// hold refuses the call (callermem.go).
func cbytes(p unsafe.Pointer, n C.size_t) []byte {
	return callerSlice[byte]("length", p, uint64(n))
}

// cstrLen is a C string whose strlen must equal length: otherwise nil.
func cstrLen(s *C.char, length C.size_t) []byte {
	if s == nil || C.strlen(s) != length {
		return nil
	}
	return cbytes(unsafe.Pointer(s), length)
}

func cbytesZ(s *C.char) []byte {
	if s == nil {
		return nil
	}
	return cbytes(unsafe.Pointer(s), C.strlen(s))
}

func ptrOut(h uintptr) unsafe.Pointer { return C.npu_prof_ptr(C.uintptr_t(h)) }

//export npu_aclprofInit
func npu_aclprofInit(t *C.npu_thread, path *C.char, length C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfInit(th, cstrLen(path, length)))
}

//export npu_aclprofFinalize
func npu_aclprofFinalize(t *C.npu_thread) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfFinalize(th))
}

//export npu_aclprofSetConfig
func npu_aclprofSetConfig(t *C.npu_thread, typ C.aclprofConfigType, config *C.char, length C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfSetConfig(th, int32(typ), cstrLen(config, length)))
}

//export npu_aclprofCreateConfig
func npu_aclprofCreateConfig(t *C.npu_thread, list *C.uint32_t, n C.uint32_t, metrics C.aclprofAicoreMetrics, events *C.aclprofAicoreEvents, types C.uint64_t) unsafe.Pointer {
	th := thread(t)
	var devs []uint32
	if list != nil && n > 0 && n <= 64 {
		devs = append(devs, unsafe.Slice((*uint32)(unsafe.Pointer(list)), int(n))...)
	} else if n > 0 {
		devs = make([]uint32, int(min(n, 65)))
	}
	h, err := acl.ProfCreateConfig(th, devs, list == nil, int32(metrics), events != nil, uint64(types))
	if err != nil {
		th.Fail(err)
		return nil
	}
	return ptrOut(h)
}

//export npu_aclprofDestroyConfig
func npu_aclprofDestroyConfig(t *C.npu_thread, cfg *C.aclprofConfig) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfDestroyConfig(th, uintptr(unsafe.Pointer(cfg))))
}

//export npu_aclprofStart
func npu_aclprofStart(t *C.npu_thread, cfg *C.aclprofConfig) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfStart(th, uintptr(unsafe.Pointer(cfg))))
}

//export npu_aclprofStop
func npu_aclprofStop(t *C.npu_thread, cfg *C.aclprofConfig) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfStop(th, uintptr(unsafe.Pointer(cfg))))
}

//export npu_aclprofCreateSubscribeConfig
func npu_aclprofCreateSubscribeConfig(t *C.npu_thread, timeInfo C.int8_t, metrics C.aclprofAicoreMetrics, fd unsafe.Pointer) unsafe.Pointer {
	th := thread(t)
	w := -1
	if fd != nil {
		w = int(C.npu_prof_get_int(fd))
	}
	h := acl.ProfCreateSubscribeConfig(th, int8(timeInfo), int32(metrics), fd == nil, w, func() { C.npu_prof_set_int(fd, -1) })
	return ptrOut(h)
}

//export npu_aclprofDestroySubscribeConfig
func npu_aclprofDestroySubscribeConfig(t *C.npu_thread, cfg *C.aclprofSubscribeConfig) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfDestroySubscribeConfig(th, uintptr(unsafe.Pointer(cfg))))
}

//export npu_aclprofModelSubscribe
func npu_aclprofModelSubscribe(t *C.npu_thread, model C.uint32_t, cfg *C.aclprofSubscribeConfig) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfModelSubscribe(th, uint32(model), uintptr(unsafe.Pointer(cfg))))
}

//export npu_aclprofModelUnSubscribe
func npu_aclprofModelUnSubscribe(t *C.npu_thread, model C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfModelUnSubscribe(th, uint32(model)))
}

//export npu_aclprofGetOpDescSize
func npu_aclprofGetOpDescSize(t *C.npu_thread, size *C.size_t) C.aclError {
	th := thread(t)
	if size == nil {
		return ret(th, acl.ProfNullArg("aclprofGetOpDescSize", "opDescSize"))
	}
	*size = core.OpDescSize
	return 0
}

//export npu_aclprofGetOpNum
func npu_aclprofGetOpNum(t *C.npu_thread, info unsafe.Pointer, n C.size_t, num *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfGetOpNum(th, cbytes(info, n), (*uint32)(unsafe.Pointer(num))))
}

//export npu_aclprofGetOpTypeLen
func npu_aclprofGetOpTypeLen(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, l *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfGetOpStringLen(th, "aclprofGetOpTypeLen", cbytes(info, n), uint32(index), false, (*uint64)(unsafe.Pointer(l))))
}

//export npu_aclprofGetOpType
func npu_aclprofGetOpType(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, out *C.char, l C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfGetOpString(th, "aclprofGetOpType", cbytes(info, n), uint32(index), false, cbytes(unsafe.Pointer(out), l)))
}

//export npu_aclprofGetOpNameLen
func npu_aclprofGetOpNameLen(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, l *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfGetOpStringLen(th, "aclprofGetOpNameLen", cbytes(info, n), uint32(index), true, (*uint64)(unsafe.Pointer(l))))
}

//export npu_aclprofGetOpName
func npu_aclprofGetOpName(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, out *C.char, l C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfGetOpString(th, "aclprofGetOpName", cbytes(info, n), uint32(index), true, cbytes(unsafe.Pointer(out), l)))
}

//export npu_aclprofGetOpStart
func npu_aclprofGetOpStart(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.uint64_t {
	return C.uint64_t(acl.ProfGetOpU64(thread(t), "aclprofGetOpStart", cbytes(info, n), uint32(index), 32))
}

//export npu_aclprofGetOpEnd
func npu_aclprofGetOpEnd(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.uint64_t {
	return C.uint64_t(acl.ProfGetOpU64(thread(t), "aclprofGetOpEnd", cbytes(info, n), uint32(index), 40))
}

//export npu_aclprofGetOpDuration
func npu_aclprofGetOpDuration(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.uint64_t {
	return C.uint64_t(acl.ProfGetOpU64(thread(t), "aclprofGetOpDuration", cbytes(info, n), uint32(index), 24))
}

//export npu_aclprofGetModelId
func npu_aclprofGetModelId(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.size_t {
	return C.size_t(acl.ProfGetModelID(thread(t), cbytes(info, n), uint32(index)))
}

//export npu_aclprofGetOpFlag
func npu_aclprofGetOpFlag(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t) C.aclprofSubscribeOpFlag {
	return C.aclprofSubscribeOpFlag(acl.ProfGetOpFlag(thread(t), cbytes(info, n), info == nil, uint32(index)))
}

// attriBuf is aclprofGetOpAttriValue's single static buffer, overwritten
// by the next call (as documented).
var attriBuf = (*[32]C.char)(C.malloc(32))

//export npu_aclprofGetOpAttriValue
func npu_aclprofGetOpAttriValue(t *C.npu_thread, info unsafe.Pointer, n C.size_t, index C.uint32_t, attri C.aclprofSubscribeOpAttri) *C.char {
	s, ok := acl.ProfGetOpAttriValue(thread(t), cbytes(info, n), uint32(index), int32(attri))
	if !ok {
		return nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&attriBuf[0])), len(attriBuf))
	b[copy(b[:len(b)-1], s)] = 0
	return &attriBuf[0]
}

//export npu_aclprofCreateStepInfo
func npu_aclprofCreateStepInfo(t *C.npu_thread) unsafe.Pointer {
	return ptrOut(acl.ProfCreateStepInfo(thread(t)))
}

//export npu_aclprofDestroyStepInfo
func npu_aclprofDestroyStepInfo(t *C.npu_thread, si *C.aclprofStepInfo) {
	acl.ProfDestroyStepInfo(thread(t), uintptr(unsafe.Pointer(si)))
}

//export npu_aclprofGetStepTimestamp
func npu_aclprofGetStepTimestamp(t *C.npu_thread, si *C.aclprofStepInfo, tag C.aclprofStepTag, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfGetStepTimestamp(th, uintptr(unsafe.Pointer(si)), int32(tag), handle(unsafe.Pointer(stream))))
}

//export npu_aclprofCreateStamp
func npu_aclprofCreateStamp(t *C.npu_thread) unsafe.Pointer {
	return ptrOut(acl.ProfCreateStamp(thread(t)))
}

//export npu_aclprofDestroyStamp
func npu_aclprofDestroyStamp(t *C.npu_thread, s unsafe.Pointer) {
	acl.ProfDestroyStamp(thread(t), uintptr(s))
}

//export npu_aclprofSetStampTraceMessage
func npu_aclprofSetStampTraceMessage(t *C.npu_thread, s unsafe.Pointer, msg *C.char, n C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfSetStampTraceMessage(th, uintptr(s), cbytes(unsafe.Pointer(msg), C.size_t(n))))
}

//export npu_aclprofMark
func npu_aclprofMark(t *C.npu_thread, s unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfMark(th, uintptr(s)))
}

//export npu_aclprofMarkEx
func npu_aclprofMarkEx(t *C.npu_thread, msg *C.char, n C.size_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfMarkEx(th, cstrLen(msg, n), handle(unsafe.Pointer(stream))))
}

//export npu_aclprofPush
func npu_aclprofPush(t *C.npu_thread, s unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfPush(th, uintptr(s)))
}

//export npu_aclprofPop
func npu_aclprofPop(t *C.npu_thread) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfPop(th))
}

//export npu_aclprofRangeStart
func npu_aclprofRangeStart(t *C.npu_thread, s unsafe.Pointer, id *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfRangeStart(th, uintptr(s), (*uint32)(unsafe.Pointer(id))))
}

//export npu_aclprofRangeStop
func npu_aclprofRangeStop(t *C.npu_thread, id C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ProfRangeStop(th, uint32(id)))
}

//export npu_aclprofStr2Id
func npu_aclprofStr2Id(t *C.npu_thread, msg *C.char) C.uint64_t {
	if msg == nil {
		th := thread(t)
		th.Fail(acl.ProfNullArg("aclprofStr2Id", "message"))
		return C.uint64_t(^uint64(0))
	}
	return C.uint64_t(acl.ProfStr2Id(cbytesZ(msg)))
}

//export npu_aclprofRangePushEx
func npu_aclprofRangePushEx(t *C.npu_thread, attr *C.aclprofEventAttributes) C.aclError {
	th := thread(t)
	if attr == nil {
		return ret(th, acl.ProfRangePushEx(th, 0, 0))
	}
	return ret(th, acl.ProfRangePushEx(th, uintptr(unsafe.Pointer(attr)), uint32(attr.messageType)))
}

//export npu_aclprofRangePop
func npu_aclprofRangePop(t *C.npu_thread) C.aclError {
	th := thread(t)
	name := ""
	if p := acl.PushedRangeAttr(); p != 0 {
		// The caller keeps the attributes alive until this pop (documented).
		name = "op " + strconv.FormatUint(uint64(C.npu_prof_opname((*C.aclprofEventAttributes)(ptrOut(p)))), 16)
	}
	return ret(th, acl.ProfRangePop(th, name))
}

// mstx.

func domainOf(d C.mstxDomainHandle_t) uintptr { return uintptr(unsafe.Pointer(d)) }

//export npu_mstxMarkA
func npu_mstxMarkA(t *C.npu_thread, msg *C.char, stream C.aclrtStream) {
	acl.MstxMark(thread(t), 0, cbytesZ(msg), handle(unsafe.Pointer(stream)))
}

//export npu_mstxRangeStartA
func npu_mstxRangeStartA(t *C.npu_thread, msg *C.char, stream C.aclrtStream) C.mstxRangeId {
	return C.mstxRangeId(acl.MstxRangeStart(thread(t), 0, cbytesZ(msg), handle(unsafe.Pointer(stream))))
}

//export npu_mstxRangeEnd
func npu_mstxRangeEnd(t *C.npu_thread, id C.mstxRangeId) {
	acl.MstxRangeEnd(thread(t), 0, uint64(id), 0)
}

//export npu_mstxDomainCreateA
func npu_mstxDomainCreateA(t *C.npu_thread, name *C.char) unsafe.Pointer {
	return ptrOut(acl.MstxDomainCreate(thread(t), cbytesZ(name)))
}

//export npu_mstxDomainDestroy
func npu_mstxDomainDestroy(t *C.npu_thread, d C.mstxDomainHandle_t) {
	acl.MstxDomainDestroy(thread(t), domainOf(d))
}

//export npu_mstxDomainMarkA
func npu_mstxDomainMarkA(t *C.npu_thread, d C.mstxDomainHandle_t, msg *C.char, stream C.aclrtStream) {
	if d == nil {
		return // a NULL domain is no domain (the default one has no handle)
	}
	acl.MstxMark(thread(t), domainOf(d), cbytesZ(msg), handle(unsafe.Pointer(stream)))
}

//export npu_mstxDomainRangeStartA
func npu_mstxDomainRangeStartA(t *C.npu_thread, d C.mstxDomainHandle_t, msg *C.char, stream C.aclrtStream) C.mstxRangeId {
	if d == nil {
		return 0
	}
	return C.mstxRangeId(acl.MstxRangeStart(thread(t), domainOf(d), cbytesZ(msg), handle(unsafe.Pointer(stream))))
}

//export npu_mstxDomainRangeEnd
func npu_mstxDomainRangeEnd(t *C.npu_thread, d C.mstxDomainHandle_t, id C.mstxRangeId) {
	if d == nil {
		return
	}
	acl.MstxRangeEnd(thread(t), domainOf(d), uint64(id), 0)
}

//export npu_mstxGetToolId
func npu_mstxGetToolId(t *C.npu_thread, id *C.uint64_t) {
	if id != nil {
		*id = core.MstxToolID
	}
}

// The memory annotations behave as under msprof: recorded nowhere, the
// heap handle NULL (prof-api.md §8.4).

//export npu_mstxMemHeapRegister
func npu_mstxMemHeapRegister(t *C.npu_thread, d C.mstxDomainHandle_t, desc *C.mstxMemHeapDesc_t) unsafe.Pointer {
	return nil
}

//export npu_mstxMemHeapUnregister
func npu_mstxMemHeapUnregister(t *C.npu_thread, d C.mstxDomainHandle_t, heap C.mstxMemHeapHandle_t) {
}

//export npu_mstxMemRegionsRegister
func npu_mstxMemRegionsRegister(t *C.npu_thread, d C.mstxDomainHandle_t, desc *C.mstxMemRegionsRegisterBatch_t) {
	if desc != nil && desc.regionHandleArrayOut != nil && desc.regionCount > 0 && desc.regionCount < 1<<24 {
		clear(unsafe.Slice(desc.regionHandleArrayOut, int(desc.regionCount)))
	}
}

//export npu_mstxMemRegionsUnregister
func npu_mstxMemRegionsUnregister(t *C.npu_thread, d C.mstxDomainHandle_t, desc *C.mstxMemRegionsUnregisterBatch_t) {
}

//export npu_mstxMemPermissionsAssign
func npu_mstxMemPermissionsAssign(t *C.npu_thread, d C.mstxDomainHandle_t, desc *C.mstxMemPermissionsAssignBatch_t) {
}
