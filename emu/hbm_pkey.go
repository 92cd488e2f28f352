package emu

import (
	"os"
	"runtime"
	"strings"
	"syscall"
)

// Protection keys (docs/hardening.md, "Protection keys"). Where the CPU has
// them (x86-64 pku), protection is on and EnvPKeys asks for them, the front
// library allocates a key before it loads the core (libfake/front/pkey.c)
// and every device memory this process creates carries it: useKey gives
// the whole range the key once, while it is still all PROT_NONE, and the
// mprotect calls that open and seal blocks later keep it (Linux keeps a
// range's key unless pkey_mprotect names another). Threads of the Go
// runtime and of the kernels have access to the key; a host thread has it
// only inside a call into the library, so host code that dereferences a
// device pointer faults, as it does on hardware. Memory mapped into the
// range by name (IPC imports, shmem.go) and the virtual memory of vmm.go
// are separate mappings and carry no key.

// EnvPKeys turns protection keys on when "1" (the front reads it before
// it loads the core: libfake/front/pkey.c). Off by default until every
// case passes with them on a CPU that has them (docs/hardening.md).
const EnvPKeys = "NPUEMU_PKEYS"

// PKeysEnabled reports whether a program on a CPU with protection keys
// uses them (protection on, EnvPKeys "1").
func PKeysEnabled() bool {
	return ProtectEnabled() && strings.TrimSpace(os.Getenv(EnvPKeys)) == "1"
}

// sysPkeyMprotect is pkey_mprotect's number (x86-64 only: no other
// architecture Linux supports has protection keys of this kind).
var sysPkeyMprotect = map[string]uintptr{"amd64": 329}[runtime.GOARCH]

// useKey gives h's range protection key key (> 0; anything else: none).
// A range without protection, or one the kernel refuses to key, stays as
// it is (pkey stays 0): host code is then not stopped.
func (h *HBM) useKey(key int) {
	if key <= 0 || !h.guard || sysPkeyMprotect == 0 {
		return
	}
	_, _, errno := syscall.Syscall6(sysPkeyMprotect, h.base, uintptr(h.span), syscall.PROT_NONE, uintptr(key), 0, 0)
	if errno == 0 {
		h.pkey = key
	}
}
