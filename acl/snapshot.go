package acl

import (
	"os"
	"slices"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// Process snapshots (aclrtSnapShotProcessLock/Unlock/Backup/Restore,
// aclrtSnapShotCallbackRegister/Unregister; 950/A3/A2 per the spec). The
// documented use is checkpointing a process: lock it (its device work
// drains), back its device state up to the host, and after a restart
// restore it and unlock. Decisions (docs/groups.md, "Process snapshots"):
//   - pid must be the calling process: npuemu's devices live in it;
//   - Lock waits until every opened device's queued work has run;
//   - Backup copies every ACL device allocation (aclrtMalloc family) of
//     every opened device to host memory; Restore writes each one back, an
//     allocation freed since is skipped, a new one left alone; managed,
//     VMM and HAL memory are not part of it;
//   - the registered callbacks of a stage run for each opened device, in
//     device order then registration order, with (deviceId, args); a
//     non-zero return stops the call with ACL_ERROR_SNAPSHOT_CALLBACK_FAILED;
//   - order errors: Lock while locked → ACL_ERROR_SNAPSHOT_LOCK_FAILED,
//     Unlock while unlocked → ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, Backup
//     while unlocked → ACL_ERROR_SNAPSHOT_BACKUP_FAILED, Restore while
//     unlocked or without a backup → ACL_ERROR_SNAPSHOT_RESTORE_FAILED;
//   - task submission is not blocked while locked (the lock is the
//     application's promise, as the documentation asks it to stop issuing
//     work first).

// snapshotPID checks pid and the SoC for fn.
func snapshotPID(fn string, pid int32) error {
	if err := CheckSoC(fn); err != nil {
		return err
	}
	if int(pid) != os.Getpid() {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: pid %d: npuemu snapshots only the calling process (%d), whose devices it emulates", fn, pid, os.Getpid())
	}
	return nil
}

// SnapShotCallbackRegister implements aclrtSnapShotCallbackRegister.
func SnapShotCallbackRegister(t *core.Thread, stage int32, key uintptr, cb core.SnapshotFunc) error {
	const fn = "aclrtSnapShotCallbackRegister"
	if err := CheckSoC(fn); err != nil {
		return err
	}
	if stage < 0 || stage > abi.ACL_RT_SNAPSHOT_UNLOCK_POST {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stage %d is not an aclrtSnapShotStage (0..%d)", fn, stage, abi.ACL_RT_SNAPSHOT_UNLOCK_POST)
	}
	if key == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: callback must not be NULL", fn)
	}
	core.SnapshotState.Mu.Lock()
	defer core.SnapshotState.Mu.Unlock()
	if slices.ContainsFunc(core.SnapshotState.Cbs[stage], func(c core.SnapshotCB) bool { return c.Key == key }) {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED, "%s: callback %#x is already registered for stage %d", fn, key, stage)
	}
	core.SnapshotState.Cbs[stage] = append(slices.Clone(core.SnapshotState.Cbs[stage]), core.SnapshotCB{Key: key, Fn: cb})
	return nil
}

// SnapShotCallbackUnregister implements aclrtSnapShotCallbackUnregister.
func SnapShotCallbackUnregister(t *core.Thread, stage int32, key uintptr) error {
	const fn = "aclrtSnapShotCallbackUnregister"
	if err := CheckSoC(fn); err != nil {
		return err
	}
	if stage < 0 || stage > abi.ACL_RT_SNAPSHOT_UNLOCK_POST {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stage %d is not an aclrtSnapShotStage (0..%d)", fn, stage, abi.ACL_RT_SNAPSHOT_UNLOCK_POST)
	}
	core.SnapshotState.Mu.Lock()
	defer core.SnapshotState.Mu.Unlock()
	i := slices.IndexFunc(core.SnapshotState.Cbs[stage], func(c core.SnapshotCB) bool { return c.Key == key })
	if i < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: callback %#x is not registered for stage %d", fn, key, stage)
	}
	core.SnapshotState.Cbs[stage] = slices.Delete(slices.Clone(core.SnapshotState.Cbs[stage]), i, i+1)
	return nil
}

// SnapShotProcessLock implements aclrtSnapShotProcessLock: LOCK_PRE
// callbacks, then every opened device drains.
func SnapShotProcessLock(t *core.Thread, pid int32) error {
	const fn = "aclrtSnapShotProcessLock"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	core.SnapshotState.Mu.Lock()
	locked := core.SnapshotState.Locked
	core.SnapshotState.Mu.Unlock()
	if locked {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: the process is already locked", fn)
	}
	devs := core.OpenedDevices()
	if err := core.RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_LOCK_PRE, devs); err != nil {
		return err
	}
	for _, d := range devs {
		if err := d.Emu.TS.Synchronize(core.MsTimeout(-1)); err != nil {
			return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: device %d: %s", fn, d.ID, abi.MessageOf(err))
		}
	}
	core.SnapshotState.Mu.Lock()
	defer core.SnapshotState.Mu.Unlock()
	if core.SnapshotState.Locked {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: the process was locked concurrently", fn)
	}
	core.SnapshotState.Locked = true
	return nil
}

// SnapShotProcessUnlock implements aclrtSnapShotProcessUnlock.
func SnapShotProcessUnlock(t *core.Thread, pid int32) error {
	const fn = "aclrtSnapShotProcessUnlock"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	core.SnapshotState.Mu.Lock()
	if !core.SnapshotState.Locked {
		core.SnapshotState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, "%s: the process is not locked", fn)
	}
	core.SnapshotState.Locked = false
	core.SnapshotState.Mu.Unlock()
	return core.RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_UNLOCK_POST, core.OpenedDevices())
}

// SnapShotProcessBackup implements aclrtSnapShotProcessBackup: the content
// of every ACL device allocation, between the BACKUP_PRE and BACKUP_POST
// callbacks.
func SnapShotProcessBackup(t *core.Thread, pid int32, haveArgs bool) error {
	const fn = "aclrtSnapShotProcessBackup"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	if !haveArgs {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: args must not be NULL", fn)
	}
	if err := core.RequireLocked(fn, abi.ACL_ERROR_SNAPSHOT_BACKUP_FAILED); err != nil {
		return err
	}
	devs := core.OpenedDevices()
	if err := core.RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_BACKUP_PRE, devs); err != nil {
		return err
	}
	var blocks []core.SnapshotBlock
	for _, d := range devs {
		for _, a := range d.Allocations() {
			b := make([]byte, a.Size)
			copy(b, hostBytes(a.Base, a.Size))
			blocks = append(blocks, core.SnapshotBlock{Dev: d, Base: a.Base, Bytes: b})
		}
	}
	core.SnapshotState.Mu.Lock()
	core.SnapshotState.Backup, core.SnapshotState.Node = blocks, core.Runtime.Node.Load()
	core.SnapshotState.Mu.Unlock()
	return core.RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_BACKUP_POST, devs)
}

// SnapShotProcessRestore implements aclrtSnapShotProcessRestore: the
// backed-up content of each allocation that still exists, between the
// RESTORE_PRE and RESTORE_POST callbacks.
func SnapShotProcessRestore(t *core.Thread, pid int32, haveArgs bool) error {
	const fn = "aclrtSnapShotProcessRestore"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	if !haveArgs {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: args must not be NULL", fn)
	}
	if err := core.RequireLocked(fn, abi.ACL_ERROR_SNAPSHOT_RESTORE_FAILED); err != nil {
		return err
	}
	core.SnapshotState.Mu.Lock()
	blocks, node := core.SnapshotState.Backup, core.SnapshotState.Node
	core.SnapshotState.Mu.Unlock()
	if node == nil || node != core.Runtime.Node.Load() {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "%s: no backup of this runtime (aclrtSnapShotProcessBackup)", fn)
	}
	devs := core.OpenedDevices()
	if err := core.RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_RESTORE_PRE, devs); err != nil {
		return err
	}
	for _, b := range blocks {
		live := false
		for _, a := range b.Dev.Allocations() {
			if a.Base == b.Base && a.Size == uint64(len(b.Bytes)) {
				live = true
				break
			}
		}
		if live {
			copy(hostBytes(b.Base, uint64(len(b.Bytes))), b.Bytes)
		}
	}
	return core.RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_RESTORE_POST, devs)
}
