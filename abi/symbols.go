package abi

import (
	"strings"
	"sync"
)

// Symbol is one exported C function of the specification (zsymbols.go):
// its name, library ("acl", "hal", "dsmi", "rt"), declaring header (relative to
// emu/include for ACL, emu/include/driver for HAL/DSMI), API area, return
// type, parameter list exactly as the spec writes it ("(empty)" for "()",
// "void" for "(void)") and deprecation message ("" if not deprecated).
type Symbol struct{ Name, Lib, Header, Area, Return, Params, Deprecated string }

// Symbols returns every function of the specification, made on first use
// from symbolData (zsymbols.go), whose strings it shares: a table of
// strings written as Go values would be 7 000 pointers for the loader to
// relocate, and 26 pages to copy, at every start of every process. The
// caller must not modify it.
var Symbols = sync.OnceValue(func() []Symbol {
	d := symbolData
	out := make([]Symbol, 0, strings.Count(d, "\x00")/7)
	for d != "" {
		var f [7]string
		for i := range f {
			n := strings.IndexByte(d, 0)
			f[i], d = d[:n], d[n+1:]
		}
		out = append(out, Symbol{Name: f[0], Lib: f[1], Header: f[2], Area: f[3], Return: f[4], Params: f[5], Deprecated: f[6]})
	}
	return out
})

// symbolIndex is built on first use: the library itself never looks a
// name up (the tools do), and every process start would build it.
var symbolIndex = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(Symbols()))
	for i, s := range Symbols() {
		m[s.Name] = i
	}
	return m
})

// SymbolByName returns the symbol called name.
func SymbolByName(name string) (Symbol, bool) {
	i, ok := symbolIndex()[name]
	if !ok {
		return Symbol{}, false
	}
	return Symbols()[i], true
}

// SymbolIndex returns the position of name in Symbols, or -1.
func SymbolIndex(name string) int {
	if i, ok := symbolIndex()[name]; ok {
		return i
	}
	return -1
}
