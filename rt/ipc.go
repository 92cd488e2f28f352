package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// IpcMemGetExportKey implements rtsIpcMemGetExportKey: size bytes of device
// memory exported under a key (flags RT_IPC_MEM_FLAG_DEFAULT or
// RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION), as
// aclrtIpcMemGetExportKey.
func IpcMemGetExportKey(t *core.Thread, ptr uintptr, size uint64, keyBuf bool, keyLen uint64, flags uint64) (string, error) {
	const fn = "rtsIpcMemGetExportKey"
	var f uint64
	switch flags {
	case abi.RT_IPC_MEM_FLAG_DEFAULT:
		f = abi.ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT
	case abi.RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION:
		f = abi.ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION
	default:
		return "", invalid(fn, "flags %#x: RT_IPC_MEM_FLAG_DEFAULT or RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION", flags)
	}
	if ptr == 0 || !keyBuf {
		return "", invalid(fn, "ptr and key must not be NULL")
	}
	k, err := acl.IpcMemGetExportKey(t, ptr, size, keyBuf, keyLen, f)
	return k, wrap(fn, err)
}

// IpcMemClose implements rtsIpcMemClose: an import of key, or after the
// last import the export itself, as aclrtIpcMemClose.
func IpcMemClose(t *core.Thread, key string, null bool) error {
	return wrap("rtsIpcMemClose", acl.IpcMemClose(t, key, null))
}

// IpcMemImportByKey implements rtsIpcMemImportByKey (flags
// RT_IPC_MEM_FLAG_DEFAULT or RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS).
func IpcMemImportByKey(t *core.Thread, out *uintptr, key string, null bool, flags uint64) error {
	const fn = "rtsIpcMemImportByKey"
	var f uint64
	switch flags {
	case abi.RT_IPC_MEM_FLAG_DEFAULT:
		f = abi.ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT
	case abi.RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS:
		f = abi.ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS
	default:
		return invalid(fn, "flags %#x: RT_IPC_MEM_FLAG_DEFAULT or RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS", flags)
	}
	if out == nil {
		return invalid(fn, "ptr must not be NULL")
	}
	return wrap(fn, acl.IpcMemImportByKey(t, out, key, null, f))
}

// IpcMemSetImportPid implements rtsIpcMemSetImportPid: the processes
// allowed to import key.
func IpcMemSetImportPid(t *core.Thread, key string, null bool, pids []int32) error {
	return wrap("rtsIpcMemSetImportPid", acl.IpcMemSetImportPid(t, key, null, pids))
}
