package abi

import "fmt"

// Wrapf adds context to err as the call that met it reports it: the result
// keeps err's code (CodeOf), its message is the formatted prefix, ": " and
// err's own message (MessageOf), and errors.Unwrap returns err, so
// errors.Is/As still find what the lower layer returned (a DrvError, a
// sentinel). Wrapf(nil, ...) is nil.
//
//	return abi.Wrapf(err, "%s: device %d", fn, id)
func Wrapf(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &Error{Code: CodeOf(err), Msg: fmt.Sprintf(format, args...) + ": " + MessageOf(err), cause: err}
}

// Unwrap returns the error Wrapf wrapped, nil for an error made by Errorf
// or Err.
func (e *Error) Unwrap() error { return e.cause }

// MessageOf is the message of err without its code: an *Error's own
// message, a DevError's message, else err.Error() (a DrvError, an error of another package).
func MessageOf(err error) string {
	if e, ok := err.(*Error); ok && e.Msg != "" {
		return e.Msg
	}
	if e, ok := err.(*DevError); ok && e.Msg != "" {
		return e.Msg
	}
	return err.Error()
}
