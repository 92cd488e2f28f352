package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt"
)

// Exports of the rest of the runtime's managed-memory calls
// (rt/managed_rest.go). rtMemManagedLocation has aclrtMemManagedLocation's
// layout and values (type, then id).

func rtManagedLoc(l C.rtMemManagedLocation) acl.ManagedLocation {
	return acl.ManagedLocation{Type: uint32(l._type), Id: int32(l.id)}
}

//export npu_rtMemManagedAdvise
func npu_rtMemManagedAdvise(t *C.npu_thread, ptr unsafe.Pointer, size C.uint64_t, advise C.uint16_t, location C.rtMemManagedLocation) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemManagedAdvise(th, uintptr(ptr), uint64(size), uint16(advise), rtManagedLoc(location))))
}

//export npu_rtMemManagedGetAttr
func npu_rtMemManagedGetAttr(t *C.npu_thread, attribute C.rtMemManagedRangeAttribute, ptr unsafe.Pointer, size C.size_t, data unsafe.Pointer, dataSize C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemManagedGetAttr(th, int32(attribute), uintptr(ptr), uint64(size), attrBytes(data, dataSize))))
}

//export npu_rtMemManagedGetAttrs
func npu_rtMemManagedGetAttrs(t *C.npu_thread, attributes *C.rtMemManagedRangeAttribute, numAttributes C.size_t, ptr unsafe.Pointer, size C.size_t, data *unsafe.Pointer, dataSizes *C.size_t) C.rtError_t {
	th := thread(t)
	var attrs []int32
	var views [][]byte
	if attributes != nil && data != nil && dataSizes != nil {
		attrs = callerSlice[int32]("numAttributes", unsafe.Pointer(attributes), uint64(numAttributes))
		ds := callerSlice[unsafe.Pointer]("numAttributes", unsafe.Pointer(data), uint64(numAttributes))
		sz := callerSlice[C.size_t]("numAttributes", unsafe.Pointer(dataSizes), uint64(numAttributes))
		views = make([][]byte, len(ds))
		for i := range views {
			views[i] = attrBytes(ds[i], sz[i])
		}
	}
	return C.rtError_t(ret(th, rt.MemManagedGetAttrs(th, attrs, uintptr(ptr), uint64(size), views)))
}

//export npu_rtMemManagedPrefetchBatchAsync
func npu_rtMemManagedPrefetchBatchAsync(t *C.npu_thread, ptrs *unsafe.Pointer, sizes *C.size_t, count C.size_t, prefetchLocs *C.rtMemManagedLocation, prefetchLocIdxs *C.size_t, numPrefetchLocs C.size_t, flags C.uint64_t, stream C.rtStream_t) C.rtError_t {
	th := thread(t)
	var ps []uintptr
	var ss, idxs []uint64
	var locs []acl.ManagedLocation
	if ptrs != nil && sizes != nil {
		ps = callerSlice[uintptr]("count", unsafe.Pointer(ptrs), uint64(count))
		ss = callerSlice[uint64]("count", unsafe.Pointer(sizes), uint64(count))
	}
	if prefetchLocs != nil && prefetchLocIdxs != nil {
		for _, l := range callerSlice[C.rtMemManagedLocation]("numPrefetchLocs", unsafe.Pointer(prefetchLocs), uint64(numPrefetchLocs)) {
			locs = append(locs, rtManagedLoc(l))
		}
		idxs = callerSlice[uint64]("numPrefetchLocs", unsafe.Pointer(prefetchLocIdxs), uint64(numPrefetchLocs))
	}
	return C.rtError_t(ret(th, rt.MemManagedPrefetchBatchAsync(th, ps, ss, locs, idxs, uint64(flags), handle(unsafe.Pointer(stream)))))
}

//export npu_rtMemPrefetchToDevice
func npu_rtMemPrefetchToDevice(t *C.npu_thread, devPtr unsafe.Pointer, len C.uint64_t, devId C.int32_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemPrefetchToDevice(th, uintptr(devPtr), uint64(len), int32(devId))))
}
