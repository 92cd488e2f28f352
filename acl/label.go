package acl

import (
	"slices"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Labels (semantics.md §7) mark positions in the streams of a model run
// instance, and aclrtSwitchLabelByIndex jumps to one of a list. Both
// record control steps on a stream bound to an RI being built; the flow
// interpreter of mdlri_flow.go runs them. On any other stream they fail
// with the documented ACL_ERROR_RT_STREAM_MODEL.

// CreateLabel implements aclrtCreateLabel.
func CreateLabel(t *core.Thread, out *core.Handle) error {
	const fn = "aclrtCreateLabel"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: label must not be NULL", fn)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	l, err := core.MakeLabel(fn, c)
	if err != nil {
		return err
	}
	*out = l.H
	return nil
}

// DestroyLabel implements aclrtDestroyLabel.
func DestroyLabel(t *core.Thread, h core.Handle) error {
	l, err := core.ResolveLabel("aclrtDestroyLabel", h)
	if err != nil {
		return err
	}
	core.DestroyLabel(l)
	return nil
}

// CreateLabelList implements aclrtCreateLabelList: num in (0, 65535], all
// labels of one context.
// hs holds the labels (nil for a NULL array), num the count given.
func CreateLabelList(t *core.Thread, hs []core.Handle, num uint64, out *core.Handle) error {
	const fn = "aclrtCreateLabelList"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: labelList must not be NULL", fn)
	}
	if hs == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: labels must not be NULL", fn)
	}
	if num == 0 || num > core.MaxLabels || uint64(len(hs)) < num {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: num %d: want 1..%d", fn, num, core.MaxLabels)
	}
	hs = hs[:num]
	list := &core.LabelList{Labels: make([]*core.Label, len(hs))}
	for i, h := range hs {
		l, err := core.ResolveLabel(fn, h)
		if err != nil {
			return abi.Wrapf(err, "%s: labels[%d]", fn, i)
		}
		if i > 0 && l.Ctx != list.Labels[0].Ctx {
			return abi.Errorf(abi.ACL_ERROR_RT_LABEL_CONTEXT, "%s: labels[%d] belongs to another context than labels[0]", fn, i)
		}
		list.Labels[i] = l
	}
	list.Ctx = list.Labels[0].Ctx
	core.AddLabelList(list)
	*out = list.H
	return nil
}

// DestroyLabelList implements aclrtDestroyLabelList; the labels stay.
func DestroyLabelList(t *core.Thread, h core.Handle) error {
	l, err := core.ResolveLabelList("aclrtDestroyLabelList", h)
	if err != nil {
		return err
	}
	core.DestroyLabelList(l)
	return nil
}

// SetLabel implements aclrtSetLabel.
func SetLabel(t *core.Thread, h, sh core.Handle) error {
	const fn = "aclrtSetLabel"
	l, err := core.ResolveLabel(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if l.Ctx != s.Ctx {
		return abi.Errorf(abi.ACL_ERROR_RT_LABEL_CONTEXT, "%s: the label and stream %d belong to different contexts", fn, s.ID)
	}
	return recordControl(fn, s, &core.CtlOp{Kind: core.CtlLabel, Label: l})
}

// SwitchLabelByIndex implements aclrtSwitchLabelByIndex.
func SwitchLabelByIndex(t *core.Thread, ptr uintptr, maxValue uint32, lh, sh core.Handle) error {
	const fn = "aclrtSwitchLabelByIndex"
	if ptr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	list, err := core.ResolveLabelList(fn, lh)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if list.Ctx != s.Ctx {
		return abi.Errorf(abi.ACL_ERROR_RT_LABEL_CONTEXT, "%s: the label list and stream %d belong to different contexts", fn, s.ID)
	}
	if maxValue == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: maxValue must be > 0", fn)
	}
	if err := deviceOperand(fn, "ptr", s, ptr, 4); err != nil {
		return err
	}
	// The list is read now: destroying or reusing it later changes nothing.
	return recordControl(fn, s, &core.CtlOp{Kind: core.CtlSwitchLabel, List: slices.Clone(list.Labels), Ptr: ptr, MaxValue: maxValue})
}
