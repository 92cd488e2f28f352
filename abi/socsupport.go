package abi

import "strings"

// SoCSet is a set of SoC families: bit i stands for SoCFamilies[i].
type SoCSet uint8

// SoCFamilies are the SoC families of the spec's per-SoC support column, in
// its order (support_950/A3/A2/310B/310P/A1); emu.Family* spell the same
// names.
var SoCFamilies = [...]string{"950", "A3", "A2", "310B", "310P", "A1"}

// Has reports whether family is in the set.
func (s SoCSet) Has(family string) bool {
	for i, f := range SoCFamilies {
		if f == family {
			return s&(1<<i) != 0
		}
	}
	return false
}

// String lists the families of the set as the spec writes them: "950/A3/A2".
func (s SoCSet) String() string {
	var names []string
	for i, f := range SoCFamilies {
		if s&(1<<i) != 0 {
			names = append(names, f)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "/")
}

// SoCSupport returns the SoC families the documentation lists for the ACL
// function fn, and whether fn is gated by SoC at all: false for a function
// documented for every family (and for those listed for none, reserved or
// undocumented, whose status the support table gives for every SoC alike).
func SoCSupport(fn string) (SoCSet, bool) {
	s, ok := aclSoCSupport()[fn]
	return s, ok
}
