// Package acl is the ACL runtime API's surface (acl*, aclrt*, aclmdlRI*,
// aclprof*, mstx*): each entry point checks its arguments with the
// documented error codes, resolves handles and calls the runtime's objects
// in package rt/core; acl also keeps the support table that says what each
// exported symbol does, and what is the API's own rather than the
// runtime's: the profiling collections and their output (prof*.go,
// mstx.go), the SoC and version queries, the VMM calls over emu.VMM.
// One file per API family; helpers a file keeps are the argument checks
// and decoding of that family (docs/internals.md, "The map now").
//
// Handlers take the calling *core.Thread (its current context and last error
// live there) and return an error built with abi.Err / abi.Errorf; libfake
// turns it into an aclError. acl never imports libfake or "C".
package acl
