package emu

import (
	"fmt"
	"math/bits"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/npuemu/npuemu/abi"
)

// Device memory of a node directory (docs/node.md, "Device memory"): the
// device's range is the file hbm<N> mapped MAP_SHARED at the same address
// in every process, accounting is one atomic counter in the device record,
// and placement is node-wide through chunks that a process claims (owner
// word = slot+1) before it places blocks in them with its own arena.
// Chunks owned by another process are masked in the arena by placeholder
// segments (req 0) until their owner gives them back.

// nodeWindow is the PROT_NONE reservation of every device window made by
// the C library before the Go runtime started (libfake/nodewindow.c).
var nodeWindow struct {
	mu    sync.Mutex
	base  uintptr // 0: none; windows are mapped with MAP_FIXED_NOREPLACE
	inUse map[uintptr]bool
}

// AdoptNodeWindow records the reservation [base, base+NodeWindowSize);
// base 0 records nothing.
func AdoptNodeWindow(base uintptr) {
	nodeWindow.mu.Lock()
	defer nodeWindow.mu.Unlock()
	if base == NodeWindowBase {
		nodeWindow.base = base
	}
}

// nodeHBM is the node-wide part of one device's HBM.
type nodeHBM struct {
	dir     *NodeDir
	phys    int
	rec     *NodeDevice
	chunks  []uint32
	me      uint32 // this process's owner word: slot+1
	shift   uint   // log2 of the chunk size
	fd      int    // the memory file
	adopted bool   // the window lies in the adopted reservation

	// Guarded by HBM.mu.
	blocks  []int32         // live blocks of this process per chunk
	empty   []int           // owned chunks with no block, oldest first
	foreign map[int]bool    // chunks masked in the arena (owned by others)
	exports map[uintptr]int // block addresses this process exported by name (shmem_node.go)
	vnpu    *NodeVNPU       // the vNPU this process is bound to on this device, nil: the whole device
}

// hbmFileName is the name of physical device phys's memory file in the
// node directory (not built with fmt: its printer pool would be one more
// fresh page to touch at every start).
func hbmFileName(phys int) string { return "hbm" + strconv.Itoa(phys) }

// newNodeHBM maps physical device phys's memory file of dir.
// A process bound to vNPU v sees v's memory as the device's.
func newNodeHBM(name string, dir *NodeDir, phys int, v *NodeVNPU) (*HBM, error) {
	rec := dir.Device(phys)
	hdr := dir.Header()
	base := uintptr(hdr.WindowBase + uint64(phys)*hdr.WindowStride)
	file := filepath.Join(dir.Path(), hbmFileName(phys))
	fd, err := syscall.Open(file, syscall.O_RDWR|syscall.O_CREAT|syscall.O_CLOEXEC, hdr.Mode)
	if err != nil {
		return nil, nodeErr(dir.Path(), "cannot open %s: %v", file, err)
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err == nil && uint64(st.Size) < rec.HBMSpan {
		err = syscall.Ftruncate(fd, int64(rec.HBMSpan))
		if err != nil {
			_ = syscall.Close(fd)
			return nil, nodeErr(dir.Path(), "cannot size %s: %v", file, err)
		}
	}
	nodeWindow.mu.Lock()
	adopted := nodeWindow.base != 0
	flags := syscall.MAP_SHARED | syscall.MAP_FIXED
	if !adopted {
		flags = syscall.MAP_SHARED | mapFixedNoReplace
	}
	if nodeWindow.inUse[base] {
		nodeWindow.mu.Unlock()
		_ = syscall.Close(fd)
		return nil, nodeErr(dir.Path(), "device %d's window is mapped already in this process", phys)
	}
	got, err := mmapAt(base, rec.HBMSpan, syscall.PROT_READ|syscall.PROT_WRITE, flags, fd, 0)
	if err == nil && got != base {
		munmapAt(got, rec.HBMSpan)
		err = fmt.Errorf("the kernel placed it at %#x", got)
	}
	if err != nil {
		nodeWindow.mu.Unlock()
		_ = syscall.Close(fd)
		return nil, abi.DevErrorf(abi.DevNoMemory,
			"emu: %s HBM: cannot map %s at %#x (the node's device window): %v", name, file, base, err)
	}
	if nodeWindow.inUse == nil {
		nodeWindow.inUse = map[uintptr]bool{}
	}
	nodeWindow.inUse[base] = true
	nodeWindow.mu.Unlock()
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, base, uintptr(rec.HBMSpan), syscall.MADV_HUGEPAGE)

	nd := &nodeHBM{
		dir: dir, phys: phys, rec: rec, chunks: dir.Chunks(phys), me: uint32(dir.Slot() + 1),
		shift: uint(bits.TrailingZeros64(rec.ChunkBytes)), fd: fd, adopted: adopted,
		blocks: make([]int32, rec.ChunkCount), foreign: map[int]bool{},
		exports: map[uintptr]int{}, vnpu: v,
	}
	total := rec.HBMUsable
	if v != nil {
		total = v.HBMBytes
	}
	atomic.OrUint64(&dir.Self().DevicesOpen, 1<<uint(phys))
	h := &HBM{
		name: name, base: base, span: rec.HBMSpan, total: total, raw: base, rawLen: rec.HBMSpan,
		arena: newArena(base, rec.HBMSpan, HBMMinAlign), releaseMin: hbmReleaseMin, nd: nd,
		guard: ProtectEnabled(),
	}
	if h.guard {
		// Every process opens only the blocks it allocates (hbm_protect.go);
		// another's blocks in the shared window stay PROT_NONE here.
		if err := h.protectSpan(); err != nil {
			h.guard = false
		}
	}
	return h, nil
}

// charge accounts size bytes node-wide: out of memory when the device's
// usable bytes would be exceeded. Dead processes are reclaimed once before
// giving up.
func (nd *nodeHBM) charge(size uint64) bool {
	if v := nd.vnpu; v != nil {
		for {
			u := atomic.LoadUint64(&v.HBMUsed)
			if u+size > v.HBMBytes || u+size < u {
				return false
			}
			if atomic.CompareAndSwapUint64(&v.HBMUsed, u, u+size) {
				break
			}
		}
		if !nd.chargeDevice(size) {
			subSat(&v.HBMUsed, size)
			return false
		}
		return true
	}
	return nd.chargeDevice(size)
}

func (nd *nodeHBM) chargeDevice(size uint64) bool {
	total := nd.rec.HBMUsable
	for retried := false; ; {
		v := atomic.LoadUint64(&nd.rec.HBMUsed)
		if v+size > total || v+size < v {
			if retried {
				return false
			}
			nd.dir.Reclaim(true)
			retried = true
			continue
		}
		if atomic.CompareAndSwapUint64(&nd.rec.HBMUsed, v, v+size) {
			atomic.AddUint64(&nd.dir.Self().HBMBytes[nd.phys], size)
			return true
		}
	}
}

func (nd *nodeHBM) uncharge(size uint64) {
	subSat(&nd.dir.Self().HBMBytes[nd.phys], size)
	subSat(&nd.rec.HBMUsed, size)
	if nd.vnpu != nil {
		subSat(&nd.vnpu.HBMUsed, size)
	}
}

// used is what the process sees in use: its vNPU's, else the device's.
func (nd *nodeHBM) used() uint64 {
	if nd.vnpu != nil {
		return atomic.LoadUint64(&nd.vnpu.HBMUsed)
	}
	return atomic.LoadUint64(&nd.rec.HBMUsed)
}

func (nd *nodeHBM) chunkRange(base, addr uintptr, ext uint64) (int, int) {
	return int(uint64(addr-base) >> nd.shift), int((uint64(addr-base) + ext - 1) >> nd.shift)
}

// claimLocked makes every chunk under [addr, addr+ext) this process's. When
// one belongs to another process, the block is undone, that chunk masked
// in the arena and false returned (the caller places again).
// Precondition: HBM.mu held.
func (nd *nodeHBM) claimLocked(h *HBM, addr uintptr, ext uint64) bool {
	c0, c1 := nd.chunkRange(h.base, addr, ext)
	var claimed []int
	for c := c0; c <= c1; c++ {
		o := atomic.LoadUint32(&nd.chunks[c])
		if o == nd.me {
			continue
		}
		if o == 0 && atomic.CompareAndSwapUint32(&nd.chunks[c], 0, nd.me) {
			claimed = append(claimed, c)
			continue
		}
		for _, k := range claimed {
			atomic.StoreUint32(&nd.chunks[k], 0)
		}
		h.arena.free(addr)
		h.arena.reserveAt(h.base+uintptr(uint64(c)<<nd.shift), uint64(1)<<nd.shift)
		nd.foreign[c] = true
		return false
	}
	for c := c0; c <= c1; c++ {
		// Written before it is read: a fresh page read first maps the
		// kernel's zero page, and the write after it is a copy-on-write
		// that interrupts every CPU the process's threads ran on (a TLB
		// shootdown at the first allocation of every process).
		if nd.blocks[c]++; nd.blocks[c] == 1 {
			nd.dropEmpty(c)
		}
	}
	return true
}

func (nd *nodeHBM) dropEmpty(c int) {
	for i, e := range nd.empty {
		if e == c {
			nd.empty = append(nd.empty[:i], nd.empty[i+1:]...)
			return
		}
	}
}

// unmaskLocked unmasks foreign chunks whose owners gave them back and
// reports whether any was. Precondition: HBM.mu held.
func (nd *nodeHBM) unmaskLocked(h *HBM) bool {
	any := false
	for c := range nd.foreign {
		if atomic.LoadUint32(&nd.chunks[c]) == 0 {
			h.arena.unreserve(h.base + uintptr(uint64(c)<<nd.shift))
			delete(nd.foreign, c)
			any = true
		}
	}
	return any
}

// releaseLocked drops the freed block's chunk references; chunks left
// without blocks are given back to the node, all but the newest one,
// which stays as this process's spare. Precondition: HBM.mu held.
func (nd *nodeHBM) releaseLocked(h *HBM, addr uintptr, ext uint64) {
	c0, c1 := nd.chunkRange(h.base, addr, ext)
	for c := c0; c <= c1; c++ {
		if nd.blocks[c]--; nd.blocks[c] == 0 {
			nd.empty = append(nd.empty, c)
		}
	}
	for len(nd.empty) > 1 {
		c := nd.empty[0]
		nd.empty = nd.empty[1:]
		punchHole(nd.fd, uint64(c)<<nd.shift, uint64(1)<<nd.shift)
		atomic.CompareAndSwapUint32(&nd.chunks[c], nd.me, 0)
	}
}

// close returns what this process still holds and unmaps the window.
// Precondition: HBM.mu held.
func (nd *nodeHBM) close(h *HBM) error {
	nd.uncharge(h.used)
	nd.dir.releaseChunksOf(nd.phys, nd.me)
	_ = syscall.Close(nd.fd)
	nodeWindow.mu.Lock()
	defer nodeWindow.mu.Unlock()
	delete(nodeWindow.inUse, h.base)
	if nd.adopted {
		flags := uintptr(syscall.MAP_PRIVATE | syscall.MAP_ANONYMOUS | syscall.MAP_NORESERVE | syscall.MAP_FIXED)
		if _, _, errno := syscall.Syscall6(syscall.SYS_MMAP, h.base, uintptr(h.span), syscall.PROT_NONE, flags, ^uintptr(0), 0); errno != 0 {
			return errno
		}
		return nil
	}
	return unreserve(h.base, h.span)
}

// reserveAt carves [addr, addr+size) out of one free segment as a
// placeholder (an allocated segment with req 0, not counted) and reports
// whether it could.
func (a *arena) reserveAt(addr uintptr, size uint64) bool {
	var f *seg
	for t := a.root; t != nil; {
		if t.addr <= addr {
			f = t
			t = t.right
		} else {
			t = t.left
		}
	}
	if f == nil || !f.free || addr+uintptr(size) > f.addr+uintptr(f.size) {
		return false
	}
	l, r := split(a.root, f.addr)
	m, r := split(r, f.addr+1)
	end := f.addr + uintptr(f.size)
	var mid *seg
	if addr > f.addr {
		mid = a.node(f.addr, uint64(addr-f.addr), 0, true)
	}
	mid = merge(mid, a.node(addr, size, 0, false))
	if tail := addr + uintptr(size); tail < end {
		mid = merge(mid, a.node(tail, uint64(end-tail), 0, true))
	}
	a.recycle(m)
	a.root = merge(merge(l, mid), r)
	return true
}

// unreserve frees a placeholder made by reserveAt.
func (a *arena) unreserve(addr uintptr) {
	if _, _, _, _, ok := a.free(addr); ok {
		a.count++ // placeholders are not counted
	}
}

// NodeDir returns the node directory whose memory h is, nil for private
// memory.
func (h *HBM) NodeDir() *NodeDir {
	if h.nd == nil {
		return nil
	}
	return h.nd.dir
}

// PhysID returns the device's physical id in its node directory (its id
// on a private node).
func (d *Device) PhysID() int {
	if d.HBM.nd != nil {
		return d.HBM.nd.phys
	}
	return d.ID
}
