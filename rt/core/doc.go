// Package core is the runtime's core objects and the mechanics every API
// family builds on: handles and the registry of live objects (handles.go,
// registry.go, readindex.go), the calling thread's state and error messages
// (thread.go, errmsg.go), the runtime state and its node (init.go), devices,
// contexts and streams with their state callbacks (device.go, context.go,
// stream.go, statecb.go), events, notifies and labels (event.go,
// notify.go, label.go), device memory over the driver with its deferred
// frees and stream-ordered memory pools (memory.go, mempool.go), loaded
// kernels — binaries, functions, argument handles (kernel.go) — and the
// one queueing point through which every task
// reaches a stream's tsfw queue (submit.go; docs/internals.md,
// "Queueing").
//
// The other API families — copies, kernel launches, capture and model run
// instances, managed memory, VMM, the sanitizer's wiring,
// fault injection, ... — still live in package acl, beside the ACL entry
// points; they reach these objects through exported names. This package reaches them only through
// its hook table (Families, hooks.go), which acl fills once when it loads:
// a released stream or device is announced there, a capturing
// stream's task and the sanitizer's description of a task are handed over
// there. So core depends on no family (a test of the module's layering
// holds it to that), and a family can move from acl into rt one at a time
// (docs/internals.md, "The map now").
//
// Lock order: Runtime.Mu (the runtime lock) before the device, table and
// registry locks; the whole order, checked against the code, is
// docs/internals.md "Lock order".
//
// Must not: import acl, rt (the rt* API, which imports acl), libfake or
// "C"; build an error of the device model (those come from emu and tsfw
// and are converted at the API boundaries).
package core
