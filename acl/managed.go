package acl

import (
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/hal"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/stack"
	"github.com/npuemu/npuemu/svm"
)

// Managed memory (semantics.md §12, docs/svm.md). Allocations live in the
// node's svm Space (emu.SVM); this file is the ACL face of it.
//
// Device-side faults happen when a device operation is submitted, in
// submission order, like every other virtual-time decision of tsfw: the
// operation's managed ranges are faulted in on its device (svm Access),
// held reachable until it completes (svm Hold, for mprotect mode), and the
// modelled cost is charged on its stream by a one-block charge task queued
// in front of it. What the operations touch:
//
//   - a kernel launch: every managed allocation its argument blob points
//     into (any 8-byte-aligned word of the blob holding an address inside
//     one), whole, for writing — a kernel may write anything it is given —
//     except ranges advised read-mostly, which it is assumed to read;
//   - an asynchronous copy or memset: its managed operands on the stream's
//     device;
//   - a synchronous copy: the managed operand on the device of the other
//     operand when that is device memory, else the host (a host copy);
//     a synchronous memset on the current device. Having no stream, their
//     fault time is charged at once on the device clock (tsfw ChargeNow).
//
// In explicit host fault mode a successful synchronize (stream, event,
// device) writes back the pages its device left dirty
// (managedSynchronized). aclrtMemP2PMap gives a peer device a mapping of
// managed pages (MemP2PMap).
//
// A stream being captured into a model records no managed access: replays
// fault, if at all, through the host fault handler.

// AllocManaged implements aclrtMemAllocManaged: size rounded up to 2 MiB,
// resident on the host until first touched, not initialised.
func AllocManaged(t *core.Thread, out *uintptr, size uint64, flag uint32) error {
	const fn = "aclrtMemAllocManaged"
	switch {
	case out == nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	case size == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	case size > svm.ManagedSize:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size %d exceeds the 3 TB of managed memory a process may have", fn, size)
	case flag != abi.ACL_RT_MEM_ATTACH_GLOBAL:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flag %d: only ACL_RT_MEM_ATTACH_GLOBAL (1) is accepted", fn, flag)
	}
	if _, err := core.Current(t, fn); err != nil {
		return err
	}
	g, err := core.ManagedSVM(fn)
	if err != nil {
		return err
	}
	p, err := g.Alloc(size, fn)
	if err != nil {
		return core.WrapWithAPI(fn, err)
	}
	*out = p
	return nil
}

// managedRange checks that [p, p+size) is managed memory: the window
// check comes first so that ordinary pointers get a clear message.
func managedRange(fn string, p uintptr, size uint64) (*emu.SVM, error) {
	if p == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptr must not be NULL", fn)
	}
	if size == 0 {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size must not be 0", fn)
	}
	g := core.LoadedSVM()
	if g == nil || !g.Contains(p) {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is not managed memory (aclrtMemAllocManaged)", fn, p)
	}
	if _, _, ok := g.Lookup(p); !ok {
		return nil, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %#x is in the managed window but not allocated (freed?)", fn, p)
	}
	return g, nil
}

// location converts an aclrtMemManagedLocation and checks a device id
// against the driver's device count.
func location(fn string, l ManagedLocation) (svm.Location, error) {
	loc, err := managedLocation(fn, int32(l.Type), l.Id)
	if err != nil {
		return loc, err
	}
	if loc >= 0 {
		c, err := core.DeviceCount(fn) // the driver's count (drvGetDevNum)
		if err != nil {
			return loc, err
		}
		if int(loc) >= c {
			return loc, abi.Errorf(abi.ACL_ERROR_RT_INVALID_DEVICEID, "%s: location device %d: the driver reports %d devices", fn, loc, c)
		}
	}
	return loc, nil
}

// ManagedAdvise implements aclrtMemManagedAdvise.
func ManagedAdvise(t *core.Thread, p uintptr, size uint64, advise int32, l ManagedLocation) error {
	const fn = "aclrtMemManagedAdvise"
	if _, err := managedRange(fn, p, size); err != nil {
		return err
	}
	a, err := managedAdvice(fn, advise)
	if err != nil {
		return err
	}
	var dl hal.UVMLocation
	switch a {
	case svm.AdviseSetPreferredLocation, svm.AdviseSetAccessedBy, svm.AdviseUnsetAccessedBy:
		loc, err := location(fn, l)
		if err != nil {
			return err
		}
		dl = uvmLocation(loc)
	}
	// halMemManagedAdvise across the library boundary (rtMemManagedAdvise);
	// the aclrtMemManagedAdviseType values are the driver's
	// uvmMemAdviseType.
	return core.DriverErr(fn, stack.ManagedAdvise(p, size, uint32(advise), dl))
}

// uvmLocation is the driver's drv_uvm_location of a checked location.
func uvmLocation(l svm.Location) hal.UVMLocation {
	switch {
	case l == svm.Host:
		return hal.UVMLocation{Type: abi.DRV_UVM_LOCATION_TYPE_HOST}
	case l >= 0:
		return hal.UVMLocation{Type: abi.DRV_UVM_LOCATION_TYPE_DEVICE, Id: int32(l)}
	}
	return hal.UVMLocation{Type: abi.DRV_UVM_LOCATION_TYPE_INVALID}
}

// PrefetchAsync implements aclrtMemManagedPrefetchAsync: the range moves to
// the location when the call is made, in stream order with the stream's
// other managed accesses, and the migration time is charged on the stream.
func PrefetchAsync(t *core.Thread, p uintptr, size uint64, l ManagedLocation, flags uint32, sh core.Handle) error {
	const fn = "aclrtMemManagedPrefetchAsync"
	if flags != 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: must be 0", fn, flags)
	}
	return prefetchBatch(t, fn, []uintptr{p}, []uint64{size}, []ManagedLocation{l}, []uint64{0}, sh)
}

// PrefetchBatchAsync implements aclrtMemManagedPrefetchBatchAsync: locs[k]
// applies to items locIdxs[k] .. locIdxs[k+1]-1 (the last to the end), the
// index scheme of aclrtMemcpyBatch.
func PrefetchBatchAsync(t *core.Thread, ptrs []uintptr, sizes []uint64, locs []ManagedLocation, locIdxs []uint64, flags uint64, sh core.Handle) error {
	const fn = "aclrtMemManagedPrefetchBatchAsync"
	switch {
	case len(ptrs) == 0 || ptrs == nil || sizes == nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ptrs and sizes must not be NULL and count must be > 0", fn)
	case len(locs) == 0 || locIdxs == nil:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: prefetchLocs and prefetchLocIdxs must not be NULL and numPrefetchLocs must be > 0", fn)
	case len(locs) > len(ptrs):
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: numPrefetchLocs %d exceeds count %d", fn, len(locs), len(ptrs))
	case flags != 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags %#x: must be 0", fn, flags)
	}
	for k, i := range locIdxs {
		switch {
		case k == 0 && i != 0:
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: prefetchLocIdxs[0] is %d, must be 0", fn, i)
		case i >= uint64(len(ptrs)):
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: prefetchLocIdxs[%d] = %d is not below count %d", fn, k, i, len(ptrs))
		case k > 0 && i <= locIdxs[k-1]:
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: prefetchLocIdxs must increase strictly (index %d)", fn, k)
		}
	}
	return prefetchBatch(t, fn, ptrs, sizes, locs, locIdxs, sh)
}

func prefetchBatch(t *core.Thread, fn string, ptrs []uintptr, sizes []uint64, locs []ManagedLocation, locIdxs []uint64, sh core.Handle) error {
	type item struct {
		p    uintptr
		size uint64
		loc  svm.Location
	}
	items := make([]item, len(ptrs))
	var g *emu.SVM
	for k := range locs {
		end := uint64(len(ptrs))
		if k+1 < len(locIdxs) {
			end = locIdxs[k+1]
		}
		loc, err := location(fn, locs[k])
		if err != nil {
			return err
		}
		for i := locIdxs[k]; i < end; i++ {
			if g, err = managedRange(fn, ptrs[i], sizes[i]); err != nil {
				return abi.Errorf(abi.CodeOf(err), "%s (item %d)", abi.MessageOf(err), i)
			}
			items[i] = item{ptrs[i], sizes[i], loc}
		}
	}
	s, err := core.ResolveStream(t, fn, sh)
	if err != nil {
		return err
	}
	var cost time.Duration
	for i, it := range items {
		c, err := g.Prefetch(it.p, it.size, it.loc)
		cost += c
		if err != nil {
			return abi.Wrapf(err, "%s: item %d", fn, i)
		}
	}
	return core.ChargeManaged(s, fn, cost, nil)
}

// Managed range attribute sizes (semantics.md §12).
const attrWord = 4

// ManagedGetAttr implements aclrtMemManagedGetAttr: data holds dataSize
// bytes.
func ManagedGetAttr(t *core.Thread, attr int32, p uintptr, size uint64, data []byte) error {
	const fn = "aclrtMemManagedGetAttr"
	if err := checkManagedAttr(fn, attr, data); err != nil {
		return err
	}
	return managedAttrs(fn, []int32{attr}, p, size, [][]byte{data})
}

// ManagedGetAttrs implements aclrtMemManagedGetAttrs: data[i] holds
// dataSizes[i] bytes for attrs[i].
func ManagedGetAttrs(t *core.Thread, attrs []int32, p uintptr, size uint64, data [][]byte) error {
	const fn = "aclrtMemManagedGetAttrs"
	if len(attrs) == 0 || len(data) != len(attrs) {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attributes, data and dataSizes must not be NULL and numAttributes must be > 0", fn)
	}
	for i, a := range attrs {
		if err := checkManagedAttr(fn, a, data[i]); err != nil {
			return abi.Errorf(abi.CodeOf(err), "%s (attribute %d)", abi.MessageOf(err), i)
		}
	}
	return managedAttrs(fn, attrs, p, size, data)
}

// checkManagedAttr checks one attribute and its buffer as the ACL call
// does (the LAST_PREFETCH_* attributes are reserved by its documentation).
func checkManagedAttr(fn string, attr int32, data []byte) error {
	if data == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: data must not be NULL", fn)
	}
	need := uint64(attrWord)
	switch attr {
	case abi.ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, abi.ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
		abi.ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, abi.ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
		if uint64(len(data)) < need {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d needs dataSize >= %d, got %d", fn, attr, need, len(data))
		}
	case abi.ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY:
		if len(data) == 0 || len(data)%attrWord != 0 {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ACCESSED_BY needs a non-zero dataSize that is a multiple of 4, got %d", fn, len(data))
		}
	case abi.ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, abi.ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
		abi.ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: attribute %d (LAST_PREFETCH_*) is reserved", fn, attr)
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: %d is not an aclrtMemManagedRangeAttribute", fn, attr)
	}
	return nil
}

// managedAttrs answers checked attributes with one
// halMemManagedRangeGetAttributes across the library boundary
// (rtMemManagedGetAttr, rtMemManagedGetAttrs): the aclrtMemManagedRangeAttribute
// and aclrtMemManagedLocationType values are the driver's, so its answer
// is the program's.
func managedAttrs(fn string, attrs []int32, p uintptr, size uint64, data [][]byte) error {
	if _, err := managedRange(fn, p, size); err != nil {
		return err
	}
	da := make([]uint32, len(attrs))
	for i, a := range attrs {
		da[i] = uint32(a)
	}
	return core.DriverErr(fn, stack.ManagedRangeGetAttributes(data, da, p, size))
}

// MemP2PMap implements aclrtMemP2PMap: it maps [p, p+size) for device
// dstDevId, which must have peer access with the device holding the memory
// (docs/svm.md "aclrtMemP2PMap"). Managed memory is mapped page by page in
// the svm model (svm.Space.MapPeer), so the peer's accesses are remote
// accesses, not faults; the holding device is then the current one.
// Device memory is reachable by an enabled peer as it is, so for it the
// call only checks.
func MemP2PMap(t *core.Thread, p uintptr, size uint64, dstDevID int32, flags uint64) error {
	const fn = "aclrtMemP2PMap"
	switch {
	case p == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devPtr is NULL", fn)
	case size == 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: size is 0", fn)
	case flags != 0:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: flags must be 0, got %#x", fn, flags)
	}
	c, err := core.Current(t, fn)
	if err != nil {
		return err
	}
	if err := core.CheckDeviceID(fn, dstDevID); err != nil {
		return err
	}
	if s, _, _ := core.SoC(fn); s.Family == emu.Family310B {
		return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no peer-to-peer access", fn, s.Name)
	}
	pi, err := core.Classify(fn, "devPtr", p)
	if err != nil {
		return err
	}
	owner := c.Dev
	switch pi.Class {
	case core.Managedmem:
	case core.Devmem:
		owner = pi.Dev
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: devPtr %#x is %s, not device or managed memory", fn, p, pi.Class)
	}
	if err := core.CheckRoom(fn, "devPtr", p, pi, size); err != nil {
		return err
	}
	if owner.ID == dstDevID {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: devPtr %#x belongs to device %d itself: a P2P map is for a peer", fn, p, dstDevID)
	}
	if !peerWith(owner, dstDevID) {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"%s: device %d and device %d have no peer access (aclrtDeviceEnablePeerAccess)", fn, owner.ID, dstDevID)
	}
	if pi.Class != core.Managedmem {
		return nil
	}
	return core.WrapWithAPI(fn, core.LoadedSVM().MapPeer(p, size, int(dstDevID)))
}

// peerWith reports whether peer access connects d and device id, enabled
// from either side (as for copies, peerEnabled).
func peerWith(d *core.Device, id int32) bool { return core.DriverPeer(d.ID, id) }

// managedPointer fills aclrtPointerGetAttributes for managed memory: type
// MANAGED, the device holding the page (0 while the host does), 2 MiB
// pages. It reports false for other memory.
func managedPointer(p uintptr, out *PtrAttributes) bool {
	g := core.LoadedSVM()
	if g == nil || !g.Contains(p) {
		return false
	}
	pi, err := g.Page(p)
	if err != nil {
		return false
	}
	out.Location.Type, out.Location.Id, out.PageSize = abi.ACL_MEM_LOCATION_TYPE_MANAGED, 0, uint32(g.PageSize())
	if pi.Location >= 0 {
		out.Location.Id = uint32(pi.Location)
	}
	return true
}
