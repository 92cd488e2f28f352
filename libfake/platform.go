package main

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/emu"
)

// The platform pieces only the C part of the library can provide, handed
// to the packages that use them in one place, when the library loads and
// before any node, device or thread exists:
//
//   - the kernel host (kernel_host.c): loads kernel binaries, runs blocks;
//   - the symbol lookup (symbol.go): names a device variable through the
//     dynamic loader;
//   - the host-fault protector (svmfault.c): mprotect-mode managed memory.
//
// Go tests of those packages install fakes of their own instead.
func init() {
	acl.SetKernelHost(cHost{})
	acl.SetSymbolResolver(dlSymbol)
	emu.SetHostFaults(hostFaults{})
}
