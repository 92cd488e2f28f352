package rt

import (
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The rts* label family: labels mark positions in the streams of a model
// being built (an RI under capture or rtModel binding), and a switch list
// lets a stream jump to the label a device-side index selects. rtLabel_t
// is aclrtLabel and the switch list (void* labelList / labelInfoPtr) is
// aclrtLabelList; acl/label.go does the work. On a stream bound to no
// model the calls fail with ACL_ERROR_RT_STREAM_MODEL, as in ACL.

// LabelCreate implements rtsLabelCreate: a label of the current context.
func LabelCreate(t *core.Thread, out *core.Handle) error {
	const fn = "rtsLabelCreate"
	if out == nil {
		return invalid(fn, "lbl must not be NULL")
	}
	return wrap(fn, acl.CreateLabel(t, out))
}

// LabelDestroy implements rtsLabelDestroy.
func LabelDestroy(t *core.Thread, l core.Handle) error {
	const fn = "rtsLabelDestroy"
	if l == 0 {
		return invalid(fn, "lbl must not be NULL")
	}
	return wrap(fn, acl.DestroyLabel(t, l))
}

// LabelSwitchListCreate implements rtsLabelSwitchListCreate: num labels of
// one context, 1..65535. labels is the caller's array (nil for NULL).
func LabelSwitchListCreate(t *core.Thread, labels []core.Handle, num uint64, out *core.Handle) error {
	const fn = "rtsLabelSwitchListCreate"
	if labels == nil || out == nil {
		return invalid(fn, "labels and labelList must not be NULL")
	}
	return wrap(fn, acl.CreateLabelList(t, labels, num, out))
}

// LabelSwitchListDestroy implements rtsLabelSwitchListDestroy; the labels
// stay.
func LabelSwitchListDestroy(t *core.Thread, list core.Handle) error {
	const fn = "rtsLabelSwitchListDestroy"
	if list == 0 {
		return invalid(fn, "labelList must not be NULL")
	}
	return wrap(fn, acl.DestroyLabelList(t, list))
}

// LabelSet implements rtsLabelSet: the label marks the stream's next task.
func LabelSet(t *core.Thread, l, s core.Handle) error {
	const fn = "rtsLabelSet"
	if l == 0 {
		return invalid(fn, "lbl must not be NULL")
	}
	return wrap(fn, acl.SetLabel(t, l, s))
}

// LabelSwitchByIndex implements rtsLabelSwitchByIndex: the stream jumps to
// the label at the uint32 index ptr holds on the device when it runs (an
// index above maxValue or past the list takes the last entry, as
// aclrtSwitchLabelByIndex).
func LabelSwitchByIndex(t *core.Thread, ptr uintptr, maxValue uint32, list, s core.Handle) error {
	const fn = "rtsLabelSwitchByIndex"
	if ptr == 0 || list == 0 {
		return invalid(fn, "ptr and labelInfoPtr must not be NULL")
	}
	return wrap(fn, acl.SwitchLabelByIndex(t, ptr, maxValue, list, s))
}
