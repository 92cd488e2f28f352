package acl

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
)

// device is the runtime's view of one emulated device.
type device struct {
	id  int32
	emu *emu.Device

	// Guarded by rt.mu.
	refs       int      // aclrtSetDevice reference count (process-wide)
	primary    *Context // default context; nil when released
	forced     bool     // aclrtResetDeviceForce released it; cleared by the next SetDevice
	contexts   map[*Context]struct{}
	nstreams   int // streams alive on the device, default streams included
	nevents    int
	nextStream int32
	resLimit   map[int32]uint32

	allocMu sync.RWMutex // guards allocs
	allocs  map[uintptr]allocation
}

// maxPeers is the driver's limit of enabled peers per device (A1/A2/A3/310P).
const maxPeers = 8

// deviceLocked returns the runtime device id, opening it on first use.
// Precondition: rt.mu held.
func deviceLocked(fn string, id int32) (*device, error) {
	n, err := theNode()
	if err != nil {
		return nil, abi.Wrapf(err, "%s: emulator configuration", fn)
	}
	if id < 0 || int(id) >= n.DeviceCount() {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range (the node has %d devices)", fn, id, n.DeviceCount())
	}
	for len(rt.devs) <= int(id) {
		rt.devs = append(rt.devs, nil)
	}
	if d := rt.devs[id]; d != nil {
		return d, nil
	}
	ed, err := n.Device(int(id))
	if err != nil {
		return nil, abi.Wrapf(err, "%s: device %d", fn, id)
	}
	d := &device{id: id, emu: ed, contexts: map[*Context]struct{}{},
		resLimit: map[int32]uint32{}, allocs: map[uintptr]allocation{}}
	rt.devs[id] = d
	return d, nil
}

// soc returns the node's SoC (creating the node if needed).
func soc(fn string) (emu.SoC, *emu.Node, error) {
	n, err := theNode()
	if err != nil {
		return emu.SoC{}, nil, abi.Wrapf(err, "%s: emulator configuration", fn)
	}
	return n.SoC(), n, nil
}

// SocName implements aclrtGetSocName (works before aclInit).
func SocName(t *Thread) (string, error) {
	s, _, err := soc("aclrtGetSocName")
	if err != nil {
		return "", err
	}
	return s.Name, nil
}

// GetDeviceCount implements aclrtGetDeviceCount.
func GetDeviceCount(t *Thread, count *uint32) error {
	if count == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count must not be NULL")
	}
	_, n, err := soc("aclrtGetDeviceCount")
	if err != nil {
		return err
	}
	*count = uint32(n.DeviceCount())
	return nil
}

// GetRunMode implements aclrtGetRunMode: the emulated devices are always
// host-attached.
func GetRunMode(t *Thread, mode *int32) error {
	if mode == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: runMode must not be NULL")
	}
	*mode = abi.ACL_HOST
	return nil
}

// SetDevice implements aclrtSetDevice.
func SetDevice(t *Thread, id int32) error { return setDeviceFiring(t, id, true) }

// RuntimeSetDevice is rtSetDevice: aclrtSetDevice without the ACL's
// aclInit requirement (the runtime boots on its first call).
func RuntimeSetDevice(t *Thread, id int32) error { return setDeviceFiring(t, id, false) }

func setDeviceFiring(t *Thread, id int32, needInit bool) error {
	fireDeviceState(id, abi.ACL_RT_DEVICE_STATE_SET_PRE)
	err := setDevice(t, id, needInit)
	flushStreamStates()
	if err == nil {
		fireDeviceState(id, abi.ACL_RT_DEVICE_STATE_SET_POST)
	}
	return err
}

func setDevice(t *Thread, id int32, needInit bool) error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if needInit && rt.initRefs == 0 {
		return errUninitialized("aclrtSetDevice")
	}
	c, err := setDeviceLocked("aclrtSetDevice", id)
	if err != nil {
		return err
	}
	t.Ctx = c
	return nil
}

// setDeviceLocked takes a reference on device id and returns its primary
// context, creating it (and its default stream) on the first reference.
// Precondition: rt.mu held.
func setDeviceLocked(fn string, id int32) (*Context, error) {
	d, err := deviceLocked(fn, id)
	if err != nil {
		return nil, err
	}
	if d.primary == nil {
		c, err := newContextLocked(fn, d, true)
		if err != nil {
			return nil, err
		}
		d.primary = c
		d.forced = false
		register(tableDevices, record{ID: uint64(id), Device: int(id),
			Summary: fmt.Sprintf("%s set by aclrtSetDevice and not reset", d.emu.SoC.Name)})
	}
	d.refs++
	return d.primary, nil
}

// errUninitialized is the error of the calls that need aclInit: those that
// create a context (aclrtSetDevice, aclrtCreateContext).
func errUninitialized(fn string) error {
	return abi.Errorf(abi.ACL_ERROR_UNINITIALIZE, "%s: aclInit has not been called (or aclFinalize has)", fn)
}

// ResetDevice implements aclrtResetDevice.
func ResetDevice(t *Thread, id int32) error {
	fireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_PRE)
	fireStreamsDestroyPre(func() []*Stream { return primaryReleasedLocked(id, false) })
	if err := resetDevice(t, id); err != nil {
		return err
	}
	fireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_POST)
	return nil
}

func resetDevice(t *Thread, id int32) error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	d, err := deviceLocked("aclrtResetDevice", id)
	if err != nil {
		return err
	}
	if d.refs == 0 {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "aclrtResetDevice: device %d is not set (no aclrtSetDevice reference left)", id)
	}
	d.refs--
	if d.refs == 0 {
		d.releasePrimaryLocked(true)
	}
	if t.Ctx != nil && t.Ctx.dead.Load() {
		t.Ctx = nil
	}
	return nil
}

// ResetDeviceForce implements aclrtResetDeviceForce: it releases the
// primary context whatever the reference count, once.
func ResetDeviceForce(t *Thread, id int32) error {
	fireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_PRE)
	fireStreamsDestroyPre(func() []*Stream { return primaryReleasedLocked(id, true) })
	if err := resetDeviceForce(t, id); err != nil {
		return err
	}
	fireDeviceState(id, abi.ACL_RT_DEVICE_STATE_RESET_POST)
	return nil
}

func resetDeviceForce(t *Thread, id int32) error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	d, err := deviceLocked("aclrtResetDeviceForce", id)
	if err != nil {
		return err
	}
	if d.refs == 0 {
		if d.forced {
			return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "aclrtResetDeviceForce: device %d was already released by aclrtResetDeviceForce", id)
		}
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "aclrtResetDeviceForce: device %d is not set", id)
	}
	d.refs = 0
	d.forced = true
	d.releasePrimaryLocked(true)
	if t.Ctx != nil && t.Ctx.dead.Load() {
		t.Ctx = nil
	}
	return nil
}

// releasePrimaryLocked destroys the primary context, waiting for its
// streams first when wait is set. Precondition: rt.mu held.
func (d *device) releasePrimaryLocked(wait bool) {
	if d.primary == nil {
		return
	}
	clearDeviceFaults(d.id) // faults.go: a reset recovers the device
	d.primary.destroyLocked(wait)
	d.primary = nil
	unregister(tableDevices, uint64(d.id))
}

// releaseAllLocked destroys every context and frees every allocation of d
// (aclFinalize). Precondition: rt.mu held.
func (d *device) releaseAllLocked() {
	for c := range d.contexts {
		c.destroyLocked(false)
	}
	d.primary = nil
	d.refs = 0
	dropDeferred(d)
	clearDeviceFaults(d.id)
	d.allocMu.Lock()
	for base, a := range d.allocs {
		if a.hal && hal.Release(base) {
			// Directly, not through an interposed halMemFree: locks are held.
			_ = hal.MemFree(base)
			continue
		}
		_, _ = d.emu.HBM.Free(base)
	}
	d.allocs = map[uintptr]allocation{}
	d.allocMu.Unlock()
	unregister(tableDevices, uint64(d.id))
}

// GetDevice implements aclrtGetDevice.
func GetDevice(t *Thread, id *int32) error {
	if id == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId must not be NULL")
	}
	c, err := current(t, "aclrtGetDevice")
	if err != nil {
		return err
	}
	*id = c.dev.id
	return nil
}

// QueryDeviceStatus implements aclrtQueryDeviceStatus: an emulated device
// is always healthy.
func QueryDeviceStatus(t *Thread, id int32, status *int32) error {
	if status == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtQueryDeviceStatus: deviceStatus must not be NULL")
	}
	if err := checkDeviceID("aclrtQueryDeviceStatus", id); err != nil {
		return err
	}
	*status = abi.ACL_RT_DEVICE_STATUS_NORMAL
	return nil
}

// checkDeviceID validates id against the node without opening the device.
func checkDeviceID(fn string, id int32) error {
	_, n, err := soc(fn)
	if err != nil {
		return err
	}
	if id < 0 || int(id) >= n.DeviceCount() {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: device id %d out of range (the node has %d devices)", fn, id, n.DeviceCount())
	}
	return nil
}

// openDevice returns device id, opened (for calls that read its state).
func openDevice(fn string, id int32) (*device, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return deviceLocked(fn, id)
}

// SynchronizeDevice implements aclrtSynchronizeDevice.
func SynchronizeDevice(t *Thread) error {
	return synchronizeDevice(t, "aclrtSynchronizeDevice", -1)
}

// SynchronizeDeviceWithTimeout implements
// aclrtSynchronizeDeviceWithTimeout: timeout in ms, −1 = forever.
func SynchronizeDeviceWithTimeout(t *Thread, timeoutMs int32) error {
	const fn = "aclrtSynchronizeDeviceWithTimeout"
	if err := checkTimeout(fn, timeoutMs); err != nil {
		return err
	}
	return synchronizeDevice(t, fn, timeoutMs)
}

// checkTimeout validates a millisecond timeout: −1 (forever) or > 0.
func checkTimeout(fn string, ms int32) error {
	if ms < -1 || ms == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: timeout %d: want -1 (forever) or > 0 ms", fn, ms)
	}
	return nil
}

func synchronizeDevice(t *Thread, fn string, timeoutMs int32) error {
	c, err := current(t, fn)
	if err != nil {
		return err
	}
	if err := c.dev.deviceGuard(fn); err != nil {
		return err
	}
	if err := c.dev.emu.TS.Synchronize(msTimeout(timeoutMs)); err != nil {
		return abi.Wrapf(err, "%s: device %d", fn, c.dev.id)
	}
	if sanitizing {
		sanitizeSyncDevice(t, c.dev)
	}
	poolsSyncedDevice(c.dev) // memory pools' RELEASE_THRESHOLD (mempool.go)
	return managedSynchronized(fn, c.dev)
}

// msTimeout converts an ACL millisecond timeout (−1 forever) to tsfw's.
func msTimeout(ms int32) time.Duration {
	if ms < 0 {
		return -1
	}
	return time.Duration(ms) * time.Millisecond
}

// DeviceGetStreamPriorityRange implements aclrtDeviceGetStreamPriorityRange.
func DeviceGetStreamPriorityRange(t *Thread, least, greatest *int32) error {
	if least == nil || greatest == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetStreamPriorityRange: leastPriority and greatestPriority must not be NULL")
	}
	s, _, err := soc("aclrtDeviceGetStreamPriorityRange")
	if err != nil {
		return err
	}
	*least, *greatest = int32(s.PriorityLeast), int32(s.PriorityGreatest)
	return nil
}

// DeviceGetBareTgid implements aclrtDeviceGetBareTgid: the process id as
// the device sees it (no container namespace here).
func DeviceGetBareTgid(t *Thread, pid *int32) error {
	if pid == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetBareTgid: pid must not be NULL")
	}
	*pid = int32(os.Getpid())
	return nil
}

// CheckArchCompatibility implements aclrtCheckArchCompatibility: a binary
// built for socVersion runs here when its NPU architecture equals the
// emulated SoC's.
func CheckArchCompatibility(t *Thread, socVersion string, haveSoc bool, can *int32) error {
	if !haveSoc || can == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCheckArchCompatibility: socVersion and canCompatible must not be NULL")
	}
	s, _, err := soc("aclrtCheckArchCompatibility")
	if err != nil {
		return err
	}
	other, ok := emu.LookupSoC(socVersion)
	if !ok {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtCheckArchCompatibility: unknown SoC version %q", socVersion)
	}
	*can = 0
	if other.NpuArch == s.NpuArch {
		*can = 1
	}
	return nil
}

// GetErrorVerbose implements aclrtGetErrorVerbose: the emulated hardware
// raises no memory/link errors, so it reports ACL_RT_NO_ERROR.
func GetErrorVerbose(t *Thread, id int32, info *ErrorInfo) error {
	if info == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "aclrtGetErrorVerbose: errorInfo must not be NULL")
	}
	if err := checkDeviceID("aclrtGetErrorVerbose", id); err != nil {
		return err
	}
	*info = ErrorInfo{ErrorType: abi.ACL_RT_NO_ERROR}
	return nil
}
