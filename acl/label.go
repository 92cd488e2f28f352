package acl

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Labels (semantics.md §7) mark positions in the streams of a model run
// instance, and aclrtSwitchLabelByIndex jumps to one of a list. Both
// record control steps on a stream bound to an RI being built; the flow
// interpreter of mdlri_flow.go runs them. On any other stream they fail
// with the documented ACL_ERROR_RT_STREAM_MODEL.

// MaxLabels is the per-process label limit, also the longest label list.
const MaxLabels = 65535

// Label is an aclrtLabel of the context current at its creation.
type Label struct {
	h    core.Handle
	ctx  *core.Context
	dead atomic.Bool
}

// LabelList is an aclrtLabelList: an ordered list of labels.
type LabelList struct {
	h      core.Handle
	ctx    *core.Context
	labels []*Label
}

var (
	labels     = core.NewTable[Label](core.KindLabel)
	labelLists = core.NewTable[LabelList](core.KindLabelList)
	labelMu    sync.Mutex // serialises creation against the limit; guards ctxLabels
	// ctxLabels lists the labels and label lists of each context, released
	// with it.
	ctxLabels = map[*core.Context]*labelSet{}
)

type labelSet struct {
	labels map[*Label]struct{}
	lists  map[*LabelList]struct{}
}

// labelsOf returns c's set. Precondition: labelMu held.
func labelsOf(c *core.Context) *labelSet {
	ls := ctxLabels[c]
	if ls == nil {
		ls = &labelSet{labels: map[*Label]struct{}{}, lists: map[*LabelList]struct{}{}}
		ctxLabels[c] = ls
	}
	return ls
}

// destroyContextLabels releases the labels and lists of c.
func destroyContextLabels(c *core.Context) {
	labelMu.Lock()
	defer labelMu.Unlock()
	ls := ctxLabels[c]
	if ls == nil {
		return
	}
	for l := range ls.labels {
		l.dead.Store(true)
		labels.Remove(l.h)
		core.Unregister(core.TableLabels, uint64(l.h))
	}
	for l := range ls.lists {
		labelLists.Remove(l.h)
		core.Unregister(core.TableLabelLists, uint64(l.h))
	}
	delete(ctxLabels, c)
}

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
	labelMu.Lock()
	defer labelMu.Unlock()
	if labels.Len() >= MaxLabels {
		return abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: the process already has %d labels (the limit)", fn, MaxLabels)
	}
	l := &Label{ctx: c}
	l.h = labels.Add(l)
	core.RegisterHandle(core.TableLabels, l.h, l.ctx, "label")
	labelsOf(c).labels[l] = struct{}{}
	*out = l.h
	return nil
}

func resolveLabel(fn string, h core.Handle) (*Label, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: label must not be NULL", fn)
	}
	l, err := labels.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return l, nil
}

// DestroyLabel implements aclrtDestroyLabel.
func DestroyLabel(t *core.Thread, h core.Handle) error {
	l, err := resolveLabel("aclrtDestroyLabel", h)
	if err != nil {
		return err
	}
	labelMu.Lock()
	defer labelMu.Unlock()
	if !l.dead.Swap(true) {
		labels.Remove(l.h)
		core.Unregister(core.TableLabels, uint64(l.h))
		delete(labelsOf(l.ctx).labels, l)
	}
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
	if num == 0 || num > MaxLabels || uint64(len(hs)) < num {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: num %d: want 1..%d", fn, num, MaxLabels)
	}
	hs = hs[:num]
	list := &LabelList{labels: make([]*Label, len(hs))}
	for i, h := range hs {
		l, err := resolveLabel(fn, h)
		if err != nil {
			return abi.Wrapf(err, "%s: labels[%d]", fn, i)
		}
		if i > 0 && l.ctx != list.labels[0].ctx {
			return abi.Errorf(abi.ACL_ERROR_RT_LABEL_CONTEXT, "%s: labels[%d] belongs to another context than labels[0]", fn, i)
		}
		list.labels[i] = l
	}
	list.ctx = list.labels[0].ctx
	labelMu.Lock()
	defer labelMu.Unlock()
	list.h = labelLists.Add(list)
	core.RegisterHandle(core.TableLabelLists, list.h, list.ctx, "label list")
	labelsOf(list.ctx).lists[list] = struct{}{}
	*out = list.h
	return nil
}

func resolveLabelList(fn string, h core.Handle) (*LabelList, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: labelList must not be NULL", fn)
	}
	l, err := labelLists.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return l, nil
}

// DestroyLabelList implements aclrtDestroyLabelList; the labels stay.
func DestroyLabelList(t *core.Thread, h core.Handle) error {
	l, err := resolveLabelList("aclrtDestroyLabelList", h)
	if err != nil {
		return err
	}
	labelMu.Lock()
	defer labelMu.Unlock()
	if labelLists.Remove(l.h) {
		core.Unregister(core.TableLabelLists, uint64(l.h))
		delete(labelsOf(l.ctx).lists, l)
	}
	return nil
}

// SetLabel implements aclrtSetLabel.
func SetLabel(t *core.Thread, h, sh core.Handle) error {
	const fn = "aclrtSetLabel"
	l, err := resolveLabel(fn, h)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if l.ctx != s.Ctx {
		return abi.Errorf(abi.ACL_ERROR_RT_LABEL_CONTEXT, "%s: the label and stream %d belong to different contexts", fn, s.ID)
	}
	return recordControl(fn, s, &ctlOp{kind: ctlLabel, label: l})
}

// SwitchLabelByIndex implements aclrtSwitchLabelByIndex.
func SwitchLabelByIndex(t *core.Thread, ptr uintptr, maxValue uint32, lh, sh core.Handle) error {
	const fn = "aclrtSwitchLabelByIndex"
	if ptr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	list, err := resolveLabelList(fn, lh)
	if err != nil {
		return err
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if list.ctx != s.Ctx {
		return abi.Errorf(abi.ACL_ERROR_RT_LABEL_CONTEXT, "%s: the label list and stream %d belong to different contexts", fn, s.ID)
	}
	if maxValue == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: maxValue must be > 0", fn)
	}
	if err := deviceOperand(fn, "ptr", s, ptr, 4); err != nil {
		return err
	}
	// The list is read now: destroying or reusing it later changes nothing.
	return recordControl(fn, s, &ctlOp{kind: ctlSwitchLabel, list: slices.Clone(list.labels), ptr: ptr, maxValue: maxValue})
}
