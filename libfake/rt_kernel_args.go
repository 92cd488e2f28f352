package main

/*
#include "acl/acl.h"
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the runtime's rts* argument handles (rt/kernel_args.go,
// round 9). rtArgsHandle is aclrtArgsHandle (argsHandle resolves a runtime
// handle or caller memory made a handle by rtsKernelArgsInitByUserMem or
// aclrtKernelArgsInitByUserMem); rtParaHandle is aclrtParamHandle.

//export npu_rtsKernelArgsInit
func npu_rtsKernelArgsInit(t *C.npu_thread, funcHandle C.rtFuncHandle, args *C.rtArgsHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.KernelArgsInit(th, handle(unsafe.Pointer(funcHandle)), handleOut(unsafe.Pointer(args)))))
}

// npu_rtsKernelArgsInitByUserMem makes the caller's handle memory (at
// least rtsKernelArgsGetHandleMemSize bytes) a handle, as
// npu_aclrtKernelArgsInitByUserMem does: a magic and the runtime handle,
// found again by its address in userArgs.
//
//export npu_rtsKernelArgsInitByUserMem
func npu_rtsKernelArgsInitByUserMem(t *C.npu_thread, funcHandle C.rtFuncHandle, args C.rtArgsHandle, userHostMem unsafe.Pointer, actualArgsSize C.size_t) C.rtError_t {
	const fn = "rtsKernelArgsInitByUserMem"
	th := thread(t)
	if args == nil {
		return C.rtError_t(ret(th, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: argsHandle must not be NULL (memory of rtsKernelArgsGetHandleMemSize bytes)", fn)))
	}
	if uintptr(unsafe.Pointer(args))>>56 != 0 {
		return C.rtError_t(ret(th, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: argsHandle %p is a runtime handle; it must be caller memory of rtsKernelArgsGetHandleMemSize bytes", fn, unsafe.Pointer(args))))
	}
	h, err := rt.KernelArgsInitByUserMem(th, handle(unsafe.Pointer(funcHandle)), hostBytes(userHostMem, actualArgsSize))
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	m := (*[2]uint64)(unsafe.Pointer(args))
	m[0], m[1] = core.ArgsUserMagic, uint64(h)
	userArgs.Store(uintptr(unsafe.Pointer(args)), h)
	return 0
}

//export npu_rtsKernelArgsAppend
func npu_rtsKernelArgsAppend(t *C.npu_thread, args C.rtArgsHandle, para unsafe.Pointer, paraSize C.size_t, paraHandle *C.rtParaHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.KernelArgsAppend(th, argsHandle(C.aclrtArgsHandle(args)), hostBytes(para, paraSize), handleOut(unsafe.Pointer(paraHandle)))))
}

//export npu_rtsKernelArgsAppendPlaceHolder
func npu_rtsKernelArgsAppendPlaceHolder(t *C.npu_thread, args C.rtArgsHandle, paraHandle *C.rtParaHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.KernelArgsAppendPlaceHolder(th, argsHandle(C.aclrtArgsHandle(args)), handleOut(unsafe.Pointer(paraHandle)))))
}

//export npu_rtsKernelArgsGetPlaceHolderBuffer
func npu_rtsKernelArgsGetPlaceHolderBuffer(t *C.npu_thread, args C.rtArgsHandle, paraHandle C.rtParaHandle, dataSize C.size_t, bufferAddr *unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.KernelArgsGetPlaceHolderBuffer(th, argsHandle(C.aclrtArgsHandle(args)), handle(unsafe.Pointer(paraHandle)), uint64(dataSize), addrOut(bufferAddr))))
}

//export npu_rtsKernelArgsFinalize
func npu_rtsKernelArgsFinalize(t *C.npu_thread, args C.rtArgsHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.KernelArgsFinalize(th, argsHandle(C.aclrtArgsHandle(args)))))
}

//export npu_rtsKernelArgsParaUpdate
func npu_rtsKernelArgsParaUpdate(t *C.npu_thread, args C.rtArgsHandle, paraHandle C.rtParaHandle, para unsafe.Pointer, paraSize C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.KernelArgsParaUpdate(th, argsHandle(C.aclrtArgsHandle(args)), handle(unsafe.Pointer(paraHandle)), hostBytes(para, paraSize))))
}

//export npu_rtsKernelArgsGetMemSize
func npu_rtsKernelArgsGetMemSize(t *C.npu_thread, funcHandle C.rtFuncHandle, userArgsSize C.size_t, actualArgsSize *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.KernelArgsGetMemSize(th, handle(unsafe.Pointer(funcHandle)), uint64(userArgsSize), (*uint64)(unsafe.Pointer(actualArgsSize)))))
}

//export npu_rtsKernelArgsGetHandleMemSize
func npu_rtsKernelArgsGetHandleMemSize(t *C.npu_thread, funcHandle C.rtFuncHandle, memSize *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.KernelArgsGetHandleMemSize(th, handle(unsafe.Pointer(funcHandle)), (*uint64)(unsafe.Pointer(memSize)))))
}
