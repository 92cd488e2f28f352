package svm

import (
	"sync"
	"time"
)

// Device is a device's memory budget as seen by SVM. Making a page resident
// on the device reserves page-size bytes; eviction or migration away releases
// them. emu's HBM accounting implements it so that managed pages and
// aclrtMalloc share one capacity (aclrtGetMemInfo sees both); tests use
// Budget.
//
// Reserve and Release are called with the Space lock held: they must not
// call back into the Space.
type Device interface {
	// Reserve takes n bytes of capacity, reporting false when they are not
	// available (SVM then evicts and retries).
	Reserve(n uint64) bool
	// Release returns n bytes taken by Reserve.
	Release(n uint64)
}

// Budget is a Device that is nothing but a capacity counter.
type Budget struct {
	mu       sync.Mutex
	capacity uint64
	used     uint64 // guarded by mu
}

// NewBudget returns a Budget of capacity bytes.
func NewBudget(capacity uint64) *Budget { return &Budget{capacity: capacity} }

// Reserve implements Device.
func (b *Budget) Reserve(n uint64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.capacity-b.used < n {
		return false
	}
	b.used += n
	return true
}

// Release implements Device. Releasing more than is used is a bug of the
// caller; the counter saturates at zero rather than wrapping.
func (b *Budget) Release(n uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= min(n, b.used)
}

// Used returns the bytes reserved now.
func (b *Budget) Used() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Capacity returns the budget's size.
func (b *Budget) Capacity() uint64 { return b.capacity }

// CostModel prices SVM work in virtual time. The bytes never move in npuemu
// (there is one backing store), so the cost is what makes migration visible
// to a program's timing: the caller adds it to the device's virtual clock.
type CostModel struct {
	// FaultOverhead is charged once per page fault (trap, page-table walk,
	// TLB shoot-down on the real hardware).
	FaultOverhead time.Duration
	// HostToDevice and DeviceToHost are migration bandwidths in bytes/s.
	HostToDevice float64
	DeviceToHost float64
	// Remote is the bandwidth of an access served over the bus without
	// migrating (preferred location elsewhere, accessed-by mappings).
	Remote float64
}

// DefaultCost is a PCIe 4.0 x16 class link (about 24 GB/s each way, 16 GB/s
// for fine-grained remote access) and 10 µs per fault, the order of magnitude
// of a replayable GPU/NPU page fault.
func DefaultCost() CostModel {
	return CostModel{
		FaultOverhead: 10 * time.Microsecond,
		HostToDevice:  24e9,
		DeviceToHost:  24e9,
		Remote:        16e9,
	}
}

func transfer(n uint64, bw float64) time.Duration {
	if n == 0 || bw <= 0 {
		return 0
	}
	return time.Duration(float64(n) / bw * float64(time.Second))
}

// Stats are the counters of one location. Every counter only grows except
// ResidentBytes, the bytes resident now.
type Stats struct {
	// Faults: accesses that found the page absent (or present read-only
	// for a write) and had to change its residency. A host location counts
	// host-side faults (detected or at migration points).
	Faults uint64
	// Thrash: faults on a page this location evicted within the last
	// ThrashWindow evictions.
	Thrash uint64
	// Evictions: pages this device dropped to make room.
	Evictions uint64
	// Invalidations: copies this location lost because another location
	// wrote the page (read-mostly duplicates, write upgrades).
	Invalidations uint64
	// RemoteAccesses: accesses served over the bus without migrating.
	RemoteAccesses uint64
	// BytesHtoD: bytes migrated (or duplicated) to this device, faults and
	// prefetches together.
	BytesHtoD uint64
	// BytesDtoH: dirty bytes this device wrote back to the host (eviction,
	// host access, migration to another device, Writeback).
	BytesDtoH uint64
	// PrefetchedBytes: the part of BytesHtoD (or, for the host, of the
	// devices' BytesDtoH) moved by Prefetch rather than by faults.
	PrefetchedBytes uint64
	// ResidentBytes: bytes of managed pages resident on this device now.
	ResidentBytes uint64
}
