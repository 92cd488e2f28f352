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

// Exports of the runtime's rt* kernel and model families (rt/kernel.go,
// rt/model.go).

//export npu_rtLaunchKernelByFuncHandleV3
func npu_rtLaunchKernelByFuncHandleV3(t *C.npu_thread, funcHandle C.rtFuncHandle, numBlocks C.uint32_t, argsInfo *C.rtArgsEx_t, stm C.rtStream_t, cfgInfo *C.rtTaskCfgInfo_t) C.rtError_t {
	const fn = "rtLaunchKernelByFuncHandleV3"
	th := thread(t)
	switch {
	case argsInfo == nil:
		return C.rtError_t(ret(th, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: argsInfo must not be NULL", fn)))
	case argsInfo.isNoNeedH2DCopy == 0 || argsInfo.hasTiling != 0 || argsInfo.hostInputInfoNum != 0:
		return C.rtError_t(ret(th, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			"%s: npuemu launches argument blocks already in device memory (isNoNeedH2DCopy = 1, no tiling or host-input info), as aclrtLaunchKernel passes them", fn)))
	case cfgInfo != nil:
		return C.rtError_t(ret(th, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: a task config (cfgInfo) is not modelled; pass NULL", fn)))
	}
	return C.rtError_t(ret(th, rt.LaunchKernelByFuncHandleV3(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks),
		uintptr(argsInfo.args), uint32(argsInfo.argsSize), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsLaunchKernelWithConfig
func npu_rtsLaunchKernelWithConfig(t *C.npu_thread, funcHandle C.rtFuncHandle, numBlocks C.uint32_t, stm C.rtStream_t, cfg *C.rtKernelLaunchCfg_t, argsHandle_ C.rtArgsHandle, reserve unsafe.Pointer) C.rtError_t {
	th := thread(t)
	var buf [4]core.LaunchAttr
	// rtKernelLaunchCfg_t has aclrtLaunchKernelCfg's layout (rt-README.md).
	attrs := launchAttrs((*C.aclrtLaunchKernelCfg)(unsafe.Pointer(cfg)), &buf)
	return C.rtError_t(ret(th, rt.LaunchKernelWithConfig(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks), handle(unsafe.Pointer(stm)), attrs,
		argsHandle(C.aclrtArgsHandle(argsHandle_)))))
}

//export npu_rtModelExecute
func npu_rtModelExecute(t *C.npu_thread, mdl C.rtModel_t, stm C.rtStream_t, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelExecute(th, handle(unsafe.Pointer(mdl)), handle(unsafe.Pointer(stm)), uint32(flag))))
}
