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

// Exports of the ACL managed-memory family (acl/managed.go). Managed
// addresses lie in the managed window, outside the Go heap.

var (
	_ [unsafe.Sizeof(acl.ManagedLocation{}) - C.sizeof_aclrtMemManagedLocation]byte
	_ [C.sizeof_aclrtMemManagedLocation - unsafe.Sizeof(acl.ManagedLocation{})]byte
)

func managedLoc(l C.aclrtMemManagedLocation) acl.ManagedLocation {
	return acl.ManagedLocation{Type: uint32(l._type), Id: int32(l.id)}
}

//export npu_aclrtMemAllocManaged
func npu_aclrtMemAllocManaged(t *C.npu_thread, ptr *unsafe.Pointer, size C.uint64_t, flag C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.AllocManaged(th, addrOut(ptr), uint64(size), uint32(flag)))
}

//export npu_aclrtMemManagedAdvise
func npu_aclrtMemManagedAdvise(t *C.npu_thread, ptr unsafe.Pointer, size C.uint64_t, advise C.aclrtMemManagedAdviseType, location C.aclrtMemManagedLocation) C.aclError {
	th := thread(t)
	return ret(th, acl.ManagedAdvise(th, uintptr(ptr), uint64(size), int32(advise), managedLoc(location)))
}

//export npu_aclrtMemManagedPrefetchAsync
func npu_aclrtMemManagedPrefetchAsync(t *C.npu_thread, ptr unsafe.Pointer, size C.size_t, location C.aclrtMemManagedLocation, flags C.uint32_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.PrefetchAsync(th, uintptr(ptr), uint64(size), managedLoc(location), uint32(flags), handle(unsafe.Pointer(stream))))
}

//export npu_aclrtMemManagedPrefetchBatchAsync
func npu_aclrtMemManagedPrefetchBatchAsync(t *C.npu_thread, ptrs *unsafe.Pointer, sizes *C.size_t, count C.size_t, prefetchLocs *C.aclrtMemManagedLocation, prefetchLocIdxs *C.size_t, numPrefetchLocs C.size_t, flags C.uint64_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	var ps []uintptr
	var ss, idxs []uint64
	var locs []acl.ManagedLocation
	if ptrs != nil && sizes != nil && count > 0 && count < 1<<24 {
		ps = unsafe.Slice((*uintptr)(unsafe.Pointer(ptrs)), int(count))
		ss = unsafe.Slice((*uint64)(unsafe.Pointer(sizes)), int(count))
	}
	if prefetchLocs != nil && prefetchLocIdxs != nil && numPrefetchLocs > 0 && numPrefetchLocs < 1<<24 {
		locs = unsafe.Slice((*acl.ManagedLocation)(unsafe.Pointer(prefetchLocs)), int(numPrefetchLocs))
		idxs = unsafe.Slice((*uint64)(unsafe.Pointer(prefetchLocIdxs)), int(numPrefetchLocs))
	}
	return ret(th, acl.PrefetchBatchAsync(th, ps, ss, locs, idxs, uint64(flags), handle(unsafe.Pointer(stream))))
}

// attrBytes views dataSize bytes at data (nil for NULL).
func attrBytes(data unsafe.Pointer, n C.size_t) []byte {
	if data == nil {
		return nil
	}
	if n == 0 {
		return []byte{}
	}
	return unsafe.Slice((*byte)(data), callerLen("dataSize", uint64(n), 1))
}

//export npu_aclrtMemManagedGetAttr
func npu_aclrtMemManagedGetAttr(t *C.npu_thread, attribute C.aclrtMemManagedRangeAttribute, ptr unsafe.Pointer, size C.size_t, data unsafe.Pointer, dataSize C.size_t) C.aclError {
	th := thread(t)
	return ret(th, acl.ManagedGetAttr(th, int32(attribute), uintptr(ptr), uint64(size), attrBytes(data, dataSize)))
}

//export npu_aclrtMemManagedGetAttrs
func npu_aclrtMemManagedGetAttrs(t *C.npu_thread, attributes *C.aclrtMemManagedRangeAttribute, numAttributes C.size_t, ptr unsafe.Pointer, size C.size_t, data *unsafe.Pointer, dataSizes *C.size_t) C.aclError {
	th := thread(t)
	var attrs []int32
	var views [][]byte
	if attributes != nil && data != nil && dataSizes != nil && numAttributes > 0 && numAttributes < 1<<16 {
		n := int(numAttributes)
		attrs = unsafe.Slice((*int32)(unsafe.Pointer(attributes)), n)
		ds := unsafe.Slice(data, n)
		sz := unsafe.Slice(dataSizes, n)
		views = make([][]byte, n)
		for i := range views {
			views[i] = attrBytes(ds[i], sz[i])
		}
	}
	return ret(th, acl.ManagedGetAttrs(th, attrs, uintptr(ptr), uint64(size), views))
}

//export npu_aclrtMemP2PMap
func npu_aclrtMemP2PMap(t *C.npu_thread, devPtr unsafe.Pointer, size C.size_t, dstDevId C.int32_t, flags C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.MemP2PMap(th, uintptr(devPtr), uint64(size), int32(dstDevId), uint64(flags)))
}
