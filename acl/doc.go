// Package acl implements the semantics of the ACL runtime API (acl*, aclrt*,
// aclmdlRI*): the ACL entry points with their argument checks and
// documented error codes (initialisation, devices, contexts, streams, ...),
// the API families whose objects have not yet moved under rt (copies,
// kernel launches, capture and model run instances, managed memory, VMM, the
// sanitizer's wiring, fault injection, profiling), and the support
// table that says what each exported symbol does. The runtime's core
// objects (thread state, devices, contexts, streams, events, notifies,
// labels, device memory and memory pools, loaded kernels, the queueing
// point) are package rt/core's; acl fills its hook table once (families.go), the one
// way rt/core reaches a family (docs/internals.md, "The map now").
//
// Handlers take the calling *core.Thread (its current context and last error
// live there) and return an error built with abi.Err / abi.Errorf; libfake
// turns it into an aclError. acl never imports libfake or "C".
package acl
