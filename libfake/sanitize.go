package main

/*
void npu_sanitize_atexit(void);
*/
import "C"

import "github.com/npuemu/npuemu/rt/core"

// NPUEMU_SANITIZE (docs/sanitizer.md): the sanitizer is made when the
// library loads (acl/sanitize.go); its summary is printed at process exit
// (sanitize.c), which also applies NPUEMU_SANITIZE_EXITCODE.
func init() {
	if core.Sanitizer() != nil {
		C.npu_sanitize_atexit()
	}
}

// npuemu_sanitize_exit prints the summary and returns the exit status to
// force, or -1 to keep the program's.
//
//export npuemu_sanitize_exit
func npuemu_sanitize_exit() C.int {
	s := core.Sanitizer()
	if s == nil {
		return -1
	}
	s.Summary()
	if code, ok := s.ExitCode(); ok {
		return C.int(code)
	}
	return -1
}
