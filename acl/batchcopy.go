package acl

import (
	"math"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// NoFailIndex is *failIndex when an error is not tied to one item (SIZE_MAX).
const NoFailIndex = uint64(math.MaxUint64)

// batchKind validates the attribute ranges of a batch and returns the one
// direction every item shares.
func batchKind(fn string, n int, attrs []core.BatchAttr, idx []uint64) (int32, error) {
	if n == 0 {
		return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: numBatches must not be 0", fn)
	}
	if len(attrs) == 0 || len(attrs) > n {
		return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: numAttrs %d must be in [1, numBatches %d]", fn, len(attrs), n)
	}
	kind := int32(-1)
	for k, a := range attrs {
		switch {
		case k == 0 && idx[0] != 0:
			return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attrsIndexes[0] must be 0, got %d", fn, idx[0])
		case idx[k] >= uint64(n):
			return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attrsIndexes[%d] %d is not below numBatches %d", fn, k, idx[k], n)
		case k > 0 && idx[k] <= idx[k-1]:
			return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attrsIndexes must be strictly increasing (attrsIndexes[%d] = %d)", fn, k, idx[k])
		}
		var ak int32
		switch {
		case a.DstType == abi.ACL_MEM_LOCATION_TYPE_DEVICE && a.SrcType == abi.ACL_MEM_LOCATION_TYPE_HOST:
			ak = abi.ACL_MEMCPY_HOST_TO_DEVICE
		case a.DstType == abi.ACL_MEM_LOCATION_TYPE_HOST && a.SrcType == abi.ACL_MEM_LOCATION_TYPE_DEVICE:
			ak = abi.ACL_MEMCPY_DEVICE_TO_HOST
		default:
			return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM,
				"%s: attrs[%d]: dstLoc type %d / srcLoc type %d is neither host-to-device nor device-to-host", fn, k, a.DstType, a.SrcType)
		}
		if kind >= 0 && ak != kind {
			return 0, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: a batch must be all host-to-device or all device-to-host (attrs[%d] differs)", fn, k)
		}
		kind = ak
	}
	return kind, nil
}

// checkBatchItem checks that an item's operands go the batch's way.
func checkBatchItem(fn string, i int, it core.BatchItem, kind int32) error {
	if it.Count == 0 {
		return nil
	}
	if it.Dst == 0 || it.Src == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: item %d: dst and src must not be NULL", fn, i)
	}
	di, err := core.Classify(fn, "dst", it.Dst)
	if err != nil {
		return err
	}
	si, err := core.Classify(fn, "src", it.Src)
	if err != nil {
		return err
	}
	wantDevDst := kind == abi.ACL_MEMCPY_HOST_TO_DEVICE
	if (di.Class == core.Devmem) != wantDevDst || (si.Class == core.Devmem) == wantDevDst {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: item %d: operands do not match the batch direction (kind %d)", fn, i, kind)
	}
	return nil
}

// memcpyBatch runs the items one by one through the single-copy paths
// (copies within a batch are unordered, so sequential is a valid order).
// With sh == nil the copies are synchronous (aclrtMemcpy), otherwise they
// are queued on the stream (aclrtMemcpyAsync).
func memcpyBatch(t *core.Thread, fn string, items []core.BatchItem, attrs []core.BatchAttr, idx []uint64, failIndex *uint64, sh *core.Handle) error {
	if failIndex != nil {
		*failIndex = NoFailIndex
	}
	kind, err := batchKind(fn, len(items), attrs, idx)
	if err != nil {
		return err
	}
	for i, it := range items {
		err := checkBatchItem(fn, i, it, kind)
		if err == nil {
			if sh == nil {
				err = core.MemcpyBatchItem(t, it.Dst, it.DestMax, it.Src, it.Count, kind)
			} else {
				err = core.MemcpyAsync(t, it.Dst, it.DestMax, it.Src, it.Count, kind, *sh)
			}
		}
		if err != nil {
			if failIndex != nil {
				*failIndex = uint64(i)
			}
			return abi.Wrapf(err, "%s: item %d", fn, i)
		}
	}
	return nil
}

// MemcpyBatch implements aclrtMemcpyBatch and (failIndex nil)
// aclrtMemcpyBatchV2. idx has one entry per attribute.
func MemcpyBatch(t *core.Thread, fn string, items []core.BatchItem, attrs []core.BatchAttr, idx []uint64, failIndex *uint64) error {
	return memcpyBatch(t, fn, items, attrs, idx, failIndex, nil)
}

// MemcpyBatchAsync implements aclrtMemcpyBatchAsync and (failIndex nil)
// aclrtMemcpyBatchAsyncV2.
func MemcpyBatchAsync(t *core.Thread, fn string, items []core.BatchItem, attrs []core.BatchAttr, idx []uint64, failIndex *uint64, sh core.Handle) error {
	return memcpyBatch(t, fn, items, attrs, idx, failIndex, &sh)
}

// maxBatchItems bounds the arrays the C layer reads (npuemu's limit, far
// above any practical batch).
const maxBatchItems = 1 << 20

// CheckBatchArrays is the C layer's check before it reads the arrays of a
// batch call: all present (arrays non-NULL) and of a readable length.
func CheckBatchArrays(fn string, present bool, n, numAttrs uint64, failIndex *uint64) error {
	if failIndex != nil {
		*failIndex = NoFailIndex
	}
	if !present {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: dsts, destMaxs, srcs, sizes, attrs and attrsIndexes must not be NULL", fn)
	}
	if n == 0 || n > maxBatchItems {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: numBatches %d must be in [1, %d]", fn, n, maxBatchItems)
	}
	if numAttrs == 0 || numAttrs > n {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: numAttrs %d must be in [1, numBatches %d]", fn, numAttrs, n)
	}
	return nil
}
