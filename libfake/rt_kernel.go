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
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the runtime's rt* kernel family (rt/kernel.go,
// rt/kernel_launch*.go) and of rtModelExecute (rt/model.go).

// rtRandomNumTaskInfo_t and aclrtRandomNumTaskInfo have one layout (the
// ABI checks verify both); these fail to compile if the sizes part.
var (
	_ [C.sizeof_rtRandomNumTaskInfo_t - C.sizeof_aclrtRandomNumTaskInfo]byte
	_ [C.sizeof_aclrtRandomNumTaskInfo - C.sizeof_rtRandomNumTaskInfo_t]byte
)

// placeHolders reads n {uint32 addrOffset; uint32 dataOffset} records
// (rtHostInputInfo_t, rtPlaceHolderInfo_t) at p.
func placeHolders(p unsafe.Pointer, n int) []core.PlaceHolder {
	if p == nil || n == 0 {
		return nil
	}
	raw := callerSlice[[2]uint32]("placeholder count", p, uint64(n))
	out := make([]core.PlaceHolder, len(raw))
	for i, r := range raw {
		out[i] = core.PlaceHolder{AddrOffset: r[0], DataOffset: r[1]}
	}
	return out
}

// argsEx reads an rtArgsEx_t (nil stays nil); a hostInputInfoNum without
// its array is refused.
func argsEx(fn string, a *C.rtArgsEx_t) (*rt.ArgsEx, error) {
	if a == nil {
		return nil, nil
	}
	x := &rt.ArgsEx{
		Args: uintptr(a.args), Size: uint32(a.argsSize),
		HasTiling: a.hasTiling != 0, TilingAddrOffset: uint32(a.tilingAddrOffset), TilingDataOffset: uint32(a.tilingDataOffset),
		NoCopy: a.isNoNeedH2DCopy != 0,
	}
	p, n := a.args, C.size_t(a.argsSize)
	x.Host = func() []byte { return hostBytes(p, n) }
	if !x.NoCopy {
		if a.hostInputInfoNum > 0 && a.hostInputInfoPtr == nil {
			return nil, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: argsInfo->hostInputInfoPtr must not be NULL when hostInputInfoNum is %d", fn, a.hostInputInfoNum)
		}
		x.HostInput = placeHolders(unsafe.Pointer(a.hostInputInfoPtr), int(a.hostInputInfoNum))
	}
	return x, nil
}

// taskCfg reads an rtTaskCfgInfo_t (nil stays nil).
func taskCfg(c *C.rtTaskCfgInfo_t) *rt.TaskCfg {
	if c == nil {
		return nil
	}
	return &rt.TaskCfg{
		Qos: uint8(c.qos), PartID: uint8(c.partId), SchemMode: uint8(c.schemMode), D2DCross: bool(c.d2dCrossFlag),
		BlockDimOffset: uint32(c.blockDimOffset), DumpFlag: uint8(c.dumpflag), NeverTimeout: uint8(c.neverTimeout),
		EnableProfiling: uint8(c.enableProfiling), LocalMemorySize: uint32(c.localMemorySize),
	}
}

// devBinary reads an rtDevBinary_t (nil stays nil).
func devBinary(b *C.rtDevBinary_t) *rt.DevBinary {
	if b == nil {
		return nil
	}
	d := &rt.DevBinary{Magic: uint32(b.magic), Version: uint32(b.version), HaveData: b.data != nil}
	if b.data != nil && b.length > 0 {
		d.Data = hostBytes(unsafe.Pointer(b.data), C.size_t(b.length))
	}
	return d
}

// kernelLaunchCfg reads an rtKernelLaunchCfg_t, which has
// aclrtLaunchKernelCfg's layout (rt-README.md).
func kernelLaunchCfg(cfg *C.rtKernelLaunchCfg_t, buf *[4]core.LaunchAttr) []core.LaunchAttr {
	return launchAttrs((*C.aclrtLaunchKernelCfg)(unsafe.Pointer(cfg)), buf)
}

//export npu_rtLaunchKernelByFuncHandleV3
func npu_rtLaunchKernelByFuncHandleV3(t *C.npu_thread, funcHandle C.rtFuncHandle, numBlocks C.uint32_t, argsInfo *C.rtArgsEx_t, stm C.rtStream_t, cfgInfo *C.rtTaskCfgInfo_t) C.rtError_t {
	th := thread(t)
	a, err := argsEx("rtLaunchKernelByFuncHandleV3", argsInfo)
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	return C.rtError_t(ret(th, rt.LaunchKernelByFuncHandleV3(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks), a, handle(unsafe.Pointer(stm)), taskCfg(cfgInfo))))
}

//export npu_rtsLaunchKernelWithConfig
func npu_rtsLaunchKernelWithConfig(t *C.npu_thread, funcHandle C.rtFuncHandle, numBlocks C.uint32_t, stm C.rtStream_t, cfg *C.rtKernelLaunchCfg_t, argsHandle_ C.rtArgsHandle, reserve unsafe.Pointer) C.rtError_t {
	th := thread(t)
	var buf [4]core.LaunchAttr
	return C.rtError_t(ret(th, rt.LaunchKernelWithConfig(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks), handle(unsafe.Pointer(stm)), kernelLaunchCfg(cfg, &buf),
		argsHandle(C.aclrtArgsHandle(argsHandle_)))))
}

//export npu_rtsLaunchKernelWithHostArgs
func npu_rtsLaunchKernelWithHostArgs(t *C.npu_thread, funcHandle C.rtFuncHandle, numBlocks C.uint32_t, stm C.rtStream_t, cfg *C.rtKernelLaunchCfg_t, hostArgs unsafe.Pointer, argsSize C.uint32_t, placeHolderArray *C.rtPlaceHolderInfo_t, placeHolderNum C.uint32_t) C.rtError_t {
	const fn = "rtsLaunchKernelWithHostArgs"
	th := thread(t)
	if placeHolderNum > 0 && placeHolderArray == nil {
		return C.rtError_t(ret(th, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: placeHolderArray must not be NULL when placeHolderNum is %d", fn, uint32(placeHolderNum))))
	}
	if placeHolderNum > maxPlaceHolders {
		return C.rtError_t(ret(th, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: placeHolderNum %d exceeds %d", fn, uint32(placeHolderNum), maxPlaceHolders)))
	}
	var buf [4]core.LaunchAttr
	return C.rtError_t(ret(th, rt.LaunchKernelWithHostArgs(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks), handle(unsafe.Pointer(stm)), kernelLaunchCfg(cfg, &buf),
		hostBytes(hostArgs, C.size_t(argsSize)), placeHolders(unsafe.Pointer(placeHolderArray), int(placeHolderNum)))))
}

//export npu_rtsLaunchKernelWithDevArgs
func npu_rtsLaunchKernelWithDevArgs(t *C.npu_thread, funcHandle C.rtFuncHandle, numBlocks C.uint32_t, stm C.rtStream_t, cfg *C.rtKernelLaunchCfg_t, args unsafe.Pointer, argsSize C.uint32_t, reserve unsafe.Pointer) C.rtError_t {
	th := thread(t)
	var buf [4]core.LaunchAttr
	host := func() []byte { return hostBytes(args, C.size_t(argsSize)) }
	return C.rtError_t(ret(th, rt.LaunchKernelWithDevArgs(th, handle(unsafe.Pointer(funcHandle)), uint32(numBlocks), handle(unsafe.Pointer(stm)), kernelLaunchCfg(cfg, &buf),
		uintptr(args), uint32(argsSize), host)))
}

//export npu_rtLaunchKernelWithArgsArray
func npu_rtLaunchKernelWithArgsArray(t *C.npu_thread, fn unsafe.Pointer, numBlocks C.uint32_t, stm C.rtStream_t, cfg *C.rtKernelLaunchCfg_t, args *unsafe.Pointer) C.rtError_t {
	th := thread(t)
	param := argsArrayParam(args)
	var buf [4]core.LaunchAttr
	return C.rtError_t(ret(th, rt.LaunchKernelWithArgsArray(th, uintptr(fn), uint32(numBlocks), handle(unsafe.Pointer(stm)), kernelLaunchCfg(cfg, &buf), param)))
}

// randomInfo views an rtRandomNumTaskInfo_t, cast to the ACL struct of the
// same layout, as acl's mirror.
func randomInfo(p *C.aclrtRandomNumTaskInfo) *acl.RandomNumTaskInfo {
	return (*acl.RandomNumTaskInfo)(unsafe.Pointer(p))
}

//export npu_rtsLaunchRandomNumTask
func npu_rtsLaunchRandomNumTask(t *C.npu_thread, taskInfo *C.rtRandomNumTaskInfo_t, stm C.rtStream_t, reserve unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.LaunchRandomNumTask(th, randomInfo((*C.aclrtRandomNumTaskInfo)(unsafe.Pointer(taskInfo))), handle(unsafe.Pointer(stm)), uintptr(reserve))))
}

//export npu_rtCacheLastTaskOpInfo
func npu_rtCacheLastTaskOpInfo(t *C.npu_thread, infoPtr unsafe.Pointer, infoSize C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CacheLastTaskOpInfo(th, hostBytes(infoPtr, infoSize), infoPtr != nil)))
}

//export npu_rtCacheLastTaskExtendInfo
func npu_rtCacheLastTaskExtendInfo(t *C.npu_thread, extendInfoPtr *C.char, infoSize C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.CacheLastTaskExtendInfo(th, hostBytes(unsafe.Pointer(extendInfoPtr), infoSize), extendInfoPtr != nil)))
}

//export npu_rtsGetThreadLastTaskId
func npu_rtsGetThreadLastTaskId(t *C.npu_thread, taskId *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetThreadLastTaskID(th, (*uint32)(unsafe.Pointer(taskId)))))
}

//export npu_rtRegKernelLaunchFillFunc
func npu_rtRegKernelLaunchFillFunc(t *C.npu_thread, symbol *C.char, callback C.rtKernelLaunchFillFunc) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.RegKernelLaunchFillFunc(cstr(symbol), symbol != nil, uintptr(unsafe.Pointer(callback)))))
}

//export npu_rtUnRegKernelLaunchFillFunc
func npu_rtUnRegKernelLaunchFillFunc(t *C.npu_thread, symbol *C.char) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.UnRegKernelLaunchFillFunc(cstr(symbol), symbol != nil)))
}

//export npu_rtDevBinaryRegister
func npu_rtDevBinaryRegister(t *C.npu_thread, bin *C.rtDevBinary_t, hdl *unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DevBinaryRegister(th, devBinary(bin), handleOut(unsafe.Pointer(hdl)))))
}

//export npu_rtRegisterAllKernel
func npu_rtRegisterAllKernel(t *C.npu_thread, bin *C.rtDevBinary_t, hdl *unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.RegisterAllKernel(th, devBinary(bin), handleOut(unsafe.Pointer(hdl)))))
}

//export npu_rtDevBinaryUnRegister
func npu_rtDevBinaryUnRegister(t *C.npu_thread, hdl unsafe.Pointer) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DevBinaryUnRegister(th, handle(hdl))))
}

//export npu_rtFunctionRegister
func npu_rtFunctionRegister(t *C.npu_thread, binHandle unsafe.Pointer, stubFunc unsafe.Pointer, stubName *C.char_t, kernelInfoExt unsafe.Pointer, funcMode C.uint32_t) C.rtError_t {
	th := thread(t)
	// kernelInfoExt is the device function's name (a C string) when given.
	name, stub := cstr((*C.char)(kernelInfoExt)), cstr((*C.char)(stubName))
	if kernelInfoExt == nil {
		name = stub
	}
	return C.rtError_t(ret(th, rt.FunctionRegister(th, handle(binHandle), uintptr(stubFunc), stub, name, kernelInfoExt != nil || stubName != nil)))
}

//export npu_rtKernelLaunch
func npu_rtKernelLaunch(t *C.npu_thread, stubFunc unsafe.Pointer, numBlocks C.uint32_t, args unsafe.Pointer, argsSize C.uint32_t, smDesc *C.rtSmDesc_t, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	host := func() []byte { return hostBytes(args, C.size_t(argsSize)) }
	return C.rtError_t(ret(th, rt.KernelLaunch(th, uintptr(stubFunc), uint32(numBlocks), uintptr(args), uint32(argsSize), host, handle(unsafe.Pointer(stm)))))
}

//export npu_rtKernelLaunchWithFlag
func npu_rtKernelLaunchWithFlag(t *C.npu_thread, stubFunc unsafe.Pointer, numBlocks C.uint32_t, argsInfo *C.rtArgsEx_t, smDesc *C.rtSmDesc_t, stm C.rtStream_t, flags C.uint32_t) C.rtError_t {
	th := thread(t)
	a, err := argsEx("rtKernelLaunchWithFlag", argsInfo)
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	return C.rtError_t(ret(th, rt.KernelLaunchWithFlag(th, uintptr(stubFunc), uint32(numBlocks), a, handle(unsafe.Pointer(stm)), uint32(flags))))
}

//export npu_rtKernelLaunchWithFlagV2
func npu_rtKernelLaunchWithFlagV2(t *C.npu_thread, stubFunc unsafe.Pointer, numBlocks C.uint32_t, argsInfo *C.rtArgsEx_t, smDesc *C.rtSmDesc_t, stm C.rtStream_t, flags C.uint32_t, cfgInfo *C.rtTaskCfgInfo_t) C.rtError_t {
	th := thread(t)
	a, err := argsEx("rtKernelLaunchWithFlagV2", argsInfo)
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	return C.rtError_t(ret(th, rt.KernelLaunchWithFlagV2(th, uintptr(stubFunc), uint32(numBlocks), a, handle(unsafe.Pointer(stm)), uint32(flags), taskCfg(cfgInfo))))
}

//export npu_rtKernelLaunchWithHandle
func npu_rtKernelLaunchWithHandle(t *C.npu_thread, hdl unsafe.Pointer, tilingKey C.uint64_t, numBlocks C.uint32_t, argsInfo *C.rtArgsEx_t, smDesc *C.rtSmDesc_t, stm C.rtStream_t, kernelInfo unsafe.Pointer) C.rtError_t {
	th := thread(t)
	a, err := argsEx("rtKernelLaunchWithHandle", argsInfo)
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	return C.rtError_t(ret(th, rt.KernelLaunchWithHandle(th, handle(hdl), uint64(tilingKey), uint32(numBlocks), a, handle(unsafe.Pointer(stm)))))
}

//export npu_rtKernelLaunchWithHandleV2
func npu_rtKernelLaunchWithHandleV2(t *C.npu_thread, hdl unsafe.Pointer, tilingKey C.uint64_t, numBlocks C.uint32_t, argsInfo *C.rtArgsEx_t, smDesc *C.rtSmDesc_t, stm C.rtStream_t, cfgInfo *C.rtTaskCfgInfo_t) C.rtError_t {
	th := thread(t)
	a, err := argsEx("rtKernelLaunchWithHandleV2", argsInfo)
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	return C.rtError_t(ret(th, rt.KernelLaunchWithHandleV2(th, handle(hdl), uint64(tilingKey), uint32(numBlocks), a, handle(unsafe.Pointer(stm)), taskCfg(cfgInfo))))
}

//export npu_rtModelExecute
func npu_rtModelExecute(t *C.npu_thread, mdl C.rtModel_t, stm C.rtStream_t, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.ModelExecute(th, handle(unsafe.Pointer(mdl)), handle(unsafe.Pointer(stm)), uint32(flag))))
}
