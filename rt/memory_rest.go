package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The rts* allocation calls and the pointer queries that aclrtMallocWithCfg,
// aclrtMallocForTaskScheduler, aclrtMallocHostWithCfg,
// aclrtPointerGetAttributes, aclrtCheckMemType and
// aclrtHostMemMapCapabilities call (acl-to-rt.tsv). Their enums are the ACL
// ones cast (rtMallocPolicy, rtMallocAttr, rtMemLocationType, rtHacType and
// the ACL_RT_MEM_TYPE_* bits of rtsCheckMemType have the ACL values), so
// the values pass unchanged; the work is the ACL calls'.

// MallocAttr is one rtMallocAttribute_t: the attribute and the first 8
// bytes of its value union (moduleId, deviceId or vaFlag).
type MallocAttr struct {
	Attr  uint32
	Value uint64
}

// mallocAttrs checks the attributes of an rtMallocConfig_t and converts
// them to the ACL ones (same numbering).
func mallocAttrs(fn string, as []MallocAttr) ([]core.MallocConfigAttr, error) {
	var out []core.MallocConfigAttr
	for i, a := range as {
		if a.Attr >= abi.RT_MEM_MALLOC_ATTR_MAX {
			return nil, invalid(fn, "cfg attrs[%d].attr %d is not an rtMallocAttr (0..3)", i, a.Attr)
		}
		out = append(out, core.MallocConfigAttr{Attr: int32(a.Attr), Value: a.Value})
	}
	return out, nil
}

// SMalloc implements rtsMalloc: device memory of the current device by
// policy (rtMallocPolicy has aclrtMemMallocPolicy's values, flags
// included) and cfg's attributes, as aclrtMallocWithCfg. advise
// RT_MEM_ADVISE_NONE, RT_MEM_ADVISE_TS (aclrtMallocForTaskScheduler: the
// emulated scheduler reads HBM like any engine) and RT_MEM_ADVISE_CACHED
// (as rtMallocCached: no cache attribute) give the same memory;
// RT_MEM_ADVISE_DVPP is refused: npuemu has no DVPP memory pool.
func SMalloc(t *core.Thread, out *uintptr, size uint64, policy, advise uint32, cfg []MallocAttr) error {
	const fn = "rtsMalloc"
	if out == nil || size == 0 {
		return invalid(fn, "devPtr must not be NULL and size must not be 0")
	}
	switch advise {
	case abi.RT_MEM_ADVISE_NONE, abi.RT_MEM_ADVISE_TS, abi.RT_MEM_ADVISE_CACHED:
	case abi.RT_MEM_ADVISE_DVPP:
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: RT_MEM_ADVISE_DVPP: npuemu has no DVPP memory pool", fn)
	default:
		return invalid(fn, "advise %d is not an rtMallocAdvise (0..3)", advise)
	}
	attrs, err := mallocAttrs(fn, cfg)
	if err != nil {
		return err
	}
	return wrap(fn, acl.Malloc(t, out, size, policy, core.MallocOpts{Fn: fn, WithCfg: true, CfgAttrs: attrs}))
}

// SMallocHost implements rtsMallocHost: pinned host memory, as
// aclrtMallocHostWithCfg. cfg's attributes are checked to be rtMallocAttr
// values; none changes host memory (the module id is not charged, vaFlag
// is the ACL call's, which ignores it too).
func SMallocHost(t *core.Thread, out *uintptr, size uint64, cfg []MallocAttr) error {
	const fn = "rtsMallocHost"
	if out == nil || size == 0 {
		return invalid(fn, "hostPtr must not be NULL and size must not be 0")
	}
	if _, err := mallocAttrs(fn, cfg); err != nil {
		return err
	}
	return wrap(fn, core.MallocHost(t, out, size, fn))
}

// PointerGetAttributes implements rtsPointerGetAttributes: where ptr lives
// (rtMemLocationType: host, device, unregistered, managed) and its page
// size; rtPtrAttributes_t is aclrtPtrAttributes.
func PointerGetAttributes(t *core.Thread, p uintptr, out *acl.PtrAttributes) error {
	const fn = "rtsPointerGetAttributes"
	if out == nil {
		return invalid(fn, "attributes must not be NULL")
	}
	return wrap(fn, acl.PointerGetAttributes(t, p, out))
}

// CheckMemType implements rtsCheckMemType: *result 1 when every address is
// of a type in memType (an OR of the ACL_RT_MEM_TYPE_DEV/DVPP/RSVD bits,
// passed unchanged by aclrtCheckMemType), else 0. All npuemu device memory
// is DEV memory. addrs nil stands for a NULL addrs.
func CheckMemType(t *core.Thread, addrs []uintptr, memType uint32, result *uint32, reserve uint32) error {
	return wrap("rtsCheckMemType", acl.CheckMemType(t, addrs, addrs != nil, memType, result, reserve))
}

// HostMemMapCapabilities implements rtHostMemMapCapabilities: whether the
// engine hacType names (rtHacType, numbered as aclrtHacType) of deviceId
// can reach mapped host memory.
func HostMemMapCapabilities(t *core.Thread, dev, hac uint32, out *uint32) error {
	const fn = "rtHostMemMapCapabilities"
	if out == nil {
		return invalid(fn, "capabilities must not be NULL")
	}
	if hac >= abi.RT_HAC_TYPE_MAX {
		return invalid(fn, "hacType %d is not an rtHacType (0..9)", hac)
	}
	return wrap(fn, acl.HostMemMapCapabilities(t, dev, hac, out))
}
