package main

/*
#include "acl/acl.h"
#include "npu.h"

static inline uint32_t npu_call_snapshot(uintptr_t cb, int32_t dev, uintptr_t args) {
    return ((aclrtSnapShotCallBack)cb)(dev, (void *)args);
}
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of the process-snapshot family (acl/snapshot.go). Callbacks are
// called through npu_call_snapshot, with no runtime lock held.

//export npu_aclrtSnapShotProcessLock
func npu_aclrtSnapShotProcessLock(t *C.npu_thread, pid C.int, reserve unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.SnapShotProcessLock(th, int32(pid)))
}

//export npu_aclrtSnapShotProcessUnlock
func npu_aclrtSnapShotProcessUnlock(t *C.npu_thread, pid C.int, reserve unsafe.Pointer) C.aclError {
	th := thread(t)
	return ret(th, acl.SnapShotProcessUnlock(th, int32(pid)))
}

//export npu_aclrtSnapShotProcessBackup
func npu_aclrtSnapShotProcessBackup(t *C.npu_thread, pid C.int, args *C.aclrtSnapShotBackupArgs) C.aclError {
	th := thread(t)
	return ret(th, acl.SnapShotProcessBackup(th, int32(pid), args != nil))
}

//export npu_aclrtSnapShotProcessRestore
func npu_aclrtSnapShotProcessRestore(t *C.npu_thread, pid C.int, args *C.aclrtSnapShotRestoreArgs) C.aclError {
	th := thread(t)
	return ret(th, acl.SnapShotProcessRestore(th, int32(pid), args != nil))
}

//export npu_aclrtSnapShotCallbackRegister
func npu_aclrtSnapShotCallbackRegister(t *C.npu_thread, stage C.aclrtSnapShotStage, callback C.aclrtSnapShotCallBack, args unsafe.Pointer) C.aclError {
	th := thread(t)
	f := C.uintptr_t(uintptr(unsafe.Pointer(callback)))
	a := C.uintptr_t(uintptr(args))
	cb := func(dev int32) uint32 { return uint32(C.npu_call_snapshot(f, C.int32_t(dev), a)) }
	return ret(th, acl.SnapShotCallbackRegister(th, int32(stage), uintptr(f), cb))
}

//export npu_aclrtSnapShotCallbackUnregister
func npu_aclrtSnapShotCallbackUnregister(t *C.npu_thread, stage C.aclrtSnapShotStage, callback C.aclrtSnapShotCallBack) C.aclError {
	th := thread(t)
	return ret(th, acl.SnapShotCallbackUnregister(th, int32(stage), uintptr(unsafe.Pointer(callback))))
}
