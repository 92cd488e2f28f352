package core

import (
	"strings"
	"sync"
	"sync/atomic"
)

// procErrMsgs is aclGetRecentErrMsg's process-wide scope, in force while
// aclInit's JSON sets "err_msg_mode": "1" (semantics.md §0): every thread's
// failure messages collect here instead of in the failing Thread, and any
// thread's read returns them, newest first, and clears them for all. The
// last error code (aclrtGetLastError) stays per thread in both modes.
var procErrMsgs struct {
	on   atomic.Bool // read without mu on every failure
	mu   sync.Mutex  // guards msgs
	msgs []string    // oldest first, at most maxProcErrMsgs
}

// MaxProcErrMsgs bounds the text a program that never reads it keeps.
const MaxProcErrMsgs = 16

// SetErrMsgProcessWide switches the scope (aclInit, aclFinalize) and drops
// what the process-wide store held.
func SetErrMsgProcessWide(on bool) {
	procErrMsgs.mu.Lock()
	defer procErrMsgs.mu.Unlock()
	procErrMsgs.on.Store(on)
	procErrMsgs.msgs = nil
}

// recordProcessErrMsg keeps msg process-wide and reports true when that
// scope is in force; false leaves the message to the thread.
func recordProcessErrMsg(msg string) bool {
	if !procErrMsgs.on.Load() {
		return false
	}
	procErrMsgs.mu.Lock()
	defer procErrMsgs.mu.Unlock()
	if !procErrMsgs.on.Load() { // switched off meanwhile
		return false
	}
	if len(procErrMsgs.msgs) == MaxProcErrMsgs {
		procErrMsgs.msgs = append(procErrMsgs.msgs[:0], procErrMsgs.msgs[1:]...)
	}
	procErrMsgs.msgs = append(procErrMsgs.msgs, msg)
	return true
}

// TakeProcessErrMsg returns the process-wide messages, newest first, one a
// line ("" if none), and clears them; ok is false when the scope is the
// thread (err_msg_mode "0" or not initialised): read Thread.TakeErrMsg then.
func TakeProcessErrMsg() (msg string, ok bool) {
	if !procErrMsgs.on.Load() {
		return "", false
	}
	procErrMsgs.mu.Lock()
	defer procErrMsgs.mu.Unlock()
	if !procErrMsgs.on.Load() {
		return "", false
	}
	var b strings.Builder
	for i := len(procErrMsgs.msgs) - 1; i >= 0; i-- {
		b.WriteString(procErrMsgs.msgs[i])
		if i > 0 {
			b.WriteByte('\n')
		}
	}
	procErrMsgs.msgs = procErrMsgs.msgs[:0]
	return b.String(), true
}
