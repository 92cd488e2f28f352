package main

// #include "pkey.h"
// #include "sigchain.h"
import "C"

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
//   - the host-fault protector (svmfault.c): mprotect-mode managed memory;
//   - the protection key the front allocated for device memory (pkey.c).
//
// Go tests of the packages that use them pass fakes through the same value.
func platform() emu.Platform {
	return emu.Platform{
		Kernels:    cHost{},
		Symbols:    dlSymbol,
		HostFaults: hostFaults{},
		PKey:       pkey,
	}
}

func init() { emu.UsePlatform(platform()) }

// pkey is the key the front allocated (pkey.c), -1 for none. A device
// memory that takes it needs the fault handler (sigchain.c), which says
// why host code faulted on it: installed here, once Go's handlers are in
// place, in front of them, as a kernel's first load does.
func pkey() int {
	k := int(C.npu_core_pk_key)
	if k > 0 {
		C.npu_sig_install()
	}
	return k
}
