package core

import (
	"sync/atomic"
	"time"
)

// OpExecTimeout is aclrtSetOpExecuteTimeOut's value in seconds; 0 means
// never set (the SoC default applies).
var OpExecTimeout atomic.Uint32

// OpExecuteTimeout returns the kernel execution timeout set with
// aclrtSetOpExecuteTimeOut, 0 if it was never set (the SoC default, far
// longer than any emulated kernel, applies).
func OpExecuteTimeout() time.Duration {
	return time.Duration(OpExecTimeout.Load()) * time.Second
}
