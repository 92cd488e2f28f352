package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"encoding/binary"
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt"
)

// Exports of the rts* allocation calls and pointer queries
// (rt/memory_rest.go).

// rtMallocCfg reads the attributes of an rtMallocConfig_t (12-byte
// records: the rtMallocAttr, then the 8-byte value union at offset 4);
// nil for a NULL cfg or no attributes.
func rtMallocCfg(cfg *C.rtMallocConfig_t) []rt.MallocAttr {
	if cfg == nil || cfg.attrs == nil || cfg.numAttrs == 0 {
		return nil
	}
	raw := callerSlice[byte]("cfg numAttrs", unsafe.Pointer(cfg.attrs), uint64(cfg.numAttrs)*C.sizeof_rtMallocAttribute_t)
	out := make([]rt.MallocAttr, int(cfg.numAttrs))
	for i := range out {
		rec := raw[i*C.sizeof_rtMallocAttribute_t:]
		out[i] = rt.MallocAttr{Attr: binary.LittleEndian.Uint32(rec[0:4]), Value: binary.LittleEndian.Uint64(rec[4:12])}
	}
	return out
}

//export npu_rtsMalloc
func npu_rtsMalloc(t *C.npu_thread, devPtr *unsafe.Pointer, size C.uint64_t, policy C.rtMallocPolicy, advise C.rtMallocAdvise, cfg *C.rtMallocConfig_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SMalloc(th, addrOut(devPtr), uint64(size), uint32(policy), uint32(advise), rtMallocCfg(cfg))))
}

//export npu_rtsMallocHost
func npu_rtsMallocHost(t *C.npu_thread, hostPtr *unsafe.Pointer, size C.uint64_t, cfg *C.rtMallocConfig_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SMallocHost(th, addrOut(hostPtr), uint64(size), rtMallocCfg(cfg))))
}

//export npu_rtsPointerGetAttributes
func npu_rtsPointerGetAttributes(t *C.npu_thread, ptr unsafe.Pointer, attributes *C.rtPtrAttributes_t) C.rtError_t {
	th := thread(t)
	var a acl.PtrAttributes
	var out *acl.PtrAttributes
	if attributes != nil {
		out = &a
	}
	err := rt.PointerGetAttributes(th, uintptr(ptr), out)
	if err == nil {
		// rtPtrAttributes_t: rtMemLocation{id, type}, pageSize, rsv[4].
		attributes.location.id = C.uint32_t(a.Location.Id)
		attributes.location._type = C.rtMemLocationType(a.Location.Type)
		attributes.pageSize = C.uint32_t(a.PageSize)
	}
	return C.rtError_t(ret(th, err))
}

//export npu_rtsCheckMemType
func npu_rtsCheckMemType(t *C.npu_thread, addrs *unsafe.Pointer, size C.uint32_t, memType C.uint32_t, checkResult *C.uint32_t, reserve C.uint32_t) C.rtError_t {
	th := thread(t)
	var as []uintptr
	if addrs != nil {
		as = callerSlice[uintptr]("size", unsafe.Pointer(addrs), uint64(size))
		if as == nil {
			as = []uintptr{}
		}
	}
	return C.rtError_t(ret(th, rt.CheckMemType(th, as, uint32(memType), (*uint32)(unsafe.Pointer(checkResult)), uint32(reserve))))
}

//export npu_rtHostMemMapCapabilities
func npu_rtHostMemMapCapabilities(t *C.npu_thread, deviceId C.uint32_t, hacType C.rtHacType, capabilities *C.rtHostMemMapCapability) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.HostMemMapCapabilities(th, uint32(deviceId), uint32(hacType), (*uint32)(unsafe.Pointer(capabilities)))))
}
