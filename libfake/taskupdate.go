package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/acl"
)

// Export of aclrtTaskUpdateAsync (acl/taskupdate.go).

//export npu_aclrtTaskUpdateAsync
func npu_aclrtTaskUpdateAsync(t *C.npu_thread, taskStream C.aclrtStream, taskID C.uint32_t, info *C.aclrtTaskUpdateInfo, execStream C.aclrtStream) C.aclError {
	th := thread(t)
	return ret(th, acl.TaskUpdateAsync(th, handle(unsafe.Pointer(taskStream)), uint32(taskID), (*acl.TaskUpdateInfo)(unsafe.Pointer(info)), handle(unsafe.Pointer(execStream))))
}
