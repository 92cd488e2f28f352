// Package conformance is the conformance suite of npuemu: C programs in
// cases/ that encode the documented behaviour of the ACL runtime and the
// driver HAL, and the helpers that compile and run them against a target (our
// emu/include + emu/lib, or another implementation such as a vendor CANN
// install).
//
// A case is always compiled with the C compiler and run as its own process,
// exactly like a user's program; the Go library under test is never loaded
// into a Go process (one Go runtime per process). The package therefore
// imports only the standard library and knows nothing of acl, hal or libfake.
//
// A case declares what it needs in comments at the top of its file:
//
//	/* needs: devices=2, emulator */
//	/* env: NPUEMU_DEVICES=2 */
//	/* link: -lacl_rt */
//
// and reports through its exit status: 0 passed, 77 skipped (the reason on a
// "SKIP: " line of stdout), anything else failed. Target.Unmet is the one
// place that decides whether a target lacks a need; an unknown need is an
// error, so a typo fails instead of silently skipping. docs/conformance.md
// describes the protocol for case writers.
package conformance
