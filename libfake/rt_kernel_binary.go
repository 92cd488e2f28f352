package main

/*
#include "acl/acl.h"
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's kernel registry (rt/kernel_binary.go, round 9).
// rtBinHandle and rtFuncHandle are aclrtBinHandle and aclrtFuncHandle;
// rtLoadBinaryConfig_t has aclrtBinaryLoadOptions's layout (acl-to-rt.tsv),
// so its options are read as loadOptions reads ACL's (rt ids, converted in
// package rt).

//export npu_rtsBinaryLoadFromFile
func npu_rtsBinaryLoadFromFile(t *C.npu_thread, binPath *C.char_t, optionalCfg *C.rtLoadBinaryConfig_t, h *C.rtBinHandle) C.rtError_t {
	th := thread(t)
	opts := loadOptions((*C.aclrtBinaryLoadOptions)(unsafe.Pointer(optionalCfg)))
	return C.rtError_t(ret(th, rt.BinaryLoadFromFile(th, cstr((*C.char)(binPath)), opts, handleOut(unsafe.Pointer(h)))))
}

//export npu_rtsBinaryLoadFromData
func npu_rtsBinaryLoadFromData(t *C.npu_thread, data unsafe.Pointer, length C.uint64_t, optionalCfg *C.rtLoadBinaryConfig_t, h *C.rtBinHandle) C.rtError_t {
	th := thread(t)
	opts := loadOptions((*C.aclrtBinaryLoadOptions)(unsafe.Pointer(optionalCfg)))
	return C.rtError_t(ret(th, rt.BinaryLoadFromData(th, hostBytes(data, C.size_t(length)), opts, handleOut(unsafe.Pointer(h)))))
}

//export npu_rtBinaryLoadWithoutTilingKey
func npu_rtBinaryLoadWithoutTilingKey(t *C.npu_thread, data unsafe.Pointer, length C.uint64_t, binHandle *C.rtBinHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.BinaryLoadWithoutTilingKey(th, hostBytes(data, C.size_t(length)), handleOut(unsafe.Pointer(binHandle)))))
}

//export npu_rtBinaryUnLoad
func npu_rtBinaryUnLoad(t *C.npu_thread, binHandle C.rtBinHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.BinaryUnLoad(th, handle(unsafe.Pointer(binHandle)))))
}

//export npu_rtBinaryGetGlobal
func npu_rtBinaryGetGlobal(t *C.npu_thread, binHandle C.rtBinHandle, name *C.char, dptr *unsafe.Pointer, size *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.BinaryGetGlobal(th, handle(unsafe.Pointer(binHandle)), cstr(name), addrOut(dptr), (*uint64)(unsafe.Pointer(size)))))
}

//export npu_rtGetFuncBySymbol
func npu_rtGetFuncBySymbol(t *C.npu_thread, symbol unsafe.Pointer, funcHandle *C.rtFuncHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetFuncBySymbol(th, uintptr(symbol), handleOut(unsafe.Pointer(funcHandle)))))
}

//export npu_rtSymbolLookup
func npu_rtSymbolLookup(t *C.npu_thread, hostVar unsafe.Pointer, devPtr *unsafe.Pointer, size *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SymbolLookup(th, uintptr(hostVar), addrOut(devPtr), (*uint64)(unsafe.Pointer(size)))))
}

//export npu_rtsFuncGetByName
func npu_rtsFuncGetByName(t *C.npu_thread, binHandle C.rtBinHandle, kernelName *C.char_t, funcHandle *C.rtFuncHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FuncGetByName(th, handle(unsafe.Pointer(binHandle)), cstr((*C.char)(kernelName)), handleOut(unsafe.Pointer(funcHandle)))))
}

//export npu_rtsFuncGetAddr
func npu_rtsFuncGetAddr(t *C.npu_thread, funcHandle C.rtFuncHandle, aicAddr, aivAddr *unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FuncGetAddr(th, handle(unsafe.Pointer(funcHandle)), addrOut(aicAddr), addrOut(aivAddr))))
}

//export npu_rtsFuncGetName
func npu_rtsFuncGetName(t *C.npu_thread, funcHandle C.rtFuncHandle, maxLen C.uint32_t, name *C.char_t) C.rtError_t {
	th := thread(t)
	var buf []byte
	if name != nil && maxLen > 0 {
		buf = callerSlice[byte]("maxLen", unsafe.Pointer(name), uint64(maxLen))
	}
	return C.rtError_t(ret(th, rt.FuncGetName(th, handle(unsafe.Pointer(funcHandle)), buf)))
}

//export npu_rtFuncGetSize
func npu_rtFuncGetSize(t *C.npu_thread, funcHandle C.rtFuncHandle, aicSize, aivSize *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FuncGetSize(th, handle(unsafe.Pointer(funcHandle)), (*uint64)(unsafe.Pointer(aicSize)), (*uint64)(unsafe.Pointer(aivSize)))))
}

//export npu_rtFunctionGetAttribute
func npu_rtFunctionGetAttribute(t *C.npu_thread, funcHandle C.rtFuncHandle, attrType C.rtFuncAttribute, attrValue *C.int64_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FunctionGetAttribute(th, handle(unsafe.Pointer(funcHandle)), int32(attrType), (*int64)(unsafe.Pointer(attrValue)))))
}

//export npu_rtFunctionGetBinary
func npu_rtFunctionGetBinary(t *C.npu_thread, funcHandle C.rtFuncHandle, binHandle *C.rtBinHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FunctionGetBinary(th, handle(unsafe.Pointer(funcHandle)), handleOut(unsafe.Pointer(binHandle)))))
}

//export npu_rtFunctionGetParamCount
func npu_rtFunctionGetParamCount(t *C.npu_thread, fn unsafe.Pointer, paramCount *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FunctionGetParamCount(th, uintptr(fn), (*uint64)(unsafe.Pointer(paramCount)))))
}

//export npu_rtFunctionGetParamInfo
func npu_rtFunctionGetParamInfo(t *C.npu_thread, fn unsafe.Pointer, paramIndex C.size_t, paramOffset, paramSize *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FunctionGetParamInfo(th, uintptr(fn), uint64(paramIndex), (*uint64)(unsafe.Pointer(paramOffset)), (*uint64)(unsafe.Pointer(paramSize)))))
}

//export npu_rtFunctionGetAvailDynUbufPerBlock
func npu_rtFunctionGetAvailDynUbufPerBlock(t *C.npu_thread, fn unsafe.Pointer, flags C.uint32_t, dynamicUbufSize *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.FunctionGetAvailDynUbufPerBlock(th, uintptr(fn), uint32(flags), (*uint64)(unsafe.Pointer(dynamicUbufSize)))))
}

//export npu_rtsRegisterCpuFunc
func npu_rtsRegisterCpuFunc(t *C.npu_thread, binHandle C.rtBinHandle, funcName, kernelName *C.char_t, funcHandle *C.rtFuncHandle) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.RegisterCpuFunc(th, handle(unsafe.Pointer(binHandle)), cstr((*C.char)(funcName)), cstr((*C.char)(kernelName)), handleOut(unsafe.Pointer(funcHandle)))))
}
