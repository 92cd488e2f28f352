package core

import (
	"os"
	"slices"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// SnapshotFunc is an aclrtSnapShotCallBack bound to its args.
type SnapshotFunc func(dev int32) uint32

type SnapshotCB struct {
	Key uintptr // the C function pointer, the callback's identity
	Fn  SnapshotFunc
}

// SnapshotBlock is the saved content of one device allocation.
type SnapshotBlock struct {
	Dev   *Device
	Base  uintptr
	Bytes []byte
}

var SnapshotState struct {
	Mu        sync.Mutex // guards the fields; never held while a callback runs
	Callbacks [abi.ACL_RT_SNAPSHOT_UNLOCK_POST + 1][]SnapshotCB
	Locked    bool
	Backup    []SnapshotBlock // the saved allocations
	Node      *emu.Node       // the node of the backup; nil before any
}

// OpenedDevices returns the runtime's opened devices by id.
func OpenedDevices() []*Device {
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	var out []*Device
	for _, d := range Runtime.Devs {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

// RunSnapshotStage calls stage's callbacks for every opened device.
func RunSnapshotStage(fn string, stage int32, devs []*Device) error {
	SnapshotState.Mu.Lock()
	cbs := slices.Clone(SnapshotState.Callbacks[stage])
	SnapshotState.Mu.Unlock()
	for _, d := range devs {
		for _, cb := range cbs {
			if r := cb.Fn(d.ID); r != 0 {
				return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_CALLBACK_FAILED, "%s: the callback %#x of stage %d returned %d for device %d", fn, cb.Key, stage, r, d.ID)
			}
		}
	}
	return nil
}

// RequireLocked fails with code unless the process is locked.
func RequireLocked(fn string, code abi.Code) error {
	SnapshotState.Mu.Lock()
	defer SnapshotState.Mu.Unlock()
	if !SnapshotState.Locked {
		return abi.Errorf(code, "%s: lock the process first (aclrtSnapShotProcessLock)", fn)
	}
	return nil
}

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
func SnapShotCallbackRegister(t *Thread, stage int32, key uintptr, cb SnapshotFunc) error {
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
	SnapshotState.Mu.Lock()
	defer SnapshotState.Mu.Unlock()
	if slices.ContainsFunc(SnapshotState.Callbacks[stage], func(c SnapshotCB) bool { return c.Key == key }) {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED, "%s: callback %#x is already registered for stage %d", fn, key, stage)
	}
	SnapshotState.Callbacks[stage] = append(slices.Clone(SnapshotState.Callbacks[stage]), SnapshotCB{Key: key, Fn: cb})
	return nil
}

// SnapShotCallbackUnregister implements aclrtSnapShotCallbackUnregister.
func SnapShotCallbackUnregister(t *Thread, stage int32, key uintptr) error {
	const fn = "aclrtSnapShotCallbackUnregister"
	if err := CheckSoC(fn); err != nil {
		return err
	}
	if stage < 0 || stage > abi.ACL_RT_SNAPSHOT_UNLOCK_POST {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: stage %d is not an aclrtSnapShotStage (0..%d)", fn, stage, abi.ACL_RT_SNAPSHOT_UNLOCK_POST)
	}
	SnapshotState.Mu.Lock()
	defer SnapshotState.Mu.Unlock()
	i := slices.IndexFunc(SnapshotState.Callbacks[stage], func(c SnapshotCB) bool { return c.Key == key })
	if i < 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: callback %#x is not registered for stage %d", fn, key, stage)
	}
	SnapshotState.Callbacks[stage] = slices.Delete(slices.Clone(SnapshotState.Callbacks[stage]), i, i+1)
	return nil
}

// SnapShotProcessLock implements aclrtSnapShotProcessLock: LOCK_PRE
// callbacks, then every opened device drains.
func SnapShotProcessLock(t *Thread, pid int32) error {
	const fn = "aclrtSnapShotProcessLock"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	SnapshotState.Mu.Lock()
	locked := SnapshotState.Locked
	SnapshotState.Mu.Unlock()
	if locked {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: the process is already locked", fn)
	}
	devs := OpenedDevices()
	if err := RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_LOCK_PRE, devs); err != nil {
		return err
	}
	for _, d := range devs {
		if err := d.Emu.TS.Synchronize(MsTimeout(-1)); err != nil {
			return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: device %d: %s", fn, d.ID, abi.MessageOf(err))
		}
	}
	SnapshotState.Mu.Lock()
	defer SnapshotState.Mu.Unlock()
	if SnapshotState.Locked {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: the process was locked concurrently", fn)
	}
	SnapshotState.Locked = true
	return nil
}

// SnapShotProcessUnlock implements aclrtSnapShotProcessUnlock.
func SnapShotProcessUnlock(t *Thread, pid int32) error {
	const fn = "aclrtSnapShotProcessUnlock"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	SnapshotState.Mu.Lock()
	if !SnapshotState.Locked {
		SnapshotState.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, "%s: the process is not locked", fn)
	}
	SnapshotState.Locked = false
	SnapshotState.Mu.Unlock()
	return RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_UNLOCK_POST, OpenedDevices())
}

// SnapShotProcessBackup implements aclrtSnapShotProcessBackup: the content
// of every ACL device allocation, between the BACKUP_PRE and BACKUP_POST
// callbacks.
func SnapShotProcessBackup(t *Thread, pid int32, haveArgs bool) error {
	const fn = "aclrtSnapShotProcessBackup"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	if !haveArgs {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: args must not be NULL", fn)
	}
	if err := RequireLocked(fn, abi.ACL_ERROR_SNAPSHOT_BACKUP_FAILED); err != nil {
		return err
	}
	devs := OpenedDevices()
	if err := RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_BACKUP_PRE, devs); err != nil {
		return err
	}
	var blocks []SnapshotBlock
	for _, d := range devs {
		for _, a := range d.Allocations() {
			b := make([]byte, a.Size)
			copy(b, HostBytes(a.Base, a.Size))
			blocks = append(blocks, SnapshotBlock{Dev: d, Base: a.Base, Bytes: b})
		}
	}
	SnapshotState.Mu.Lock()
	SnapshotState.Backup, SnapshotState.Node = blocks, Runtime.Node.Load()
	SnapshotState.Mu.Unlock()
	return RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_BACKUP_POST, devs)
}

// SnapShotProcessRestore implements aclrtSnapShotProcessRestore: the
// backed-up content of each allocation that still exists, between the
// RESTORE_PRE and RESTORE_POST callbacks.
func SnapShotProcessRestore(t *Thread, pid int32, haveArgs bool) error {
	const fn = "aclrtSnapShotProcessRestore"
	if err := snapshotPID(fn, pid); err != nil {
		return err
	}
	if !haveArgs {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: args must not be NULL", fn)
	}
	if err := RequireLocked(fn, abi.ACL_ERROR_SNAPSHOT_RESTORE_FAILED); err != nil {
		return err
	}
	SnapshotState.Mu.Lock()
	blocks, node := SnapshotState.Backup, SnapshotState.Node
	SnapshotState.Mu.Unlock()
	if node == nil || node != Runtime.Node.Load() {
		return abi.Errorf(abi.ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "%s: no backup of this runtime (aclrtSnapShotProcessBackup)", fn)
	}
	devs := OpenedDevices()
	if err := RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_RESTORE_PRE, devs); err != nil {
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
			copy(HostBytes(b.Base, uint64(len(b.Bytes))), b.Bytes)
		}
	}
	return RunSnapshotStage(fn, abi.ACL_RT_SNAPSHOT_RESTORE_POST, devs)
}
