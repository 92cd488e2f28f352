package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import (
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// The error-reporting APIs of the exception family. They read the thread's
// state that ret records; they do not go through ret themselves on
// success, so reading an error does not overwrite it.

// npu_aclGetRecentErrMsg implements aclGetRecentErrMsg: the calling
// thread's message, or with aclInit's "err_msg_mode": "1" the messages of
// every thread, newest first. The text is copied into the thread's message
// buffer, so the pointer stays valid until the thread calls it again.
//
//export npu_aclGetRecentErrMsg
func npu_aclGetRecentErrMsg(t *C.npu_thread) *C.char {
	th := thread(t)
	msg, ok := core.TakeProcessErrMsg()
	if !ok {
		msg = th.TakeErrMsg()
	} else {
		th.TakeErrMsg() // a message from before process scope began is stale
	}
	if msg == "" {
		return nil
	}
	p := C.npu_msgbuf(C.size_t(len(msg) + 1))
	if p == nil {
		return nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(p)), len(msg)+1)
	copy(b, msg)
	b[len(msg)] = 0
	return p
}

//export npu_aclrtGetLastError
func npu_aclrtGetLastError(t *C.npu_thread, level C.aclrtLastErrLevel) C.aclError {
	th := thread(t)
	if level != C.ACL_RT_THREAD_LEVEL {
		return ret(th, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetLastError: level %d is not ACL_RT_THREAD_LEVEL (0)", int(level)))
	}
	return C.aclError(th.LastError(true))
}

//export npu_aclrtPeekAtLastError
func npu_aclrtPeekAtLastError(t *C.npu_thread, level C.aclrtLastErrLevel) C.aclError {
	th := thread(t)
	if level != C.ACL_RT_THREAD_LEVEL {
		return ret(th, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtPeekAtLastError: level %d is not ACL_RT_THREAD_LEVEL (0)", int(level)))
	}
	return C.aclError(th.LastError(false))
}
