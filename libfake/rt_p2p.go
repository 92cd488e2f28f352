package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/rt"
)

// Exports of the runtime's peer-to-peer calls (rt/p2p.go).

//export npu_rtEnableP2P
func npu_rtEnableP2P(t *C.npu_thread, devIdDes C.uint32_t, phyIdSrc C.uint32_t, flag C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.EnableP2P(th, uint32(devIdDes), uint32(phyIdSrc), uint32(flag))))
}

//export npu_rtDisableP2P
func npu_rtDisableP2P(t *C.npu_thread, devIdDes C.uint32_t, phyIdSrc C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DisableP2P(th, uint32(devIdDes), uint32(phyIdSrc))))
}

//export npu_rtDeviceCanAccessPeer
func npu_rtDeviceCanAccessPeer(t *C.npu_thread, canAccessPeer *C.int32_t, devId C.uint32_t, peerDevice C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.DeviceCanAccessPeer(th, (*int32)(unsafe.Pointer(canAccessPeer)), uint32(devId), uint32(peerDevice))))
}

//export npu_rtsGetP2PStatus
func npu_rtsGetP2PStatus(t *C.npu_thread, devIdDes C.uint32_t, phyIdSrc C.uint32_t, status *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetP2PStatus(th, uint32(devIdDes), uint32(phyIdSrc), (*uint32)(unsafe.Pointer(status)))))
}

//export npu_rtGetDevicePhyIdByIndex
func npu_rtGetDevicePhyIdByIndex(t *C.npu_thread, devIndex C.uint32_t, phyId *C.uint32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.PhyIDByIndex(th, uint32(devIndex), (*uint32)(unsafe.Pointer(phyId)))))
}
