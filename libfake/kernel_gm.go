package main

/*
#include <stdint.h>
#include "kernel_host.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
)

// The Go side of the Ascend C kernel services of kernel_host.c: the GM
// allocation check and the cycle record.

//export npuGMFind
func npuGMFind(addr C.uint64_t, base, size *C.uint64_t) C.int {
	b, n, ok := core.KernelGMFind(uintptr(addr))
	if !ok {
		return 0
	}
	*base, *size = C.uint64_t(b), C.uint64_t(n)
	return 1
}

//export npuKernelSoC
func npuKernelSoC() *C.char {
	name := core.KernelSoC()
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
func (cHost) Cycles(state []byte) (busy [core.KernelPipes]uint64, cycles uint64, cores uint32) {
	st := kstate(state)
	if st.shared == 0 {
		return busy, 0, 0 // not an Ascend C launch: nothing escapes, nothing allocated
	}
	return launchCycles(st)
}

// launchCycles reads an Ascend C launch's cycle record (its buffers go to C,
// so they live on the heap: kept out of Cycles' common path).
func launchCycles(st *C.npu_kstate) (busy [core.KernelPipes]uint64, cycles uint64, cores uint32) {
	var c C.uint64_t
	n := C.npu_kcycles(st, (*C.uint64_t)(unsafe.Pointer(&busy[0])), &c)
	return busy, uint64(c), uint32(n)
}

func init() {
	if s := core.Sanitizer(); s != nil && s.Checks()&^sanitize.Leakcheck != 0 {
		C.npu_ksanitize = 1 // Ascend C kernels record their GM footprint (kernel_host.c)
	}
}

// Footprint implements acl.FootprintHost: the GM ranges an Ascend C
// launch's cores recorded (only when the sanitizer is on).
func (cHost) Footprint(state []byte) (fp []sanitize.Range, exact bool) {
	var r *C.npuemu_gm_range
	var n C.uint32_t
	if C.npu_kfootprint(kstate(state), &r, &n) != 1 {
		return nil, false
	}
	fp = make([]sanitize.Range, 0, int(n))
	xs := unsafe.Slice(r, int(n))
	for i := 0; i < len(xs); i++ {
		x := xs[i]
		if x.mode&(C.NPUEMU_GM_READ|C.NPUEMU_GM_WRITE) == 0 {
			continue // a stray continuation entry
		}
		g := sanitize.Range{Lo: uintptr(x.lo), Hi: uintptr(x.hi), Block: int(x.block), Write: x.mode&C.NPUEMU_GM_WRITE != 0}
		if x.mode&C.NPUEMU_GM_STRIDED != 0 && i+1 < len(xs) {
			// The next entry: stride and number of bursts.
			i++
			g.Stride, g.Count = uintptr(xs[i].lo), int(min(xs[i].hi, 1<<31))
		}
		g.Atomic = gmAtomic(uint32(x.mode))
		fp = append(fp, g)
	}
	return fp, true
}

// gmAtomic is the sanitizer's kind of an atomic store of a footprint
// entry's mode (0: not atomic).
func gmAtomic(mode uint32) sanitize.Mode {
	switch {
	case mode&C.NPUEMU_GM_ATOMIC_ADD != 0:
		return sanitize.AtomicAdd
	case mode&C.NPUEMU_GM_ATOMIC_MAX != 0:
		return sanitize.AtomicMax
	case mode&C.NPUEMU_GM_ATOMIC_MIN != 0:
		return sanitize.AtomicMin
	}
	return 0
}
