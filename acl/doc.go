// Package acl implements the semantics of the ACL runtime API (acl*, aclrt*,
// aclmdlRI*) over the emu device model: argument checks with the documented
// error codes, initialisation, devices, contexts, streams, events, memory,
// copies, and the support table that says what each exported symbol does.
//
// Handlers take the calling *Thread (its current context and last error
// live there) and return an error built with abi.Err / abi.Errorf; libfake
// turns it into an aclError. acl never imports libfake or "C".
package acl
