package main

import (
	"github.com/npuemu/npuemu/emu"
)

// The platform pieces only the C part of the library can provide, as one
// emu.Platform value that every node of the process is created with
// (emu.UsePlatform, when the library loads, before any node exists):
//
//   - the kernel host (kernel_host.c): loads kernel binaries, runs blocks;
//   - the symbol lookup (symbol.go): names a device variable through the
//     dynamic loader;
//   - the host-fault protector (svmfault.c): mprotect-mode managed memory.
//
// Go tests of the packages that use them pass fakes through the same value.
func platform() emu.Platform {
	return emu.Platform{
		Kernels:    cHost{},
		Symbols:    dlSymbol,
		HostFaults: hostFaults{},
	}
}

func init() { emu.UsePlatform(platform()) }
