package main

/*
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Exports of the init, version and misc families (acl/init.go, acl/misc.go).

//export npu_aclInit
func npu_aclInit(t *C.npu_thread, configPath *C.char) C.aclError {
	th := thread(t)
	path := ""
	if configPath != nil {
		path = C.GoString(configPath)
	}
	return ret(th, acl.Init(th, path))
}

//export npu_aclFinalize
func npu_aclFinalize(t *C.npu_thread) C.aclError {
	th := thread(t)
	err := acl.Finalize(th)
	flushTimeline()
	stopCPUProfile()
	return ret(th, err)
}

//export npu_aclFinalizeReference
func npu_aclFinalizeReference(t *C.npu_thread, refCount *C.uint64_t) C.aclError {
	th := thread(t)
	return ret(th, acl.FinalizeReference(th, (*uint64)(unsafe.Pointer(refCount))))
}

//export npu_aclrtGetVersion
func npu_aclrtGetVersion(t *C.npu_thread, major, minor, patch *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetVersion(th, (*int32)(unsafe.Pointer(major)), (*int32)(unsafe.Pointer(minor)), (*int32)(unsafe.Pointer(patch))))
}

// putString copies s into the C buffer dst of size n, NUL-terminated.
func putString(dst *C.char, n int, s string) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(dst)), n)
	m := copy(b[:n-1], s)
	b[m] = 0
}

//export npu_aclsysGetVersionStr
func npu_aclsysGetVersionStr(t *C.npu_thread, pkgName *C.char, versionStr *C.char) C.aclError {
	th := thread(t)
	name := ""
	if pkgName != nil {
		name = C.GoString(pkgName)
	}
	v, err := acl.VersionStr(th, name, pkgName != nil && versionStr != nil)
	if err == nil {
		putString(versionStr, C.ACL_PKG_VERSION_MAX_SIZE, v)
	}
	return ret(th, err)
}

//export npu_aclsysGetVersionNum
func npu_aclsysGetVersionNum(t *C.npu_thread, pkgName *C.char, versionNum *C.int32_t) C.aclError {
	th := thread(t)
	name := ""
	if pkgName != nil {
		name = C.GoString(pkgName)
	}
	return ret(th, acl.VersionNum(th, name, pkgName != nil, (*int32)(unsafe.Pointer(versionNum))))
}

//export npu_aclsysGetCANNVersion
func npu_aclsysGetCANNVersion(t *C.npu_thread, name C.aclCANNPackageName, version *C.aclCANNPackageVersion) C.aclError {
	th := thread(t)
	var v core.PackageVersion
	out := &v
	if version == nil {
		out = nil
	}
	err := acl.CANNVersionOf(th, int32(name), out)
	if err == nil {
		C.memset(unsafe.Pointer(version), 0, C.sizeof_aclCANNPackageVersion)
		putString(&version.version[0], len(version.version), v.Version)
		putString(&version.majorVersion[0], len(version.majorVersion), v.Major)
		putString(&version.minorVersion[0], len(version.minorVersion), v.Minor)
		putString(&version.releaseVersion[0], len(version.releaseVersion), v.Release)
		putString(&version.patchVersion[0], len(version.patchVersion), v.Patch)
	}
	return ret(th, err)
}

//export npu_aclFloat16ToFloat
func npu_aclFloat16ToFloat(t *C.npu_thread, value C.aclFloat16) C.float {
	return C.float(acl.Float16ToFloat(uint16(value)))
}

//export npu_aclFloatToFloat16
func npu_aclFloatToFloat16(t *C.npu_thread, value C.float) C.aclFloat16 {
	return C.aclFloat16(acl.FloatToFloat16(float32(value)))
}

//export npu_aclDataTypeSize
func npu_aclDataTypeSize(t *C.npu_thread, dataType C.aclDataType) C.size_t {
	return C.size_t(acl.DataTypeSize(int32(dataType)))
}

// cannAttrList is the runtime-owned array aclGetCannAttributeList returns.
var cannAttrList = sync.OnceValues(func() (*C.aclCannAttr, int) {
	list, _ := acl.CannAttributeList(nil)
	p := (*C.aclCannAttr)(C.calloc(C.size_t(max(len(list), 1)), C.sizeof_aclCannAttr))
	s := unsafe.Slice(p, max(len(list), 1))
	for i, a := range list {
		s[i] = C.aclCannAttr(a)
	}
	return p, len(list)
})

//export npu_aclGetCannAttributeList
func npu_aclGetCannAttributeList(t *C.npu_thread, list **C.aclCannAttr, num *C.size_t) C.aclError {
	th := thread(t)
	if list == nil || num == nil {
		return ret(th, acl.ErrNull("aclGetCannAttributeList", "cannAttrList and num"))
	}
	p, n := cannAttrList()
	*list, *num = p, C.size_t(n)
	return ret(th, nil)
}

//export npu_aclGetCannAttribute
func npu_aclGetCannAttribute(t *C.npu_thread, attr C.aclCannAttr, value *C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetCannAttribute(th, int32(attr), (*int32)(unsafe.Pointer(value))))
}
