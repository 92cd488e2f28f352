// Package rt is the CANN runtime's rt* layer (libruntime.so): the rt*
// functions that the ACL surface calls and that other libraries (graph
// engine, operator libraries, NPU-sharing layers such as HAMi's vNPU
// limiter) call or interpose. Each function behaves as the runtime does and
// returns the runtime's own codes, the external ACL_ERROR_RT_* values
// (abi.RTCodeOf converts what the layers below report: driver codes by
// rt-types.md §8.4, ACL-only codes to the rt code that says the same).
//
// Where the objects live: the runtime's core objects (thread state,
// devices, contexts, streams, events, notifies, labels, device memory and
// its deferred frees, the queueing point) are package rt/core's, and the
// memory calls here reach the driver through them (core.RuntimeMalloc and
// friends, then rt/stack); the other families (kernels, model run
// instances, memory pools, ...) are still package acl's, and this package
// drives them through acl's exported functions. Moving them under rt is
// the rest of the package restructure of issue #13 point 3
// (docs/internals.md, "The map now"); the rt* API, its codes and its
// support table are already this package's, so that move changes no
// caller.
//
// Which calls cross a library boundary, and how interposition is decided,
// is package rt/stack and docs/stack.md.
//
// Must not: be imported by acl, rt/core, hal or the device model (emu,
// tsfw, svm);
// convert codes anywhere but through abi.RTCodeOf.
package rt

import (
	"github.com/npuemu/npuemu/abi"
)

// wrap gives err, an error of the layers rt drives, the rt code and the
// rt function's name.
func wrap(fn string, err error) error {
	if err == nil {
		return nil
	}
	return abi.Errorf(abi.RTCodeOf(err), "%s: %s", fn, message(err))
}

// message is an error's text without its code prefix.
func message(err error) string {
	switch e := err.(type) {
	case *abi.Error:
		if e.Msg != "" {
			return e.Msg
		}
	case *abi.DrvError:
		if e.Msg != "" {
			return e.Msg
		}
	case *abi.DevError:
		if e.Msg != "" {
			return e.Msg
		}
	}
	return err.Error()
}

// invalid is the rt code of a bad argument.
func invalid(fn, format string, args ...any) error {
	return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, fn+": "+format, args...)
}
