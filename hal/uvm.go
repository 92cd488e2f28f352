package hal

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/svm"
)

// SVM and UVM memory through the HAL (hal-api.md §3, docs/svm.md):
// halMemAlloc of MEM_SVM (virtual type 0) and MEM_UVM (7) both come from the
// node's managed Space, the one aclrtMemAllocManaged uses: addresses the
// host and the devices share, whose pages migrate on access. The advise and
// prefetch calls work on those addresses only. Errors of the model arrive
// ACL-coded and leave through drvWrap as the driver code that says the same
// (parameter errors DRV_ERROR_INVALID_VALUE, device ids
// DRV_ERROR_INVALID_DEVICE, capacity DRV_ERROR_OUT_OF_MEMORY).

// uvm records the managed allocations halMemAlloc made, so that halMemFree
// frees those and refuses aclrtMemAllocManaged memory. Like mem, it belongs
// to one node and is dropped when another node appears. uvm.mu is a leaf.
var uvm struct {
	mu     sync.Mutex
	node   *emu.Node
	blocks map[uintptr]uint32 // start → virtual type (virtSVM / virtUVM); guarded by mu
}

func uvmBlocks(n *emu.Node) map[uintptr]uint32 {
	if uvm.node != n {
		uvm.node, uvm.blocks = n, map[uintptr]uint32{}
	}
	return uvm.blocks
}

// allocManaged is halMemAlloc of MEM_SVM / MEM_UVM memory: 2 MiB pages on
// the host until first touched. f.Dev names the device the memory is for;
// it must exist. Physical-type and page bits are accepted (managed pages
// are 2 MiB and live wherever they were touched last); 1 GiB pages and
// alignments beyond a page are not available.
func allocManaged(fn string, n *emu.Node, pp *uintptr, size, flag uint64, f AllocFlag) error {
	switch {
	case f.Giant:
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: flag %#x (%s): managed memory has 2 MiB pages, not 1 GiB", fn, flag, f)
	case f.Alignment() > svm.HugePage:
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: flag %#x: managed memory is aligned to %d bytes, not %d", fn, flag, svm.HugePage, f.Alignment())
	case size > svm.ManagedSize:
		return abi.DrvErrorf(abi.DRV_ERROR_OUT_OF_MEMORY, "%s: %d bytes exceed the %d bytes of managed address space", fn, size, svm.ManagedSize)
	}
	g, err := n.SVM()
	if err != nil {
		return drvWrap(fn, err)
	}
	p, err := g.Alloc(size, "halMemAlloc")
	if err != nil {
		return drvWrap(fn, err)
	}
	uvm.mu.Lock()
	uvmBlocks(n)[p] = f.Virt
	uvm.mu.Unlock()
	*pp = p
	return nil
}

// freeManaged frees p when it lies in the managed window; handled reports
// whether it did (or refused it there).
func freeManaged(fn string, n *emu.Node, p uintptr) (handled bool, err error) {
	g := n.LoadedSVM()
	if g == nil || !g.Contains(p) {
		return false, nil
	}
	uvm.mu.Lock()
	blocks := uvmBlocks(n)
	_, ours := blocks[p]
	if ours {
		delete(blocks, p)
	}
	uvm.mu.Unlock()
	if !ours {
		if base, _, ok := g.Lookup(p); ok && base == p {
			return true, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x was allocated by aclrtMemAllocManaged, not halMemAlloc: free it with aclrtFree", fn, p)
		}
		return true, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x is not the start of a managed allocation (already freed?)", fn, p)
	}
	if err := g.Free(p); err != nil {
		return true, drvWrap(fn, err)
	}
	return true, nil
}

// managedAt returns the node's managed memory if [p, p+1) is managed.
func managedAt(fn string, p uintptr) (*emu.Node, *emu.SVM, error) {
	if p == 0 {
		return nil, nil, nullArg(fn, "ptr")
	}
	n, err := node(fn)
	if err != nil {
		return nil, nil, err
	}
	g := n.LoadedSVM()
	if g == nil || !g.Contains(p) {
		return nil, nil, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x is not SVM/UVM memory (halMemAlloc with MEM_SVM or MEM_UVM)", fn, p)
	}
	if _, _, ok := g.Lookup(p); !ok {
		return nil, nil, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x is in the managed window but not allocated (freed?)", fn, p)
	}
	return n, g, nil
}

// MemAdvise implements halMemAdvise(ptr, count, type, device): type is an
// OR of the ADVISE_* bits (ADVISE_TYPE: HBM, i.e. the device is the
// preferred location; ADVISE_PIN / ADVISE_UNPIN: pin in / release from
// host DDR; ADVISE_PLE: prefetch to the device now; ADVISE_EXE, ADVISE_THP:
// accepted, no effect on residency). ptr must be page aligned.
func MemAdvise(ptr uintptr, count uint64, typ uint32, dev uint32) error {
	const fn = "halMemAdvise"
	n, g, err := managedAt(fn, ptr)
	if err != nil {
		return err
	}
	if count == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: count must not be 0", fn)
	}
	if err := checkDevice(fn, n, dev); err != nil {
		return err
	}
	r, err := residency(fn, typ)
	if err != nil {
		return err
	}
	_, err = g.AdviseResidency(ptr, count, r, svm.Location(dev))
	if err != nil {
		return drvWrap(fn, err)
	}
	return nil
}

// PrefetchToDevice implements drvMemPrefetchToDevice: the pages holding
// [ptr, ptr+len) migrate to device now (the range is widened to whole
// pages, as the driver migrates pages).
func PrefetchToDevice(ptr uintptr, length uint64, dev uint32) error {
	const fn = "drvMemPrefetchToDevice"
	n, g, err := managedAt(fn, ptr)
	if err != nil {
		return err
	}
	if length == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: len must not be 0", fn)
	}
	if err := checkDevice(fn, n, dev); err != nil {
		return err
	}
	base, size, _ := g.Lookup(ptr)
	if uint64(ptr-base)+length > size {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: [%#x, +%#x) runs past the end of its allocation [%#x, +%#x)", fn, ptr, length, base, size)
	}
	pg := g.PageSize()
	start := ptr &^ uintptr(pg-1)
	end := (uint64(ptr) + length + pg - 1) &^ (pg - 1)
	if _, err := g.Prefetch(start, end-uint64(start), svm.Location(dev)); err != nil {
		return drvWrap(fn, err)
	}
	return nil
}

// uvmLocation converts and checks a drv_uvm_location against the node.
func uvmLocation(fn string, n *emu.Node, l UVMLocation) (svm.Location, error) {
	loc, err := uvmLocationOf(fn, l.Type, uint32(l.Id)) // a negative id is no device
	if err != nil {
		return loc, err
	}
	if loc >= 0 {
		if err := checkDevice(fn, n, uint32(loc)); err != nil {
			return loc, err
		}
	}
	return loc, nil
}

// ManagedAdvise implements halMemManagedAdvise: ptr and size multiples of
// 2 MiB, advise a uvmMemAdviseType.
func ManagedAdvise(ptr uintptr, size uint64, advise uint32, l UVMLocation) error {
	const fn = "halMemManagedAdvise"
	n, g, err := managedAt(fn, ptr)
	if err != nil {
		return err
	}
	a, err := uvmAdvice(fn, advise)
	if err != nil {
		return err
	}
	loc := svm.NoLocation
	switch a {
	case svm.AdviseSetPreferredLocation, svm.AdviseSetAccessedBy, svm.AdviseUnsetAccessedBy:
		if loc, err = uvmLocation(fn, n, l); err != nil {
			return err
		}
	}
	if err := g.Advise(ptr, size, a, loc); err != nil {
		return drvWrap(fn, err)
	}
	return nil
}

// ManagedPrefetch implements halMemManagedPrefetch: a synchronous
// migration of [ptr, ptr+size) (multiples of 2 MiB) to the location.
func ManagedPrefetch(ptr uintptr, size uint64, l UVMLocation, flags uint32) error {
	const fn = "halMemManagedPrefetch"
	if flags != 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: flags %#x must be 0", fn, flags)
	}
	return ManagedPrefetchBatch([]uintptr{ptr}, []uint64{size}, []UVMLocation{l}, []uint64{0}, 0, fn)
}

// ManagedPrefetchBatch implements halMemManagedPrefetchBatch: locs[k]
// applies to items idxs[k] .. idxs[k+1]-1 (the last to the end); idxs
// starts at 0 and increases strictly. Items are checked before any moves.
func ManagedPrefetchBatch(ptrs []uintptr, sizes []uint64, locs []UVMLocation, idxs []uint64, flags uint64, fn string) error {
	if fn == "" {
		fn = "halMemManagedPrefetchBatch"
	}
	switch {
	case len(ptrs) == 0 || sizes == nil:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: ptrs and sizes must not be NULL and count must be > 0", fn)
	case len(locs) == 0 || len(idxs) != len(locs):
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: prefetchLocs and prefetchLocIdxs must not be NULL and numPrefetchLocs must be > 0", fn)
	case len(locs) > len(ptrs):
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: numPrefetchLocs %d exceeds count %d", fn, len(locs), len(ptrs))
	case flags != 0:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: flags %#x must be 0", fn, flags)
	}
	for k, i := range idxs {
		if (k == 0 && i != 0) || i >= uint64(len(ptrs)) || (k > 0 && i <= idxs[k-1]) {
			return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: prefetchLocIdxs[%d] = %d: want 0 first, strictly increasing, below count %d", fn, k, i, len(ptrs))
		}
	}
	dest := make([]svm.Location, len(ptrs))
	var g *emu.SVM
	for k := range locs {
		end := uint64(len(ptrs))
		if k+1 < len(idxs) {
			end = idxs[k+1]
		}
		for i := idxs[k]; i < end; i++ {
			n, gi, err := managedAt(fn, ptrs[i])
			if err != nil {
				return err
			}
			if dest[i], err = uvmLocation(fn, n, locs[k]); err != nil {
				return err
			}
			g = gi
		}
	}
	for i := range ptrs {
		if _, err := g.Prefetch(ptrs[i], sizes[i], dest[i]); err != nil {
			return abi.DrvErrorf(abi.DrvCodeOf(err), "%s: item %d: %s", fn, i, message(err))
		}
	}
	return nil
}

// managedAttribute fills drvMemGetAttribute for managed memory: DV_MEM_SVM
// for MEM_SVM blocks, DV_MEM_UVM otherwise, the device holding the page (0
// while the host does), 2 MiB pages. It reports false for other memory.
func managedAttribute(n *emu.Node, p uintptr, a *DVAttribute) bool {
	g := n.LoadedSVM()
	if g == nil || !g.Contains(p) {
		return false
	}
	base, _, ok := g.Lookup(p)
	if !ok {
		return false
	}
	uvm.mu.Lock()
	virt, hal := uvmBlocks(n)[base]
	uvm.mu.Unlock()
	a.MemType = abi.DV_MEM_UVM
	if hal && virt == virtSVM {
		a.MemType = abi.DV_MEM_SVM
	}
	a.PageSize = uint32(g.PageSize())
	if pi, err := g.Page(p); err == nil && pi.Location >= 0 {
		a.DevId = uint32(pi.Location)
	}
	return true
}

// managedRange is halMemGetAddressRange for managed memory.
func managedRange(n *emu.Node, p uintptr) (uintptr, uint64, bool) {
	if g := n.LoadedSVM(); g != nil {
		return g.Lookup(p)
	}
	return 0, 0, false
}
