package abi

import (
	"errors"
	"fmt"
)

// Errors of the device model (docs/internals.md, "Errors of the device
// model"). emu, tsfw and svm know no API: they say what went wrong in the
// device's own terms, a DevKind and a message, and the API boundaries
// convert the kind with devKinds, the one table below: CodeOf for the ACL
// surface (libfake's ret, Thread.Fail), RTCodeOf for the rt* layer,
// DrvCodeOf for the HAL. The table's three columns are what those
// conversions gave the codes the model used to build itself — an ACL code
// converted down to the driver (aclToDrv), or, for the kinds the driver
// model (emu's VMM, shared memory, host registration) met, a drvError_t
// converted up by the runtime's table (rt-types.md §8.4) — so no code a
// program sees depends on which side of the boundary the error was made.
// The runtime folds several driver codes into
// ACL_ERROR_RT_DRV_INTERNAL_ERROR; their kinds share that ACL code.

// DevKind is what went wrong in the device model.
type DevKind uint8

// The kinds of device-model errors.
const (
	// DevInternal: a state the model should never reach (a bug).
	DevInternal DevKind = iota
	// DevBadArgument: an argument the model refuses before doing
	// anything, as the API's own parameter check would (NULL, zero size,
	// a flag outside its set).
	DevBadArgument
	// DevInvalidValue: a value the device refuses while doing the work
	// (an address outside every allocation, a task or a mode it cannot
	// run, an object in the wrong state).
	DevInvalidValue
	// DevNoDevice: no such device (an id outside the node).
	DevNoDevice
	// DevNoMemory: device or host memory is exhausted.
	DevNoMemory
	// DevBadFree: a free or release of memory the model did not hand out.
	DevBadFree
	// DevSetupFailed: the device could not be brought up (node
	// directory, configuration).
	DevSetupFailed
	// DevNoResource: a finite resource other than memory is exhausted.
	DevNoResource
	// DevNoEvent: the event ids of the device are exhausted.
	DevNoEvent
	// DevNoNotify: the notify ids of the device are exhausted.
	DevNoNotify
	// DevNoPermission: the process may not do this (node file
	// permissions, another process's object).
	DevNoPermission
	// DevUnsupported: the modelled device has no such feature.
	DevUnsupported
	// DevWrongContext: the object belongs to another context.
	DevWrongContext
	// DevWaitTimeout: a wait on a notify or a counter timed out.
	DevWaitTimeout
	// DevEventTimeout: a wait on an event timed out.
	DevEventTimeout
	// DevStreamTimeout: a stream's synchronisation timed out.
	DevStreamTimeout
	// DevStreamAbort: the stream was aborted, its tasks discarded.
	DevStreamAbort
	// DevTaskAbort: the device aborted the task (a device-wide abort).
	DevTaskAbort
	// DevAICoreException: a kernel faulted on an AI Core.
	DevAICoreException
	// DevAICoreTimeout: a kernel overran its AI Core time limit.
	DevAICoreTimeout
	// DevSDMAError: a copy engine (SDMA) task failed.
	DevSDMAError
	// DevBadHandle: a handle the model never gave out, or released.
	DevBadHandle
	// DevNotFound: no such registration, key or name.
	DevNotFound
	// DevInUse: the range or name is already registered.
	DevInUse
	// DevBusy: the object is in a state that forbids the change.
	DevBusy
	// DevDriverInternal: the host refused an operation the driver model
	// relies on (mmap, mprotect).
	DevDriverInternal

	devKindCount // not a kind: the number of kinds
)

// devCodes is what one kind becomes at each API boundary.
type devCodes struct {
	name string  // the kind in a few words
	acl  Code    // aclError (CodeOf)
	rt   Code    // rt* return code (RTCodeOf)
	drv  DrvCode // drvError_t (DrvCodeOf)
}

// devKinds is the one conversion table of the device model's errors.
var devKinds = [devKindCount]devCodes{
	DevInternal:        {"internal error", ACL_ERROR_RT_INTERNAL_ERROR, ACL_ERROR_RT_INTERNAL_ERROR, DRV_ERROR_INNER_ERR},
	DevBadArgument:     {"bad argument", ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_PARAM_INVALID, DRV_ERROR_PARA_ERROR},
	DevInvalidValue:    {"invalid value", ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_RT_PARAM_INVALID, DRV_ERROR_INVALID_VALUE},
	DevNoDevice:        {"no such device", ACL_ERROR_RT_INVALID_DEVICEID, ACL_ERROR_RT_INVALID_DEVICEID, DRV_ERROR_INVALID_DEVICE},
	DevNoMemory:        {"out of memory", ACL_ERROR_RT_MEMORY_ALLOCATION, ACL_ERROR_RT_MEMORY_ALLOCATION, DRV_ERROR_OUT_OF_MEMORY},
	DevBadFree:         {"bad free", ACL_ERROR_RT_MEMORY_FREE, ACL_ERROR_RT_MEMORY_FREE, DRV_ERROR_INNER_ERR},
	DevSetupFailed:     {"device setup failed", ACL_ERROR_RT_DEV_SETUP_ERROR, ACL_ERROR_RT_DEV_SETUP_ERROR, DRV_ERROR_INNER_ERR},
	DevNoResource:      {"out of resources", ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, DRV_ERROR_NO_RESOURCES},
	DevNoEvent:         {"out of event ids", ACL_ERROR_RT_NO_EVENT_RESOURCE, ACL_ERROR_RT_NO_EVENT_RESOURCE, DRV_ERROR_NO_EVENT_RESOURCES},
	DevNoNotify:        {"out of notify ids", ACL_ERROR_RT_NO_NOTIFY_RESOURCE, ACL_ERROR_RT_NO_NOTIFY_RESOURCE, DRV_ERROR_NO_NOTIFY_RESOURCES},
	DevNoPermission:    {"not permitted", ACL_ERROR_RT_NO_PERMISSION, ACL_ERROR_RT_NO_PERMISSION, DRV_ERROR_OPER_NOT_PERMITTED},
	DevUnsupported:     {"not supported", ACL_ERROR_RT_FEATURE_NOT_SUPPORT, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, DRV_ERROR_NOT_SUPPORT},
	DevWrongContext:    {"wrong context", ACL_ERROR_RT_STREAM_CONTEXT, ACL_ERROR_RT_STREAM_CONTEXT, DRV_ERROR_INNER_ERR},
	DevWaitTimeout:     {"wait timed out", ACL_ERROR_RT_WAIT_TIMEOUT, ACL_ERROR_RT_WAIT_TIMEOUT, DRV_ERROR_WAIT_TIMEOUT},
	DevEventTimeout:    {"event wait timed out", ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, DRV_ERROR_INNER_ERR},
	DevStreamTimeout:   {"stream synchronisation timed out", ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, DRV_ERROR_INNER_ERR},
	DevStreamAbort:     {"stream aborted", ACL_ERROR_RT_STREAM_ABORT, ACL_ERROR_RT_STREAM_ABORT, DRV_ERROR_INNER_ERR},
	DevTaskAbort:       {"task aborted", ACL_ERROR_RT_DEVICE_TASK_ABORT, ACL_ERROR_RT_DEVICE_TASK_ABORT, DRV_ERROR_INNER_ERR},
	DevAICoreException: {"AI Core exception", ACL_ERROR_RT_AICORE_EXCEPTION, ACL_ERROR_RT_AICORE_EXCEPTION, DRV_ERROR_INNER_ERR},
	DevAICoreTimeout:   {"AI Core timeout", ACL_ERROR_RT_AICORE_TIMEOUT, ACL_ERROR_RT_AICORE_TIMEOUT, DRV_ERROR_INNER_ERR},
	DevSDMAError:       {"SDMA error", ACL_ERROR_RT_SYS_DMA, ACL_ERROR_RT_SYS_DMA, DRV_ERROR_INNER_ERR},
	DevBadHandle:       {"bad handle", ACL_ERROR_RT_INVALID_HANDLE, ACL_ERROR_RT_INVALID_HANDLE, DRV_ERROR_INVALID_HANDLE},
	DevNotFound:        {"not found", ACL_ERROR_RT_DRV_INTERNAL_ERROR, ACL_ERROR_RT_DRV_INTERNAL_ERROR, DRV_ERROR_NOT_EXIST},
	DevInUse:           {"already in use", ACL_ERROR_RT_DRV_INTERNAL_ERROR, ACL_ERROR_RT_DRV_INTERNAL_ERROR, DRV_ERROR_REPEATED_USERD},
	DevBusy:            {"busy", ACL_ERROR_RT_DRV_INTERNAL_ERROR, ACL_ERROR_RT_DRV_INTERNAL_ERROR, DRV_ERROR_BUSY},
	DevDriverInternal:  {"driver internal error", ACL_ERROR_RT_DRV_INTERNAL_ERROR, ACL_ERROR_RT_DRV_INTERNAL_ERROR, DRV_ERROR_INNER_ERR},
}

// codes returns k's row; an out-of-range kind is an internal error.
func (k DevKind) codes() devCodes {
	if k < devKindCount {
		return devKinds[k]
	}
	return devKinds[DevInternal]
}

// String names the kind in a few words.
func (k DevKind) String() string {
	if k < devKindCount {
		return devKinds[k].name
	}
	return fmt.Sprintf("DevKind(%d)", uint8(k))
}

// ACL is the aclError the ACL surface returns for k.
func (k DevKind) ACL() Code { return k.codes().acl }

// RT is the code an rt* function returns for k.
func (k DevKind) RT() Code { return k.codes().rt }

// Drv is the drvError_t a HAL function returns for k.
func (k DevKind) Drv() DrvCode { return k.codes().drv }

// DevError is the error type of the device model (emu, tsfw, svm): a kind
// and a message saying what the device met. Compare with errors.Is against
// DevErr(kind), read the kind with DevKindOf; the API layers read their
// code with CodeOf, RTCodeOf or DrvCodeOf.
type DevError struct {
	Kind DevKind
	Msg  string
	// InDriver: the device met this inside a driver call (a device that
	// fails to open under a VMM call). The layers above then see what the
	// driver returns — the kind's drvError_t — and convert that as the
	// runtime converts a driver failure (rt-types.md §8.4), not the kind's
	// own ACL and rt codes.
	InDriver bool

	cause error // the error DevWrapf wrapped (Unwrap), nil for a fresh error
}

// Error renders the error as the ACL surface reports it — the table's
// aclError name and value, then the message — so that the text a program
// reads (aclGetRecentErrMsg, logs) is the same wherever the model's error
// crosses the boundary.
func (e *DevError) Error() string {
	if e.InDriver {
		return (&DrvError{Code: e.Kind.Drv(), Msg: e.Msg}).Error()
	}
	c := e.Kind.ACL()
	if e.Msg == "" {
		return fmt.Sprintf("%s (%d): %s", c.Name(), int32(c), c.Message())
	}
	return fmt.Sprintf("%s (%d): %s", c.Name(), int32(c), e.Msg)
}

// Is reports whether target is a *DevError of the same kind, an *Error (a
// sentinel of the API layers, Err(code)) whose code is the one this kind
// becomes at the ACL surface, or a *DrvError (DrvErr(code)) whose code is
// the one it becomes at the HAL.
func (e *DevError) Is(target error) bool {
	switch t := target.(type) {
	case *DevError:
		return t.Kind == e.Kind
	case *Error:
		return t.Code == e.acl()
	case *DrvError:
		return t.Code == e.Kind.Drv()
	}
	return false
}

// acl is the aclError e becomes at the ACL surface.
func (e *DevError) acl() Code {
	if e.InDriver {
		return e.Kind.Drv().ACL()
	}
	return e.Kind.ACL()
}

// rt is the rt code e becomes at the rt surface.
func (e *DevError) rt() Code {
	if e.InDriver {
		return RTCodeOfDrv(e.Kind.Drv())
	}
	return e.Kind.RT()
}

// Unwrap returns the error DevWrapf wrapped.
func (e *DevError) Unwrap() error { return e.cause }

// DevErr returns an error of kind with the default message of its ACL code.
func DevErr(kind DevKind) error { return &DevError{Kind: kind} }

// DevErrorf returns an error of kind with a formatted message.
func DevErrorf(kind DevKind, format string, args ...any) error {
	return &DevError{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// DevWrapf adds context to err, an error of the device model: the result
// keeps err's kind (DevKindOf), its message is the formatted prefix, ": "
// and err's own message, and errors.Unwrap returns err. DevWrapf(nil, ...)
// is nil.
func DevWrapf(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &DevError{Kind: DevKindOf(err), Msg: fmt.Sprintf(format, args...) + ": " + MessageOf(err), cause: err}
}

// DevInDriverf marks err, an error of the device model met inside a driver
// call, as the driver reports it (DevError.InDriver): its kind and cause
// are kept, the message is the formatted prefix, ": " and err's own.
// DevInDriverf(nil, ...) is nil.
func DevInDriverf(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &DevError{Kind: DevKindOf(err), Msg: fmt.Sprintf(format, args...) + ": " + MessageOf(err), cause: err, InDriver: true}
}

// DevKindOf returns the kind of the outermost *DevError in err's chain, and
// DevInternal when there is none.
func DevKindOf(err error) DevKind {
	var e *DevError
	if errors.As(err, &e) {
		return e.Kind
	}
	return DevInternal
}

// IsDev reports whether err is (or wraps) a device-model error of kind.
func IsDev(err error, kind DevKind) bool {
	var e *DevError
	return errors.As(err, &e) && e.Kind == kind
}
