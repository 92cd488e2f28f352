// Package sweep is the hostile-input sweep of issue #14: every exported ACL
// and HAL function, generated from the spec's prototypes (abi.Symbols, which
// cmd/specgen reads from ../shared/spec/acl-functions.tsv and hal-api.md),
// called with NULL, garbage, stale and wrong-kind handles, SIZE_MAX and
// sign-bit sizes and out-of-range enums, one argument bad at a time, each
// call in its own process, bounded by a timeout. The test asserts that no
// call crashes or hangs the host program.
//
// How it runs: the generated C program (testdata/runner.c completed by cases.go) is a batch
// runner that never loads npuemu itself; for each case it forks, and the
// child dlopens the library under test (so the parent never starts a Go
// runtime, whose threads fork would not carry), sets up a device, a valid
// handle of every kind it can create, a stale one (created and destroyed)
// and the buffers, arms alarm(), makes the one call and _exits. The parent
// reads the exit status: 0 is a survived call, SIGALRM a hang, anything else
// (a signal, a Go panic's exit 2) a crash. The Go test splits the cases over
// GOMAXPROCS batches.
//
// Wild pointers are never generated, because the real runtime faults on
// them too: a non-NULL data pointer is always a live buffer of the caller
// (64 KiB of host memory, or 1 MiB of device memory for void*) and a size is
// small (within those buffers), 0, or beyond any address space (SIZE_MAX,
// 1<<63), which the emulator must reject before touching memory. Garbage is
// generated only for handles, which are opaque: an unmapped address, a
// pointer to junk bytes in the caller's memory, a stale handle, and another
// kind's handle. Timeouts are never -1 (wait forever is documented
// behaviour, not a hang).
//
// Run: make lib && go test ./conformance/sweep (-v prints the figures;
// -sweep.only REGEXP limits the functions).
package sweep
