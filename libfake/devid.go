package main

/*
#include <string.h>
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Exports of device-id mapping, PCI bus ids and UUIDs (acl/devid.go).

func i32(p *C.int32_t) *int32 { return (*int32)(unsafe.Pointer(p)) }

//export npu_aclrtGetLogicDevIdByUserDevId
func npu_aclrtGetLogicDevIdByUserDevId(t *C.npu_thread, userDevid C.int32_t, logicDevId *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetLogicDevIdByUserDevId(th, int32(userDevid), i32(logicDevId)))
}

//export npu_aclrtGetUserDevIdByLogicDevId
func npu_aclrtGetUserDevIdByLogicDevId(t *C.npu_thread, logicDevId C.int32_t, userDevid *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetUserDevIdByLogicDevId(th, int32(logicDevId), i32(userDevid)))
}

//export npu_aclrtGetLogicDevIdByPhyDevId
func npu_aclrtGetLogicDevIdByPhyDevId(t *C.npu_thread, phyDevId C.int32_t, logicDevId *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetLogicDevIdByPhyDevId(th, int32(phyDevId), i32(logicDevId)))
}

//export npu_aclrtGetPhyDevIdByLogicDevId
func npu_aclrtGetPhyDevIdByLogicDevId(t *C.npu_thread, logicDevId C.int32_t, phyDevId *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetPhyDevIdByLogicDevId(th, int32(logicDevId), i32(phyDevId)))
}

//export npu_aclrtGetUserDevIdByPhyDevId
func npu_aclrtGetUserDevIdByPhyDevId(t *C.npu_thread, phyDevId C.int32_t, userDevId *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetUserDevIdByPhyDevId(th, int32(phyDevId), i32(userDevId)))
}

//export npu_aclrtGetPhyDevIdByUserDevId
func npu_aclrtGetPhyDevIdByUserDevId(t *C.npu_thread, userDevId C.int32_t, phyDevId *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetPhyDevIdByUserDevId(th, int32(userDevId), i32(phyDevId)))
}

//export npu_aclrtDeviceGetPCIBusId
func npu_aclrtDeviceGetPCIBusId(t *C.npu_thread, deviceId C.int32_t, pciBusId *C.char, length C.int32_t) C.aclError {
	th := thread(t)
	s, err := acl.DeviceGetPCIBusId(th, int32(deviceId), pciBusId != nil, int32(length))
	if err != nil {
		return ret(th, err)
	}
	buf := unsafe.Slice((*byte)(unsafe.Pointer(pciBusId)), len(s)+1)
	copy(buf, s)
	buf[len(s)] = 0
	return 0
}

//export npu_aclrtDeviceGetByPCIBusId
func npu_aclrtDeviceGetByPCIBusId(t *C.npu_thread, pciBusId *C.char, deviceId *C.int32_t) C.aclError {
	th := thread(t)
	var s string
	if pciBusId != nil {
		s = C.GoStringN(pciBusId, C.int(C.strnlen(pciBusId, 64)))
	}
	return ret(th, acl.DeviceGetByPCIBusId(th, s, pciBusId != nil, i32(deviceId)))
}

//export npu_aclrtDeviceGetUuid
func npu_aclrtDeviceGetUuid(t *C.npu_thread, deviceId C.int32_t, uuid *C.aclrtUuid) C.aclError {
	th := thread(t)
	return ret(th, acl.DeviceGetUuid(th, int32(deviceId), (*[16]byte)(unsafe.Pointer(uuid))))
}
