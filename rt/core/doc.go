// Package core is the runtime's objects and the mechanics every API family
// builds on — what the vendor's libruntime keeps behind its rt* and aclrt*
// calls:
//
//   - handles and the registry of live objects (handles.go, registry.go,
//     readindex.go), the calling thread's state and error messages
//     (thread.go, errmsg.go), the runtime state, its node and the
//     init/finalize callbacks (init.go);
//   - devices, contexts and streams with their state callbacks (device.go,
//     context.go, stream.go, statecb.go), execution timeouts (timeout.go);
//   - events, notifies and labels, with their IPC node tables (event.go,
//     notify.go, label.go);
//   - memory: device memory over the driver with its deferred frees
//     (memory.go), memory pools (mempool.go), managed memory (managed.go),
//     host registration (hostreg.go), the pointer classes and plans of
//     copies (copy.go, cmo.go), memory protection of async work
//     (memprotect.go), external allocators (allocator.go);
//   - kernels: binaries, functions and argument handles (kernel.go), the
//     launch objects and their path (launch*.go), Ascend C launches
//     (launch_ascendc.go), resource limits (launch_limits.go), page tracking
//     for the sanitizer (launch_track.go);
//   - capture and model run instances (capture.go, modelri*.go), groups and
//     mbufs (group.go, mbuf.go), data buffers, snapshots (snapshot.go),
//     overflow words (overflow.go);
//   - what happens when work fails: exceptions and their callbacks
//     (exception.go), host callbacks and their reporter threads
//     (callback.go), injected faults (faults.go), the sanitizer's wiring
//     (sanitize.go), the timeline names of tasks (timeline.go), the
//     profiling subscription state (prof.go);
//   - the one queueing point through which every task reaches a stream's
//     tsfw queue (submit.go; docs/internals.md, "Queueing"): a capturing
//     stream's task goes to its recorder there, the sanitizer sees every
//     task there.
//
// The ACL entry points (package acl) check arguments, resolve handles and
// call these objects; where the rt* API (package rt) makes the same call,
// the whole call is here, argument checks included (Memcpy, CreateEvent,
// LaunchKernel, ...), and acl's entry point is one call into it. Names that crossed from acl when the objects moved were exported
// as they were (docs/internals.md, "The map now").
//
// Lock order: Runtime.Mu (the runtime lock) before the per-family tables
// (CapState.Mu, ...), the device, table and registry locks; the whole
// order, checked against the code, is docs/internals.md "Lock order".
//
// Must not: import acl, rt (the rt* API, which imports acl), libfake or
// "C"; build an error of the device model (those come from emu and tsfw
// and are converted at the API boundaries).
package core
