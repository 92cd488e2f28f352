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

// The Go mirror has the C layout (compile-time checks).
var (
	_ [unsafe.Sizeof(core.MemUsageInfo{}) - C.sizeof_aclrtMemUsageInfo]byte
	_ [C.sizeof_aclrtMemUsageInfo - unsafe.Sizeof(core.MemUsageInfo{})]byte
	_ [unsafe.Offsetof(core.MemUsageInfo{}.Cur) - unsafe.Offsetof(C.aclrtMemUsageInfo{}.curMemSize)]byte
	_ [unsafe.Offsetof(C.aclrtMemUsageInfo{}.curMemSize) - unsafe.Offsetof(core.MemUsageInfo{}.Cur)]byte
	_ [unsafe.Offsetof(core.MemUsageInfo{}.Peak) - unsafe.Offsetof(C.aclrtMemUsageInfo{}.memPeakSize)]byte
	_ [unsafe.Offsetof(C.aclrtMemUsageInfo{}.memPeakSize) - unsafe.Offsetof(core.MemUsageInfo{}.Peak)]byte
)

// Export of aclrtGetMemUsageInfo (acl/memusage.go).

//export npu_aclrtGetMemUsageInfo
func npu_aclrtGetMemUsageInfo(t *C.npu_thread, deviceId C.int32_t, infos *C.aclrtMemUsageInfo, inputNum C.size_t, outputNum *C.size_t) C.aclError {
	th := thread(t)
	var out []core.MemUsageInfo
	if infos != nil && inputNum > 0 {
		out = callerSlice[core.MemUsageInfo]("inputNum", unsafe.Pointer(infos), uint64(inputNum))
	}
	return ret(th, acl.GetMemUsageInfo(th, int32(deviceId), out, (*uint64)(unsafe.Pointer(outputNum))))
}
