package rt

import (
	"os"

	"github.com/npuemu/npuemu/rt/core"
)

// The runtime's process-snapshot calls act on the calling process (they
// take no pid); the state, the callbacks and the decisions are
// acl/snapshot.go's (docs/groups.md). The stage numbering is the same.

// SnapShotProcessLock implements rtSnapShotProcessLock.
func SnapShotProcessLock(t *core.Thread) error {
	return wrap("rtSnapShotProcessLock", core.SnapShotProcessLock(t, int32(os.Getpid())))
}

// SnapShotProcessUnlock implements rtSnapShotProcessUnlock.
func SnapShotProcessUnlock(t *core.Thread) error {
	return wrap("rtSnapShotProcessUnlock", core.SnapShotProcessUnlock(t, int32(os.Getpid())))
}

// SnapShotProcessBackup implements rtSnapShotProcessBackup.
func SnapShotProcessBackup(t *core.Thread) error {
	return wrap("rtSnapShotProcessBackup", core.SnapShotProcessBackup(t, int32(os.Getpid()), true))
}

// SnapShotProcessRestore implements rtSnapShotProcessRestore.
func SnapShotProcessRestore(t *core.Thread) error {
	return wrap("rtSnapShotProcessRestore", core.SnapShotProcessRestore(t, int32(os.Getpid()), true))
}

// SnapShotCallbackRegister implements rtSnapShotCallbackRegister.
func SnapShotCallbackRegister(t *core.Thread, stage int32, key uintptr, cb core.SnapshotFunc) error {
	return wrap("rtSnapShotCallbackRegister", core.SnapShotCallbackRegister(t, stage, key, cb))
}

// SnapShotCallbackUnregister implements rtSnapShotCallbackUnregister.
func SnapShotCallbackUnregister(t *core.Thread, stage int32, key uintptr) error {
	return wrap("rtSnapShotCallbackUnregister", core.SnapShotCallbackUnregister(t, stage, key))
}
