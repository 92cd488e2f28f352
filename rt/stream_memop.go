package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// Stream memory operations (round 9): an 8-byte write of device memory,
// and a wait on an 8-byte word, in stream order (950/A3/A2, as the
// aclrtValue* calls; their work is in acl/builtin.go). aclrtValueWait and
// aclrtValueWrite hand their flag to the runtime unchanged (acl-to-rt.tsv
// casts only the stream, and the spec has no RT_* constant for it), so the
// flag is numbered as ACL_STREAM_WAIT_VALUE_*.

// ValueWrite implements rtsValueWrite: the stream writes value at devAddr
// (8-byte aligned device memory of the stream's device); flag must be 0.
// Recorded as an RT_TASK_VALUE_WRITE task on a capturing or bound stream.
func ValueWrite(t *core.Thread, addr uintptr, value uint64, flag uint32, s core.Handle) error {
	const fn = "rtsValueWrite"
	if err := socGate(fn, "aclrtValueWrite"); err != nil {
		return err
	}
	if addr == 0 {
		return invalid(fn, "devAddr must not be NULL")
	}
	return wrap(fn, acl.ValueWrite(t, addr, value, flag, s))
}

// ValueWait implements rtsValueWait: the stream's later tasks wait until
// the word at devAddr satisfies flag against value (GEQ 0, EQ 1, AND 2,
// NOR 3). Recorded as an RT_TASK_VALUE_WAIT task on a capturing or bound
// stream.
func ValueWait(t *core.Thread, addr uintptr, value uint64, flag uint32, s core.Handle) error {
	const fn = "rtsValueWait"
	if err := socGate(fn, "aclrtValueWait"); err != nil {
		return err
	}
	if addr == 0 {
		return invalid(fn, "devAddr must not be NULL")
	}
	return wrap(fn, acl.ValueWait(t, addr, value, flag, s))
}
