// Package sanitize is npuemu's sanitizer (NPUEMU_SANITIZE,
// docs/sanitizer.md): it watches the tasks a program queues and the host
// calls that synchronise with them, and reports, one line each, what would
// be a bug on a real device even when the emulator happens to run it
// correctly.
//
// It models streams and host threads as actors with vector clocks
// (clock.go): a task queued on a stream is ordered after the stream's
// earlier tasks and after everything its host thread knew when it queued
// it; an event or notify record hands the recording stream's clock to the
// streams that wait (a wait queued before the record that releases it
// holds its stream's later tasks until that record is queued:
// release.go); a host synchronisation hands a stream's (or an event's, or
// a device's) clock to the host thread. Device memory accesses (copies,
// memsets, kernel pointer arguments, or a launch's exact GM footprint,
// checked when the launch completes: footprint.go) are kept per
// allocation (shadow.go; a kernel's strided access as one record,
// footprint_pattern.go) and checked against the clock of each new access;
// a kernel's atomic stores of one kind do not conflict with each other:
//
//   - racecheck: two streams touch overlapping bytes, one writing, with
//     nothing ordering them;
//   - synccheck: the host touches memory an unfinished task uses (a
//     synchronous copy of an async copy's destination, a free), and an
//     event waited for, synchronised or queried before any record;
//   - initcheck: a read of device bytes nothing has written;
//   - memcheck: a kernel pointer argument into unallocated (freed) device
//     memory or misaligned, and the out-of-allocation operands the API
//     layer refuses;
//   - leakcheck: the objects alive at aclFinalize (the API layer lists them).
//
// The package knows no API enums and no error codes: the API layer (acl)
// describes each task (Op) and each synchronisation, and gives it one
// function that says what an address is (Lookup). The sanitizer never
// changes what a program sees; it only reports.
package sanitize
