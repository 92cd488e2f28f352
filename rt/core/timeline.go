package core

// Names of kernel tasks on the device timeline (tsfw.TaskNamer,
// docs/timeline.md).

// TaskName is the kernel's function name.
func (l *Launch) TaskName() string {
	if l.F == nil {
		return "kernel"
	}
	return l.F.Entry.Name
}

// TaskName is the captured kernel's function name.
func (k *RiKernel) TaskName() string { return k.L.TaskName() }

// TaskName labels the virtual time of managed-memory work on a stream.
func (c chargeTask) TaskName() string { return "managed migration" }
