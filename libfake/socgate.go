package main

/*
#include "acl/acl.h"
#include "npu.h"
*/
import "C"

import "github.com/npuemu/npuemu/rt/core"

// socRefused is the SoC gate the generated guards (zguard.go) call before
// an ACL function that the documentation lists for some SoC families only:
// on another family it records the refusal for aclGetRecentErrMsg and
// returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (core.CheckSoC).
func socRefused(t *C.npu_thread, fn string) (C.aclError, bool) {
	err := core.CheckSoC(fn)
	if err == nil {
		return 0, false
	}
	return ret(thread(t), err), true
}
