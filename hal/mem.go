package hal

import (
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/tsfw"
)

// Plain memory through the HAL (hal-api.md §3): device memory (MEM_DEV)
// from the device's emu.HBM, the pool aclrtMalloc uses, and pinned host
// memory (MEM_HOST) from the node's pinned pool, the one aclrtMallocHost
// uses. Every other memory kind asks for SVM machinery that does not exist
// yet and fails with DRV_ERROR_NOT_SUPPORT.

const (
	kib       = uint64(1) << 10
	mib       = uint64(1) << 20
	gib       = uint64(1) << 30
	pageSmall = 4 * kib
	pageLarge = 2 * mib
	pageGiant = 1 * gib

	// maxAllocBytes bounds a request before it is rounded up, so rounding
	// cannot overflow: far beyond any device or host capacity.
	maxAllocBytes = uint64(1) << 56
)

const svmNotYet = "host-agent and host-UVA memory are not modelled by npuemu; " +
	"MEM_DEV (device memory), MEM_HOST (pinned host memory), MEM_SVM and MEM_UVM (managed memory) are supported"

// block is one halMemAlloc allocation.
type block struct {
	dev    int    // device id; -1 for pinned host memory
	page   uint64 // page size it was allocated with
	size   uint64 // bytes charged (page-rounded)
	module uint16 // module id of the flag word (memory accounting)
	// runtime: rtMalloc's block (claim.go); halMemFree refuses it until
	// rtFree releases it.
	runtime bool
}

// mem holds the allocations made through the HAL. They belong to one node:
// when aclFinalize closes the node (emu.CloseCurrent) all of its memory is
// gone, so the map is dropped the first time a different node is seen.
//
// mem.mu is a leaf lock: nothing else is locked while it is held.
var mem struct {
	mu     sync.Mutex
	node   *emu.Node         // guarded by mu
	blocks map[uintptr]block // guarded by mu
}

// blocksOf returns the allocation map of node n.
// Precondition: mem.mu held.
func blocksOf(n *emu.Node) map[uintptr]block {
	if mem.node != n {
		mem.node, mem.blocks = n, map[uintptr]block{}
	}
	return mem.blocks
}

func alignUp(v, a uint64) uint64 { return (v + a - 1) / a * a }

// validateFlag checks the flag word's structure: reserved bits, field
// values out of range, and combinations the header forbids.
func validateFlag(fn string, flag uint64, f AllocFlag) error {
	bad := func(why string) error {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: flag %#x (%s): %s", fn, flag, f, why)
	}
	switch {
	case f.Reserved != 0:
		return bad("reserved bits 33-55 are set")
	case f.Virt >= abi.MEM_MAX_VAL:
		return bad("virtual memory type (bits 10-13) out of range")
	case f.Phy != phyDDR && f.Phy != phyHBM:
		return bad("physical memory type (bits 14-16) is neither MEM_TYPE_DDR nor MEM_TYPE_HBM")
	case f.Page != pageNormal && f.Page != pageHuge:
		return bad("page size (bits 17-18) is neither MEM_PAGE_NORMAL nor MEM_PAGE_HUGE")
	case f.Page == pageHuge && f.Giant:
		return bad("MEM_PAGE_HUGE and MEM_PAGE_GIANT are exclusive")
	case f.ReadOnly && f.HostRWDevR:
		return bad("MEM_READONLY and MEM_HOST_RW_DEV_RO are exclusive")
	case f.Adv4G && !f.Contiguous:
		return bad("MEM_ADVISE_4G requires MEM_CONTIGUOUS_PHY")
	}
	return nil
}

// supportedFlag rejects what npuemu does not model, after validateFlag.
func supportedFlag(fn string, flag uint64, f AllocFlag) error {
	no := func(why string) error {
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: flag %#x (%s): %s", fn, flag, f, why)
	}
	switch f.Virt {
	case virtDev, virtHost, virtSVM, virtUVM: // SVM and UVM: hal/uvm.go
	case virtHostAgent, virtHostUVA:
		return no(svmNotYet)
	case virtDVPP:
		return no("DVPP memory is not modelled by npuemu")
	case virtReserve:
		return no("reserved (VMM) memory is not implemented yet")
	}
	switch {
	case f.ReadOnly || f.HostRWDevR:
		return no("access protection (MEM_READONLY, MEM_HOST_RW_DEV_RO) is not modelled by npuemu")
	case f.Adv4G:
		return no("placement below 4 GiB (MEM_ADVISE_4G) is not modelled by npuemu")
	case f.TS:
		return no("task-scheduler memory (MEM_ADVISE_TS) is not modelled by npuemu")
	case f.BAR:
		return no("PCIe BAR memory (MEM_ADVISE_BAR) is not modelled by npuemu")
	}
	return nil
}

// MemAlloc implements halMemAlloc.
func MemAlloc(pp *uintptr, size, flag uint64) error {
	const fn = "halMemAlloc"
	if pp == nil {
		return nullArg(fn, "pp")
	}
	if size == 0 {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: size must not be 0", fn)
	}
	f := DecodeFlag(flag)
	if err := validateFlag(fn, flag, f); err != nil {
		return err
	}
	if err := supportedFlag(fn, flag, f); err != nil {
		return err
	}
	n, err := node(fn)
	if err != nil {
		return err
	}
	if err := checkDevice(fn, n, f.Dev); err != nil {
		return err
	}
	if f.Virt == virtHost {
		return allocHost(fn, n, pp, size, flag, f)
	}
	if f.Virt == virtSVM || f.Virt == virtUVM {
		return allocManaged(fn, n, pp, size, flag, f)
	}
	return allocDevice(fn, n, pp, size, flag, f)
}

// allocDevice allocates device memory of f.Dev. DDR and HBM requests both
// come from the device's one memory pool (the header lets an HBM request
// fall back to DDR; the DDR-only parts have one pool too). P2P memory is
// ordinary device memory: every device's memory is reachable from its
// peers. MEM_DEV_CP_ONLY memory is ordinary memory as well: a program that
// honours the restriction sees no difference.
func allocDevice(fn string, n *emu.Node, pp *uintptr, size, flag uint64, f AllocFlag) error {
	d, err := openDevice(fn, n, f.Dev)
	if err != nil {
		return err
	}
	page := pageSmall
	switch {
	case f.Giant:
		if fam := d.SoC.Family; fam != emu.FamilyA2 && fam != emu.FamilyA3 {
			return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: flag %#x: 1 GiB pages exist only on Atlas A2/A3, not on %s", fn, flag, d.SoC.Name)
		}
		page = pageGiant
	case f.Page == pageHuge:
		page = pageLarge
	}
	total := d.HBM.Total()
	if size > total {
		return abi.DrvErrorf(abi.DRV_ERROR_OUT_OF_MEMORY,
			"%s: %d bytes exceed device %d's memory of %d bytes", fn, size, f.Dev, total)
	}
	charged := alignUp(size, page)
	addr, err := d.HBM.Alloc(charged, max(page, f.Alignment()))
	if err != nil {
		return abi.DrvErrorf(abi.DrvCodeOf(err), "%s: %d bytes (%d in %d-byte pages) on device %d: %s",
			fn, size, charged, page, f.Dev, message(err))
	}
	mem.mu.Lock()
	blocksOf(n)[addr] = block{dev: int(f.Dev), page: page, size: charged, module: uint16(f.Module)}
	mem.mu.Unlock()
	noteUsage(d, uint16(f.Module), int64(charged))
	*pp = addr
	return nil
}

// allocHost allocates pinned host memory. Pinned blocks are 4 KiB aligned
// and backed by normal pages whatever the page bits say (the host's pages
// are not the device's).
func allocHost(fn string, n *emu.Node, pp *uintptr, size, flag uint64, f AllocFlag) error {
	switch {
	case f.Giant || f.DevCPOnly:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: flag %#x (%s): MEM_PAGE_GIANT and MEM_DEV_CP_ONLY apply to device memory only", fn, flag, f)
	case f.Alignment() > pageSmall:
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: flag %#x: pinned host memory is aligned to %d bytes, not %d", fn, flag, pageSmall, f.Alignment())
	case size > maxAllocBytes:
		return abi.DrvErrorf(abi.DRV_ERROR_OUT_OF_MEMORY, "%s: %d bytes of pinned host memory exceed the host's memory", fn, size)
	}
	charged := alignUp(size, pageSmall)
	addr, err := n.Host().Alloc(charged)
	if err != nil {
		return abi.DrvErrorf(abi.DrvCodeOf(err), "%s: %d bytes of pinned host memory: %s", fn, size, message(err))
	}
	mem.mu.Lock()
	blocksOf(n)[addr] = block{dev: -1, page: pageSmall}
	mem.mu.Unlock()
	*pp = addr
	return nil
}

// MemFree implements halMemFree. It frees only what halMemAlloc allocated:
// memory of aclrtMalloc / aclrtMallocHost is refused (free it with
// aclrtFree / aclrtFreeHost), as is a pointer inside a block.
func MemFree(p uintptr) error {
	const fn = "halMemFree"
	if p == 0 {
		return nullArg(fn, "pp")
	}
	n, err := node(fn)
	if err != nil {
		return err
	}
	mem.mu.Lock()
	blocks := blocksOf(n)
	b, ok := blocks[p]
	if ok && b.runtime {
		mem.mu.Unlock()
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x was allocated by aclrtMalloc, not halMemAlloc: free it there", fn, p)
	}
	if ok {
		delete(blocks, p)
	}
	mem.mu.Unlock()
	if !ok {
		if handled, err := freeManaged(fn, n, p); handled {
			return err
		}
		return notHALBlock(fn, n, p)
	}
	switch d := n.Opened(b.dev); {
	case b.dev < 0:
		err = n.Host().Free(p)
	case d == nil: // the node was closed under us: its memory is gone
		err = abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "device %d is closed", b.dev)
	default:
		if _, err = d.HBM.Free(p); err == nil {
			noteUsage(d, b.module, -int64(b.size))
		}
	}
	if err != nil {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x: %s", fn, p, message(err))
	}
	return nil
}

// notHALBlock explains why p is not the start of a halMemAlloc block.
func notHALBlock(fn string, n *emu.Node, p uintptr) error {
	owner := func(base uintptr, acl string) error {
		mem.mu.Lock()
		b, hal := blocksOf(n)[base]
		hal = hal && !b.runtime
		mem.mu.Unlock()
		switch {
		case base != p && hal:
			return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x is inside the halMemAlloc block at %#x, not its start", fn, p, base)
		case base != p:
			return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x is inside a block of %s at %#x", fn, p, acl, base)
		}
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x was allocated by %s, not halMemAlloc: free it there", fn, p, acl)
	}
	if d, ok := n.FindDevice(p); ok {
		if base, _, ok := d.HBM.Find(p); ok {
			return owner(base, "aclrtMalloc")
		}
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x is in device %d's memory but not allocated (already freed?)", fn, p, d.ID)
	}
	if base, _, ok := n.Host().Find(p); ok {
		return owner(base, "aclrtMallocHost")
	}
	return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x is not memory allocated by halMemAlloc (already freed?)", fn, p)
}

// ddrOnly reports whether the SoC's device memory is DDR (310P, 310B)
// rather than HBM.
func ddrOnly(s emu.SoC) bool { return s.Family == emu.Family310P || s.Family == emu.Family310B }

// MemGetInfo implements halMemGetInfo and halMemGetInfoEx (fn names which)
// for the size types. npuemu's device memory is one pool from which every
// page size is carved, with no separate huge-page reserve: the whole pool
// is reported as Total/Free and the huge/giant fields are 0, so that the
// runtime's sum (free + huge_free, total + huge_total) is the pool and
// matches aclrtGetMemInfo. The pool is HBM, or DDR on 310P/310B; the other
// kind reads 0.
func MemGetInfo(fn string, dev uint32, typ uint32, out *MemPhyInfo) error {
	if out == nil {
		return nullArg(fn, "info")
	}
	n, err := nodeDevice(fn, dev)
	if err != nil {
		return err
	}
	var hbm bool
	switch typ {
	case abi.MEM_INFO_TYPE_DDR_SIZE, abi.MEM_INFO_TYPE_DDR_P2P_SIZE:
	case abi.MEM_INFO_TYPE_HBM_SIZE, abi.MEM_INFO_TYPE_HBM_P2P_SIZE:
		hbm = true
	case abi.MEM_INFO_TYPE_ADDR_CHECK, abi.MEM_INFO_TYPE_CTRL_NUMA_INFO, abi.MEM_INFO_TYPE_AI_NUMA_INFO,
		abi.MEM_INFO_TYPE_BAR_NUMA_INFO, abi.MEM_INFO_TYPE_SVM_GRP_INFO, abi.MEM_INFO_TYPE_UB_TOKEN_INFO,
		abi.MEM_INFO_TYPE_SYS_NUMA_INFO:
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: info type %d is not implemented by npuemu (only the DDR/HBM size types are)", fn, typ)
	default:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: info type %d out of range (1..%d)", fn, typ, abi.MEM_INFO_TYPE_MAX-1)
	}
	*out = MemPhyInfo{}
	if hbm == ddrOnly(n.SoC()) {
		return nil
	}
	total, used := n.HBMTotal(), uint64(0)
	if d := n.Opened(int(dev)); d != nil {
		total, used = d.HBM.Total(), d.HBM.Used()
	}
	out.Total, out.Free = total, total-used
	return nil
}

// where is what an address is, as far as copies care.
type where struct {
	dev  *emu.Device // device memory of dev; nil for host memory
	room uint64      // bytes from the address to the end of its block; 0 = unknown (pageable host memory)
}

// locate classifies addr. An address in a device's memory range must lie
// inside a live allocation.
func locate(fn, what string, n *emu.Node, addr uintptr) (where, error) {
	if d, ok := n.FindDevice(addr); ok {
		base, size, ok := d.HBM.Find(addr)
		if !ok {
			return where{}, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE,
				"%s: %s %#x is in device %d's memory but not inside any allocation", fn, what, addr, d.ID)
		}
		return where{dev: d, room: size - uint64(addr-base)}, nil
	}
	if base, size, ok := n.Host().Find(addr); ok {
		return where{room: size - uint64(addr-base)}, nil
	}
	if r, ok := n.VMM().Find(addr); ok { // mapped VMM memory or an opened shared name
		return where{dev: r.Dev, room: r.Size - uint64(addr-r.Base)}, nil
	}
	return where{}, nil
}

// fits checks that count bytes at a located address stay in its block.
func (w where) fits(fn, what string, addr uintptr, count uint64) error {
	if w.room != 0 && count > w.room {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE,
			"%s: %d bytes at %s %#x run past the end of its allocation (%d bytes left)", fn, count, what, addr, w.room)
	}
	return nil
}

// copyOp is one validated synchronous copy.
type copyOp struct {
	dst, src uintptr
	count    uint64
	d, s     where
}

// prepareCopy validates a copy's arguments and locates both ends.
func prepareCopy(fn string, dst uintptr, dstMax uint64, src uintptr, count uint64) (*emu.Node, copyOp, error) {
	switch {
	case dst == 0:
		return nil, copyOp{}, nullArg(fn, "dst")
	case src == 0:
		return nil, copyOp{}, nullArg(fn, "src")
	case count == 0:
		return nil, copyOp{}, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: byte count must not be 0", fn)
	case count > dstMax:
		return nil, copyOp{}, abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: byte count %d exceeds the destination size %d", fn, count, dstMax)
	}
	n, err := node(fn)
	if err != nil {
		return nil, copyOp{}, err
	}
	op := copyOp{dst: dst, src: src, count: count}
	if op.d, err = locate(fn, "dst", n, dst); err != nil {
		return nil, copyOp{}, err
	}
	if op.s, err = locate(fn, "src", n, src); err != nil {
		return nil, copyOp{}, err
	}
	if err := op.d.fits(fn, "dst", dst, count); err != nil {
		return nil, copyOp{}, err
	}
	if err := op.s.fits(fn, "src", src, count); err != nil {
		return nil, copyOp{}, err
	}
	return n, op, nil
}

// run performs the copy: on the SDMA engines of the device involved (the
// source's for device-to-device), charged to its virtual clock, or on the
// calling thread between two host addresses.
func (op copyOp) run(fn string) error {
	var (
		d   *emu.Device
		dir tsfw.CopyDir
	)
	switch {
	case op.d.dev == nil && op.s.dev == nil:
		return hostCopy(fn, op.dst, op.src, op.count)
	case op.s.dev == nil:
		d, dir = op.d.dev, tsfw.HostToDevice
	case op.d.dev == nil:
		d, dir = op.s.dev, tsfw.DeviceToHost
	case op.d.dev == op.s.dev:
		d, dir = op.s.dev, tsfw.DeviceToDevice
	default:
		d, dir = op.s.dev, tsfw.PeerToPeer
	}
	if err := d.TS.CopyNow(op.dst, op.src, op.count, dir); err != nil {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %d bytes %#x -> %#x (%s): %s", fn, op.count, op.src, op.dst, dir, message(err))
	}
	return nil
}

// Memcpy implements drvMemcpy: a synchronous copy between any device and
// host addresses, the direction inferred from the addresses.
func Memcpy(dst uintptr, dstMax uint64, src uintptr, count uint64) error {
	const fn = "drvMemcpy"
	_, op, err := prepareCopy(fn, dst, dstMax, src, count)
	if err != nil {
		return err
	}
	return op.run(fn)
}

// HalMemcpy implements halMemcpy, which the header documents for
// device-to-host copies only: the source must be memory of info.DevID and
// the destination host memory; other directions are DRV_ERROR_NOT_SUPPORT
// (drvMemcpy copies in every direction).
func HalMemcpy(dst uintptr, dstSize uint64, src uintptr, count uint64, info *MemcpyInfo) error {
	const fn = "halMemcpy"
	if info == nil {
		return nullArg(fn, "info")
	}
	switch {
	case info.Dir > abi.DRV_MEMCPY_DEVICE_TO_DEVICE:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: info->dir %d is not a drvMemcpyKind_t", fn, info.Dir)
	case info.Dir != abi.DRV_MEMCPY_DEVICE_TO_HOST:
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: info->dir %d: only DRV_MEMCPY_DEVICE_TO_HOST is supported (use drvMemcpy)", fn, info.Dir)
	}
	n, op, err := prepareCopy(fn, dst, dstSize, src, count)
	if err != nil {
		return err
	}
	if err := checkDevice(fn, n, info.Devid); err != nil {
		return err
	}
	if op.s.dev == nil || op.s.dev.ID != int(info.Devid) {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: src %#x is not memory of device %d", fn, src, info.Devid)
	}
	if op.d.dev != nil {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: dst %#x is device memory, not host memory", fn, dst)
	}
	return op.run(fn)
}

// SdmaCopy implements halSdmaCopy: a copy through the SDMA engines, which
// the header excludes on Ascend950 and between two devices.
func SdmaCopy(dst uintptr, dstSize uint64, src uintptr, count uint64) error {
	const fn = "halSdmaCopy"
	n, op, err := prepareCopy(fn, dst, dstSize, src, count)
	if err != nil {
		return err
	}
	if s := n.SoC(); s.Family == emu.Family950 {
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: not available on %s", fn, s.Name)
	}
	if op.d.dev != nil && op.s.dev != nil && op.d.dev != op.s.dev {
		return abi.DrvErrorf(abi.DRV_ERROR_NOT_SUPPORT, "%s: copies between devices %d and %d (P2P) are not supported", fn, op.s.dev.ID, op.d.dev.ID)
	}
	return op.run(fn)
}

// MemsetD8 implements drvMemsetD8.
func MemsetD8(dst uintptr, destMax uint64, value byte, num uint64) error {
	const fn = "drvMemsetD8"
	switch {
	case dst == 0:
		return nullArg(fn, "dst")
	case num == 0:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: num must not be 0", fn)
	case num > destMax:
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: num %d exceeds destMax %d", fn, num, destMax)
	}
	n, err := node(fn)
	if err != nil {
		return err
	}
	w, err := locate(fn, "dst", n, dst)
	if err != nil {
		return err
	}
	if err := w.fits(fn, "dst", dst, num); err != nil {
		return err
	}
	if w.dev == nil {
		return hostSet(fn, dst, value, num)
	}
	if err := w.dev.TS.MemsetNow(dst, value, num); err != nil {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %d bytes at %#x: %s", fn, num, dst, message(err))
	}
	return nil
}

// AddressRange implements halMemGetAddressRange: the block holding ptr,
// its size rounded up to whole pages; for reserved address ranges the
// mapping holding ptr (unmapped parts are an error). Blocks of aclrtMalloc and
// aclrtMallocHost count too (the real runtime allocates them through the
// driver). pbase and psize may each be nil.
func AddressRange(ptr uintptr, pbase *uintptr, psize *uint64) error {
	const fn = "halMemGetAddressRange"
	if ptr == 0 {
		return nullArg(fn, "ptr")
	}
	n, err := node(fn)
	if err != nil {
		return err
	}
	var (
		base uintptr
		size uint64
		ok   bool
	)
	if d, in := n.FindDevice(ptr); in {
		base, size, ok = d.HBM.Find(ptr)
	} else if r, in := n.VMM().Find(ptr); in {
		base, size, ok = r.Base, r.Size, true
	} else if base, size, ok = managedRange(n, ptr); !ok {
		base, size, ok = n.Host().Find(ptr)
	}
	if !ok {
		return abi.DrvErrorf(abi.DRV_ERROR_INVALID_VALUE, "%s: %#x is not inside any device or pinned host allocation", fn, ptr)
	}
	if pbase != nil {
		*pbase = base
	}
	if psize != nil {
		*psize = alignUp(size, pageSmall)
	}
	return nil
}

// MemGetAttribute implements drvMemGetAttribute. Like the real call it
// classifies the address without checking that it is still allocated:
// anything in a device's memory range is DV_MEM_LOCK_DEV of that device,
// pinned host memory DV_MEM_LOCK_HOST; other addresses are memory the
// driver does not know (memType 0). The page size is the one halMemAlloc
// used, else 4 KiB.
func MemGetAttribute(vptr uintptr, attr *DVAttribute) error {
	const fn = "drvMemGetAttribute"
	if vptr == 0 {
		return nullArg(fn, "vptr")
	}
	if attr == nil {
		return nullArg(fn, "attr")
	}
	n, err := node(fn)
	if err != nil {
		return err
	}
	a := DVAttribute{PageSize: uint32(pageSmall)}
	if d, ok := n.FindDevice(vptr); ok {
		a.MemType, a.DevId = abi.DV_MEM_LOCK_DEV, uint32(d.ID)
		if base, _, ok := d.HBM.Find(vptr); ok {
			mem.mu.Lock()
			if b, ok := blocksOf(n)[base]; ok {
				a.PageSize = uint32(b.page)
			}
			mem.mu.Unlock()
		}
	} else if _, _, ok := n.Host().Find(vptr); ok {
		a.MemType = abi.DV_MEM_LOCK_HOST
	} else {
		managedAttribute(n, vptr, &a)
	}
	*attr = a
	return nil
}
