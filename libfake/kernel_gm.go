package main

/*
#include <stdint.h>
#include "kernel_host.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// The Go side of the Ascend C kernel services of kernel_host.c: the GM
// allocation check and the cycle record.

//export npuGMFind
func npuGMFind(addr C.uint64_t, base, size *C.uint64_t) C.int {
	b, n, ok := acl.KernelGMFind(uintptr(addr))
	if !ok {
		return 0
	}
	*base, *size = C.uint64_t(b), C.uint64_t(n)
	return 1
}

//export npuKernelSoC
func npuKernelSoC() *C.char {
	name := acl.KernelSoC()
	if name == "" {
		return nil
	}
	// The C strings of aclrtGetSocName (libfake/device.go), never freed.
	socNames.mu.Lock()
	defer socNames.mu.Unlock()
	if socNames.m == nil {
		socNames.m = map[string]*C.char{}
	}
	p, ok := socNames.m[name]
	if !ok {
		p = C.CString(name)
		socNames.m[name] = p
	}
	return p
}

// Cycles implements acl.CycleHost.
func (cHost) Cycles(state []byte) (busy [acl.KernelPipes]uint64, cycles uint64, cores uint32) {
	st := kstate(state)
	if st.shared == 0 {
		return busy, 0, 0 // not an Ascend C launch: nothing escapes, nothing allocated
	}
	return launchCycles(st)
}

// launchCycles reads an Ascend C launch's cycle record (its buffers go to C,
// so they live on the heap: kept out of Cycles' common path).
func launchCycles(st *C.npu_kstate) (busy [acl.KernelPipes]uint64, cycles uint64, cores uint32) {
	var c C.uint64_t
	n := C.npu_kcycles(st, (*C.uint64_t)(unsafe.Pointer(&busy[0])), &c)
	return busy, uint64(c), uint32(n)
}
