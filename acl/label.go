package acl

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
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
	h    Handle
	ctx  *Context
	dead atomic.Bool
}

// LabelList is an aclrtLabelList: an ordered list of labels.
type LabelList struct {
	h      Handle
	ctx    *Context
	labels []*Label
}

var (
	labels     = newTable[Label](kindLabel)
	labelLists = newTable[LabelList](kindLabelList)
	labelMu    sync.Mutex // serialises creation against the limit; guards ctxLabels
	// ctxLabels lists the labels and label lists of each context, released
	// with it.
	ctxLabels = map[*Context]*labelSet{}
)

type labelSet struct {
	labels map[*Label]struct{}
	lists  map[*LabelList]struct{}
}

// labelsOf returns c's set. Precondition: labelMu held.
func labelsOf(c *Context) *labelSet {
	ls := ctxLabels[c]
	if ls == nil {
		ls = &labelSet{labels: map[*Label]struct{}{}, lists: map[*LabelList]struct{}{}}
		ctxLabels[c] = ls
	}
	return ls
}

// destroyContextLabels releases the labels and lists of c.
func destroyContextLabels(c *Context) {
	labelMu.Lock()
	defer labelMu.Unlock()
	ls := ctxLabels[c]
	if ls == nil {
		return
	}
	for l := range ls.labels {
		l.dead.Store(true)
		labels.remove(l.h)
		unregister(tableLabels, uint64(l.h))
	}
	for l := range ls.lists {
		labelLists.remove(l.h)
		unregister(tableLabelLists, uint64(l.h))
	}
	delete(ctxLabels, c)
}

// CreateLabel implements aclrtCreateLabel.
func CreateLabel(t *Thread, out *Handle) error {
	const fn = "aclrtCreateLabel"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: label must not be NULL", fn)
	}
	c, err := current(t, fn)
	if err != nil {
		return err
	}
	labelMu.Lock()
	defer labelMu.Unlock()
	if labels.len() >= MaxLabels {
		return abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: the process already has %d labels (the limit)", fn, MaxLabels)
	}
	l := &Label{ctx: c}
	l.h = labels.add(l)
	registerHandle(tableLabels, l.h, l.ctx, "label")
	labelsOf(c).labels[l] = struct{}{}
	*out = l.h
	return nil
}

func resolveLabel(fn string, h Handle) (*Label, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: label must not be NULL", fn)
	}
	l, err := labels.get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return l, nil
}

// DestroyLabel implements aclrtDestroyLabel.
func DestroyLabel(t *Thread, h Handle) error {
	l, err := resolveLabel("aclrtDestroyLabel", h)
	if err != nil {
		return err
	}
	labelMu.Lock()
	defer labelMu.Unlock()
	if !l.dead.Swap(true) {
		labels.remove(l.h)
		unregister(tableLabels, uint64(l.h))
		delete(labelsOf(l.ctx).labels, l)
	}
	return nil
}

// CreateLabelList implements aclrtCreateLabelList: num in (0, 65535], all
// labels of one context.
// hs holds the labels (nil for a NULL array), num the count given.
func CreateLabelList(t *Thread, hs []Handle, num uint64, out *Handle) error {
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
	list.h = labelLists.add(list)
	registerHandle(tableLabelLists, list.h, list.ctx, "label list")
	labelsOf(list.ctx).lists[list] = struct{}{}
	*out = list.h
	return nil
}

func resolveLabelList(fn string, h Handle) (*LabelList, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: labelList must not be NULL", fn)
	}
	l, err := labelLists.get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return l, nil
}

// DestroyLabelList implements aclrtDestroyLabelList; the labels stay.
func DestroyLabelList(t *Thread, h Handle) error {
	l, err := resolveLabelList("aclrtDestroyLabelList", h)
	if err != nil {
		return err
	}
	labelMu.Lock()
	defer labelMu.Unlock()
	if labelLists.remove(l.h) {
		unregister(tableLabelLists, uint64(l.h))
		delete(labelsOf(l.ctx).lists, l)
	}
	return nil
}

// SetLabel implements aclrtSetLabel.
func SetLabel(t *Thread, h, sh Handle) error {
	const fn = "aclrtSetLabel"
	l, err := resolveLabel(fn, h)
	if err != nil {
		return err
	}
	s, err := resolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if l.ctx != s.ctx {
		return abi.Errorf(abi.ACL_ERROR_RT_LABEL_CONTEXT, "%s: the label and stream %d belong to different contexts", fn, s.id)
	}
	return recordControl(fn, s, &ctlOp{kind: ctlLabel, label: l})
}

// SwitchLabelByIndex implements aclrtSwitchLabelByIndex.
func SwitchLabelByIndex(t *Thread, ptr uintptr, maxValue uint32, lh, sh Handle) error {
	const fn = "aclrtSwitchLabelByIndex"
	if ptr == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	list, err := resolveLabelList(fn, lh)
	if err != nil {
		return err
	}
	s, err := resolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	if list.ctx != s.ctx {
		return abi.Errorf(abi.ACL_ERROR_RT_LABEL_CONTEXT, "%s: the label list and stream %d belong to different contexts", fn, s.id)
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
