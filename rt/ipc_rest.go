package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// IPC memory attributes and the inter-server whitelists (Atlas A3).

// IpcSetMemoryAttr implements rtIpcSetMemoryAttr: an attribute of the IPC
// memory exported under name; type 0 is the access link (aclrtIpcMemSetAttr
// passes its aclrtIpcMemAttrType and link values unchanged: SIO, HCCS, UB
// one-port, UB multi-port). Every link reaches the same memory in npuemu:
// the link is recorded for the importers, as aclrtIpcMemSetAttr does.
func IpcSetMemoryAttr(t *core.Thread, name string, null bool, typ uint32, attr uint64) error {
	const fn = "rtIpcSetMemoryAttr"
	if null {
		return invalid(fn, "name must not be NULL")
	}
	return wrap(fn, acl.IpcMemSetAttr(t, name, null, typ, attr))
}

// ServerPids is one rtServerPid: the super-pod device id of a server and
// the processes there (nil for a NULL pid array).
type ServerPids struct {
	SDID uint32
	Pids []int32
}

// interServer checks the arguments of an inter-server whitelist call and
// gives the runtime's answer: IPC across servers exists on Atlas A3 only
// (elsewhere the runtime refuses it with ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
// and npuemu models the one server of its node, with no super-pod device
// ids, so an A3 refuses it as well (as aclrtIpcMemImportPidInterServer and
// aclrtNotifySetImportPidInterServer do).
func interServer(fn string, sp []ServerPids) error {
	if len(sp) == 0 {
		return invalid(fn, "serverPids must not be NULL and num must be > 0")
	}
	for i, s := range sp {
		if len(s.Pids) == 0 {
			return invalid(fn, "serverPids[%d]: pid must not be NULL and num must be > 0", i)
		}
	}
	soc, _, err := core.SoC(fn)
	if err != nil {
		return wrap(fn, err)
	}
	if soc.Family != emu.FamilyA3 {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: inter-server IPC exists on Atlas A3 only, not on %s", fn, soc.Name)
	}
	return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: npuemu models one server (no super-pod device ids): there is no other server to share with", fn)
}

// IpcMemImportPidInterServer implements rtIpcMemImportPidInterServer: the
// processes of other servers allowed to import key (see interServer).
func IpcMemImportPidInterServer(t *core.Thread, key string, null bool, sp []ServerPids) error {
	const fn = "rtIpcMemImportPidInterServer"
	if null || key == "" {
		return invalid(fn, "key must not be NULL or empty")
	}
	return interServer(fn, sp)
}

// NotifySetImportPidInterServer implements rtNotifySetImportPidInterServer:
// the processes of other servers allowed to import the notify's key (see
// interServer).
func NotifySetImportPidInterServer(t *core.Thread, n core.Handle, sp []ServerPids) error {
	const fn = "rtNotifySetImportPidInterServer"
	if n == 0 {
		return invalid(fn, "notify must not be NULL")
	}
	return interServer(fn, sp)
}
