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

// Table is a support table: one entry per symbol of some libraries, in the
// order of Symbols, with a lookup by name.
type Table struct {
	list  []Entry
	index map[string]int
}

// NewTable builds the table of the symbols for which keep is true, with
// entry(s) as each symbol's row (Symbol, Lib and Area are filled in here).
func NewTable(keep func(Symbol) bool, entry func(Symbol) Entry) *Table {
	t := &Table{index: map[string]int{}}
	for _, s := range Symbols() {
		if !keep(s) {
			continue
		}
		e := entry(s)
		e.Symbol, e.Lib, e.Area = s.Name, s.Lib, s.Area
		t.index[s.Name] = len(t.list)
		t.list = append(t.list, e)
	}
	return t
}

// Entries returns every row; the caller must not modify it.
func (t *Table) Entries() []Entry { return t.list }

// Of returns the row of the symbol name.
func (t *Table) Of(name string) (Entry, bool) {
	i, ok := t.index[name]
	if !ok {
		return Entry{}, false
	}
	return t.list[i], true
}
