package main

import (
	"fmt"
	"io"

	"github.com/npuemu/npuemu/emu"
)

// printProtect says how device memory is protected (docs/hardening.md,
// "Device memory is protected"): guard pages, and whether host code that
// dereferences a device pointer faults.
func printProtect(w io.Writer) {
	state := "on"
	if !emu.ProtectEnabled() {
		state = "off"
	}
	host := "host code dereferencing a device pointer does not fault (this CPU has no protection keys: no pku in /proc/cpuinfo)"
	switch {
	case !emu.ProtectEnabled():
		host = "host code dereferencing a device pointer does not fault (protection is off)"
	case emu.HostPKeys() && !emu.PKeysEnabled():
		host = fmt.Sprintf("host code dereferencing a device pointer does not fault (the CPU has protection keys: %s=1 uses them, experimental)", emu.EnvPKeys)
	case emu.HostPKeys():
		host = fmt.Sprintf("host code dereferencing a device pointer faults, with a message (protection keys, %s=1: experimental)", emu.EnvPKeys)
	}
	fmt.Fprintf(w, "Protection:    device memory guard pages %s (%s=0 turns them off): kernels, copies and memsets outside an allocation raise an exception; %s\n",
		state, emu.EnvProtect, host)
}
