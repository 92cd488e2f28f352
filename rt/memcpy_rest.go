package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The rest of the runtime's copies: the conditional copy, the copies
// through pointer cells and through descriptors, the batch copies and the
// reduce task (acl-to-rt.tsv callers: aclrtMemcpyAsyncWithCondition,
// aclrtMemcpyAsyncWithOffset, aclrt{Get,Set}MemcpyDesc,
// aclrtMemcpyAsyncWithDesc, aclrtMemcpyBatch{,Async}, aclrtReduceAsync).
// rtMemcpyKind (the rts* enum, not rtMemcpyKind_t) has aclrtMemcpyKind's
// values, passed unchanged; the work is package acl's.

// MemcpyAttr is one rtMemcpyAttribute_t: its id and the first word of its
// value (checkBitmap).
type MemcpyAttr struct {
	ID, Value uint32
}

// checkMemcpyConfig accepts the attributes the runtime defines:
// RT_MEMCPY_ATTRIBUTE_RSV and RT_MEMCPY_ATTRIBUTE_CHECK (the one
// aclrtMemcpyAsyncWithCondition sets). The checks the bitmap asks for are
// not documented; npuemu's copies always check their operands (memory kind
// and room) whatever the bitmap says.
func checkMemcpyConfig(fn string, as []MemcpyAttr) error {
	for i, a := range as {
		if a.ID >= abi.RT_MEMCPY_ATTRIBUTE_MAX {
			return invalid(fn, "memcpyConfig attrs[%d].id %d is not an rtMemcpyAttributeId_t (0..1)", i, a.ID)
		}
	}
	return nil
}

// MemcpyAsyncEx implements rtMemcpyAsyncEx: rtMemcpyAsync with a config,
// as aclrtMemcpyAsyncWithCondition calls it (kinds as rtMemcpyAsync).
func MemcpyAsyncEx(t *core.Thread, dst uintptr, destMax uint64, src uintptr, count uint64, kind int32, stream core.Handle, cfg []MemcpyAttr) error {
	const fn = "rtMemcpyAsyncEx"
	k, err := memcpyKind(fn, kind)
	if err != nil {
		return err
	}
	if err := checkMemcpyConfig(fn, cfg); err != nil {
		return err
	}
	return wrap(fn, acl.MemcpyAsync(t, dst, destMax, src, count, k, stream))
}

// MemcpyAsyncWithOffset implements rtMemcpyAsyncWithOffset: dst and src
// are cells (device or pinned host memory) holding the base addresses,
// read when the stream reaches the copy of count bytes from
// *src+srcOffset to *dst+dstOffset.
func MemcpyAsyncWithOffset(t *core.Thread, dstCell uintptr, destMax, dstOff uint64, srcCell uintptr, count, srcOff uint64, kind int32, stream core.Handle) error {
	return wrap("rtMemcpyAsyncWithOffset", acl.MemcpyAsyncWithOffset(t, dstCell, destMax, dstOff, srcCell, count, srcOff, kind, stream))
}

// GetMemcpyDescSize implements rtsGetMemcpyDescSize: the size of a copy
// descriptor of kind RT_MEMCPY_KIND_INNER_DEVICE_TO_DEVICE.
func GetMemcpyDescSize(t *core.Thread, kind int32, size *uint64) error {
	const fn = "rtsGetMemcpyDescSize"
	if size == nil {
		return invalid(fn, "descSize must not be NULL")
	}
	return wrap(fn, acl.GetMemcpyDescSize(t, kind, size))
}

// SetMemcpyDesc implements rtsSetMemcpyDesc: writes a descriptor of a copy
// of count bytes from srcAddr to dstAddr (one device's memory) into desc,
// itself device memory. config is reserved: NULL, as aclrtSetMemcpyDesc
// passes it.
func SetMemcpyDesc(t *core.Thread, desc uintptr, kind int32, src, dst uintptr, count uint64, config bool) error {
	return wrap("rtsSetMemcpyDesc", acl.SetMemcpyDesc(t, desc, kind, src, dst, count, config))
}

// MemcpyAsyncWithDesc implements rtsMemcpyAsyncWithDesc: the copy desc
// describes, read when the stream reaches it. config is reserved (NULL, as
// aclrtMemcpyAsyncWithDesc passes it).
func MemcpyAsyncWithDesc(t *core.Thread, desc uintptr, kind int32, config bool, stream core.Handle) error {
	const fn = "rtsMemcpyAsyncWithDesc"
	if config {
		return invalid(fn, "config is reserved and must be NULL")
	}
	return wrap(fn, acl.MemcpyAsyncWithDesc(t, desc, kind, stream))
}

// CheckBatchArrays checks the array arguments of rtsMemcpyBatch and
// rtsMemcpyBatchAsync before libfake reads them (and sets *failIdx to
// SIZE_MAX).
func CheckBatchArrays(fn string, present bool, n, numAttrs uint64, failIdx *uint64) error {
	if failIdx == nil {
		return invalid(fn, "failIdx must not be NULL")
	}
	return wrap(fn, acl.CheckBatchArrays(fn, present, n, numAttrs, failIdx))
}

// MemcpyBatch implements rtsMemcpyBatch: the copies one after another,
// synchronously; attrs[k] (rtMemcpyBatchAttr, locations numbered as
// aclrtMemLocationType) applies to items idx[k] .. idx[k+1]-1. The rt call
// has no destMaxs: each destination holds its size. On failure *failIdx
// names the failing item.
func MemcpyBatch(t *core.Thread, items []core.BatchItem, attrs []core.BatchAttr, idx []uint64, failIdx *uint64) error {
	const fn = "rtsMemcpyBatch"
	return wrap(fn, acl.MemcpyBatch(t, fn, items, attrs, idx, failIdx))
}

// MemcpyBatchAsync implements rtsMemcpyBatchAsync: the copies of
// rtsMemcpyBatch queued on stream one after another.
func MemcpyBatchAsync(t *core.Thread, items []core.BatchItem, attrs []core.BatchAttr, idx []uint64, failIdx *uint64, stream core.Handle) error {
	const fn = "rtsMemcpyBatchAsync"
	return wrap(fn, acl.MemcpyBatchAsync(t, fn, items, attrs, idx, failIdx, stream))
}

// ReduceInfo holds the fields of an rtReduceInfo_t (libfake copies them).
type ReduceInfo struct {
	Dst, Src uintptr
	Count    uint64
	Kind     uint32 // rtReduceKind: RT_MEMCPY_SDMA_AUTOMATIC_*, aclrtReduceKind's values
	Type     uint32 // rtDataType
}

// reduceTypes maps the rtDataType values aclrtReduceAsync can pass to its
// aclDataType; the others (INT4, BFP32, unsigned types) name types the
// reduce task does not take.
var reduceTypes = map[uint32]int32{
	abi.RT_DATA_TYPE_FP32:  abi.ACL_FLOAT,
	abi.RT_DATA_TYPE_FP16:  abi.ACL_FLOAT16,
	abi.RT_DATA_TYPE_INT16: abi.ACL_INT16,
	abi.RT_DATA_TYPE_INT8:  abi.ACL_INT8,
	abi.RT_DATA_TYPE_INT32: abi.ACL_INT32,
	abi.RT_DATA_TYPE_BFP16: abi.ACL_BF16,
}

// LaunchReduceAsyncTask implements rtsLaunchReduceAsyncTask: dst op= src
// element-wise over count bytes in stream order (SUM, MAX, MIN, EQUAL), as
// aclrtReduceAsync. reserve must be NULL.
func LaunchReduceAsyncTask(t *core.Thread, ri *ReduceInfo, stream core.Handle, reserve uintptr) error {
	const fn = "rtsLaunchReduceAsyncTask"
	if ri == nil {
		return invalid(fn, "reduceInfo must not be NULL")
	}
	if reserve != 0 {
		return invalid(fn, "reserve must be NULL")
	}
	dt, ok := reduceTypes[ri.Type]
	if !ok {
		return invalid(fn, "type %d: want RT_DATA_TYPE_FP32, FP16, BFP16, INT8, INT16 or INT32", ri.Type)
	}
	return wrap(fn, acl.ReduceAsync(t, ri.Dst, ri.Src, ri.Count, int32(ri.Kind), dt, stream, 0))
}
