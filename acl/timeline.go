package acl

// Names of kernel tasks on the device timeline (tsfw.TaskNamer,
// docs/timeline.md).

// TaskName is the kernel's function name.
func (l *launch) TaskName() string {
	if l.f == nil {
		return "kernel"
	}
	return l.f.Entry.Name
}

// TaskName is the captured kernel's function name.
func (k *riKernel) TaskName() string { return k.l.TaskName() }

// TaskName labels the virtual time of managed-memory work on a stream.
func (c chargeTask) TaskName() string { return "managed migration" }
