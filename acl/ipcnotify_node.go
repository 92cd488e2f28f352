package acl

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// IPC notifies across processes (docs/node.md, "IPC"): on a shared node,
// exporting a notify enters it in the node's notify table and the key
// names the entry; from then on every record and wait of that notify, in
// any process, goes through the entry's pending count (a host task on the
// stream), so one record releases exactly one wait wherever it is.

// nodeNotify links a hardware notify to its node entry.
type nodeNotify struct {
	dir      *emu.NodeDir
	ref      emu.NodeNotifyRef
	entry    *emu.NodeNotify
	gen      uint64 // the entry's full generation
	exporter bool
}

const notifyKeyPrefix = "npuemu-notify-"

// exportNodeNotify enters n in the node's table (once) and names the key
// after the entry. No-op on a private node. Precondition: notifyMu held.
func exportNodeNotify(n *Notify, pidCheck bool) error {
	dir := n.ctx.Dev.Emu.HBM.NodeDir()
	if dir == nil || n.hw.node != nil {
		return nil
	}
	ref, entry, err := dir.ExportNotify(n.ctx.Dev.Emu.PhysID(), pidCheck)
	if err != nil {
		return err
	}
	n.hw.node = &nodeNotify{dir: dir, ref: ref, entry: entry, gen: entry.Generation, exporter: true}
	if n.hw.key != "" {
		delete(notifyKeys, n.hw.key)
	}
	n.hw.key = fmt.Sprintf("%s%d-%x", notifyKeyPrefix, os.Getpid(), ref.Code())
	notifyKeys[n.hw.key] = n
	return nil
}

// importNodeNotify opens a notify another process exported.
func importNodeNotify(t *core.Thread, fn, key string, out *core.Handle) error {
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	dir := c.Dev.Emu.HBM.NodeDir()
	if dir == nil {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the key comes from another process, and this process runs a private node", fn)
	}
	_, hex, _ := strings.Cut(strings.TrimPrefix(key, notifyKeyPrefix), "-")
	code, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %q is not a notify export key", fn, key)
	}
	ref := emu.NotifyRefOf(code)
	entry, gen, err := dir.OpenNotify(ref, self())
	if err != nil {
		return abi.Wrapf(err, "%s", fn)
	}
	if err := checkNotifyRoom(fn, c); err != nil {
		dir.CloseNotify(ref, false)
		return err
	}
	nt, err := c.Dev.Emu.TS.NewNotify()
	if err != nil {
		dir.CloseNotify(ref, false)
		return abi.Wrapf(err, "%s", fn)
	}
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	notifyMu.Lock()
	defer notifyMu.Unlock()
	n := &Notify{ctx: c, hw: &notifyHW{nt: nt, refs: 1, key: key, node: &nodeNotify{dir: dir, ref: ref, entry: entry, gen: gen}}}
	n.h = notifies.Add(n)
	core.RegisterHandle(core.TableNotifies, n.h, n.ctx, "notify")
	ctxNotifies.Add(n.ctx, n)
	*out = n.h
	return nil
}

// nodeRecordTask / nodeWaitTask are the record and wait of an exported or
// imported notify.
func nodeNotifyRecordTask(l *nodeNotify) tsfw.Task {
	return tsfw.HostTask(func() error { emu.NodeNotifyRecord(l.entry); return nil })
}

func nodeNotifyWaitTask(l *nodeNotify, timeout time.Duration) tsfw.Task {
	return tsfw.HostTask(func() error { return l.dir.NodeNotifyWait(l.entry, l.gen, timeout) })
}
