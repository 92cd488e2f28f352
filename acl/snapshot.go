package acl

import (
	"os"
	"slices"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
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

type snapshotCB struct {
	key uintptr // the C function pointer, the callback's identity
	fn  core.SnapshotFunc
}

// snapshotBlock is the saved content of one device allocation.
type snapshotBlock struct {
	dev   *core.Device
	base  uintptr
	bytes []byte
}

var snapshot struct {
	mu     sync.Mutex // guards the fields; never held while a callback runs
	cbs    [abi.ACL_RT_SNAPSHOT_UNLOCK_POST + 1][]snapshotCB
	locked bool
	backup []snapshotBlock // the saved allocations
	node   *emu.Node       // the node of the backup; nil before any
}

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

// openedDevices returns the runtime's opened devices by id.
func openedDevices() []*core.Device {
	core.Runtime.Mu.Lock()
	defer core.Runtime.Mu.Unlock()
	var out []*core.Device
	for _, d := range core.Runtime.Devs {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

// runSnapshotStage calls stage's callbacks for every opened device.
func runSnapshotStage(fn string, stage int32, devs []*core.Device) error {
	snapshot.mu.Lock()
	cbs := slices.Clone(snapshot.cbs[stage])
	snapshot.mu.Unlock()
	for _, d := range devs {
		for _, cb := range cbs {
			if r := cb.fn(d.ID); r != 0 {
				return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, "%s: the callback %#x of stage %d returned %d for device %d", fn, cb.key, stage, r, d.ID)
			}
		}
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
	snapshot.mu.Lock()
	defer snapshot.mu.Unlock()
	if slices.ContainsFunc(snapshot.cbs[stage], func(c snapshotCB) bool { return c.key == key }) {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED, "%s: callback %#x is already registered for stage %d", fn, key, stage)
	}
	snapshot.cbs[stage] = append(slices.Clone(snapshot.cbs[stage]), snapshotCB{key: key, fn: cb})
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
	snapshot.mu.Lock()
	defer snapshot.mu.Unlock()
	i := slices.IndexFunc(snapshot.cbs[stage], func(c snapshotCB) bool { return c.key == key })
	if i < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: callback %#x is not registered for stage %d", fn, key, stage)
	}
	snapshot.cbs[stage] = slices.Delete(slices.Clone(snapshot.cbs[stage]), i, i+1)
	return nil
}

// SnapShotProcessLock implements aclrtSnapShotProcessLock: LOCK_PRE
// callbacks, then every opened device drains.
func SnapShotProcessLock(t *core.Thread, pid int32) error {
	const fn = "aclrtSnapShotProcessLock"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	snapshot.mu.Lock()
	locked := snapshot.locked
	snapshot.mu.Unlock()
	if locked {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: the process is already locked", fn)
	}
	devs := openedDevices()
	if err := runSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_LOCK_PRE, devs); err != nil {
		return err
	}
	for _, d := range devs {
		if err := d.Emu.TS.Synchronize(core.MsTimeout(-1)); err != nil {
			return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: device %d: %s", fn, d.ID, abi.MessageOf(err))
		}
	}
	snapshot.mu.Lock()
	defer snapshot.mu.Unlock()
	if snapshot.locked {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: the process was locked concurrently", fn)
	}
	snapshot.locked = true
	return nil
}

// SnapShotProcessUnlock implements aclrtSnapShotProcessUnlock.
func SnapShotProcessUnlock(t *core.Thread, pid int32) error {
	const fn = "aclrtSnapShotProcessUnlock"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	snapshot.mu.Lock()
	if !snapshot.locked {
		snapshot.mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, "%s: the process is not locked", fn)
	}
	snapshot.locked = false
	snapshot.mu.Unlock()
	return runSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_UNLOCK_POST, openedDevices())
}

// requireLocked fails with code unless the process is locked.
func requireLocked(fn string, code abi.Code) error {
	snapshot.mu.Lock()
	defer snapshot.mu.Unlock()
	if !snapshot.locked {
		return abi.Errorf(code, "%s: lock the process first (aclrtSnapShotProcessLock)", fn)
	}
	return nil
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
	if err := requireLocked(fn, abi.ACL_ERROR_SNAPSHOT_BACKUP_FAILED); err != nil {
		return err
	}
	devs := openedDevices()
	if err := runSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_BACKUP_PRE, devs); err != nil {
		return err
	}
	var blocks []snapshotBlock
	for _, d := range devs {
		for _, a := range d.Allocations() {
			b := make([]byte, a.Size)
			copy(b, hostBytes(a.Base, a.Size))
			blocks = append(blocks, snapshotBlock{dev: d, base: a.Base, bytes: b})
		}
	}
	snapshot.mu.Lock()
	snapshot.backup, snapshot.node = blocks, core.Runtime.Node.Load()
	snapshot.mu.Unlock()
	return runSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_BACKUP_POST, devs)
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
	if err := requireLocked(fn, abi.ACL_ERROR_SNAPSHOT_RESTORE_FAILED); err != nil {
		return err
	}
	snapshot.mu.Lock()
	blocks, node := snapshot.backup, snapshot.node
	snapshot.mu.Unlock()
	if node == nil || node != core.Runtime.Node.Load() {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "%s: no backup of this runtime (aclrtSnapShotProcessBackup)", fn)
	}
	devs := openedDevices()
	if err := runSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_RESTORE_PRE, devs); err != nil {
		return err
	}
	for _, b := range blocks {
		live := false
		for _, a := range b.dev.Allocations() {
			if a.Base == b.base && a.Size == uint64(len(b.bytes)) {
				live = true
				break
			}
		}
		if live {
			copy(hostBytes(b.base, uint64(len(b.bytes))), b.bytes)
		}
	}
	return runSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_RESTORE_POST, devs)
}
