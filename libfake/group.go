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

// Exports of the core-group family (acl/group.go). The opaque
// aclrtGroupInfo* the application holds is an acl.Handle.

func groupInfoHandle(p *C.aclrtGroupInfo) core.Handle { return handle(unsafe.Pointer(p)) }

//export npu_aclrtSetGroup
func npu_aclrtSetGroup(t *C.npu_thread, groupId C.int32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.SetGroup(th, int32(groupId)))
}

//export npu_aclrtGetGroupCount
func npu_aclrtGetGroupCount(t *C.npu_thread, count *C.uint32_t) C.aclError {
	th := thread(t)
	return ret(th, acl.GetGroupCount(th, (*uint32)(unsafe.Pointer(count))))
}

//export npu_aclrtCreateGroupInfo
func npu_aclrtCreateGroupInfo(t *C.npu_thread) *C.aclrtGroupInfo {
	th := thread(t)
	h, err := acl.CreateGroupInfo(th)
	if err != nil {
		ret(th, err)
		return nil
	}
	return *(**C.aclrtGroupInfo)(unsafe.Pointer(&h))
}

//export npu_aclrtDestroyGroupInfo
func npu_aclrtDestroyGroupInfo(t *C.npu_thread, groupInfo *C.aclrtGroupInfo) C.aclError {
	th := thread(t)
	return ret(th, acl.DestroyGroupInfo(th, groupInfoHandle(groupInfo)))
}

//export npu_aclrtGetAllGroupInfo
func npu_aclrtGetAllGroupInfo(t *C.npu_thread, groupInfo *C.aclrtGroupInfo) C.aclError {
	th := thread(t)
	return ret(th, acl.GetAllGroupInfo(th, groupInfoHandle(groupInfo)))
}

//export npu_aclrtGetGroupInfoDetail
func npu_aclrtGetGroupInfoDetail(t *C.npu_thread, groupInfo *C.aclrtGroupInfo, groupIndex C.int32_t, attr C.aclrtGroupAttr, attrValue unsafe.Pointer, valueLen C.size_t, paramRetSize *C.size_t) C.aclError {
	th := thread(t)
	var value []byte
	if attrValue != nil {
		value = unsafe.Slice((*byte)(attrValue), min(uint64(valueLen), 8))
	}
	return ret(th, acl.GetGroupInfoDetail(th, groupInfoHandle(groupInfo), int32(groupIndex), int32(attr), value, (*uint64)(unsafe.Pointer(paramRetSize))))
}
