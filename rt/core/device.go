package core

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
)

// Device is the runtime's view of one emulated device.
type Device struct {
	ID  int32
	Emu *emu.Device

	// Guarded by Runtime.Mu.
	Refs       int      // aclrtSetDevice reference count (process-wide)
	Primary    *Context // default context; nil when released
	Forced     bool     // aclrtResetDeviceForce released it; cleared by the next SetDevice
	contexts   map[*Context]struct{}
	NStreams   int // streams alive on the device, default streams included
	NEvents    int
	nextStream int32
	ResLimit   map[int32]uint32

	AllocMu sync.RWMutex // guards allocs
	Allocs  map[uintptr]Allocation
}

// MaxPeers is the driver's limit of enabled peers per device (A1/A2/A3/310P).
const MaxPeers = 8

// openDeviceLocked returns the runtime device id (already checked against
// the device count), opening it on first use. Precondition: Runtime.Mu
// held.
func openDeviceLocked(fn string, id int32) (*Device, error) {
	n, err := TheNode()
	if err != nil {
		return nil, abi.Wrapf(err, "%s: emulator configuration", fn)
	}
	if id < 0 || int(id) >= n.DeviceCount() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range (the node has %d devices)", fn, id, n.DeviceCount())
	}
	for len(Runtime.Devs) <= int(id) {
		Runtime.Devs = append(Runtime.Devs, nil)
	}
	if d := Runtime.Devs[id]; d != nil {
		return d, nil
	}
	ed, err := n.Device(int(id))
	if err != nil {
		return nil, abi.Wrapf(err, "%s: device %d", fn, id)
	}
	d := &Device{ID: id, Emu: ed, contexts: map[*Context]struct{}{},
		ResLimit: map[int32]uint32{}, Allocs: map[uintptr]Allocation{}}
	Runtime.Devs[id] = d
	return d, nil
}

// SoC returns the node's SoC (creating the node if needed).
func SoC(fn string) (emu.SoC, *emu.Node, error) {
	n, err := TheNode()
	if err != nil {
		return emu.SoC{}, nil, abi.Wrapf(err, "%s: emulator configuration", fn)
	}
	return n.SoC(), n, nil
}

// SetDeviceLocked takes a reference on device id and returns its primary
// context, creating it (and its default stream) on the first reference.
// Precondition: Runtime.Mu held.
func SetDeviceLocked(fn string, id int32) (*Context, error) {
	return setDeviceLocked(fn, id, DeviceLocked)
}

// setDeviceLocked is SetDeviceLocked over a device lookup (DeviceLocked,
// or KnownDeviceLocked for the lazy open of a default device).
func setDeviceLocked(fn string, id int32, lookup func(string, int32) (*Device, error)) (*Context, error) {
	d, err := lookup(fn, id)
	if err != nil {
		return nil, err
	}
	if d.Primary == nil {
		c, err := NewContextLocked(fn, d, true)
		if err != nil {
			return nil, err
		}
		d.Primary = c
		d.Forced = false
		Register(tableDevices, Record{ID: uint64(id), Device: int(id),
			Summary: d.Emu.SoC.Name + " set by aclrtSetDevice and not reset"})
	}
	d.Refs++
	return d.Primary, nil
}

// ErrUninitialized is the error of the calls that need aclInit: those that
// create a context (aclrtSetDevice, aclrtCreateContext).
func ErrUninitialized(fn string) error {
	return abi.Errorf(abi.ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called (or aclFinalize has)", fn)
}

// ReleasePrimaryLocked destroys the primary context, waiting for its
// streams first when wait is set. Precondition: Runtime.Mu held.
func (d *Device) ReleasePrimaryLocked(wait bool) {
	if d.Primary == nil {
		return
	}
	clearDeviceLost(d.ID)     // a reset recovers the device
	clearInjectedFaults(d.ID) // faults.go
	d.Primary.DestroyLocked(wait)
	d.Primary = nil
	Unregister(tableDevices, uint64(d.ID))
}

// ReleaseAllLocked destroys every context and frees every allocation of d
// (aclFinalize). Precondition: Runtime.Mu held.
func (d *Device) ReleaseAllLocked() {
	for c := range d.contexts {
		c.DestroyLocked(false)
	}
	d.Primary = nil
	d.Refs = 0
	DropDeferred(d)
	clearDeviceLost(d.ID)
	clearInjectedFaults(d.ID) // faults.go
	d.AllocMu.Lock()
	for base, a := range d.Allocs {
		if a.HAL && hal.Release(base) {
			// Directly, not through an interposed halMemFree: locks are held.
			_ = hal.MemFree(base)
			continue
		}
		_, _ = d.Emu.HBM.Free(base)
	}
	d.Allocs = map[uintptr]Allocation{}
	d.AllocMu.Unlock()
	Unregister(tableDevices, uint64(d.ID))
}

// OpenDevice returns device id, opened (for calls that read its state).
func OpenDevice(fn string, id int32) (*Device, error) {
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	return DeviceLocked(fn, id)
}

// MsTimeout converts an ACL millisecond timeout (−1 forever) to tsfw's.
func MsTimeout(ms int32) time.Duration {
	if ms < 0 {
		return -1
	}
	return time.Duration(ms) * time.Millisecond
}

// lostDevices holds the devices lost (an injected loss or heartbeat
// failure, faults.go) until they are reset: every call on such a device
// gets the error recorded here.
var lostDevices struct {
	mu sync.Mutex
	m  map[int32]error
	n  atomic.Int32 // len(m): the hot check is one atomic load
}

// MarkDeviceLost makes every later call on device dev fail with err, until
// the device is reset; a device already lost keeps its first error.
func MarkDeviceLost(dev int32, err error) {
	lostDevices.mu.Lock()
	defer lostDevices.mu.Unlock()
	if _, ok := lostDevices.m[dev]; ok {
		return
	}
	if lostDevices.m == nil {
		lostDevices.m = map[int32]error{}
	}
	lostDevices.m[dev] = err
	lostDevices.n.Add(1)
}

// deviceLost returns the error every call on device dev gets after it was
// lost, nil otherwise. One atomic load when none is lost (inlined).
func deviceLost(fn string, dev int32) error {
	if lostDevices.n.Load() == 0 {
		return nil
	}
	return lostError(fn, dev)
}

func lostError(fn string, dev int32) error {
	lostDevices.mu.Lock()
	err := lostDevices.m[dev]
	lostDevices.mu.Unlock()
	if err == nil {
		return nil
	}
	return abi.Wrapf(err, "%s", fn)
}

// clearDeviceLost forgets that device dev was lost (aclrtResetDevice,
// aclFinalize).
func clearDeviceLost(dev int32) {
	if lostDevices.n.Load() == 0 {
		return
	}
	lostDevices.mu.Lock()
	defer lostDevices.mu.Unlock()
	if _, ok := lostDevices.m[dev]; ok {
		delete(lostDevices.m, dev)
		lostDevices.n.Add(-1)
	}
}

// ForgetLostDevices forgets every lost device (a new fault plan at aclInit).
func ForgetLostDevices() {
	lostDevices.mu.Lock()
	defer lostDevices.mu.Unlock()
	clear(lostDevices.m)
	lostDevices.n.Store(0)
}

// Allocation is one aclrtMalloc* block. The device's allocation map is the
// registry of record for allocations (see registry.go).
type Allocation struct {
	Base   uintptr
	Size   uint64 // bytes the caller may use: the padded size (ALIGN_UP(size,32)[+32])
	Pages  uint64 // bytes charged to HBM: size rounded to the page granularity
	Policy uint32
	Huge   bool   // backed by 2 MiB / 1 GiB pages
	Module uint16 // moduleId charged (acl/memusage.go)
	HAL    bool   // a halMemAlloc block claimed by rtMalloc (memory.go)
}

// Allocations returns d's allocations ordered by address.
func (d *Device) Allocations() []Allocation {
	d.AllocMu.RLock()
	out := make([]Allocation, 0, len(d.Allocs))
	for _, a := range d.Allocs {
		out = append(out, a)
	}
	d.AllocMu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Base < out[j].Base })
	return out
}

// String describes an allocation for messages.
func (a Allocation) String() string {
	return fmt.Sprintf("%#x (%d bytes)", a.Base, a.Size)
}

func SynchronizeDeviceTimeout(t *Thread, fn string, timeoutMs int32) error {
	c, err := Current(t, fn)
	if err != nil {
		return err
	}
	if err := deviceGuard(c.Dev, fn); err != nil {
		return err
	}
	if err := c.Dev.Emu.TS.SynchronizeTurn(MsTimeout(timeoutMs), &t.turn); err != nil {
		return abi.Wrapf(err, "%s: device %d", fn, c.Dev.ID)
	}
	if Sanitizing {
		SanitizeSyncDevice(t, c.Dev)
	}
	PoolsSyncedDevice(c.Dev) // memory pools' RELEASE_THRESHOLD (rt/core/mempool.go)
	return ManagedSynchronized(fn, c.Dev)
}

// DriverPeer reports whether the driver's switch connects devices a and b
// in either direction: copies and aclrtMemP2PMap accept it as peer access.
func DriverPeer(a, b int32) bool {
	if a < 0 || b < 0 {
		return false
	}
	return hal.P2PEnabled(uint32(a), uint32(b)) || hal.P2PEnabled(uint32(b), uint32(a))
}

// GetDeviceCount implements aclrtGetDeviceCount.
func GetDeviceCount(t *Thread, count *uint32) error {
	if count == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count must not be NULL")
	}
	c, err := DeviceCount("aclrtGetDeviceCount")
	if err != nil {
		return err
	}
	*count = uint32(c)
	return nil
}

// RuntimeSetDevice is rtSetDevice: aclrtSetDevice without the ACL's
// aclInit requirement (the runtime boots on its first call).
func RuntimeSetDevice(t *Thread, id int32) error { return SetDeviceFiring(t, id, false) }

func SetDeviceFiring(t *Thread, id int32, needInit bool) error {
	FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_SET_PRE)
	err := setDevice(t, id, needInit)
	FlushStreamStates()
	if err == nil {
		FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_SET_POST)
	}
	return err
}

func setDevice(t *Thread, id int32, needInit bool) error {
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	if needInit && Runtime.InitRefs == 0 {
		return ErrUninitialized("aclrtSetDevice")
	}
	c, err := SetDeviceLocked("aclrtSetDevice", id)
	if err != nil {
		return err
	}
	t.Ctx = c
	return nil
}

// ResetDevice implements aclrtResetDevice.
func ResetDevice(t *Thread, id int32) error {
	FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_PRE)
	FireStreamsDestroyPre(func() []*Stream { return PrimaryReleasedLocked(id, false) })
	if err := resetDevice(t, id); err != nil {
		return err
	}
	FireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_POST)
	return nil
}

func resetDevice(t *Thread, id int32) error {
	Runtime.Mu.Lock()
	defer Runtime.Mu.Unlock()
	d, err := DeviceLocked("aclrtResetDevice", id)
	if err != nil {
		return err
	}
	if d.Refs == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "aclrtResetDevice: device %d is not set (no aclrtSetDevice reference left)", id)
	}
	d.Refs--
	if d.Refs == 0 {
		d.ReleasePrimaryLocked(true)
	}
	if t.Ctx != nil && t.Ctx.Dead.Load() {
		t.Ctx = nil
	}
	return nil
}

// GetDevice implements aclrtGetDevice.
func GetDevice(t *Thread, id *int32) error {
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId must not be NULL")
	}
	c, err := Current(t, "aclrtGetDevice")
	if err != nil {
		return err
	}
	*id = c.Dev.ID
	return nil
}

// SynchronizeDevice implements aclrtSynchronizeDevice.
func SynchronizeDevice(t *Thread) error {
	return SynchronizeDeviceTimeout(t, "aclrtSynchronizeDevice", -1)
}

// SynchronizeDeviceWithTimeout implements
// aclrtSynchronizeDeviceWithTimeout: timeout in ms, −1 = forever.
func SynchronizeDeviceWithTimeout(t *Thread, timeoutMs int32) error {
	const fn = "aclrtSynchronizeDeviceWithTimeout"
	if err := CheckTimeout(fn, timeoutMs); err != nil {
		return err
	}
	return SynchronizeDeviceTimeout(t, fn, timeoutMs)
}

// CheckTimeout validates a millisecond timeout: −1 (forever) or > 0.
func CheckTimeout(fn string, ms int32) error {
	if ms < -1 || ms == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d: want -1 (forever) or > 0 ms", fn, ms)
	}
	return nil
}
