package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the remaining kernel calls (acl/kernel_launch.go,
// acl/kernel_query.go) and of the stream resource limits
// (acl/kernel_reslimit.go).

//export npu_aclrtLaunchKernelV2
func npu_aclrtLaunchKernelV2(t *C.npu_thread, funcHandle C.aclrtFuncHandle, numBlocks C.uint32_t, argsData unsafe.Pointer, argsSize C.size_t, cfg *C.aclrtLaunchKernelCfg, stream C.aclrtStream) C.aclError {
	th := thread(t)
	var buf [4]core.LaunchAttr
	host := func() []byte { return hostBytes(argsData, argsSize) }
	return ret(th, acl.LaunchKernelV2(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks), uintptr(argsData), uint64(argsSize), launchAttrs(cfg, &buf), handle(unsafe.Pointer(stream)), host))
}

// maxPlaceHolders bounds the placeholder array read from the caller.
const maxPlaceHolders = 1 << 16

//export npu_aclrtLaunchKernelWithHostArgs
func npu_aclrtLaunchKernelWithHostArgs(t *C.npu_thread, funcHandle C.aclrtFuncHandle, numBlocks C.uint32_t, stream C.aclrtStream, cfg *C.aclrtLaunchKernelCfg, hostArgs unsafe.Pointer, argsSize C.size_t, placeHolderArray *C.aclrtPlaceHolderInfo, placeHolderNum C.size_t) C.aclError {
	th := thread(t)
	if placeHolderNum > 0 && placeHolderArray == nil {
		return ret(th, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernelWithHostArgs: placeHolderArray must not be NULL when placeHolderNum is %d", uint64(placeHolderNum)))
	}
	if placeHolderNum > maxPlaceHolders {
		return ret(th, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernelWithHostArgs: placeHolderNum %d exceeds %d", uint64(placeHolderNum), maxPlaceHolders))
	}
	var phs []core.PlaceHolder
	if placeHolderNum > 0 {
		// aclrtPlaceHolderInfo is {uint32 addrOffset; uint32 dataOffset}.
		raw := unsafe.Slice((*[2]uint32)(unsafe.Pointer(placeHolderArray)), int(placeHolderNum))
		phs = make([]core.PlaceHolder, len(raw))
		for i, r := range raw {
			phs[i] = core.PlaceHolder{AddrOffset: r[0], DataOffset: r[1]}
		}
	}
	var buf [4]core.LaunchAttr
	return ret(th, acl.LaunchKernelWithHostArgs(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks), handle(unsafe.Pointer(stream)), launchAttrs(cfg, &buf), hostBytes(hostArgs, argsSize), phs))
}

//export npu_aclrtLaunchKernelWithArgsArray
func npu_aclrtLaunchKernelWithArgsArray(t *C.npu_thread, fn unsafe.Pointer, numBlocks C.uint32_t, stream C.aclrtStream, cfg *C.aclrtLaunchKernelCfg, args *unsafe.Pointer) C.aclError {
	th := thread(t)
	param := argsArrayParam(args)
	var buf [4]core.LaunchAttr
	return ret(th, acl.LaunchKernelWithArgsArray(th, uintptr(fn), uint32(numBlocks), handle(unsafe.Pointer(stream)), launchAttrs(cfg, &buf), param))
}

//export npu_aclrtFunctionGetParamCount
func npu_aclrtFunctionGetParamCount(t *C.npu_thread, fn unsafe.Pointer, paramCount *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.FunctionGetParamCount(th, uintptr(fn), (*uint64)(unsafe.Pointer(paramCount))))
}

//export npu_aclrtFunctionGetParamInfo
func npu_aclrtFunctionGetParamInfo(t *C.npu_thread, fn unsafe.Pointer, paramIndex C.size_t, paramOffset, paramSize *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.FunctionGetParamInfo(th, uintptr(fn), uint64(paramIndex), (*uint64)(unsafe.Pointer(paramOffset)), (*uint64)(unsafe.Pointer(paramSize))))
}

//export npu_aclrtFunctionGetAvailDynUbufPerBlock
func npu_aclrtFunctionGetAvailDynUbufPerBlock(t *C.npu_thread, fn unsafe.Pointer, flags C.uint32_t, dynamicUbufSize *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.FunctionGetAvailDynUbufPerBlock(th, uintptr(fn), uint32(flags), (*uint64)(unsafe.Pointer(dynamicUbufSize))))
}

//export npu_aclrtGetFunctionSize
func npu_aclrtGetFunctionSize(t *C.npu_thread, funcHandle C.aclrtFuncHandle, aicSize, aivSize *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetFunctionSize(th, handle(unsafe.Pointer(funcHandle)), (*uint64)(unsafe.Pointer(aicSize)), (*uint64)(unsafe.Pointer(aivSize))))
}

//export npu_aclrtGetFuncBySymbol
func npu_aclrtGetFuncBySymbol(t *C.npu_thread, symbol unsafe.Pointer, funcHandle *C.aclrtFuncHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.GetFuncBySymbol(th, uintptr(symbol), handleOut(unsafe.Pointer(funcHandle))))
}

//export npu_aclrtBinaryGetGlobal
func npu_aclrtBinaryGetGlobal(t *C.npu_thread, binHandle C.aclrtBinHandle, name *C.char, dptr *unsafe.Pointer, size *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.BinaryGetGlobal(th, handle(unsafe.Pointer(binHandle)), cstr(name), addrOut(dptr), (*uint64)(unsafe.Pointer(size))))
}

//export npu_aclrtRegisterCpuFunc
func npu_aclrtRegisterCpuFunc(t *C.npu_thread, h C.aclrtBinHandle, funcName, kernelName *C.char, funcHandle *C.aclrtFuncHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.RegisterCpuFunc(th, handle(unsafe.Pointer(h)), cstr(funcName), cstr(kernelName), handleOut(unsafe.Pointer(funcHandle))))
}

//export npu_aclrtCreateBinary
func npu_aclrtCreateBinary(t *C.npu_thread, data unsafe.Pointer, dataLen C.size_t) C.aclrtBinary {
	th := thread(t)
	h, err := acl.CreateBinary(th, hostBytes(data, dataLen))
	if err != nil {
		ret(th, err)
		return nil
	}
	// A handle is an integer; it crosses as the pointer-typed aclrtBinary.
	return *(*C.aclrtBinary)(unsafe.Pointer(&h))
}

//export npu_aclrtDestroyBinary
func npu_aclrtDestroyBinary(t *C.npu_thread, binary C.aclrtBinary) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyBinary(th, handle(unsafe.Pointer(binary))))
}

//export npu_aclrtBinaryLoad
func npu_aclrtBinaryLoad(t *C.npu_thread, binary C.aclrtBinary, binHandle *C.aclrtBinHandle) C.aclError {
	th := thread(t)
	return ret(th, acl.BinaryLoad(th, handle(unsafe.Pointer(binary)), handleOut(unsafe.Pointer(binHandle))))
}

//export npu_aclrtSetStreamResLimit
func npu_aclrtSetStreamResLimit(t *C.npu_thread, stream C.aclrtStream, typ C.aclrtDevResLimitType, value C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetStreamResLimit(th, handle(unsafe.Pointer(stream)), int32(typ), uint32(value)))
}

//export npu_aclrtGetStreamResLimit
func npu_aclrtGetStreamResLimit(t *C.npu_thread, stream C.aclrtStream, typ C.aclrtDevResLimitType, value *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetStreamResLimit(th, handle(unsafe.Pointer(stream)), int32(typ), (*uint32)(unsafe.Pointer(value))))
}

//export npu_aclrtResetStreamResLimit
func npu_aclrtResetStreamResLimit(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.ResetStreamResLimit(th, handle(unsafe.Pointer(stream))))
}

//export npu_aclrtUseStreamResInCurrentThread
func npu_aclrtUseStreamResInCurrentThread(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.UseStreamResInCurrentThread(th, handle(unsafe.Pointer(stream))))
}

//export npu_aclrtUnuseStreamResInCurrentThread
func npu_aclrtUnuseStreamResInCurrentThread(t *C.npu_thread, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.UnuseStreamResInCurrentThread(th, handle(unsafe.Pointer(stream))))
}

// HasCycles implements acl's cycleProbe: only Ascend C launches create the
// shared state that holds cycle counters (kernel_gm.go, Cycles).
func (cHost) HasCycles(state []byte) bool { return kstate(state).shared != 0 }

// argsArrayParam reads parameter i (size bytes) of an argument array: the
// addresses of the kernel's parameters, as aclrtLaunchKernelWithArgsArray
// and rtLaunchKernelWithArgsArray take them; nil for a NULL array or entry.
func argsArrayParam(args *unsafe.Pointer) func(i, size int) []byte {
	return func(i, size int) []byte {
		if args == nil {
			return nil
		}
		p := unsafe.Slice(args, i+1)[i]
		if p == nil {
			return nil
		}
		return unsafe.Slice((*byte)(p), size)
	}
}
