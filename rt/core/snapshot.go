package core

import (
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
	Mu     sync.Mutex // guards the fields; never held while a callback runs
	Cbs    [abi.ACL_RT_SNAPSHOT_UNLOCK_POST + 1][]SnapshotCB
	Locked bool
	Backup []SnapshotBlock // the saved allocations
	Node   *emu.Node       // the node of the backup; nil before any
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
	cbs := slices.Clone(SnapshotState.Cbs[stage])
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
