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

const notifyKeyPrefix = "npuemu-notify-"

// exportNodeNotify enters n in the node's table (once) and names the key
// after the entry. No-op on a private node. Precondition: notifyMu held.
func exportNodeNotify(n *core.Notify, pidCheck bool) error {
	dir := n.Ctx.Dev.Emu.HBM.NodeDir()
	if dir == nil || n.Hw.Node != nil {
		return nil
	}
	ref, entry, err := dir.ExportNotify(n.Ctx.Dev.Emu.PhysID(), pidCheck)
	if err != nil {
		return err
	}
	n.Hw.Node = &core.NodeNotify{Dir: dir, Ref: ref, Entry: entry, Gen: entry.Generation, Exporter: true}
	if n.Hw.Key != "" {
		delete(core.NotifyKeys, n.Hw.Key)
	}
	n.Hw.Key = fmt.Sprintf("%s%d-%x", notifyKeyPrefix, os.Getpid(), ref.Code())
	core.NotifyKeys[n.Hw.Key] = n
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
	if err := core.CheckNotifyRoom(fn, c); err != nil {
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
	core.NotifyMu.Lock()
	defer core.NotifyMu.Unlock()
	n := &core.Notify{Ctx: c, Hw: &core.NotifyHW{TSNotify: nt, Refs: 1, Key: key, Node: &core.NodeNotify{Dir: dir, Ref: ref, Entry: entry, Gen: gen}}}
	n.H = core.Notifies.Add(n)
	core.RegisterHandle(core.TableNotifies, n.H, n.Ctx, "notify")
	core.CtxNotifies.Add(n.Ctx, n)
	*out = n.H
	return nil
}

// nodeRecordTask / nodeWaitTask are the record and wait of an exported or
// imported notify.
func nodeNotifyRecordTask(l *core.NodeNotify) tsfw.Task {
	return tsfw.HostTask(func() error { emu.NodeNotifyRecord(l.Entry); return nil })
}

func nodeNotifyWaitTask(l *core.NodeNotify, timeout time.Duration) tsfw.Task {
	return tsfw.HostTask(func() error { return l.Dir.NodeNotifyWait(l.Entry, l.Gen, timeout) })
}
