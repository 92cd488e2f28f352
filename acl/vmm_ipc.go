package acl

import (
	"encoding/binary"
	"strings"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
)

// Memory sharing between processes, modelled inside one process
// (semantics.md §11 "Physical sharing", §13, §21.14):
//
//   - shareable handles (aclrtMemExportToShareableHandle → SetPid →
//     aclrtMemImportFromShareableHandle) give a new physical handle to the
//     same memory; mapping it gives an alias of the exporter's mapping;
//   - IPC keys (aclrtIpcMemGetExportKey → aclrtIpcMemSetImportPid →
//     aclrtIpcMemImportByKey) map plain device memory at a new address
//     aliasing the exporter's.
//
// The importer is this very process, so the pid whitelist is checked
// against os.Getpid(): a program whitelists its own pid (or exports with
// pid validation disabled), as a second process would have to. Sharing
// with another process is not modelled (docs/vmm.md).

// ipcKeyLen is the size of an IPC export key buffer.
const ipcKeyLen = emu.ShmemNameLen

// The shareable-handle calls do their work through the driver's
// halMem{Export,Import}*ShareableHandle* and halMemSetPidToShareableHandle
// (rt/stack: an interposed definition sees them). The V2 ACL and rt calls
// (fn ending in "V2") make the V2 driver calls, which carry the DEFAULT
// handle in the first 8 bytes of a struct MemShareHandle; the others the
// uint64_t ones. The ACL export flags are the driver's (0: pid whitelist,
// 1: no pid validation).

// isV2 reports whether fn is one of the V2 sharing calls.
func isV2(fn string) bool { return strings.HasSuffix(fn, "V2") }

// MemExportToShareableHandle implements aclrtMemExportToShareableHandle
// (handleType is an aclrtMemHandleType) and the DEFAULT share type of
// aclrtMemExportToShareableHandleV2 (fn names which, see isV2).
func MemExportToShareableHandle(t *core.Thread, fn string, h uint64, handleType uint32, flags uint64, out *uint64) error {
	switch {
	case h == 0 || out == nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle and shareableHandle must not be NULL", fn)
	case handleType != abi.ACL_MEM_HANDLE_TYPE_NONE:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handleType %d: only ACL_MEM_HANDLE_TYPE_NONE", fn, handleType)
	case flags != abi.ACL_RT_VMM_EXPORT_FLAG_DEFAULT && flags != abi.ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: DEFAULT (0) or DISABLE_PID_VALIDATION (1)", fn, flags)
	}
	if _, err := theVMM(fn); err != nil {
		return err
	}
	var s uint64
	if isV2(fn) {
		var sh hal.MemShareHandle
		if err := stack.ExportToShareableHandleV2(h, abi.MEM_HANDLE_TYPE_NONE, flags, &sh); err != nil {
			return core.DriverErr(fn, err)
		}
		s = binary.LittleEndian.Uint64(sh.Share_info[:8])
	} else if err := stack.ExportToShareableHandle(h, abi.MEM_HANDLE_TYPE_NONE, flags, &s); err != nil {
		return core.DriverErr(fn, err)
	}
	*out = s
	return nil
}

// checkShareType accepts ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT (a uint64_t
// handle); FABRIC handles cross servers, which one process cannot model.
func checkShareType(fn string, st uint32) error {
	switch st {
	case abi.ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT:
		return nil
	case abi.ACL_MEM_SHARE_HANDLE_TYPE_FABRIC:
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: FABRIC handles (sharing across servers) are not supported by npuemu", fn)
	}
	return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: shareType %d is not an aclrtMemSharedHandleType", fn, st)
}

// CheckShareType is checkShareType for libfake, which reads the handle
// only once the type is known.
func CheckShareType(fn string, st uint32) error { return checkShareType(fn, st) }

// MemImportFromShareableHandle implements aclrtMemImportFromShareableHandle
// (and V2 with deviceId −1: the calling thread's device).
func MemImportFromShareableHandle(t *core.Thread, fn string, s uint64, deviceID int32, flags uint64, out *uint64) error {
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: handle must not be NULL", fn)
	}
	if flags != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: must be 0", fn, flags)
	}
	if deviceID < 0 {
		c, err := core.Current(t, fn)
		if err != nil {
			return err
		}
		deviceID = c.Dev.ID
	} else if err := core.CheckDeviceID(fn, deviceID); err != nil {
		return err
	}
	v, err := theVMM(fn)
	if err != nil {
		return err
	}
	var h uint64
	if isV2(fn) {
		var sh hal.MemShareHandle
		binary.LittleEndian.PutUint64(sh.Share_info[:8], s)
		err = stack.ImportFromShareableHandleV2(abi.MEM_HANDLE_TYPE_NONE, &sh, uint32(deviceID), &h)
	} else {
		err = stack.ImportFromShareableHandle(s, uint32(deviceID), &h)
	}
	if err != nil {
		return core.DriverErr(fn, err)
	}
	var size uint64
	if _, sz, err := v.Prop(h); err == nil {
		size = sz
	}
	registerImported(h, s, size, int(deviceID))
	*out = h
	return nil
}

// MemSetPidToShareableHandle implements aclrtMemSetPidToShareableHandle(V2).
func MemSetPidToShareableHandle(t *core.Thread, fn string, s uint64, pids []int32) error {
	if len(pids) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pid must not be NULL and pidNum not 0", fn)
	}
	if _, err := theVMM(fn); err != nil {
		return err
	}
	// halMemSetPidToShareableHandle across the library boundary (both
	// rtMemSetPidToShareableHandle and its V2 make it).
	return core.DriverErr(fn, stack.SetPidToShareableHandle(s, pids))
}

// IpcMemGetExportKey implements aclrtIpcMemGetExportKey: size bytes of
// device memory from the start of an allocation are exported under a key
// of at most 64 characters, returned NUL-terminated in a 65-byte buffer.
// The work is the driver's (rtsIpcMemGetExportKey → halShmemCreateHandle,
// and halShmemSetAttribute(SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER) for
// DISABLE_PID_VALIDATION, across the library boundary), so the driver's
// rule applies: the address is the start of a device allocation.
func IpcMemGetExportKey(t *core.Thread, devPtr uintptr, size uint64, keyBuf bool, keyLen uint64, flags uint64) (string, error) {
	const fn = "aclrtIpcMemGetExportKey"
	switch {
	case devPtr == 0 || !keyBuf:
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devPtr and key must not be NULL", fn)
	case size == 0:
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	case keyLen != ipcKeyLen:
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: len %d: the key buffer is %d bytes", fn, keyLen, ipcKeyLen)
	case flags != abi.ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT && flags != abi.ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION:
		return "", abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: DEFAULT (0) or DISABLE_PID_VALIDATION (1)", fn, flags)
	}
	_, n, err := core.SoC(fn)
	if err != nil {
		return "", err
	}
	name, err := stack.ShmemCreateHandle(devPtr, size, ipcKeyLen)
	if err != nil {
		return "", core.DriverErr(fn, err)
	}
	if flags == abi.ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION {
		if err := stack.ShmemSetAttribute(name, abi.SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER, abi.SHMEM_NO_WLIST_ENABLE); err != nil {
			_ = stack.ShmemDestroyHandle(name) // the export is withdrawn: the call failed
			return "", core.DriverErr(fn, err)
		}
	}
	core.VMMShare.Mu.Lock()
	core.IpcState(n)
	core.VMMShare.Exported[name] = true
	core.VMMShare.Mu.Unlock()
	return name, nil
}

func checkKey(fn, key string, null bool) error {
	if null || key == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: key must not be NULL or empty", fn)
	}
	if len(key) >= ipcKeyLen {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: key is longer than %d characters", fn, ipcKeyLen-1)
	}
	return nil
}

// IpcMemSetImportPid implements aclrtIpcMemSetImportPid.
func IpcMemSetImportPid(t *core.Thread, key string, null bool, pids []int32) error {
	const fn = "aclrtIpcMemSetImportPid"
	if err := checkKey(fn, key, null); err != nil {
		return err
	}
	if len(pids) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pid must not be NULL and num not 0", fn)
	}
	if _, err := theVMM(fn); err != nil {
		return err
	}
	// halShmemSetPidHandle across the library boundary (rtsIpcMemSetImportPid).
	return core.DriverErr(fn, stack.ShmemSetPidHandle(key, pids))
}

// IpcMemSetAttr implements aclrtIpcMemSetAttr (ACCESS_LINK: the link
// importers use; recorded, every link reaches the same memory here).
func IpcMemSetAttr(t *core.Thread, key string, null bool, typ uint32, attr uint64) error {
	const fn = "aclrtIpcMemSetAttr"
	if err := checkKey(fn, key, null); err != nil {
		return err
	}
	if typ != abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: type %d is not an aclrtIpcMemAttrType", fn, typ)
	}
	if attr > abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: access link %d out of range (0..%d)", fn, attr, abi.ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH)
	}
	if _, _, err := core.SoC(fn); err != nil {
		return err
	}
	// halShmemSetAttribute(SHMEM_ATTR_TYPE_MEM_MAP) across the library
	// boundary (rtIpcSetMemoryAttr).
	return core.DriverErr(fn, stack.ShmemSetAttribute(key, abi.SHMEM_ATTR_TYPE_MEM_MAP, accessLinkMapPath(attr)))
}

// IpcMemImportByKey implements aclrtIpcMemImportByKey: the exported memory
// at a new address of this process.
func IpcMemImportByKey(t *core.Thread, out *uintptr, key string, null bool, flags uint64) error {
	const fn = "aclrtIpcMemImportByKey"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devPtr must not be NULL", fn)
	}
	if err := checkKey(fn, key, null); err != nil {
		return err
	}
	if flags != abi.ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT && flags != abi.ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: DEFAULT (0) or ENABLE_PEER_ACCESS (1)", fn, flags)
	}
	_, n, err := core.SoC(fn)
	if err != nil {
		return err
	}
	// halShmemOpenHandle across the library boundary
	// (rtsIpcMemImportByKey): the memory is opened for the exporter's
	// device, which every emulated device reaches.
	var p uintptr
	if err := stack.ShmemOpenHandle(key, &p); err != nil {
		return core.DriverErr(fn, err)
	}
	core.VMMShare.Mu.Lock()
	core.IpcState(n)
	core.VMMShare.Imports[key] = append(core.VMMShare.Imports[key], p)
	core.VMMShare.Mu.Unlock()
	*out = p
	return nil
}

// IpcMemClose implements aclrtIpcMemClose. Both sides call it, importers
// first: in this one process a key's imports are closed first (the most
// recent one per call), and the call after the last import withdraws the
// export itself.
func IpcMemClose(t *core.Thread, key string, null bool) error {
	const fn = "aclrtIpcMemClose"
	if err := checkKey(fn, key, null); err != nil {
		return err
	}
	_, n, err := core.SoC(fn)
	if err != nil {
		return err
	}
	core.VMMShare.Mu.Lock()
	core.IpcState(n)
	list := core.VMMShare.Imports[key]
	if k := len(list); k > 0 {
		p := list[k-1]
		if k == 1 {
			delete(core.VMMShare.Imports, key)
		} else {
			core.VMMShare.Imports[key] = list[:k-1]
		}
		core.VMMShare.Mu.Unlock()
		// halShmemCloseHandle across the library boundary (rtsIpcMemClose).
		return core.DriverErr(fn, stack.ShmemCloseHandle(p))
	}
	mine := core.VMMShare.Exported[key]
	delete(core.VMMShare.Exported, key)
	core.VMMShare.Mu.Unlock()
	if !mine {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: key %q was neither exported nor imported by this process (closed already?)", fn, key)
	}
	// halShmemDestroyHandle across the library boundary (rtsIpcMemClose).
	return core.DriverErr(fn, stack.ShmemDestroyHandle(key))
}
