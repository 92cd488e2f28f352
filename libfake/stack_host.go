package main

/*
#include <stdlib.h>
#include <string.h>
#include "stack.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt/stack"
)

// wireStackHost sets the stack.HAL fields of host memory registration and
// IPC shared memory (rt/stack/host.go) whose driver symbol another library
// interposed: the trampolines of stack_host.c, whose drvError_t decides.
func wireStackHost(set func(C.int) bool) {
	if set(C.NPU_X_halHostRegister) {
		stack.HAL.HostRegister = func(src uintptr, size uint64, flag, dev uint32, dst *uintptr) error {
			var p C.uintptr_t
			r := int32(C.npu_x_halHostRegister(C.uintptr_t(src), C.uint64_t(size), C.uint32_t(flag), C.uint32_t(dev), &p))
			*dst = uintptr(p)
			return crossedDrv(C.NPU_X_halHostRegister, r)
		}
	}
	if set(C.NPU_X_halHostUnregisterEx) {
		stack.HAL.HostUnregisterEx = func(src uintptr, dev, flag uint32) error {
			return crossedDrv(C.NPU_X_halHostUnregisterEx, int32(C.npu_x_halHostUnregisterEx(C.uintptr_t(src), C.uint32_t(dev), C.uint32_t(flag))))
		}
	}
	if set(C.NPU_X_halHostRegisterCapabilities) {
		stack.HAL.HostRegisterCapabilities = func(dev, acc uint32, out *uint32) error {
			var c C.uint32_t
			r := int32(C.npu_x_halHostRegisterCapabilities(C.uint32_t(dev), C.uint32_t(acc), &c))
			*out = uint32(c)
			return crossedDrv(C.NPU_X_halHostRegisterCapabilities, r)
		}
	}
	if set(C.NPU_X_halShmemCreateHandle) {
		stack.HAL.ShmemCreateHandle = func(vptr uintptr, size uint64, nameLen uint32) (string, error) {
			buf := (*C.char)(C.calloc(C.size_t(nameLen)+1, 1)) // +1: a NUL even if the definition fills the buffer
			defer C.free(unsafe.Pointer(buf))
			r := int32(C.npu_x_halShmemCreateHandle(C.uintptr_t(vptr), C.size_t(size), buf, C.uint32_t(nameLen)))
			if err := crossedDrv(C.NPU_X_halShmemCreateHandle, r); err != nil {
				return "", err
			}
			// At most nameLen-1 characters: the caller's buffer of
			// nameLen bytes keeps its NUL.
			return C.GoStringN(buf, C.int(C.strnlen(buf, C.size_t(max(nameLen, 1)-1)))), nil
		}
	}
	if set(C.NPU_X_halShmemSetAttribute) {
		stack.HAL.ShmemSetAttribute = func(name string, typ uint32, attr uint64) error {
			s := C.CString(name)
			defer C.free(unsafe.Pointer(s))
			return crossedDrv(C.NPU_X_halShmemSetAttribute, int32(C.npu_x_halShmemSetAttribute(s, C.uint32_t(typ), C.uint64_t(attr))))
		}
	}
	if set(C.NPU_X_halShmemSetPidHandle) {
		stack.HAL.ShmemSetPidHandle = func(name string, pids []int32) error {
			s := C.CString(name)
			defer C.free(unsafe.Pointer(s))
			var p *C.int32_t
			if len(pids) > 0 {
				p = (*C.int32_t)(unsafe.Pointer(&pids[0]))
			}
			return crossedDrv(C.NPU_X_halShmemSetPidHandle, int32(C.npu_x_halShmemSetPidHandle(s, p, C.int(len(pids)))))
		}
	}
	if set(C.NPU_X_halShmemOpenHandle) {
		stack.HAL.ShmemOpenHandle = func(name string, out *uintptr) error {
			s := C.CString(name)
			defer C.free(unsafe.Pointer(s))
			var p C.uintptr_t
			r := int32(C.npu_x_halShmemOpenHandle(s, &p))
			*out = uintptr(p)
			return crossedDrv(C.NPU_X_halShmemOpenHandle, r)
		}
	}
	if set(C.NPU_X_halShmemCloseHandle) {
		stack.HAL.ShmemCloseHandle = func(vptr uintptr) error {
			return crossedDrv(C.NPU_X_halShmemCloseHandle, int32(C.npu_x_halShmemCloseHandle(C.uintptr_t(vptr))))
		}
	}
	if set(C.NPU_X_halShmemDestroyHandle) {
		stack.HAL.ShmemDestroyHandle = func(name string) error {
			s := C.CString(name)
			defer C.free(unsafe.Pointer(s))
			return crossedDrv(C.NPU_X_halShmemDestroyHandle, int32(C.npu_x_halShmemDestroyHandle(s)))
		}
	}
}
