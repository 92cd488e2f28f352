package main

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include "runtime/rt.h"
#include "npu.h"
#include "kernel_host.h"

// npu_aicpu_sym opens so (kept open: the AI CPU keeps its kernels loaded)
// and finds kernel in it; NULL with err set when either is missing.
static void *npu_aicpu_sym(const char *so, const char *kernel, char *err, size_t errlen) {
    void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *e = dlerror();
        snprintf(err, errlen, "%s", e ? e : "dlopen failed");
        return NULL;
    }
    dlerror();
    void *f = dlsym(h, kernel);
    if (f == NULL) {
        const char *e = dlerror();
        snprintf(err, errlen, "%s", e ? e : "symbol not found");
        dlclose(h);
        return NULL;
    }
    return f;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt"
)

// Exports of the AI CPU launches by name (rt/kernel_launch_aicpu.go): the
// host's dynamic loader resolves the kernels.

var aicpuSyms struct {
	mu sync.Mutex
	m  map[[2]string]unsafe.Pointer
}

// aicpuResolve finds kernel in the shared object so once and reuses it.
func aicpuResolve(so, kernel string) (rt.AicpuKernel, error) {
	key := [2]string{so, kernel}
	aicpuSyms.mu.Lock()
	defer aicpuSyms.mu.Unlock()
	f := aicpuSyms.m[key]
	if f == nil {
		cso, ck := C.CString(so), C.CString(kernel)
		defer C.free(unsafe.Pointer(cso))
		defer C.free(unsafe.Pointer(ck))
		var msg [512]C.char
		if f = C.npu_aicpu_sym(cso, ck, &msg[0], C.size_t(len(msg))); f == nil {
			return nil, errors.New(C.GoString(&msg[0]))
		}
		if aicpuSyms.m == nil {
			aicpuSyms.m = map[[2]string]unsafe.Pointer{}
		}
		aicpuSyms.m[key] = f
	}
	return func(args uintptr) (uint32, error) {
		// Under the kernel host's fault guard (kernel_host.c): a kernel
		// that faults fails its task instead of the process.
		var r C.uint32_t
		var sig C.int
		var addr C.uintptr_t
		if C.npu_kcall_aicpu(C.uintptr_t(uintptr(f)), C.uintptr_t(args), &r, &sig, &addr) != C.NPU_KRUN_OK {
			return 0, fmt.Errorf("faulted (signal %d at %#x)", int(sig), uintptr(addr))
		}
		return uint32(r), nil
	}, nil
}

//export npu_rtAicpuKernelLaunchWithFlag
func npu_rtAicpuKernelLaunchWithFlag(t *C.npu_thread, launchNames *C.rtKernelLaunchNames_t, numBlocks C.uint32_t, argsInfo *C.rtArgsEx_t, smDesc *C.rtSmDesc_t, stm C.rtStream_t, flags C.uint32_t) C.rtError_t {
	const fn = "rtAicpuKernelLaunchWithFlag"
	th := thread(t)
	a, err := argsEx(fn, argsInfo)
	if err != nil {
		return C.rtError_t(ret(th, err))
	}
	if launchNames == nil || a == nil {
		return C.rtError_t(ret(th, rt.AicpuKernelLaunchWithFlag(th, nil, uint32(numBlocks), handle(unsafe.Pointer(stm)), uint32(flags))))
	}
	l := &rt.AicpuLaunch{So: cstr((*C.char)(launchNames.soName)), Kernel: cstr((*C.char)(launchNames.kernelName)), Args: *a, Resolve: aicpuResolve}
	return C.rtError_t(ret(th, rt.AicpuKernelLaunchWithFlag(th, l, uint32(numBlocks), handle(unsafe.Pointer(stm)), uint32(flags))))
}

//export npu_rtAicpuKernelLaunchExWithArgs
func npu_rtAicpuKernelLaunchExWithArgs(t *C.npu_thread, kernelType C.uint32_t, opName *C.char_t, numBlocks C.uint32_t, argsInfo *C.rtAicpuArgsEx_t, smDesc *C.rtSmDesc_t, stm C.rtStream_t, flags C.uint32_t) C.rtError_t {
	const fn = "rtAicpuKernelLaunchExWithArgs"
	th := thread(t)
	if argsInfo == nil {
		return C.rtError_t(ret(th, rt.AicpuKernelLaunchExWithArgs(th, uint32(kernelType), nil, 0, 0, uint32(numBlocks), handle(unsafe.Pointer(stm)), uint32(flags))))
	}
	a := rt.ArgsEx{Args: uintptr(argsInfo.args), Size: uint32(argsInfo.argsSize), NoCopy: bool(argsInfo.isNoNeedH2DCopy)}
	p, n := argsInfo.args, C.size_t(argsInfo.argsSize)
	a.Host = func() []byte { return hostBytes(p, n) }
	if !a.NoCopy {
		// Both arrays name address slots of the block (host inputs, and the
		// kernel so/name offsets of custom kernels).
		for _, r := range []struct {
			p unsafe.Pointer
			n C.uint16_t
		}{{unsafe.Pointer(argsInfo.hostInputInfoPtr), argsInfo.hostInputInfoNum}, {unsafe.Pointer(argsInfo.kernelOffsetInfoPtr), argsInfo.kernelOffsetInfoNum}} {
			if r.n > 0 && r.p == nil {
				return C.rtError_t(ret(th, abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: argsInfo->hostInputInfoPtr / kernelOffsetInfoPtr must not be NULL when its count (%d) is > 0", fn, uint16(r.n))))
			}
			a.HostInput = append(a.HostInput, placeHolders(r.p, int(r.n))...)
		}
	}
	l := &rt.AicpuLaunch{Args: a, Resolve: aicpuResolve}
	return C.rtError_t(ret(th, rt.AicpuKernelLaunchExWithArgs(th, uint32(kernelType), l, uint32(argsInfo.soNameAddrOffset), uint32(argsInfo.kernelNameAddrOffset),
		uint32(numBlocks), handle(unsafe.Pointer(stm)), uint32(flags))))
}
