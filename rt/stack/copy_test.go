package stack

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/hal"
)

// Each copy wrapper calls the interposed definition when one is set, and
// the hal package (here refusing a NULL destination) when none is.
func TestCopyWrappersCallTheInterposedDefinition(t *testing.T) {
	saved := HAL
	t.Cleanup(func() { HAL = saved })
	HAL = HALCalls{}
	for name, call := range map[string]func() error{
		"halSdmaCopy": func() error { return SdmaCopy(0, 8, 0x10, 8) },
		"halMemcpy":   func() error { return HalMemcpy(0, 8, 0x10, 8, &hal.MemcpyInfo{Dir: abi.DRV_MEMCPY_DEVICE_TO_HOST}) },
		"drvMemcpy":   func() error { return DrvMemcpy(0, 8, 0x10, 8) },
		"drvMemsetD8": func() error { return MemsetD8(0, 8, 1, 8) },
		"halMemcpy2D": func() error { return Memcpy2D(&hal.Memcpy2D{}) },
	} {
		err := call()
		assert.Error(t, err, name)
		assert.Equal(t, abi.DRV_ERROR_INVALID_VALUE, abi.DrvCodeOf(err), "%s: the hal package refuses the NULL destination", name)
	}
	var got []string
	rec := func(name string) error { got = append(got, name); return nil }
	HAL.SdmaCopy = func(dst uintptr, size uint64, src uintptr, n uint64) error { return rec("halSdmaCopy") }
	HAL.HalMemcpy = func(dst uintptr, size uint64, src uintptr, n uint64, info *hal.MemcpyInfo) error {
		return rec("halMemcpy")
	}
	HAL.DrvMemcpy = func(dst uintptr, destMax uint64, src uintptr, n uint64) error { return rec("drvMemcpy") }
	HAL.MemsetD8 = func(dst uintptr, destMax uint64, v byte, n uint64) error { return rec("drvMemsetD8") }
	HAL.Memcpy2D = func(p *hal.Memcpy2D) error { return rec("halMemcpy2D") }
	assert.NoError(t, SdmaCopy(0, 8, 0x10, 8))
	assert.NoError(t, HalMemcpy(0, 8, 0x10, 8, &hal.MemcpyInfo{}))
	assert.NoError(t, DrvMemcpy(0, 8, 0x10, 8))
	assert.NoError(t, MemsetD8(0, 8, 1, 8))
	assert.NoError(t, Memcpy2D(&hal.Memcpy2D{}))
	assert.Equal(t, []string{"halSdmaCopy", "halMemcpy", "drvMemcpy", "drvMemsetD8", "halMemcpy2D"}, got)
}
