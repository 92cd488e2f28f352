package main

/*
#include <string.h>
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"encoding/binary"
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the memory, host-memory and copy families (acl/memory.go,
// acl/copy.go). Addresses cross as uintptr: device addresses lie in the
// emulated HBM mapping, outside the Go heap.

func addrOut(p *unsafe.Pointer) *uintptr { return (*uintptr)(unsafe.Pointer(p)) }

//export npu_aclrtMalloc
func npu_aclrtMalloc(t *C.npu_thread, devPtr *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy) C.aclError {
	th := thread(t)
	return ret(th, acl.Malloc(th, addrOut(devPtr), uint64(size), uint32(policy), core.MallocOpts{Fn: "aclrtMalloc"}))
}

//export npu_aclrtMallocCached
func npu_aclrtMallocCached(t *C.npu_thread, devPtr *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy) C.aclError {
	th := thread(t)
	return ret(th, acl.Malloc(th, addrOut(devPtr), uint64(size), uint32(policy), core.MallocOpts{Fn: "aclrtMallocCached"}))
}

//export npu_aclrtMallocAlign32
func npu_aclrtMallocAlign32(t *C.npu_thread, devPtr *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy) C.aclError {
	th := thread(t)
	return ret(th, acl.Malloc(th, addrOut(devPtr), uint64(size), uint32(policy), core.MallocOpts{Fn: "aclrtMallocAlign32", Align32: true}))
}

// mallocAttrs reads an aclrtMallocConfig's attributes (12-byte records:
// the attribute enum, then the 8-byte value union at offset 4).
func mallocAttrs(cfg *C.aclrtMallocConfig) []core.MallocConfigAttr {
	if cfg == nil || cfg.attrs == nil || cfg.numAttrs == 0 {
		return nil
	}
	n := int(cfg.numAttrs)
	raw := unsafe.Slice((*byte)(unsafe.Pointer(cfg.attrs)), n*C.sizeof_aclrtMallocAttribute)
	out := make([]core.MallocConfigAttr, n)
	for i := range out {
		rec := raw[i*C.sizeof_aclrtMallocAttribute:]
		out[i] = core.MallocConfigAttr{
			Attr:  int32(binary.LittleEndian.Uint32(rec[0:4])),
			Value: binary.LittleEndian.Uint64(rec[4:12]),
		}
	}
	return out
}

//export npu_aclrtMallocWithCfg
func npu_aclrtMallocWithCfg(t *C.npu_thread, devPtr *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy, cfg *C.aclrtMallocConfig) C.aclError {
	th := thread(t)
	return ret(th, acl.Malloc(th, addrOut(devPtr), uint64(size), uint32(policy),
		core.MallocOpts{Fn: "aclrtMallocWithCfg", WithCfg: true, CfgAttrs: mallocAttrs(cfg)}))
}

//export npu_aclrtFree
func npu_aclrtFree(t *C.npu_thread, devPtr unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.Free(th, uintptr(devPtr), false))
}

//export npu_aclrtFreeWithDevSync
func npu_aclrtFreeWithDevSync(t *C.npu_thread, devPtr unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.Free(th, uintptr(devPtr), true))
}

//export npu_aclrtMallocHost
func npu_aclrtMallocHost(t *C.npu_thread, hostPtr *unsafe.Pointer, size C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MallocHost(th, addrOut(hostPtr), uint64(size), "aclrtMallocHost"))
}

//export npu_aclrtMallocHostWithCfg
func npu_aclrtMallocHostWithCfg(t *C.npu_thread, ptr *unsafe.Pointer, size C.uint64_t, cfg *C.aclrtMallocConfig) C.aclError {
	th := thread(t)
	return ret(th, acl.MallocHost(th, addrOut(ptr), uint64(size), "aclrtMallocHostWithCfg"))
}

//export npu_aclrtFreeHost
func npu_aclrtFreeHost(t *C.npu_thread, hostPtr unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.FreeHost(th, uintptr(hostPtr), false))
}

//export npu_aclrtFreeHostWithDevSync
func npu_aclrtFreeHostWithDevSync(t *C.npu_thread, hostPtr unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.FreeHost(th, uintptr(hostPtr), true))
}

//export npu_aclrtGetMemInfo
func npu_aclrtGetMemInfo(t *C.npu_thread, attr C.aclrtMemAttr, free, total *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetMemInfo(th, int32(attr), (*uint64)(unsafe.Pointer(free)), (*uint64)(unsafe.Pointer(total))))
}

//export npu_aclrtPointerGetAttributes
func npu_aclrtPointerGetAttributes(t *C.npu_thread, ptr unsafe.Pointer, attributes *C.aclrtPtrAttributes) C.aclError {
	th := thread(t)
	return ret(th, acl.PointerGetAttributes(th, uintptr(ptr), (*acl.PtrAttributes)(unsafe.Pointer(attributes))))
}

//export npu_aclrtMemcpy
func npu_aclrtMemcpy(t *C.npu_thread, dst unsafe.Pointer, destMax C.size_t, src unsafe.Pointer, count C.size_t, kind C.aclrtMemcpyKind) C.aclError {
	th := thread(t)
	return ret(th, acl.Memcpy(th, uintptr(dst), uint64(destMax), uintptr(src), uint64(count), int32(kind)))
}

//export npu_aclrtMemcpyAsync
func npu_aclrtMemcpyAsync(t *C.npu_thread, dst unsafe.Pointer, destMax C.size_t, src unsafe.Pointer, count C.size_t, kind C.aclrtMemcpyKind, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemcpyAsync(th, uintptr(dst), uint64(destMax), uintptr(src), uint64(count), int32(kind), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtMemcpyAsyncWithCondition
func npu_aclrtMemcpyAsyncWithCondition(t *C.npu_thread, dst unsafe.Pointer, destMax C.size_t, src unsafe.Pointer, count C.size_t, kind C.aclrtMemcpyKind, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemcpyAsync(th, uintptr(dst), uint64(destMax), uintptr(src), uint64(count), int32(kind), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtMemset
func npu_aclrtMemset(t *C.npu_thread, devPtr unsafe.Pointer, maxCount C.size_t, value C.int32_t, count C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.Memset(th, uintptr(devPtr), uint64(maxCount), int32(value), uint64(count)))
}

//export npu_aclrtMemsetAsync
func npu_aclrtMemsetAsync(t *C.npu_thread, devPtr unsafe.Pointer, maxCount C.size_t, value C.int32_t, count C.size_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemsetAsync(th, uintptr(devPtr), uint64(maxCount), int32(value), uint64(count), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtMemcpy2d
func npu_aclrtMemcpy2d(t *C.npu_thread, dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, spitch, width, height C.size_t, kind C.aclrtMemcpyKind) C.aclError {
	th := thread(t)
	return ret(th, acl.Memcpy2D(th, uintptr(dst), uint64(dpitch), uintptr(src), uint64(spitch), uint64(width), uint64(height), int32(kind)))
}

//export npu_aclrtMemcpy2dAsync
func npu_aclrtMemcpy2dAsync(t *C.npu_thread, dst unsafe.Pointer, dpitch C.size_t, src unsafe.Pointer, spitch, width, height C.size_t, kind C.aclrtMemcpyKind, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.Memcpy2DAsync(th, uintptr(dst), uint64(dpitch), uintptr(src), uint64(spitch), uint64(width), uint64(height), int32(kind), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtMemFlush
func npu_aclrtMemFlush(t *C.npu_thread, devPtr unsafe.Pointer, size C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemFlush(th, "aclrtMemFlush", uintptr(devPtr), uint64(size)))
}

//export npu_aclrtMemInvalidate
func npu_aclrtMemInvalidate(t *C.npu_thread, devPtr unsafe.Pointer, size C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemFlush(th, "aclrtMemInvalidate", uintptr(devPtr), uint64(size)))
}
