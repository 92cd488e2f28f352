package core

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// What the runtime gives Ascend C kernels (emu/include/npuemu/ascendc_rt.h)
// beyond the plain kernel ABI: the allocation holding a GM address (the
// rule "GM access outside every allocation"), the SoC name (local memory
// sizes and cost table), cooperative launches (SyncAll: every block
// resident at once) and the per-pipe cycle record of each launch.

// ClockMHz is the AI Core clock of a SoC, for converting cycles into
// time: 1800 MHz on the Atlas A2/A3 families (Ascend910B*, Ascend910_93*),
// 1000 MHz otherwise (an estimate; docs/ascendc.md).
func ClockMHz(soc string) float64 {
	if strings.HasPrefix(soc, "Ascend910B") || strings.HasPrefix(soc, "Ascend910_93") {
		return 1800
	}
	return 1000
}

// KernelCooperative is npuemu_kernel_entry.flags' NPUEMU_KERNEL_COOPERATIVE.
const KernelCooperative = 1

// KernelGMFind returns the allocation holding addr, as a kernel may touch
// it: device memory (aclrtMalloc, halMemAlloc), pinned host memory
// (aclrtMallocHost) or managed memory.
func KernelGMFind(addr uintptr) (base uintptr, size uint64, ok bool) {
	n := Runtime.Node.Load()
	if n == nil {
		return 0, 0, false
	}
	if ed, found := n.FindDevice(addr); found {
		b, req, ok := ed.HBM.Find(addr)
		if !ok {
			return 0, 0, false
		}
		// An aclrtMalloc block: the bytes the caller may use (the padded
		// size), not the pages behind them; a HAL block: what it asked.
		// This runs on a kernel's thread: it must not wait for core.Runtime.Mu,
		// which a thread waiting for the kernel may hold; when it is
		// taken, the block's pages are the bound.
		if d := kernelDevice(int(ed.ID)); d != nil {
			d.AllocMu.RLock()
			a, live := d.Allocs[b]
			d.AllocMu.RUnlock()
			if live {
				return b, a.Size, true
			}
		}
		return b, req, true
	}
	if base, size, ok := n.Host().Find(addr); ok {
		return base, size, true
	}
	if g := n.LoadedSVM(); g != nil {
		if base, size, ok := g.Lookup(addr); ok {
			return base, size, true
		}
	}
	return 0, 0, false
}

// kernelDevice returns the runtime device id if core.Runtime.Mu is free now (nil
// otherwise, or when the runtime has not opened it).
func kernelDevice(id int) *Device {
	if !Runtime.Mu.TryLock() {
		return nil
	}
	defer Runtime.Mu.Unlock()
	if id < len(Runtime.Devs) {
		return Runtime.Devs[id]
	}
	return nil
}

// KernelSoC returns the SoC name kernels see ("" before the node exists).
func KernelSoC() string {
	n := Runtime.Node.Load()
	if n == nil {
		return ""
	}
	return n.SoC().Name
}

// KernelPipes is the number of pipes in a launch's cycle record: the
// Ascend C pipe_t values PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2,
// PIPE_MTE3, PIPE_ALL (unused), PIPE_MTE4, PIPE_MTE5, PIPE_V2, PIPE_FIX.
const KernelPipes = 16

// PipeNames names the entries of KernelCycles.Busy.
var PipeNames = [...]string{"S", "V", "M", "MTE1", "MTE2", "MTE3", "ALL", "MTE4", "MTE5", "V2", "FIX"}

// KernelCycles is the cycle record of one launch of an Ascend C kernel:
// per pipe, the cycles it was busy summed over every core of the launch,
// and the launch's length (the slowest core's end, in cycles of the SoC
// clock; docs/ascendc.md has the cost table).
type KernelCycles struct {
	Kernel string
	Blocks uint32
	Cores  uint32 // cores that reported (a MIX block is three)
	Busy   [KernelPipes]uint64
	Cycles uint64
}

// CycleHost is implemented by kernel hosts that keep cycle records.
type CycleHost interface {
	Cycles(state []byte) (busy [KernelPipes]uint64, cycles uint64, cores uint32)
}

var cycleState struct {
	mu   sync.Mutex
	last KernelCycles
	hook func(KernelCycles)
}

// LastKernelCycles returns the cycle record of the last launch of an
// Ascend C kernel that completed (false when none has).
func LastKernelCycles() (KernelCycles, bool) {
	cycleState.mu.Lock()
	defer cycleState.mu.Unlock()
	return cycleState.last, cycleState.last.Kernel != ""
}

// SetKernelCyclesHook sets a function called with the cycle record of
// every completed launch of an Ascend C kernel (the timeline, #15); nil
// removes it. It runs on the thread completing the launch: keep it short.
func SetKernelCyclesHook(fn func(KernelCycles)) {
	cycleState.mu.Lock()
	cycleState.hook = fn
	cycleState.mu.Unlock()
}

// recordCycles is called by launch.Done before the state is flushed.
func (l *Launch) recordCycles() {
	if p := l.probe; p != nil && !p.HasCycles(l.Buf[:LaunchHeader]) {
		return // the launch path's common case (launch_submit.go)
	}
	ch, ok := l.Host.(CycleHost)
	if !ok {
		return
	}
	busy, cycles, cores := ch.Cycles(l.Buf[:LaunchHeader])
	if cores == 0 {
		return
	}
	rec := KernelCycles{Kernel: l.F.Entry.Name, Blocks: l.blocks, Cores: cores, Busy: busy, Cycles: cycles}
	// The launch lasted as long as its slowest core; with as many blocks as
	// cores that is one wave: the block cost of the function's next
	// launches on the device clock (the launch itself was charged when it
	// was queued, before its cycles were known).
	if l.blocks > 0 {
		l.F.Measured.Store(int64(float64(cycles) * 1000 / ClockMHz(KernelSoC())))
	}
	cycleState.mu.Lock()
	cycleState.last = rec
	hook := cycleState.hook
	cycleState.mu.Unlock()
	if hook != nil {
		hook(rec)
	}
	if printCycles {
		fmt.Fprintf(os.Stderr, "npuemu: kernel %s: %d blocks, %d cycles (%.1f us); busy cycles:", rec.Kernel, rec.Blocks, rec.Cycles,
			float64(rec.Cycles)/ClockMHz(KernelSoC()))
		for i, n := range rec.Busy {
			if n > 0 && i < len(PipeNames) {
				fmt.Fprintf(os.Stderr, " %s %d", PipeNames[i], n)
			}
		}
		fmt.Fprintln(os.Stderr)
	}
}

// printCycles: NPUEMU_ASCENDC_CYCLES=1 prints each launch's cycle record
// on stderr.
var printCycles = os.Getenv("NPUEMU_ASCENDC_CYCLES") == "1"

// Cooperative makes a launch of a cooperative kernel start only when all
// its blocks fit on the cores at once, and refuses one that can never fit.
func Cooperative(fn string, e *KernelEntry, s *tsfw.KernelSpec, cube, vector int) error {
	if e.Flags&KernelCooperative == 0 {
		return nil
	}
	s.Batch = true
	s.Resident = true // every block on a host lane of its own: blocks wait for each other (SyncAll)
	var pool int
	per := 1
	switch s.Kind {
	case tsfw.CoreVector:
		pool = vector
		if vector == 0 {
			pool = cube
		}
	case tsfw.CoreMix:
		pool = cube
		if vector > 0 {
			mv := int(s.MixVector)
			if mv == 0 {
				mv = 2
			}
			if vector/mv < pool {
				pool = vector / mv
			}
		}
	default:
		pool = cube
	}
	if s.MaxCores > 0 && int(s.MaxCores) < pool {
		pool = int(s.MaxCores)
	}
	if int(s.Blocks)*per > pool {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID,
			"%s: kernel %s synchronises all its blocks (SyncAll or cross-core flags), so they must run at once: numBlocks %d exceeds the %d cores it can use", fn, e.Name, s.Blocks, pool)
	}
	return nil
}
