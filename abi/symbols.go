package abi

import "sync"

// Symbol is one exported C function of the specification (zsymbols.go):
// its name, library ("acl", "hal", "dsmi", "rt"), declaring header (relative to
// emu/include for ACL, emu/include/driver for HAL/DSMI), API area, return
// type, parameter list exactly as the spec writes it ("(empty)" for "()",
// "void" for "(void)") and deprecation message ("" if not deprecated).
type Symbol struct{ Name, Lib, Header, Area, Return, Params, Deprecated string }

// symbolIndex is built on first use: the library itself never looks a
// name up (the tools do), and every process start would build it.
var symbolIndex = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(Symbols))
	for i, s := range Symbols {
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
	return Symbols[i], true
}

// SymbolIndex returns the position of name in Symbols, or -1.
func SymbolIndex(name string) int {
	if i, ok := symbolIndex()[name]; ok {
		return i
	}
	return -1
}
