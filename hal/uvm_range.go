package hal

import (
	"encoding/binary"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/svm"
)

// rangeWord is the size of one attribute value: every
// DEVMM_MEM_RANGE_ATTRIBUTE answers 32-bit integers.
const rangeWord = 4

// ManagedRangeGetAttributes implements halMemManagedRangeGetAttributes:
// data[i] (dataSizes[i] bytes) receives attribute attrs[i] of the managed
// range [ptr, ptr+count) (page multiples, hal-api.md §6). Locations are
// device ids, MEM_RANGE_CPU_DEVICE_ID (−1) for the host and
// MEM_RANGE_INVALID_DEVICE_ID (−2) when unset or not the same on every
// page; location types are drv_uvm_location_type values. ACCESS_BY fills
// its buffer with the locations set on every page, ascending, then −2.
// LAST_PREFETCH_* is the destination of the last prefetch (halMemAdvise
// ADVISE_PLE, drvMemPrefetchToDevice, halMemManagedPrefetch(Batch),
// aclrtMemManagedPrefetchAsync) of every page of the range.
func ManagedRangeGetAttributes(data [][]byte, attrs []uint32, ptr uintptr, count uint64) error {
	const fn = "halMemManagedRangeGetAttributes"
	if len(attrs) == 0 || len(data) != len(attrs) {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: data, dataSizes and attributes must not be NULL and numAttributes must be > 0", fn)
	}
	if count == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: count must not be 0", fn)
	}
	for i, a := range attrs {
		if data[i] == nil {
			return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: data[%d] must not be NULL", fn, i)
		}
		switch {
		case a == abi.MEM_RANGE_ATTR_ACCESS_BY:
			if len(data[i])%rangeWord != 0 || len(data[i]) == 0 {
				return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: ACCESS_BY needs a non-zero dataSizes[%d] that is a multiple of 4, got %d", fn, i, len(data[i]))
			}
		case a >= abi.MEM_RANGE_ATTR_READ_MOSTLY && a < abi.MEM_RANGE_ATTR_MAX:
			if len(data[i]) < rangeWord {
				return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: attribute %d needs dataSizes[%d] >= 4, got %d", fn, a, i, len(data[i]))
			}
		default:
			return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: attributes[%d] = %d is not a DEVMM_MEM_RANGE_ATTRIBUTE (1..%d)", fn, i, a, abi.MEM_RANGE_ATTR_MAX-1)
		}
	}
	_, g, err := managedAt(fn, ptr)
	if err != nil {
		return err
	}
	r, err := g.RangeAttrs(ptr, count)
	if err != nil {
		return drvWrap(fn, err)
	}
	for i, a := range attrs {
		put := func(k int, v int32) { binary.LittleEndian.PutUint32(data[i][k*rangeWord:], uint32(v)) }
		switch a {
		case abi.MEM_RANGE_ATTR_READ_MOSTLY:
			v := int32(0)
			if r.ReadMostly {
				v = 1
			}
			put(0, v)
		case abi.MEM_RANGE_ATTR_PREFERRED_LOC, abi.MEM_RANGE_ATTR_PREFERRED_LOC_ID:
			put(0, int32(r.Preferred))
		case abi.MEM_RANGE_ATTR_PREFERRED_LOC_TYPE:
			put(0, locationType(r.Preferred))
		case abi.MEM_RANGE_ATTR_LAST_PREFETCH_LOC, abi.MEM_RANGE_ATTR_LAST_PREFETCH_LOC_ID:
			put(0, int32(r.LastPrefetch))
		case abi.MEM_RANGE_ATTR_LAST_PREFETCH_LOC_TYPE:
			put(0, locationType(r.LastPrefetch))
		case abi.MEM_RANGE_ATTR_ACCESS_BY:
			for k := range len(data[i]) / rangeWord {
				v := int32(svm.NoLocation)
				if k < len(r.AccessedBy) {
					v = int32(r.AccessedBy[k])
				}
				put(k, v)
			}
		}
	}
	return nil
}

// locationType is the drv_uvm_location_type of a location.
func locationType(l svm.Location) int32 {
	switch {
	case l == svm.Host:
		return abi.DRV_UVM_LOCATION_TYPE_HOST
	case l >= 0:
		return abi.DRV_UVM_LOCATION_TYPE_DEVICE
	}
	return abi.DRV_UVM_LOCATION_TYPE_INVALID
}
