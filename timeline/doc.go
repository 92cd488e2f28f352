// Package timeline records what the emulated devices did, on each device's
// virtual clock, and writes it as a Chrome trace-event JSON file that
// Perfetto and chrome://tracing open (NPUEMU_TIMELINE=FILE, docs/timeline.md).
//
// It models nothing: the task-scheduler firmware (tsfw) reports every task
// when it is queued, with the start and end the virtual clock gives it, and
// again when it completes (its error, the per-pipe cycles of an Ascend C
// kernel); other layers add instants (injected faults, sanitizer reports),
// counters (memory in use), SVM migrations, mstx marks and ranges, and the
// host's API calls. The package is a leaf (standard library only) so that
// every layer may call it; it must never call back into them.
//
// # Cost when off
//
// Every hook is guarded by Enabled, one atomic load of a package variable:
// a predictable branch on the launch path and nothing else. When on, a task
// costs one append of a fixed-size record under the recorder's mutex;
// records stay in memory (about 300 bytes a task) until the file is
// written, at aclFinalize and at process exit. After MaxTasks tasks the
// recorder keeps counting but stops recording, and the file says so.
//
// # Determinism
//
// Everything but the host track is stamped with device-clock times, which
// depend only on the submission sequence (tsfw's virtual time), and is
// written sorted by (device, time, recording order), one event per line,
// each task followed by the events it implies.
// So a single-threaded program gives a byte-identical file on every run
// once the host track (cat "host", wall clock) is left out — the lines
// holding "cat":"host"; NPUEMU_TIMELINE_HOST=0 omits them altogether.
//
// # Lock order
//
// Recorder.mu is a leaf: hooks take it under tsfw's Device.mu and never
// call out while holding it.
package timeline
