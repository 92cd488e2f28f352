package abi

import (
	"errors"
	"fmt"
)

// Code is an aclError value (int in C).
type Code int32

// Error is the one error type of the ACL surface: a code plus a message that
// says what was wrong with this call. Compare with errors.Is against a Code's
// sentinel (Err(code)) or read the code with CodeOf.
type Error struct {
	Code Code
	Msg  string

	cause error // the error Wrapf wrapped (Unwrap), nil for a fresh error
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("%s (%d): %s", e.Code.Name(), int32(e.Code), e.Code.Message())
	}
	return fmt.Sprintf("%s (%d): %s", e.Code.Name(), int32(e.Code), e.Msg)
}

// Is reports whether target is an *Error with the same code, or a
// device-model *DevError whose kind becomes this code (deverr.go).
func (e *Error) Is(target error) bool {
	var t *Error
	if errors.As(target, &t) {
		return t.Code == e.Code
	}
	var v *DevError
	return errors.As(target, &v) && v.Kind.ACL() == e.Code
}

// Err returns an error with code and the table's default message.
func Err(code Code) error { return &Error{Code: code} }

// Errorf returns an error with code and a formatted message.
func Errorf(code Code, format string, args ...any) error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// CodeOf returns the aclError code of err: 0 for nil, the code of the
// outermost wrapped *Error, a device-model DevError converted by its kind
// (deverr.go), a DrvError mapped through DrvToACL, and
// ACL_ERROR_INTERNAL_ERROR for anything else (a bug, reported as such).
func CodeOf(err error) Code {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	var v *DevError
	if errors.As(err, &v) {
		return v.acl()
	}
	var d *DrvError
	if errors.As(err, &d) {
		return d.Code.ACL()
	}
	return internalErrorCode
}
