package main

/*
#include <string.h>
#include "acl/acl.h"
#include "ascend_hal.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of sharing by name: HAL halShmem* (hal/shmem.go) and ACL
// aclrtIpcMem* (acl/vmm_ipc.go). Names and keys are at most 64 characters;
// they are copied NUL-terminated into the caller's buffer.

// maxName bounds how much of a C name is read: longer input is invalid
// anyway, and a missing NUL must not run off.
const maxName = 4096

// cName reads a NUL-terminated C name (null reports a NULL pointer).
func cName(p *C.char) (name string, null bool) {
	if p == nil {
		return "", true
	}
	n := C.strnlen(p, maxName)
	return C.GoStringN(p, C.int(n)), false
}

// putName copies name and its NUL into buf of n bytes (n > len(name)).
func putName(buf *C.char, n uint64, name string) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(buf)), n)
	copy(b, name)
	b[len(name)] = 0
}

//export npu_halShmemCreateHandle
func npu_halShmemCreateHandle(t *C.npu_thread, vptr C.DVdeviceptr, byteCount C.size_t, name *C.char, nameLen C.uint32_t) C.DVresult {
	th := thread(t)
	if name == nil {
		return retDrv(th, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "halShmemCreateHandle: name must not be NULL"))
	}
	s, err := hal.ShmemCreateHandle(uintptr(vptr), uint64(byteCount), uint32(nameLen))
	if err == nil {
		putName(name, uint64(nameLen), s)
	}
	return retDrv(th, err)
}

// halName reads a name argument of the HAL (NULL is DRV_ERROR_INVALID_VALUE).
func halName(th *core.Thread, fn string, p *C.char) (string, C.drvError_t, bool) {
	s, null := cName(p)
	if null {
		return "", retDrv(th, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: name must not be NULL", fn)), false
	}
	return s, 0, true
}

//export npu_halShmemDestroyHandle
func npu_halShmemDestroyHandle(t *C.npu_thread, name *C.char) C.DVresult {
	th := thread(t)
	s, r, ok := halName(th, "halShmemDestroyHandle", name)
	if !ok {
		return r
	}
	return retDrv(th, hal.ShmemDestroyHandle(s))
}

//export npu_halShmemSetPidHandle
func npu_halShmemSetPidHandle(t *C.npu_thread, name *C.char, pid *C.int, num C.int) C.DVresult {
	th := thread(t)
	s, r, ok := halName(th, "halShmemSetPidHandle", name)
	if !ok {
		return r
	}
	var pids []int32
	if num > 0 {
		pids = pidList(unsafe.Pointer(pid), uint64(num))
	}
	return retDrv(th, hal.ShmemSetPidHandle(s, pids))
}

//export npu_halShmemOpenHandle
func npu_halShmemOpenHandle(t *C.npu_thread, name *C.char, vptr *C.DVdeviceptr) C.DVresult {
	th := thread(t)
	const fn = "halShmemOpenHandle"
	s, r, ok := halName(th, fn, name)
	if !ok {
		return r
	}
	return retDrv(th, hal.ShmemOpenHandle(fn, -1, s, (*uintptr)(unsafe.Pointer(vptr))))
}

//export npu_halShmemOpenHandleByDevId
func npu_halShmemOpenHandleByDevId(t *C.npu_thread, devId C.DVdevice, name *C.char, vptr *C.DVdeviceptr) C.DVresult {
	th := thread(t)
	const fn = "halShmemOpenHandleByDevId"
	s, r, ok := halName(th, fn, name)
	if !ok {
		return r
	}
	dev := int(devId)
	if devId > 1<<20 {
		dev = 1 << 20 // out of range: reported as an invalid device
	}
	return retDrv(th, hal.ShmemOpenHandle(fn, dev, s, (*uintptr)(unsafe.Pointer(vptr))))
}

//export npu_halShmemCloseHandle
func npu_halShmemCloseHandle(t *C.npu_thread, vptr C.DVdeviceptr) C.DVresult {
	th := thread(t)
	return retDrv(th, hal.ShmemCloseHandle(uintptr(vptr)))
}

//export npu_halShmemSetAttribute
func npu_halShmemSetAttribute(t *C.npu_thread, name *C.char, typ C.uint32_t, attr C.uint64_t) C.DVresult {
	th := thread(t)
	s, r, ok := halName(th, "halShmemSetAttribute", name)
	if !ok {
		return r
	}
	return retDrv(th, hal.ShmemSetAttribute(s, uint32(typ), uint64(attr)))
}

//export npu_halShmemGetAttribute
func npu_halShmemGetAttribute(t *C.npu_thread, name *C.char, typ C.enum_ShmemAttrType, attr *C.uint64_t) C.DVresult {
	th := thread(t)
	s, r, ok := halName(th, "halShmemGetAttribute", name)
	if !ok {
		return r
	}
	return retDrv(th, hal.ShmemGetAttribute(s, uint32(typ), (*uint64)(unsafe.Pointer(attr))))
}

// ACL IPC memory.

//export npu_aclrtIpcMemGetExportKey
func npu_aclrtIpcMemGetExportKey(t *C.npu_thread, devPtr unsafe.Pointer, size C.size_t, key *C.char, length C.size_t, flags C.uint64_t) C.aclError {
	th := thread(t)
	s, err := acl.IpcMemGetExportKey(th, uintptr(devPtr), uint64(size), key != nil, uint64(length), uint64(flags))
	if err == nil {
		putName(key, uint64(length), s)
	}
	return ret(th, err)
}

//export npu_aclrtIpcMemSetImportPid
func npu_aclrtIpcMemSetImportPid(t *C.npu_thread, key *C.char, pid *C.int32_t, num C.size_t) C.aclError {
	th := thread(t)
	s, null := cName(key)
	return ret(th, acl.IpcMemSetImportPid(th, s, null, pidList(unsafe.Pointer(pid), uint64(num))))
}

//export npu_aclrtIpcMemSetAttr
func npu_aclrtIpcMemSetAttr(t *C.npu_thread, key *C.char, typ C.aclrtIpcMemAttrType, attr C.uint64_t) C.aclError {
	th := thread(t)
	s, null := cName(key)
	return ret(th, acl.IpcMemSetAttr(th, s, null, uint32(typ), uint64(attr)))
}

//export npu_aclrtIpcMemImportByKey
func npu_aclrtIpcMemImportByKey(t *C.npu_thread, devPtr *unsafe.Pointer, key *C.char, flags C.uint64_t) C.aclError {
	th := thread(t)
	s, null := cName(key)
	return ret(th, acl.IpcMemImportByKey(th, addrOut(devPtr), s, null, uint64(flags)))
}

//export npu_aclrtIpcMemClose
func npu_aclrtIpcMemClose(t *C.npu_thread, key *C.char) C.aclError {
	th := thread(t)
	s, null := cName(key)
	return ret(th, acl.IpcMemClose(th, s, null))
}
