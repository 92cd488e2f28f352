package abi

import "fmt"

// Status is the support level of one exported symbol.
type Status int

const (
	// Unsupported: the call fails with the entry's code and a message that
	// names the symbol and says why; it never pretends to succeed.
	Unsupported Status = iota
	// Partial: implemented, with limits stated in the entry's note.
	Partial
	// Supported: implemented as the specification describes.
	Supported
)

func (s Status) String() string {
	switch s {
	case Unsupported:
		return "unsupported"
	case Partial:
		return "partial"
	case Supported:
		return "supported"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Implemented reports whether libfake must export the symbol (supported or
// partial).
func (s Status) Implemented() bool { return s == Supported || s == Partial }

// Entry is one row of a support table (acl.Support, hal.Support): the
// symbol, its library ("acl", "hal", "dsmi") and area as in Symbols, its
// status, a note (why it is partial or unsupported, and which work covers
// it) and, for unsupported symbols, the code every call returns (an aclError
// for ACL, a drvError_t for HAL).
type Entry struct {
	Symbol string
	Lib    string
	Area   string
	Status Status
	Note   string
	Code   int32
}

// Message is the text an unsupported call records for aclGetRecentErrMsg.
func (e Entry) Message() string {
	return fmt.Sprintf("%s is not supported by npuemu: %s", e.Symbol, e.Note)
}
