// Command shimgen generates libfake/zshims.c, the C definition of every ACL
// and HAL symbol of abi.Symbols, and conformance/cases/zunsupported.c, the
// conformance case that calls every unsupported ACL symbol.
//
// A shim has the exact prototype of the spec, so the C compiler checks it
// against the declaration in our headers. It calls the Go export
// npu_<symbol> when some libfake/*.go file declares `//export npu_<symbol>`,
// and npu_unsupported(npu_self(), <index in abi.Symbols>) otherwise. The
// choice comes from the exports alone; the support tables (acl.Support,
// hal.Support) must agree, which the tests check.
//
// Before that, one test of the global npu_hooks (libfake/passthrough.h)
// sends the call to the shim's hook_ function when NPUEMU_MODE=passthrough
// or NPUEMU_TRACE is set: the hook calls the vendor's function
// npu_pt_fns[<index>] with the arguments unchanged (or the emulator), then
// writes the call's trace line, an argument at a time; only const char*
// parameters are told apart here (as strings), the C compiler picks the
// format of every other type. zshims.c also holds npu_pt_syms, the name and
// library of every symbol by index, which passthrough.c resolves.
//
// It also writes libfake/zguard.go: for every Go export npu_X a guard
// npug_X, the function the shim really calls, which recovers a panic (and a
// fault in Go code, through debug.SetPanicOnFault) escaping npu_X and
// returns ACL_ERROR_RT_INTERNAL_ERROR / DRV_ERROR_INNER_ERR (0 or NULL for
// other result types) with the panic as aclGetRecentErrMsg's message
// (docs/hardening.md).
//
// It also writes libfake/front/zfront.c, the plain-C front library's
// definition of every exported symbol, which forwards to the Go core loaded
// on the first call (front.go).
//
// It also writes libfake/zmirrors.go, the list of vendor C types libfake
// casts to Go types, and the Go types themselves: acl/zmirrors.go,
// hal/zmirrors.go and rt/zmirrors.go, generated from the layout the C
// compiler gives our headers (mirrortypes.go; docs/internals.md "Go mirrors
// of vendor structs").
//
// Usage (from `make generate`): go run ./cmd/shimgen -out libfake
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	out := flag.String("out", "libfake", "libfake directory: its *.go files are scanned for exports and zshims.c is written there")
	cases := flag.String("cases", "", "conformance case directory for zunsupported.c (default: <out>/../conformance/cases)")
	flag.Parse()
	if *cases == "" {
		*cases = filepath.Join(*out, "..", "conformance", "cases")
	}
	if err := run(*out, *cases); err != nil {
		fmt.Fprintln(os.Stderr, "shimgen:", err)
		os.Exit(1)
	}
}

// run generates both files from the exports found in libDir.
func run(libDir, casesDir string) error {
	files, err := generate(libDir)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(libDir, shimsFile), files.shims, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(libDir, guardFile), files.guards, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(libDir, frontFile), files.front, 0o644); err != nil {
		return err
	}
	if err := writeMirrors(libDir, files.mirrors, files.mirrorTypes); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(casesDir, caseFile), files.unsupported, 0o644)
}
