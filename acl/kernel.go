package acl

import (
	"encoding/binary"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// Kernels (docs/kernels.md). A kernel binary is a host shared object
// following emu/include/npuemu/kernel.h; the KernelHost (libfake, C) opens
// it, reads its kernel table and runs blocks under a fault guard. acl keeps
// the handles (binaries, functions, args), builds the launch image of the
// arguments and queues a tsfw kernel task whose blocks call the host.
//
// Launch hot path: three O(1) handle lookups, a launch object from a free
// list (its argument buffer is reused), one copy of the blob, one Submit;
// no memdb, no allocation in the steady state.

// platform is the process node's platform (emu.Platform): the zero value
// before the node exists.
func platform() emu.Platform {
	if n := core.Runtime.Node.Load(); n != nil {
		return n.Platform()
	}
	return emu.Platform{}
}

// kernelHost is the kernel host of the node's platform.
func kernelHost(fn string) (core.KernelHost, error) {
	h := platform().Kernels
	if h == nil {
		return nil, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: this build of npuemu has no kernel host (kernels run only through libnpuemu.so)", fn)
	}
	return h, nil
}

// notKernelBinary is the message for a file the loader refuses.
const notKernelBinary = "npuemu runs kernels built as host shared objects that export npuemu_kernel_table " +
	"(build with `cc -shared -fPIC -I emu/include kernel.c -o kernel.so`, see docs/kernels.md); real AI Core binaries cannot run on the emulator"

// BinaryLoadOption is one aclrtBinaryLoadOption (type and the first word
// of its value union).
type BinaryLoadOption struct {
	Type  int32
	Value uint32
}

func checkLoadOptions(fn string, opts []BinaryLoadOption) error {
	for _, o := range opts {
		switch o.Type {
		case abi.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
			if o.Value > 1 {
				return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: isLazyLoad %d: want 0 or 1", fn, o.Value)
			}
		case abi.ACL_RT_BINARY_LOAD_OPT_MAGIC:
			switch o.Value {
			case abi.ACL_RT_BINARY_MAGIC_ELF_AICORE, abi.ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE, abi.ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE:
			default:
				return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: magic %#x is none of ACL_RT_BINARY_MAGIC_ELF_*", fn, o.Value)
			}
		case abi.ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
			return abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: AI CPU kernels (ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE) are not emulated", fn)
		default:
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtBinaryLoadOptionType %d", fn, o.Type)
		}
	}
	return nil
}

// BinaryLoadFromFile implements aclrtBinaryLoadFromFile.
func BinaryLoadFromFile(t *core.Thread, path string, opts []BinaryLoadOption, out *core.Handle) error {
	const fn = "aclrtBinaryLoadFromFile"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binHandle must not be NULL", fn)
	}
	if path == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binPath must not be NULL or empty", fn)
	}
	if err := checkLoadOptions(fn, opts); err != nil {
		return err
	}
	if _, err := core.Current(t, fn); err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: %v", fn, err)
	}
	if !st.Mode().IsRegular() {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: %s is not a regular file", fn, path)
	}
	h, err := kernelHost(fn)
	if err != nil {
		return err
	}
	lib, entries, err := h.Open(path)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: %s is not an npuemu kernel binary (%v): %s", fn, path, err, notKernelBinary)
	}
	b := core.NewBinary(h, lib, path, entries)
	registerEntries(b) // kernel_query.go
	*out = b.H
	return nil
}

// BinaryLoadFromData implements aclrtBinaryLoadFromData.
func BinaryLoadFromData(t *core.Thread, data []byte, opts []BinaryLoadOption, out *core.Handle) error {
	const fn = "aclrtBinaryLoadFromData"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binHandle must not be NULL", fn)
	}
	if len(data) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: data must not be NULL and length must be > 0", fn)
	}
	if err := checkLoadOptions(fn, opts); err != nil {
		return err
	}
	if _, err := core.Current(t, fn); err != nil {
		return err
	}
	h, err := kernelHost(fn)
	if err != nil {
		return err
	}
	lib, entries, err := h.Load(data)
	if err != nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_FILE, "%s: the %d bytes are not an npuemu kernel binary (%v): %s", fn, len(data), err, notKernelBinary)
	}
	b := core.NewBinary(h, lib, "", entries)
	registerEntries(b) // kernel_query.go
	*out = b.H
	return nil
}

// BinaryUnLoad implements aclrtBinaryUnLoad. Its handles die at once; the
// shared object is closed when its last queued launch has finished.
func BinaryUnLoad(t *core.Thread, h core.Handle) error {
	const fn = "aclrtBinaryUnLoad"
	b, err := core.ResolveBinary(fn, h)
	if err != nil {
		return err
	}
	if !b.Unload() {
		return abi.Errorf(abi.ACL_ERROR_RT_INVALID_HANDLE, "%s: binary %#x was already unloaded", fn, uintptr(h))
	}
	unregisterEntries(b) // kernel_query.go
	b.MaybeClose()
	return nil
}

// BinaryGetFunction implements aclrtBinaryGetFunction.
func BinaryGetFunction(t *core.Thread, h core.Handle, name string, out *core.Handle) error {
	const fn = "aclrtBinaryGetFunction"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: funcHandle must not be NULL", fn)
	}
	if name == "" {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: kernelName must not be NULL or empty", fn)
	}
	b, err := core.ResolveBinary(fn, h)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(b.Funcs))
	for _, f := range b.Funcs {
		if f.Entry.Name == name {
			*out = f.H
			return nil
		}
		names = append(names, f.Entry.Name)
	}
	return abi.Errorf(abi.ACL_ERROR_RT_KERNEL_LOOKUP, "%s: the binary has no kernel %q (its table lists: %s)", fn, name, strings.Join(names, ", "))
}

// FunctionGetBinary implements aclrtFunctionGetBinary.
func FunctionGetBinary(t *core.Thread, fh core.Handle, out *core.Handle) error {
	const fn = "aclrtFunctionGetBinary"
	if out == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: binHandle must not be NULL", fn)
	}
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	*out = f.Bin.H
	return nil
}

// FunctionName returns the kernel name (aclrtGetFunctionName; libfake
// copies it out).
func FunctionName(t *core.Thread, fh core.Handle) (string, error) {
	f, err := core.ResolveFunction("aclrtGetFunctionName", fh)
	if err != nil {
		return "", err
	}
	return f.Entry.Name, nil
}

// GetFunctionAddr implements aclrtGetFunctionAddr: the entry point is the
// cube part of cube/AI Core/mix kernels and the vector part of vector and
// mix kernels; an absent part is 0.
func GetFunctionAddr(t *core.Thread, fh core.Handle, aic, aiv *uintptr) error {
	const fn = "aclrtGetFunctionAddr"
	if aic == nil || aiv == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: aicAddr and aivAddr must not be NULL", fn)
	}
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	*aic, *aiv = 0, 0
	switch f.Entry.Kind {
	case abi.ACL_KERNEL_TYPE_VECTOR:
		*aiv = f.Entry.Fn
	case abi.ACL_KERNEL_TYPE_MIX:
		*aic, *aiv = f.Entry.Fn, f.Entry.Fn
	default:
		*aic = f.Entry.Fn
	}
	return nil
}

// GetFunctionAttribute implements aclrtGetFunctionAttribute.
func GetFunctionAttribute(t *core.Thread, fh core.Handle, attr int32, v *int64) error {
	const fn = "aclrtGetFunctionAttribute"
	if v == nil {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attrValue must not be NULL", fn)
	}
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	switch attr {
	case abi.ACL_FUNC_ATTR_KERNEL_TYPE:
		*v = int64(f.Entry.Kind)
	case abi.ACL_FUNC_ATTR_KERNEL_RATIO:
		// uint16[1] is the cube part, uint16[0] the vector part.
		c, vec := int64(1), int64(0)
		switch f.Entry.Kind {
		case abi.ACL_KERNEL_TYPE_VECTOR:
			c, vec = 0, 1
		case abi.ACL_KERNEL_TYPE_MIX:
			c, vec = int64(max(f.Entry.MixCube, 1)), int64(f.Entry.MixVector)
			if vec == 0 {
				vec = 2
			}
		}
		*v = c<<16 | vec
	case abi.ACL_FUNC_ATTR_KERNEL_SCHED_MODE:
		*v = 0 // normal; a launch may ask for batch mode
	default:
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtFuncAttribute %d", fn, attr)
	}
	return nil
}

// LaunchAttr is one aclrtLaunchKernelAttr: its id and the 16 bytes of its
// value union.
type LaunchAttr struct {
	ID    int32
	Value [16]byte
}

// launchCfg is what the attributes of a launch ask for.
type launchCfg struct {
	batch   bool
	timeout time.Duration
	engine  int32 // -1: the kernel's own kind
	flags   uint8 // 0/1 attributes given as 1 (launchFlagOf, capture.go)
	// a front hand-over: never wait for ring space (kernel_launch_handover.go)
	handoff *core.Handover
}

func parseLaunchAttrs(fn string, attrs []LaunchAttr, soc string) (launchCfg, error) {
	cfg := launchCfg{engine: -1}
	var haveT, haveUs bool
	for _, a := range attrs {
		u8 := a.Value[0]
		u32 := binary.LittleEndian.Uint32(a.Value[:4])
		switch a.ID {
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
			if u8 > 1 {
				return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: schemMode %d: want 0 (normal) or 1 (batch)", fn, u8)
			}
			cfg.batch = u8 == 1
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
			haveT = true
			cfg.timeout = time.Duration(binary.LittleEndian.Uint16(a.Value[:2])) * time.Second
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
			haveUs = true
			us := uint64(u32) | uint64(binary.LittleEndian.Uint32(a.Value[4:8]))<<32
			cfg.timeout = time.Duration(min(us, math.MaxInt64/1000)) * time.Microsecond
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
			if u8 > 1 {
				return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: attribute %d: value %d: want 0 or 1", fn, a.ID, u8)
			}
			cfg.flags |= launchFlagOf(a.ID, u8)
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
			if u32 != 0 {
				return cfg, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: dynamic UB (%d bytes) exists for SIMT kernels of the Ascend 950 only", fn, u32)
			}
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
			if !strings.HasPrefix(soc, "Ascend310P") {
				return cfg, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE is for Atlas inference (310P) only, not %s", fn, soc)
			}
			if u32 > abi.ACL_RT_ENGINE_TYPE_AIV {
				return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: engineType %d: want ACL_RT_ENGINE_TYPE_AIC (0) or _AIV (1)", fn, u32)
			}
			cfg.engine = int32(u32)
		case abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
			if u32 != 0 {
				return cfg, abi.Errorf(abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: a non-zero blockDimOffset (310P core groups) is not emulated", fn)
			}
		default:
			return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: unknown aclrtLaunchKernelAttrId %d", fn, a.ID)
		}
	}
	if haveT && haveUs {
		return cfg, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT and _TIMEOUT_US are mutually exclusive", fn)
	}
	return cfg, nil
}

// kernelSpec builds the tsfw description of a launch of f.
func kernelSpec(f *core.Function, blocks uint32, cfg launchCfg, units uint64) tsfw.KernelSpec {
	s := tsfw.KernelSpec{Blocks: blocks, Batch: cfg.batch, Timeout: cfg.timeout}
	if s.Timeout == 0 {
		// No timeout attribute: aclrtSetOpExecuteTimeOut's, if one was set.
		s.Timeout = OpExecuteTimeout()
	}
	switch f.Entry.Kind {
	case abi.ACL_KERNEL_TYPE_VECTOR:
		s.Kind = tsfw.CoreVector
	case abi.ACL_KERNEL_TYPE_MIX:
		s.Kind = tsfw.CoreMix
		s.MixVector = uint32(f.Entry.MixVector) / uint32(max(f.Entry.MixCube, 1))
	}
	switch cfg.engine {
	case abi.ACL_RT_ENGINE_TYPE_AIC:
		s.Kind = tsfw.CoreCube
	case abi.ACL_RT_ENGINE_TYPE_AIV:
		s.Kind = tsfw.CoreVector
	}
	ns := float64(f.Entry.NsPerBlock)
	if m := f.Measured.Load(); m > 0 && f.Entry.NsPerBlock == 0 && f.Entry.NsPerUnit == 0 {
		ns = float64(m)
	}
	if f.Entry.NsPerUnit > 0 {
		per := (units + uint64(blocks) - 1) / uint64(blocks)
		ns += f.Entry.NsPerUnit * float64(per)
	}
	s.BlockCost = time.Duration(min(ns, float64(math.MaxInt64/2)))
	return s
}

// launchHeader is the host scratch in front of each launch image
// (libfake/kernel_host.h, npu_kstate).
const launchHeader = 32

// launch is one queued kernel: the tsfw.Kernel of its task.
type launch struct {
	*launchMem
	f      *core.Function
	args   uintptr // what the kernel sees as its blob
	size   uint64
	svm    *managedUse       // managed pages the kernel's arguments hold (acl/managed.go)
	attr   uint8             // launchCfg.flags, for aclmdlRIKernelTaskGetAttribute
	blocks uint32            // numBlocks, for the cycle record
	san    *sanitize.Pending // the sanitizer's pending check (acl/kernel_sanitize.go; nil when off)
	trk    *kernelTrack      // the sanitizer's page tracking (acl/kernel_track.go; nil when off)
}

// launches recycles launch objects and their host buffers. A sync.Pool:
// the launching thread takes objects and the lanes completing kernels put
// them back, which a locked free list would make contend on every launch.
// An empty pool is refilled a slab at a time (newLaunches), so a launch
// loop that fills a ring (~1000 launches in flight) makes a few slabs
// instead of paying a Go allocation, a C allocation and a page fault on
// each of its first thousand launches.
var launches sync.Pool

const (
	// slabLaunches is the launch objects one slab holds.
	slabLaunches = 128
	// launchSlot is each slab launch's share of the slab's C buffer: the
	// header and an argument image of up to 96 bytes (a dozen pointer
	// arguments). A launch whose image is larger gets a buffer of its own.
	launchSlot = 128
)

// launchSlab is launch objects allocated together; their buffers are
// slots of one C allocation, freed by a cleanup once no launch of the slab
// is reachable (an interior pointer keeps the whole slab alive).
type launchSlab struct {
	ls [slabLaunches]launch
	ms [slabLaunches]launchMem
}

// launchMem is a launch's host buffer, apart from the launch so that a
// launch can swap a slab slot for a larger buffer of its own.
type launchMem struct {
	host core.KernelHost
	buf  []byte  // header, then the argument image
	addr uintptr // address of buf
	// probe is host as a cycleProbe (nil when it is not one), asserted once
	// per buffer rather than at every completion (recordCycles).
	probe cycleProbe
}

// hostMem is C memory to free: the argument of a cleanup, which must not
// refer to the object it is attached to.
type hostMem struct {
	host core.KernelHost
	buf  []byte
}

func freeHostMem(m hostMem) { m.host.Free(m.buf) }

// newLaunches makes a slab of launches for h, pools all but one and
// returns that one.
func newLaunches(h core.KernelHost) *launch {
	s := new(launchSlab)
	mem, addr := h.Alloc(slabLaunches * launchSlot)
	clear(mem) // fault its pages in now, not one per first launch
	runtime.AddCleanup(s, freeHostMem, hostMem{h, mem})
	probe, _ := h.(cycleProbe)
	for i := range s.ls {
		m := &s.ms[i]
		m.probe = probe
		off := i * launchSlot
		m.host, m.buf, m.addr = h, mem[off:off+launchSlot:off+launchSlot], addr+uintptr(off)
		s.ls[i].launchMem = m
		if i > 0 {
			launches.Put(&s.ls[i])
		}
	}
	return &s.ls[0]
}

func getLaunch(h core.KernelHost, n int) *launch {
	l, _ := launches.Get().(*launch)
	if l == nil {
		l = newLaunches(h)
	}
	need := launchHeader + n
	if l.host != h || cap(l.buf) < need {
		m := &launchMem{host: h}
		m.probe, _ = h.(cycleProbe)
		m.buf, m.addr = h.Alloc(max(need, 256))
		runtime.AddCleanup(m, freeHostMem, hostMem{h, m.buf})
		l.launchMem = m
	}
	clear(l.buf[:launchHeader])
	return l
}

func putLaunch(l *launch) {
	l.f = nil
	l.san = nil
	l.trk = nil
	if l.svm != nil {
		l.svm.release()
		l.svm = nil
	}
	launches.Put(l)
}

// RunBlock implements tsfw.Kernel.
func (l *launch) RunBlock(b, n uint32) error {
	if l.trk != nil {
		l.trk.begin(l) // the sanitizer's gate and page tracking (kernel_track.go)
	}
	if err := l.host.Run(l.f.Entry.Fn, l.args, l.size, b, n, l.buf[:launchHeader]); err != nil {
		return l.fault(b, n, err) // carries the launch for the exception info
	}
	return nil
}

// Done implements tsfw.Kernel: the kernel's output is written, the binary
// released and the launch recycled.
func (l *launch) Done(err error) error {
	l.recordCycles()
	if l.san != nil {
		l.sanitizeLaunchDone()
	}
	l.host.Flush(l.buf[:launchHeader])
	l.f.Bin.Release()
	putLaunch(l)
	return err
}

func checkBlocks(fn string, blocks uint32) error {
	if blocks == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: numBlocks must be > 0", fn)
	}
	if blocks > tsfw.MaxBlocks {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: numBlocks %d exceeds npuemu's limit of %d", fn, blocks, tsfw.MaxBlocks)
	}
	return nil
}
