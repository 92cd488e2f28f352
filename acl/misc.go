package acl

import (
	"math"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// DataTypeSize implements aclDataTypeSize: element size in bytes (sub-byte
// types and unknown values read 0, as the runtime's table has no entry).
func DataTypeSize(dt int32) uint64 {
	switch dt {
	case abi.ACL_BOOL, abi.ACL_INT8, abi.ACL_UINT8, abi.ACL_HIFLOAT8,
		abi.ACL_FLOAT8_E5M2, abi.ACL_FLOAT8_E4M3FN, abi.ACL_FLOAT8_E8M0:
		return 1
	case abi.ACL_FLOAT16, abi.ACL_INT16, abi.ACL_UINT16, abi.ACL_BF16:
		return 2
	case abi.ACL_FLOAT, abi.ACL_INT32, abi.ACL_UINT32, abi.ACL_COMPLEX32:
		return 4
	case abi.ACL_INT64, abi.ACL_UINT64, abi.ACL_DOUBLE, abi.ACL_COMPLEX64:
		return 8
	case abi.ACL_COMPLEX128:
		return 16
	}
	return 0
}

// Float16ToFloat implements aclFloat16ToFloat. Exponent 31 is decoded as an
// ordinary exponent (the documented quirk): 0x7C00 → 65536, 0x7E00 → 98304.
func Float16ToFloat(h uint16) float32 {
	sign := float32(1)
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1F
	man := float32(h & 0x3FF)
	if exp == 0 {
		return sign * man * float32(math.Ldexp(1, -24))
	}
	return sign * (1 + man/1024) * float32(math.Ldexp(1, exp-15))
}

// FloatToFloat16 implements aclFloatToFloat16: round to nearest even,
// saturating at ±65504 (NaN and +Inf → 0x7BFF, −Inf → 0xFBFF).
func FloatToFloat16(f float32) uint16 {
	if math.IsNaN(float64(f)) {
		return 0x7BFF
	}
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	abs := math.Abs(float64(f))
	if abs >= 65520 { // rounds beyond the largest finite half
		return sign | 0x7BFF
	}
	exp := int(bits>>23&0xFF) - 127
	man := bits & 0x7FFFFF
	if exp < -24 {
		// Below half the smallest subnormal: ±0 (exactly half rounds to even 0).
		if exp == -25 && man != 0 {
			return sign | 1
		}
		return sign
	}
	if exp < -14 { // subnormal half
		full := man | 0x800000
		shift := uint(-exp - 14 + 13)
		v := full >> shift
		rem := full & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && v&1 == 1) {
			v++
		}
		return sign | uint16(v)
	}
	v := uint32(exp+15)<<10 | man>>13
	rem := man & 0x1FFF
	if rem > 0x1000 || (rem == 0x1000 && v&1 == 1) {
		v++
	}
	if v >= 0x7C00 {
		v = 0x7BFF
	}
	return sign | uint16(v)
}

// cannAttrs are the CANN attributes this emulated install offers: INF/NAN
// mode and bf16 (A2/A3/950 features); no JIT compiler.
var cannAttrs = []int32{abi.ACL_CANN_ATTR_INF_NAN, abi.ACL_CANN_ATTR_BF16}

// CannAttributeList implements aclGetCannAttributeList.
func CannAttributeList(t *core.Thread) ([]int32, error) {
	return cannAttrs, nil
}

// GetCannAttribute implements aclGetCannAttribute: 1 when offered, else 0.
func GetCannAttribute(t *core.Thread, attr int32, value *int32) error {
	if value == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclGetCannAttribute: value must not be NULL")
	}
	if attr < abi.ACL_CANN_ATTR_INF_NAN || attr > abi.ACL_CANN_ATTR_JIT_COMPILE {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclGetCannAttribute: unknown aclCannAttr %d", attr)
	}
	*value = 0
	for _, a := range cannAttrs {
		if a == attr {
			*value = 1
		}
	}
	return nil
}

// ErrNull is the error of a NULL required pointer argument.
func ErrNull(fn, what string) error {
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %s must not be NULL", fn, what)
}
