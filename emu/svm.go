package emu

import (
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/svm"
)

// Managed memory (docs/svm.md). A node has one svm.Space, created on first
// use at the ACL managed window, whose device budgets are the devices' HBM
// (HBM.Reserve/Release): a managed page resident on a device takes the same
// capacity aclrtMalloc draws from. SVM wraps the Space so that every entry
// point first drains the host faults the signal handler has resolved
// (mprotect mode), which keeps the page tables in step with what the host
// did before the call.

// EnvSVMHostFaults chooses host-side fault detection: "explicit" (the
// default), "mprotect" or "userfaultfd-wp".
const EnvSVMHostFaults = "NPUEMU_SVM_HOST_FAULTS"

// uffdMode caches whether this process may use userfaultfd-wp.
var uffdMode = sync.OnceValue(svm.DetectMode)

// uffdFallback is the mode used when userfaultfd-wp is asked for but
// refused: mprotect where the platform has the SIGSEGV handler, else
// explicit.
func uffdFallback(hf HostFaults) string {
	if hf != nil {
		return svm.ModeMprotect
	}
	return svm.ModeExplicit
}

// SVMMode returns the host fault detection mode NPUEMU_SVM_HOST_FAULTS asks
// for. Explicit is the default: it never traps, so it cannot break a
// program (a read(2) into a device-resident page under mprotect fails with
// EFAULT, as there is no signal to catch in a system call).
// userfaultfd-wp, when the kernel or the sandbox refuses it, falls back to
// mprotect (or explicit without the handler): the answer is the mode in use
// for a node of the process's platform (UsePlatform).
func SVMMode() (string, error) { return svmMode(ProcessPlatform().HostFaults) }

// svmMode is SVMMode for a platform whose fault handler is hf.
func svmMode(hf HostFaults) (string, error) {
	v := strings.TrimSpace(os.Getenv(EnvSVMHostFaults))
	switch v {
	case "", svm.ModeExplicit:
		return svm.ModeExplicit, nil
	case svm.ModeMprotect:
		return v, nil
	case svm.ModeUserfaultfdWP:
		if uffdMode() == svm.ModeUserfaultfdWP {
			return v, nil
		}
		return uffdFallback(hf), nil
	}
	if _, err := svm.NewProtector(v); err != nil {
		var ae *abi.DevError
		if errors.As(err, &ae) {
			return "", abi.DevErrorf(ae.Kind, "%s=%q: %s (supported: %s, %s, %s)", EnvSVMHostFaults, v, ae.Msg, svm.ModeExplicit, svm.ModeMprotect, svm.ModeUserfaultfdWP)
		}
	}
	return "", abi.DevErrorf(abi.DevBadArgument, "%s=%q: want %s, %s or %s", EnvSVMHostFaults, v, svm.ModeExplicit, svm.ModeMprotect, svm.ModeUserfaultfdWP)
}

// HostFaults is the host half of mprotect mode: a SIGSEGV handler, which
// can only be C (libfake), and its bookkeeping. The handler resolves a
// fault on an armed page by itself — it opens the page (read-only for a
// read, read-write for a write), notes the fault and returns — because it
// must not call into Go; Drain hands the notes to the Space later.
type HostFaults interface {
	// Install arms the handler for the window [base, base+size) of
	// pageSize pages; a second window is an error.
	Install(base uintptr, size, pageSize uint64) error
	// Protector returns the Protector whose armed pages the handler
	// serves.
	Protector() svm.Protector
	// Pending reports, cheaply, whether resolved faults await Drain.
	Pending() bool
	// Drain calls fn for each page the handler opened since the last
	// Drain: an address in it, whether the access was a write, whether it
	// came from a kernel block, and the protection the handler applied.
	Drain(fn func(addr uintptr, write, kernel bool, prot int))
	// Disarm makes [addr, addr+size) ordinary memory for the handler again
	// (freed managed memory: a stale access is a real fault).
	Disarm(addr uintptr, size uint64)
}

// SVM is a node's managed memory: the Space and its host fault source.
type SVM struct {
	space *svm.Space
	mode  string
	hf    HostFaults  // nil unless mprotect mode
	uffd  *svm.UffdWP // nil unless userfaultfd-wp mode

	ownMu  sync.Mutex
	owners map[uintptr]string // allocation start → the API that allocated it; guarded by ownMu

	// lastKernelDev is the device of the latest launch with a managed
	// footprint: a kernel's out-of-footprint fault on a host-owned page
	// is charged to it (the handler cannot know the launch).
	lastKernelDev atomic.Int32
}

// svmState is the node's lazily created SVM (a field of Node).
type svmState struct {
	mu sync.Mutex          // serialises creation and close
	s  atomic.Pointer[SVM] // read lock-free (LoadedSVM is on copy and launch paths)
}

// SVM returns the node's managed memory, creating it on first use. The
// window is the ACL managed window; if it is taken (another node of this
// process, in tests), anywhere the kernel chooses.
func (n *Node) SVM() (*SVM, error) {
	n.svm.mu.Lock()
	defer n.svm.mu.Unlock()
	if g := n.svm.s.Load(); g != nil {
		return g, nil
	}
	hf := n.plat.HostFaults
	mode, err := svmMode(hf)
	if err != nil {
		return nil, err
	}
	g := &SVM{mode: mode, owners: map[uintptr]string{}}
	g.lastKernelDev.Store(0)
	cfg := svm.Config{Base: svm.ManagedBase, Size: svm.ManagedSize, PageSize: svm.HugePage}
	for i := range n.DeviceCount() {
		cfg.Devices = append(cfg.Devices, hbmBudget{n, i})
	}
	if mode == svm.ModeUserfaultfdWP {
		if u, err := svm.NewUffdWP(); err == nil {
			g.uffd = u
			cfg.Protector = u
		} else {
			mode = uffdFallback(hf)
			g.mode = mode
		}
	}
	if mode == svm.ModeMprotect {
		if hf == nil {
			return nil, abi.DevErrorf(abi.DevUnsupported,
				"%s=%s needs the fault handler of libnpuemu.so, which this process has not loaded", EnvSVMHostFaults, mode)
		}
		g.hf = hf
		cfg.Protector = g.hf.Protector()
	}
	s, err := svm.New(cfg)
	if err != nil && g.hf == nil {
		cfg.Base = 0
		s, err = svm.New(cfg)
	}
	if err != nil {
		if g.uffd != nil {
			_ = g.uffd.Close()
		}
		return nil, err
	}
	if g.uffd != nil {
		if err := g.uffd.Start(s); err != nil {
			// Refused at registration (a sandbox may allow the descriptor
			// but not write-protect on this mapping): fall back.
			_ = g.uffd.Close()
			_ = s.Close()
			g.uffd, g.mode = nil, svm.ModeExplicit
			cfg.Protector = nil
			if cfg.Base = svm.ManagedBase; uffdFallback(hf) == svm.ModeMprotect {
				g.hf = hf
				g.mode = svm.ModeMprotect
				cfg.Protector = g.hf.Protector()
			}
			if s, err = svm.New(cfg); err != nil && g.hf == nil {
				cfg.Base = 0
				s, err = svm.New(cfg)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	if g.hf != nil {
		base, size := s.Window()
		if err := g.hf.Install(base, size, s.PageSize()); err != nil {
			_ = s.Close()
			return nil, abi.DevErrorf(abi.DevInternal, "emu: managed memory: host fault handler: %v", err)
		}
	}
	g.space = s
	n.svm.s.Store(g)
	return g, nil
}

// LoadedSVM returns the node's managed memory if it was created.
func (n *Node) LoadedSVM() *SVM { return n.svm.s.Load() }

// closeSVM frees every managed allocation and the window (Node.Close). It
// runs before Node.mu is taken: a Space reserving device capacity may open
// a device, which takes Node.mu.
func (n *Node) closeSVM() {
	n.svm.mu.Lock()
	g := n.svm.s.Swap(nil)
	n.svm.mu.Unlock()
	if g == nil {
		return
	}
	base, size := g.space.Window()
	if g.hf != nil {
		g.hf.Disarm(base, size)
	}
	if g.uffd != nil {
		// First: wakes any writer still blocked on the window.
		_ = g.uffd.Close()
	}
	_ = g.space.Close()
}

// hbmBudget is device id's HBM as an svm.Device. The device opens on the
// first page it receives.
type hbmBudget struct {
	n  *Node
	id int
}

func (b hbmBudget) Reserve(sz uint64) bool {
	d, err := b.n.Device(b.id)
	return err == nil && d.HBM.Reserve(sz)
}

func (b hbmBudget) Release(sz uint64) {
	if d := b.n.Opened(b.id); d != nil {
		d.HBM.Release(sz)
	}
}

// Space returns the Space (tests and counters; callers that change state
// go through the methods below, which drain host faults first).
func (g *SVM) Space() *svm.Space { return g.space }

// Mode returns the host fault detection mode.
func (g *SVM) Mode() string { return g.mode }

// Contains reports whether addr lies in the managed window (allocated or
// not): a lock-free first test before Lookup.
func (g *SVM) Contains(addr uintptr) bool {
	base, size := g.space.Window()
	return addr >= base && uint64(addr-base) < size
}

// drain serves the faults the host handler resolved since the last call.
func (g *SVM) drain() {
	if g.hf == nil || !g.hf.Pending() {
		return
	}
	g.hf.Drain(func(addr uintptr, write, kernel bool, prot int) {
		l := svm.Host
		if kernel {
			l = svm.Location(g.lastKernelDev.Load())
			if pi, err := g.space.Page(addr); err == nil && pi.Location >= 0 {
				l = pi.Location
			}
		}
		// A page freed since the fault is no longer managed: nothing to
		// account.
		_, _ = g.space.Trapped(l, addr, write, prot)
	})
}

// Sync serves pending host faults; Stats and the other methods do it
// themselves.
func (g *SVM) Sync() { g.drain() }

// Alloc implements the address part of aclrtMemAllocManaged and
// halMemAlloc(MEM_SVM / MEM_UVM). owner names the API that allocates, so
// that each API frees only its own allocations (Owner).
func (g *SVM) Alloc(size uint64, owner string) (uintptr, error) {
	g.drain()
	p, err := g.space.Alloc(size)
	if err == nil {
		g.ownMu.Lock()
		g.owners[p] = owner
		g.ownMu.Unlock()
	}
	return p, err
}

// Owner returns the owner given to Alloc for the allocation starting at
// addr ("" when none starts there).
func (g *SVM) Owner(addr uintptr) string {
	g.ownMu.Lock()
	defer g.ownMu.Unlock()
	return g.owners[addr]
}

// Free releases the allocation starting at addr.
func (g *SVM) Free(addr uintptr) error {
	g.drain()
	base, size, ok := g.space.Lookup(addr)
	if g.hf != nil && ok && base == addr {
		g.hf.Disarm(base, size)
	}
	if g.uffd != nil && ok && base == addr {
		g.uffd.Disarm(base, size)
	}
	if err := g.space.Free(addr); err != nil {
		return err
	}
	g.ownMu.Lock()
	delete(g.owners, addr)
	g.ownMu.Unlock()
	return nil
}

// Lookup returns the allocation holding addr.
func (g *SVM) Lookup(addr uintptr) (uintptr, uint64, bool) {
	if !g.Contains(addr) {
		return 0, 0, false
	}
	return g.space.Lookup(addr)
}

// Access is a device-side access (svm.Space.Access).
func (g *SVM) Access(dev int, addr uintptr, n uint64, write bool) (time.Duration, error) {
	g.drain()
	return g.space.Access(svm.Location(dev), addr, n, write)
}

// AccessHold is Access plus a Hold of the range: the device operation
// keeps the bytes reachable until Release. kernel marks a kernel launch.
func (g *SVM) AccessHold(dev int, addr uintptr, n uint64, write, kernel bool) (time.Duration, error) {
	g.drain()
	// Hold first: the pages migrate while held, so their protection does
	// not change twice (one mprotect when the hold ends instead of three).
	if err := g.space.Hold(addr, n, true); err != nil {
		return 0, err
	}
	c, err := g.space.Access(svm.Location(dev), addr, n, write)
	if err != nil {
		_ = g.space.Hold(addr, n, false)
		return c, err
	}
	if kernel {
		g.lastKernelDev.Store(int32(dev))
	}
	return c, nil
}

// Release ends a hold of AccessHold.
func (g *SVM) Release(addr uintptr, n uint64) error {
	return g.space.Hold(addr, n, false)
}

// HostAccess is a host-side access at an explicit migration point.
func (g *SVM) HostAccess(addr uintptr, n uint64, write bool) (time.Duration, error) {
	g.drain()
	return g.space.HostAccess(addr, n, write)
}

// HostAccessByDevice is HostAccess with the cost split by the device
// serving each page (svm.Space.HostAccessByDevice), for a synchronous copy
// that charges it on those devices' clocks.
func (g *SVM) HostAccessByDevice(addr uintptr, n uint64, write bool) ([]time.Duration, error) {
	g.drain()
	return g.space.HostAccessByDevice(addr, n, write)
}

// Synchronized is the migration point of a stream, event or device
// synchronize on device dev. In explicit mode nothing traps, so the host is
// assumed to read what the device wrote: every page dirty on dev is written
// back (svm.Space.Writeback) and the returned cost is that write-back's.
// The trapping modes account a host access when it happens, so they do
// nothing here.
func (g *SVM) Synchronized(dev int) (time.Duration, error) {
	if g.mode != svm.ModeExplicit {
		return 0, nil
	}
	return g.space.Writeback(svm.Location(dev))
}

// MapPeer implements the managed-memory part of aclrtMemP2PMap
// (svm.Space.MapPeer).
func (g *SVM) MapPeer(addr uintptr, n uint64, dev int) error {
	g.drain()
	return g.space.MapPeer(addr, n, svm.Location(dev))
}

// Prefetch implements the residency part of the prefetch calls.
func (g *SVM) Prefetch(addr uintptr, n uint64, dest svm.Location) (time.Duration, error) {
	g.drain()
	return g.space.Prefetch(addr, n, dest)
}

// Advise implements aclrtMemManagedAdvise / halMemManagedAdvise.
func (g *SVM) Advise(addr uintptr, n uint64, a svm.Advice, l svm.Location) error {
	g.drain()
	return g.space.Advise(addr, n, a, l)
}

// AdviseResidency implements the residency part of halMemAdvise.
func (g *SVM) AdviseResidency(addr uintptr, count uint64, r svm.Residency, dev svm.Location) (time.Duration, error) {
	g.drain()
	return g.space.AdviseResidency(addr, count, r, dev)
}

// RangeAttrs implements aclrtMemManagedGetAttr.
func (g *SVM) RangeAttrs(addr uintptr, n uint64) (svm.Attrs, error) {
	g.drain()
	return g.space.RangeAttrs(addr, n)
}

// Page returns the page-table entry of the page holding addr.
func (g *SVM) Page(addr uintptr) (svm.PageInfo, error) {
	g.drain()
	return g.space.Page(addr)
}

// Stats returns the counters of l (svm.Host or a device).
func (g *SVM) Stats(l svm.Location) (svm.Stats, error) {
	g.drain()
	return g.space.Stats(l)
}

// PageSize returns the managed page size.
func (g *SVM) PageSize() uint64 { return g.space.PageSize() }
