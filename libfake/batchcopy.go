package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the batch copies (acl/batchcopy.go). The C arrays are copied
// into Go slices here; failIndex (when the variant has one) is written by
// acl.

// batchArgs reads the arrays of a batch call, or returns the argument error.
func batchArgs(fn string, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, numBatches C.size_t,
	attrs *C.aclrtMemcpyBatchAttr, attrsIndexes *C.size_t, numAttrs C.size_t, failIndex *uint64) ([]core.BatchItem, []core.BatchAttr, []uint64, error) {
	present := dsts != nil && destMaxs != nil && srcs != nil && sizes != nil && attrs != nil && attrsIndexes != nil
	if err := acl.CheckBatchArrays(fn, present, uint64(numBatches), uint64(numAttrs), failIndex); err != nil {
		return nil, nil, nil, err
	}
	n, na := int(numBatches), int(numAttrs)
	d := unsafe.Slice((*uintptr)(unsafe.Pointer(dsts)), n)
	s := unsafe.Slice((*uintptr)(unsafe.Pointer(srcs)), n)
	dm := unsafe.Slice((*uint64)(unsafe.Pointer(destMaxs)), n)
	sz := unsafe.Slice((*uint64)(unsafe.Pointer(sizes)), n)
	items := make([]core.BatchItem, n)
	for i := range items {
		items[i] = core.BatchItem{Dst: d[i], Src: s[i], DestMax: dm[i], Count: sz[i]}
	}
	ca := unsafe.Slice(attrs, na)
	as := make([]core.BatchAttr, na)
	for i, a := range ca {
		as[i] = core.BatchAttr{DstType: uint32(a.dstLoc._type), DstID: uint32(a.dstLoc.id), SrcType: uint32(a.srcLoc._type), SrcID: uint32(a.srcLoc.id)}
	}
	idx := append([]uint64(nil), unsafe.Slice((*uint64)(unsafe.Pointer(attrsIndexes)), na)...)
	return items, as, idx, nil
}

func u64(p *C.size_t) *uint64 { return (*uint64)(unsafe.Pointer(p)) }

//export npu_aclrtMemcpyBatch
func npu_aclrtMemcpyBatch(t *C.npu_thread, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, numBatches C.size_t, attrs *C.aclrtMemcpyBatchAttr, attrsIndexes *C.size_t, numAttrs C.size_t, failIndex *C.size_t) C.aclError {
	th := thread(t)
	const fn = "aclrtMemcpyBatch"
	items, as, idx, err := batchArgs(fn, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, u64(failIndex))
	if err == nil {
		err = acl.MemcpyBatch(th, fn, items, as, idx, u64(failIndex))
	}
	return ret(th, err)
}

//export npu_aclrtMemcpyBatchV2
func npu_aclrtMemcpyBatchV2(t *C.npu_thread, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, numBatches C.size_t, attrs *C.aclrtMemcpyBatchAttr, attrsIndexes *C.size_t, numAttrs C.size_t) C.aclError {
	th := thread(t)
	const fn = "aclrtMemcpyBatchV2"
	items, as, idx, err := batchArgs(fn, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, nil)
	if err == nil {
		err = acl.MemcpyBatch(th, fn, items, as, idx, nil)
	}
	return ret(th, err)
}

//export npu_aclrtMemcpyBatchAsync
func npu_aclrtMemcpyBatchAsync(t *C.npu_thread, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, numBatches C.size_t, attrs *C.aclrtMemcpyBatchAttr, attrsIndexes *C.size_t, numAttrs C.size_t, failIndex *C.size_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	const fn = "aclrtMemcpyBatchAsync"
	items, as, idx, err := batchArgs(fn, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, u64(failIndex))
	if err == nil {
		err = acl.MemcpyBatchAsync(th, fn, items, as, idx, u64(failIndex), handle(unsafe.Pointer(stream)))
	}
	return ret(th, err)
}

//export npu_aclrtMemcpyBatchAsyncV2
func npu_aclrtMemcpyBatchAsyncV2(t *C.npu_thread, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, numBatches C.size_t, attrs *C.aclrtMemcpyBatchAttr, attrsIndexes *C.size_t, numAttrs C.size_t, stream C.aclrtStream) C.aclError {
	th := thread(t)
	const fn = "aclrtMemcpyBatchAsyncV2"
	items, as, idx, err := batchArgs(fn, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, nil)
	if err == nil {
		err = acl.MemcpyBatchAsync(th, fn, items, as, idx, nil, handle(unsafe.Pointer(stream)))
	}
	return ret(th, err)
}
