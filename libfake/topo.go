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

// Exports of topology, task-scheduler selection and task-scheduler memory
// (acl/topo.go).

//export npu_aclrtGetDevicesTopo
func npu_aclrtGetDevicesTopo(t *C.npu_thread, deviceId, otherDeviceId C.uint32_t, value *C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetDevicesTopo(th, uint32(deviceId), uint32(otherDeviceId), (*uint64)(unsafe.Pointer(value))))
}

//export npu_aclrtSetTsDevice
func npu_aclrtSetTsDevice(t *C.npu_thread, tsId C.aclrtTsId) C.aclError {
	th := thread(t)
	return ret(th, acl.SetTsDevice(th, int32(tsId)))
}

//export npu_aclrtMallocForTaskScheduler
func npu_aclrtMallocForTaskScheduler(t *C.npu_thread, devPtr *unsafe.Pointer, size C.size_t, policy C.aclrtMemMallocPolicy, cfg *C.aclrtMallocConfig) C.aclError {
	th := thread(t)
	return ret(th, acl.MallocForTaskScheduler(th, addrOut(devPtr), uint64(size), uint32(policy), mallocAttrs(cfg)))
}
