package acl

// Context is an ACL context: one device plus its streams and resources.
type Context struct{}
