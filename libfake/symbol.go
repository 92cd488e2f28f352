package main

/*
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of the device-variable (symbol) family (acl/symbol.go) and the
// resolver that names a symbol through the dynamic loader.

// dlSymbol names the exported symbol containing addr: dladdr1 gives the
// nearest symbol at or below addr and its ELF entry; addr must lie inside
// it (a symbol of size 0 only at its start).
func dlSymbol(addr uintptr) (string, uintptr, bool) {
	var info C.Dl_info
	var sym *C.Elf64_Sym
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	if C.dladdr1(p, &info, (*unsafe.Pointer)(unsafe.Pointer(&sym)), C.RTLD_DL_SYMENT) == 0 || info.dli_sname == nil || sym == nil {
		return "", 0, false
	}
	start := uintptr(info.dli_saddr)
	if addr != start && uint64(addr-start) >= uint64(sym.st_size) {
		return "", 0, false
	}
	return C.GoString(info.dli_sname), start, true
}

//export npu_aclrtGetSymbolAddress
func npu_aclrtGetSymbolAddress(t *C.npu_thread, symbol unsafe.Pointer, devPtr *unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.GetSymbolAddress(th, uintptr(symbol), (*uintptr)(unsafe.Pointer(devPtr))))
}

//export npu_aclrtGetSymbolSize
func npu_aclrtGetSymbolSize(t *C.npu_thread, symbol unsafe.Pointer, size *C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetSymbolSize(th, uintptr(symbol), (*uint64)(unsafe.Pointer(size))))
}

//export npu_aclrtMemcpyToSymbol
func npu_aclrtMemcpyToSymbol(t *C.npu_thread, symbol, src unsafe.Pointer, count, offset C.size_t, kind C.aclrtMemcpyKind) C.aclError {
	th := thread(t)
	return ret(th, acl.MemcpyToSymbol(th, uintptr(symbol), uintptr(src), uint64(count), uint64(offset), int32(kind)))
}

//export npu_aclrtMemcpyToSymbolAsync
func npu_aclrtMemcpyToSymbolAsync(t *C.npu_thread, symbol, src unsafe.Pointer, count, offset C.size_t, kind C.aclrtMemcpyKind, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemcpyToSymbolAsync(th, uintptr(symbol), uintptr(src), uint64(count), uint64(offset), int32(kind), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtMemcpyFromSymbol
func npu_aclrtMemcpyFromSymbol(t *C.npu_thread, dst unsafe.Pointer, dstMax C.size_t, symbol unsafe.Pointer, count, offset C.size_t, kind C.aclrtMemcpyKind) C.aclError {
	th := thread(t)
	return ret(th, acl.MemcpyFromSymbol(th, uintptr(dst), uint64(dstMax), uintptr(symbol), uint64(count), uint64(offset), int32(kind)))
}

//export npu_aclrtMemcpyFromSymbolAsync
func npu_aclrtMemcpyFromSymbolAsync(t *C.npu_thread, dst unsafe.Pointer, dstMax C.size_t, symbol unsafe.Pointer, count, offset C.size_t, kind C.aclrtMemcpyKind, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.MemcpyFromSymbolAsync(th, uintptr(dst), uint64(dstMax), uintptr(symbol), uint64(count), uint64(offset), int32(kind), handle(unsafe.Pointer(stream))))
}
