package core

import (
	"sync"
	"sync/atomic"

	"github.com/npuemu/npuemu/abi"
)

// Labels (aclrtLabel, aclrtLabelList) mark positions in the streams of a
// model run instance being built; the control steps that use them and
// their interpreter are acl's (acl/label.go, modelri_flow.go). Here: the
// objects, their handles, the process's limit and their release with
// their context.
var (
	Labels     = NewTable[Label](KindLabel)
	LabelLists = NewTable[LabelList](KindLabelList)
	labelMu    sync.Mutex // serialises creation against the limit; guards ctxLabels
	// ctxLabels lists the labels and label lists of each context, released
	// with it.
	ctxLabels = map[*Context]*labelSet{}
)

// MaxLabels is the per-process label limit, also the longest label list.
const MaxLabels = 65535

// Label is an aclrtLabel of the context current at its creation.
type Label struct {
	H    Handle
	Ctx  *Context
	dead atomic.Bool
}

// LabelList is an aclrtLabelList: an ordered list of labels.
type LabelList struct {
	H      Handle
	Ctx    *Context
	Labels []*Label
}

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

// DestroyContextLabels releases the labels and lists of c.
func DestroyContextLabels(c *Context) {
	labelMu.Lock()
	defer labelMu.Unlock()
	ls := ctxLabels[c]
	if ls == nil {
		return
	}
	for l := range ls.labels {
		l.dead.Store(true)
		Labels.Remove(l.H)
		Unregister(TableLabels, uint64(l.H))
	}
	for l := range ls.lists {
		LabelLists.Remove(l.H)
		Unregister(TableLabelLists, uint64(l.H))
	}
	delete(ctxLabels, c)
}

func ResolveLabel(fn string, h Handle) (*Label, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: label must not be NULL", fn)
	}
	l, err := Labels.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return l, nil
}

func ResolveLabelList(fn string, h Handle) (*LabelList, error) {
	if h == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: labelList must not be NULL", fn)
	}
	l, err := LabelLists.Get(h)
	if err != nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: %v", fn, err)
	}
	return l, nil
}

// MakeLabel creates a label of context c, within the process's limit.
func MakeLabel(fn string, c *Context) (*Label, error) {
	labelMu.Lock()
	defer labelMu.Unlock()
	if Labels.Len() >= MaxLabels {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: the process already has %d labels (the limit)", fn, MaxLabels)
	}
	l := &Label{Ctx: c}
	l.H = Labels.Add(l)
	RegisterHandle(TableLabels, l.H, l.Ctx, "label")
	labelsOf(c).labels[l] = struct{}{}
	return l, nil
}

// DestroyLabel releases l (once).
func DestroyLabel(l *Label) {
	labelMu.Lock()
	defer labelMu.Unlock()
	if !l.dead.Swap(true) {
		Labels.Remove(l.H)
		Unregister(TableLabels, uint64(l.H))
		delete(labelsOf(l.Ctx).labels, l)
	}
}

// AddLabelList gives list (its labels and context set) a handle.
func AddLabelList(list *LabelList) {
	labelMu.Lock()
	defer labelMu.Unlock()
	list.H = LabelLists.Add(list)
	RegisterHandle(TableLabelLists, list.H, list.Ctx, "label list")
	labelsOf(list.Ctx).lists[list] = struct{}{}
}

// DestroyLabelList releases list's handle; its labels stay.
func DestroyLabelList(l *LabelList) {
	labelMu.Lock()
	defer labelMu.Unlock()
	if LabelLists.Remove(l.H) {
		Unregister(TableLabelLists, uint64(l.H))
		delete(labelsOf(l.Ctx).lists, l)
	}
}
