// Package svm models shared virtual memory: address spaces whose pages live
// on the host or on a device, page tables with per-page residency, fault →
// migrate, prefetch, advise, eviction under oversubscription, and counters.
//
// # One backing store
//
// A Space reserves one VA window (the ACL managed window ManagedBase +
// ManagedSize in the runtime, anywhere in tests) as a single anonymous
// mapping. Alloc hands out page-aligned ranges of it; the bytes live there
// and only there. Device pointers are host addresses in npuemu, so a kernel
// running on a host thread and the application read and write the same
// bytes. Residency (host, device N, read-only duplicates) is bookkeeping:
// migration moves no byte, so data cannot go stale. It is still observable
// through three things the caller sees: the counters (Stats), the modelled
// cost each call returns for the caller's virtual clock (CostModel), and
// device capacity (a resident page holds page-size bytes of its Device
// budget, which the HBM accounting shares with aclrtMalloc).
//
// # Pages and state
//
// The page size is a Space-wide power of two, HugePage (2 MiB) by default:
// the granule of aclrtMemAllocManaged sizes and of the advise and prefetch
// ranges. Each page records the location of its authoritative copy, a set of
// read-only duplicates (read-mostly pages), whether the device copy is newer
// than the host bytes (dirty: written back on eviction or migration), its
// advice (read-mostly, preferred location, accessed-by set), a logical
// last-access tick, and the device that last evicted it (thrash detection).
// Each device keeps its resident pages in an LRU list; making room evicts the
// least recently used one.
//
// # Wiring
//
//   - aclrtMemAllocManaged / halMemAlloc(MEM_UVM): Space.Alloc; aclrtFree /
//     halMemFree: Space.Free; pointer classification: Space.Lookup.
//   - kernels, copies and memsets touching managed memory: Space.Access(dev,
//     addr, n, write) before running, adding the returned cost to the
//     device clock; host-side copies out of / into the range:
//     Space.HostAccess.
//   - aclrtMemManagedAdvise / halMemManagedAdvise: acl and hal decode
//     their advice and location enums into Advice and Location, then
//     Space.Advise; halMemAdvise's ADVISE_* bits: hal decodes them into a
//     Residency, then Space.AdviseResidency. svm names no API enum.
//   - aclrtMemManagedPrefetchAsync / halMemManagedPrefetch /
//     drvMemPrefetchToDevice: Space.Prefetch, cost charged on the stream.
//   - aclrtMemManagedGetAttr: Space.RangeAttrs; aclrtPointerGetAttributes
//     and npuemu info: Space.Page, Space.Stats.
//   - synchronize in explicit mode: Space.Writeback(dev); synchronous
//     copies to host memory: Space.HostAccessByDevice, whose per-device
//     costs the caller charges on each device's clock.
//   - aclrtMemP2PMap: Space.MapPeer (the peer's accesses become remote).
//   - Config.Devices: one Device per device; emu's HBM implements
//     Reserve/Release so managed pages count against the same capacity.
//
// # Host-side faults
//
// A Protector keeps the host mapping's protection in step with residency
// (hostProt): read-write while the host holds the only copy, read-only while
// devices hold read-only duplicates, no access while a device owns the page.
// Explicit (the default) arms nothing and host access is accounted at the
// migration points only; Mprotect changes protections with mprotect(2) and
// needs the SIGSEGV handler that libfake (the only C) installs: it opens the
// page itself and returns to retry, and the runtime reports the access later
// through Trapped. Protection changes are noted during an operation and
// applied at its end (finish → flushProt), one call per run of adjacent
// pages needing the same protection. Hold keeps the pages of an in-flight device operation
// reachable (device code runs on host threads). DetectMode reports whether
// userfaultfd write-protect is available; NewUffdWP + Start serve it with a
// Go event loop (uffd.go).
//
// # Errors and locking
//
// Errors are abi.DevError, of the device model's own kinds, which the API
// layers convert (abi/deverr.go): NULL address or zero size DevBadArgument
// (ACL_ERROR_INVALID_PARAM), ranges outside an allocation, misalignment and
// unknown advice DevInvalidValue (ACL_ERROR_RT_PARAM_INVALID), unknown
// device DevNoDevice (ACL_ERROR_RT_INVALID_DEVICEID), no capacity and
// nothing to evict DevNoMemory (ACL_ERROR_RT_MEMORY_ALLOCATION).
//
// Lock order: Space.mu, then the Device's own lock inside Reserve/Release;
// a Device must not call back into its Space. One mutex per Space guards all
// page tables, LRU lists and counters: a fault costs about 150 ns, far below
// anything a caller does around it.
//
// svm imports nothing of the project but abi; it never imports acl, hal,
// libfake or purego.
package svm
