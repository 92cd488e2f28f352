package main

/*
#include <stdlib.h>
#include "track.h"
*/
import "C"

import (
	"syscall"
	"unsafe"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
)

func init() {
	if s := core.Sanitizer(); s != nil && s.Checks()&^sanitize.Leakcheck != 0 {
		// Pages the tracker keeps closed between launches are opened
		// before their block is freed or their memory unmapped.
		emu.SetReleaseHook(func(lo, hi uintptr) { C.npu_track_release(C.uintptr_t(lo), C.uintptr_t(hi)) })
	}
}

// The Go side of track.c: the sanitizer's page tracking of plain kernel
// launches (acl/kernel_track.go).

// TrackArm implements acl.PageTracker.
func (cHost) TrackArm(state []byte, spans []core.PageSpan) error {
	n := len(spans)
	if n == 0 || n > 1<<16 {
		return syscall.E2BIG
	}
	// C memory: the arrays go to C.
	mem := C.malloc(C.size_t(n * (2*C.sizeof_uintptr_t + 4)))
	defer C.free(mem)
	lo := unsafe.Slice((*C.uintptr_t)(mem), n)
	hi := unsafe.Slice((*C.uintptr_t)(unsafe.Add(mem, n*C.sizeof_uintptr_t)), n)
	shift := unsafe.Slice((*C.uint32_t)(unsafe.Add(mem, 2*n*C.sizeof_uintptr_t)), n)
	for i, s := range spans {
		lo[i], hi[i], shift[i] = C.uintptr_t(s.Lo), C.uintptr_t(s.Hi), C.uint32_t(s.Shift)
	}
	if rc := C.npu_track_arm(C.uintptr_t(uintptr(unsafe.Pointer(kstate(state)))), &lo[0], &hi[0], &shift[0], C.uint32_t(n)); rc != 0 {
		return syscall.Errno(rc)
	}
	return nil
}

// TrackDisarm implements acl.PageTracker.
func (cHost) TrackDisarm() ([]sanitize.PageRange, bool) {
	var n C.uint32_t
	var over C.int
	r := C.npu_track_disarm(&n, &over)
	defer C.free(unsafe.Pointer(r))
	if over != 0 {
		return nil, false
	}
	fp := make([]sanitize.PageRange, 0, int(n))
	if n > 0 {
		for _, x := range unsafe.Slice(r, int(n)) {
			fp = append(fp, sanitize.PageRange{Lo: uintptr(x.lo), Hi: uintptr(x.hi), Kind: sanitize.PageKind(x.kind)})
		}
	}
	return fp, true
}
