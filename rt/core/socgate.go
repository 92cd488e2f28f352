package core

import (
	"github.com/npuemu/npuemu/abi"
)

// CheckSoC is the one SoC gate of the ACL surface: it refuses fn with
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT when the documentation's per-SoC support
// column (acl-functions.tsv, generated into abi.SoCSupport) does not list
// the family of the emulated SoC (NPUEMU_SOC or the configuration file).
// The C boundary calls it before the function runs (libfake's guards), so
// a refused call looks at none of its arguments. Functions documented for
// every family, or for none, are not gated here: the support table decides
// those. Features inside a function that exist on some SoCs only (a memory
// kind, an attribute, a copy direction) stay with the function.
func CheckSoC(fn string) error {
	set, gated := abi.SoCSupport(fn)
	if !gated {
		return nil
	}
	n, err := TheNode()
	if err != nil {
		return nil // the call itself reports the configuration problem
	}
	s := n.SoC()
	if set.Has(s.Family) {
		return nil
	}
	return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not supported on %s (%s family) per the documentation, which lists %s", fn, s.Name, s.Family, set)
}
