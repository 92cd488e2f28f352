package acl

import "github.com/npuemu/npuemu/rt/core"

// SnapShotCallbackRegister implements aclrtSnapShotCallbackRegister; the
// runtime does the work (core.SnapShotCallbackRegister, which the rt* API
// calls too).
func SnapShotCallbackRegister(t *core.Thread, stage int32, key uintptr, cb core.SnapshotFunc) error {
	return core.SnapShotCallbackRegister(t, stage, key, cb)
}

// SnapShotCallbackUnregister implements aclrtSnapShotCallbackUnregister; the
// runtime does the work (core.SnapShotCallbackUnregister, which the rt* API
// calls too).
func SnapShotCallbackUnregister(t *core.Thread, stage int32, key uintptr) error {
	return core.SnapShotCallbackUnregister(t, stage, key)
}

// SnapShotProcessLock implements aclrtSnapShotProcessLock; the runtime does
// the work (core.SnapShotProcessLock, which the rt* API calls too).
func SnapShotProcessLock(t *core.Thread, pid int32) error { return core.SnapShotProcessLock(t, pid) }

// SnapShotProcessUnlock implements aclrtSnapShotProcessUnlock; the runtime
// does the work (core.SnapShotProcessUnlock, which the rt* API calls too).
func SnapShotProcessUnlock(t *core.Thread, pid int32) error {
	return core.SnapShotProcessUnlock(t, pid)
}

// SnapShotProcessBackup implements aclrtSnapShotProcessBackup; the runtime
// does the work (core.SnapShotProcessBackup, which the rt* API calls too).
func SnapShotProcessBackup(t *core.Thread, pid int32, haveArgs bool) error {
	return core.SnapShotProcessBackup(t, pid, haveArgs)
}

// SnapShotProcessRestore implements aclrtSnapShotProcessRestore; the runtime
// does the work (core.SnapShotProcessRestore, which the rt* API calls too).
func SnapShotProcessRestore(t *core.Thread, pid int32, haveArgs bool) error {
	return core.SnapShotProcessRestore(t, pid, haveArgs)
}
