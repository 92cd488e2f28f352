package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of aclrtCacheLastTask*Info and aclrtCheckMemType (acl/taskinfo_memtype.go).

// maxCachedIn bounds how much of a C buffer is read: beyond the limits the
// calls reject (op info) or truncate (extend info) anyway.
const maxCachedIn = 64<<10 + 1

//export npu_aclrtCacheLastTaskOpInfo
func npu_aclrtCacheLastTaskOpInfo(t *C.npu_thread, infoPtr unsafe.Pointer, infoSize C.size_t) C.aclError {
	th := thread(t)
	var b []byte
	if infoPtr != nil && infoSize > 0 {
		b = unsafe.Slice((*byte)(infoPtr), min(uint64(infoSize), maxCachedIn))
		if uint64(infoSize) > maxCachedIn {
			b = b[:maxCachedIn] // still over the limit: rejected
		}
	}
	return ret(th, acl.CacheLastTaskOpInfo(th, b, infoPtr != nil))
}

//export npu_aclrtCacheLastTaskExtendInfo
func npu_aclrtCacheLastTaskExtendInfo(t *C.npu_thread, extendInfoPtr *C.char, infoSize C.size_t) C.aclError {
	th := thread(t)
	var b []byte
	if extendInfoPtr != nil && infoSize > 0 {
		b = unsafe.Slice((*byte)(unsafe.Pointer(extendInfoPtr)), min(uint64(infoSize), maxCachedIn))
	}
	return ret(th, acl.CacheLastTaskExtendInfo(th, b, extendInfoPtr != nil))
}

//export npu_aclrtCheckMemType
func npu_aclrtCheckMemType(t *C.npu_thread, addrList *unsafe.Pointer, size C.uint32_t, memType C.uint32_t, checkResult *C.uint32_t, reserve C.uint32_t) C.aclError {
	th := thread(t)
	var addrs []uintptr
	if addrList != nil {
		addrs = unsafe.Slice((*uintptr)(unsafe.Pointer(addrList)), int(size))
	}
	return ret(th, acl.CheckMemType(th, addrs, addrList != nil, uint32(memType), (*uint32)(unsafe.Pointer(checkResult)), uint32(reserve)))
}
