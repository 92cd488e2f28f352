package main

/*
#include "runtime/rt.h"
#include "npu.h"

static inline uint32_t npu_call_rt_snapshot(uintptr_t cb, int32_t dev, uintptr_t args) {
    return ((rtSnapShotCallBack)cb)(dev, (void *)args);
}
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's process-snapshot calls (rt/snapshot.go).

//export npu_rtSnapShotProcessLock
func npu_rtSnapShotProcessLock(t *C.npu_thread) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SnapShotProcessLock(th)))
}

//export npu_rtSnapShotProcessUnlock
func npu_rtSnapShotProcessUnlock(t *C.npu_thread) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SnapShotProcessUnlock(th)))
}

//export npu_rtSnapShotProcessBackup
func npu_rtSnapShotProcessBackup(t *C.npu_thread) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SnapShotProcessBackup(th)))
}

//export npu_rtSnapShotProcessRestore
func npu_rtSnapShotProcessRestore(t *C.npu_thread) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SnapShotProcessRestore(th)))
}

//export npu_rtSnapShotCallbackRegister
func npu_rtSnapShotCallbackRegister(t *C.npu_thread, stage C.rtSnapShotStage, callback C.rtSnapShotCallBack, args unsafe.Pointer) C.rtError_t {
	th := thread(t)
	f := C.uintptr_t(uintptr(unsafe.Pointer(callback)))
	a := C.uintptr_t(uintptr(args))
	cb := func(dev int32) uint32 { return uint32(C.npu_call_rt_snapshot(f, C.int32_t(dev), a)) }
	return C.rtError_t(ret(th, rt.SnapShotCallbackRegister(th, int32(stage), uintptr(f), cb)))
}

//export npu_rtSnapShotCallbackUnregister
func npu_rtSnapShotCallbackUnregister(t *C.npu_thread, stage C.rtSnapShotStage, callback C.rtSnapShotCallBack) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SnapShotCallbackUnregister(th, int32(stage), uintptr(unsafe.Pointer(callback)))))
}
