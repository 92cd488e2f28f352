package acl

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

// releasePrimaryLocked destroys the primary context, waiting for its
// streams first when wait is set. Precondition: rt.mu held.
func (d *device) releasePrimaryLocked(wait bool) {
	if d.primary == nil {
		return
	}
	clearDeviceLost(d.id) // a reset recovers the device
	families.deviceReset(d)
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
	families.deviceFinalized(d)
	clearDeviceLost(d.id)
	families.deviceReset(d)
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

// msTimeout converts an ACL millisecond timeout (−1 forever) to tsfw's.
func msTimeout(ms int32) time.Duration {
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

// markDeviceLost makes every later call on device dev fail with err, until
// the device is reset; a device already lost keeps its first error.
func markDeviceLost(dev int32, err error) {
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
// lost, nil otherwise. One atomic load when none is lost.
func deviceLost(fn string, dev int32) error {
	if lostDevices.n.Load() == 0 {
		return nil
	}
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

// forgetLostDevices forgets every lost device (a new fault plan at aclInit).
func forgetLostDevices() {
	lostDevices.mu.Lock()
	defer lostDevices.mu.Unlock()
	clear(lostDevices.m)
	lostDevices.n.Store(0)
}

// allocation is one aclrtMalloc* block. The device's allocation map is the
// registry of record for allocations (see registry.go).
type allocation struct {
	base   uintptr
	size   uint64 // bytes the caller may use: the padded size (ALIGN_UP(size,32)[+32])
	pages  uint64 // bytes charged to HBM: size rounded to the page granularity
	policy uint32
	huge   bool   // backed by 2 MiB / 1 GiB pages
	module uint16 // moduleId charged (memusage.go)
	hal    bool   // a halMemAlloc block claimed by rtMalloc (rtmem.go)
}

// allocations returns d's allocations ordered by address.
func (d *device) allocations() []allocation {
	d.allocMu.RLock()
	out := make([]allocation, 0, len(d.allocs))
	for _, a := range d.allocs {
		out = append(out, a)
	}
	d.allocMu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].base < out[j].base })
	return out
}

// String describes an allocation for messages.
func (a allocation) String() string {
	return fmt.Sprintf("%#x (%d bytes)", a.base, a.size)
}
