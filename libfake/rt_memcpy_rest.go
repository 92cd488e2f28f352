package main

/*
#include "runtime/rt.h"
#include "npu.h"
*/
import "C"

import (
	"encoding/binary"
	"unsafe"

	"github.com/npuemu/npuemu/rt"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the rest of the runtime's copies (rt/memcpy_rest.go).

// rtMemcpyCfg reads an rtMemcpyConfig_t's attributes (20-byte records: the
// id, then the 16-byte value union); nil for a NULL config.
func rtMemcpyCfg(cfg *C.rtMemcpyConfig_t) []rt.MemcpyAttr {
	if cfg == nil || cfg.attrs == nil || cfg.numAttrs == 0 {
		return nil
	}
	raw := callerSlice[byte]("memcpyConfig numAttrs", unsafe.Pointer(cfg.attrs), uint64(cfg.numAttrs)*C.sizeof_rtMemcpyAttribute_t)
	out := make([]rt.MemcpyAttr, int(cfg.numAttrs))
	for i := range out {
		rec := raw[i*C.sizeof_rtMemcpyAttribute_t:]
		out[i] = rt.MemcpyAttr{ID: binary.LittleEndian.Uint32(rec[0:4]), Value: binary.LittleEndian.Uint32(rec[4:8])}
	}
	return out
}

//export npu_rtMemcpyAsyncEx
func npu_rtMemcpyAsyncEx(t *C.npu_thread, dst unsafe.Pointer, destMax C.uint64_t, src unsafe.Pointer, cnt C.uint64_t, kind C.rtMemcpyKind_t, stm C.rtStream_t, memcpyConfig *C.rtMemcpyConfig_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemcpyAsyncEx(th, uintptr(dst), uint64(destMax), uintptr(src), uint64(cnt), int32(kind), handle(unsafe.Pointer(stm)), rtMemcpyCfg(memcpyConfig))))
}

//export npu_rtMemcpyAsyncWithOffset
func npu_rtMemcpyAsyncWithOffset(t *C.npu_thread, dst *unsafe.Pointer, dstMax, dstDataOffset C.uint64_t, src *unsafe.Pointer, cnt, srcDataOffset C.uint64_t, kind C.rtMemcpyKind, stm C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemcpyAsyncWithOffset(th, uintptr(unsafe.Pointer(dst)), uint64(dstMax), uint64(dstDataOffset),
		uintptr(unsafe.Pointer(src)), uint64(cnt), uint64(srcDataOffset), int32(kind), handle(unsafe.Pointer(stm)))))
}

//export npu_rtsGetMemcpyDescSize
func npu_rtsGetMemcpyDescSize(t *C.npu_thread, kind C.rtMemcpyKind, descSize *C.size_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.GetMemcpyDescSize(th, int32(kind), (*uint64)(unsafe.Pointer(descSize)))))
}

//export npu_rtsSetMemcpyDesc
func npu_rtsSetMemcpyDesc(t *C.npu_thread, desc C.rtMemcpyDesc_t, kind C.rtMemcpyKind, srcAddr, dstAddr unsafe.Pointer, count C.size_t, config *C.rtMemcpyConfig_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.SetMemcpyDesc(th, uintptr(desc), int32(kind), uintptr(srcAddr), uintptr(dstAddr), uint64(count), config != nil)))
}

//export npu_rtsMemcpyAsyncWithDesc
func npu_rtsMemcpyAsyncWithDesc(t *C.npu_thread, desc C.rtMemcpyDesc_t, kind C.rtMemcpyKind, config *C.rtMemcpyConfig_t, stream C.rtStream_t) C.rtError_t {
	th := thread(t)
	return C.rtError_t(ret(th, rt.MemcpyAsyncWithDesc(th, uintptr(desc), int32(kind), config != nil, handle(unsafe.Pointer(stream)))))
}

// rtBatchArgs reads the arrays of rtsMemcpyBatch (destMaxs nil: each
// destination holds its size) or rtsMemcpyBatchAsync.
func rtBatchArgs(fn string, dsts *unsafe.Pointer, destMaxs *C.size_t, async bool, srcs *unsafe.Pointer, sizes *C.size_t, count C.size_t,
	attrs *C.rtMemcpyBatchAttr, attrsIdxs *C.size_t, numAttrs C.size_t, failIdx *uint64) ([]core.BatchItem, []core.BatchAttr, []uint64, error) {
	present := dsts != nil && srcs != nil && sizes != nil && attrs != nil && attrsIdxs != nil && (!async || destMaxs != nil)
	if err := rt.CheckBatchArrays(fn, present, uint64(count), uint64(numAttrs), failIdx); err != nil {
		return nil, nil, nil, err
	}
	n := uint64(count)
	d := callerSlice[uintptr]("count", unsafe.Pointer(dsts), n)
	s := callerSlice[uintptr]("count", unsafe.Pointer(srcs), n)
	sz := callerSlice[uint64]("count", unsafe.Pointer(sizes), n)
	var dm []uint64
	if async {
		dm = callerSlice[uint64]("count", unsafe.Pointer(destMaxs), n)
	}
	items := make([]core.BatchItem, len(d))
	for i := range items {
		items[i] = core.BatchItem{Dst: d[i], Src: s[i], DestMax: sz[i], Count: sz[i]}
		if async {
			items[i].DestMax = dm[i]
		}
	}
	ca := callerSlice[C.rtMemcpyBatchAttr]("numAttrs", unsafe.Pointer(attrs), uint64(numAttrs))
	as := make([]core.BatchAttr, len(ca))
	for i, a := range ca {
		as[i] = core.BatchAttr{DstType: uint32(a.dstLoc._type), DstID: uint32(a.dstLoc.id), SrcType: uint32(a.srcLoc._type), SrcID: uint32(a.srcLoc.id)}
	}
	idx := append([]uint64(nil), callerSlice[uint64]("numAttrs", unsafe.Pointer(attrsIdxs), uint64(numAttrs))...)
	return items, as, idx, nil
}

//export npu_rtsMemcpyBatch
func npu_rtsMemcpyBatch(t *C.npu_thread, dsts *unsafe.Pointer, srcs *unsafe.Pointer, sizes *C.size_t, count C.size_t, attrs *C.rtMemcpyBatchAttr, attrsIdxs *C.size_t, numAttrs C.size_t, failIdx *C.size_t) C.rtError_t {
	th := thread(t)
	items, as, idx, err := rtBatchArgs("rtsMemcpyBatch", dsts, nil, false, srcs, sizes, count, attrs, attrsIdxs, numAttrs, u64(failIdx))
	if err == nil {
		err = rt.MemcpyBatch(th, items, as, idx, u64(failIdx))
	}
	return C.rtError_t(ret(th, err))
}

//export npu_rtsMemcpyBatchAsync
func npu_rtsMemcpyBatchAsync(t *C.npu_thread, dsts *unsafe.Pointer, destMaxs *C.size_t, srcs *unsafe.Pointer, sizes *C.size_t, count C.size_t, attrs *C.rtMemcpyBatchAttr, attrsIdxs *C.size_t, numAttrs C.size_t, failIdx *C.size_t, stream C.rtStream_t) C.rtError_t {
	th := thread(t)
	items, as, idx, err := rtBatchArgs("rtsMemcpyBatchAsync", dsts, destMaxs, true, srcs, sizes, count, attrs, attrsIdxs, numAttrs, u64(failIdx))
	if err == nil {
		err = rt.MemcpyBatchAsync(th, items, as, idx, u64(failIdx), handle(unsafe.Pointer(stream)))
	}
	return C.rtError_t(ret(th, err))
}

//export npu_rtsLaunchReduceAsyncTask
func npu_rtsLaunchReduceAsyncTask(t *C.npu_thread, reduceInfo *C.rtReduceInfo_t, stm C.rtStream_t, reserve unsafe.Pointer) C.rtError_t {
	th := thread(t)
	var ri *rt.ReduceInfo
	if reduceInfo != nil {
		ri = &rt.ReduceInfo{Dst: uintptr(reduceInfo.dst), Src: uintptr(reduceInfo.src), Count: uint64(reduceInfo.count),
			Kind: uint32(reduceInfo.kind), Type: uint32(reduceInfo._type)}
	}
	return C.rtError_t(ret(th, rt.LaunchReduceAsyncTask(th, ri, handle(unsafe.Pointer(stm)), uintptr(reserve))))
}
