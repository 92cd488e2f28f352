package acl

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Limits of aclrtCacheLastTaskOpInfo / aclrtCacheLastTaskExtendInfo.
const (
	maxOpInfo     = 64 << 10
	maxExtendInfo = 4 << 10
)

func cacheTaskInfo(t *core.Thread, f func(*core.TaskInfo)) {
	core.TaskInfos.Mu.Lock()
	defer core.TaskInfos.Mu.Unlock()
	if core.TaskInfos.M == nil {
		core.TaskInfos.M = map[uint64]core.TaskInfo{}
	}
	ti := core.TaskInfos.M[t.ID]
	f(&ti)
	core.TaskInfos.M[t.ID] = ti
}

// CacheLastTaskOpInfo implements aclrtCacheLastTaskOpInfo: info (the caller
// copied it out of C memory) must be 1 B .. 64 KiB.
func CacheLastTaskOpInfo(t *core.Thread, info []byte, haveInfo bool) error {
	const fn = "aclrtCacheLastTaskOpInfo"
	if !haveInfo {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: infoPtr must not be NULL", fn)
	}
	if len(info) == 0 || len(info) > maxOpInfo {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: infoSize %d is outside (0, %d]", fn, len(info), maxOpInfo)
	}
	c := append([]byte(nil), info...)
	cacheTaskInfo(t, func(ti *core.TaskInfo) { ti.OpInfo = c })
	return nil
}

// CacheLastTaskExtendInfo implements aclrtCacheLastTaskExtendInfo: size must
// be non-zero; anything past 4 KiB is dropped.
func CacheLastTaskExtendInfo(t *core.Thread, info []byte, haveInfo bool) error {
	const fn = "aclrtCacheLastTaskExtendInfo"
	if !haveInfo {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: extendInfoPtr must not be NULL", fn)
	}
	if len(info) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: infoSize must not be 0", fn)
	}
	c := append([]byte(nil), info[:min(len(info), maxExtendInfo)]...)
	cacheTaskInfo(t, func(ti *core.TaskInfo) { ti.Extend = c })
	return nil
}

// memTypeMask is the set of types aclrtCheckMemType accepts.
const memTypeMask = abi.ACL_RT_MEM_TYPE_DEV | abi.ACL_RT_MEM_TYPE_DVPP | abi.ACL_RT_MEM_TYPE_RSVD

// CheckMemType implements aclrtCheckMemType: result 1 when every address is
// of one of the types in memType. npuemu allocates all device memory as
// ordinary (DEV) memory: it has no DVPP or reserved pools.
func CheckMemType(t *core.Thread, addrs []uintptr, haveAddrs bool, memType uint32, result *uint32, reserve uint32) error {
	const fn = "aclrtCheckMemType"
	if !haveAddrs || result == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: addrList and checkResult must not be NULL", fn)
	}
	if len(addrs) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	}
	if memType == 0 || memType&^uint32(memTypeMask) != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: memType %#x is not an OR of ACL_RT_MEM_TYPE_DEV/DVPP/RSVD", fn, memType)
	}
	if reserve != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: reserve must be 0, got %d", fn, reserve)
	}
	all := uint32(1)
	for i, a := range addrs {
		if a == 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: addrList[%d] is NULL", fn, i)
		}
		p, err := core.Classify(fn, "address", a)
		if err != nil {
			return err
		}
		if p.Class != core.Devmem || memType&abi.ACL_RT_MEM_TYPE_DEV == 0 {
			all = 0
		}
	}
	*result = all
	return nil
}
