package acl

import (
	"encoding/binary"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// The launch variants. All of them end in one launch image: the argument
// blob the kernel's blocks see, either copied into the launch's host
// buffer at the call (WithConfig, WithHostArgs, WithArgsArray, V2 with host
// arguments) or read in place from device memory when the kernel runs
// (aclrtLaunchKernel, V2 with device arguments).

// launchTarget resolves and checks what every variant shares.
func launchTarget(t *core.Thread, fn string, blocks uint32, sh core.Handle, attrs []LaunchAttr) (*core.Stream, launchCfg, error) {
	cfg := launchCfg{engine: -1}
	if err := checkBlocks(fn, blocks); err != nil {
		return nil, cfg, err
	}
	s, err := resolveStream(t, fn, sh)
	if err != nil {
		return nil, cfg, err
	}
	if len(attrs) > 0 {
		if cfg, err = parseLaunchAttrs(fn, attrs, s.Ctx.Dev.Emu.SoC.Name); err != nil {
			return nil, cfg, err
		}
	}
	return s, cfg, nil
}

// unitsOf reads f's unit count from a launch image.
func unitsOf(f *core.Function, img []byte) uint64 {
	if f.Entry.NsPerUnit > 0 && int(f.Entry.SizeOffset)+8 <= len(img) {
		return binary.LittleEndian.Uint64(img[f.Entry.SizeOffset:])
	}
	return 0
}

// submitImage queues a launch whose image is in l: img is the copied image,
// nil when the kernel reads its arguments in place (l.args, l.size). A
// stream that records (capture, model build) takes the task instead; the
// managed allocations the arguments point into are faulted in ahead of the
// kernel (acl/managed.go).
func submitImage(t *core.Thread, fn string, s *core.Stream, f *core.Function, l *launch, img []byte, blocks uint32, cfg launchCfg, units uint64) error {
	var spec tsfw.KernelSpec
	if err := launchSpec(t, fn, s, f, blocks, cfg, units, &spec); err != nil {
		putLaunch(l)
		return err
	}
	return submitSpec(t, fn, s, f, l, img, blocks, cfg, &spec)
}

// launchSpec writes to spec the tsfw description of a launch of f on s by
// t: the function's costs, the thread's and stream's core limits, the
// cooperative launch's check. (In place, as submitSpec reads it: the
// description is copied once, into the task.)
func launchSpec(t *core.Thread, fn string, s *core.Stream, f *core.Function, blocks uint32, cfg launchCfg, units uint64, spec *tsfw.KernelSpec) error {
	*spec = kernelSpec(f, blocks, cfg, units)
	spec.MaxCores = launchCap(t, s, spec)
	if f.Entry.Flags != 0 {
		soc := &s.Ctx.Dev.Emu.SoC
		return cooperative(fn, &f.Entry, spec, soc.CubeCores, soc.VectorCores)
	}
	return nil
}

// runSpec is the description a run of identical launches shares
// (launchKernelN): built by its first launch, reused while the image's unit
// count is the same. The run is made in one call on behalf of one thread
// with no call of that thread between its launches (the front hands a
// thread's queue over before any other call), so what the description
// reads (limits, timeouts) is the same for all of them.
type runSpec struct {
	ok    bool
	units uint64
	spec  tsfw.KernelSpec
}

// submitSpec is submitImage with the description built.
func submitSpec(t *core.Thread, fn string, s *core.Stream, f *core.Function, l *launch, img []byte, blocks uint32, cfg launchCfg, spec *tsfw.KernelSpec) error {
	l.blocks = blocks
	if err := f.Bin.Acquire(fn); err != nil {
		putLaunch(l)
		return err
	}
	l.f, l.attr = f, cfg.flags
	// Managed pages are faulted in ahead of the kernel; launchManaged does
	// nothing for a stream that records (the recorder then takes the task).
	words, word := blobWords(img)
	if img == nil {
		words, word = deviceWords(l.args, l.size)
	}
	if err := launchManaged(fn, s, l, words, word); err != nil {
		f.Bin.Release()
		putLaunch(l)
		return err
	}
	if err := s.Queue(t, fn, tsfw.KernelTask(l, *spec), core.Queued{Launch: l, Counted: true, Handover: cfg.handoff}); err != nil {
		f.Bin.Release()
		putLaunch(l)
		return err
	}
	return nil
}

// copyLaunch returns a launch holding a copy of blob as its image.
func copyLaunch(f *core.Function, blob []byte) (*launch, []byte) {
	l := getLaunch(f.Bin.Host, len(blob))
	img := l.buf[launchHeader : launchHeader+len(blob)]
	copy(img, blob)
	l.args, l.size = l.addr+launchHeader, uint64(len(blob))
	return l, img
}

// LaunchKernelWithConfig implements aclrtLaunchKernelWithConfig: the
// finalized blob of the args handle is copied, so later updates do not
// affect this launch.
func LaunchKernelWithConfig(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, attrs []LaunchAttr, ah core.Handle) error {
	return launchKernelN(t, fh, blocks, sh, nil, attrs, ah, 1, nil)
}

// launchKernelN makes n launches of one kernel with one args handle and
// configuration, resolving and checking the handles once; it returns the
// first error (a handle that does not resolve fails all n the same way).
// With ho not nil they never wait for ring space (HandOverLaunches). on,
// when not nil, is stream sh already resolved for t in the same crossing
// (ClaimForSync): it is not resolved again unless it died meanwhile (the
// resolution then reports it as before).
func launchKernelN(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, on *core.Stream, attrs []LaunchAttr, ah core.Handle, n int, ho *core.Handover) error {
	const fn = "aclrtLaunchKernelWithConfig"
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	if err := checkBlocks(fn, blocks); err != nil {
		return err
	}
	a, err := core.ResolveArgs(fn, ah)
	if err != nil {
		return err
	}
	// launchTarget without its second checkBlocks, and without the
	// resolution when the crossing carries the stream.
	s := on
	if s == nil || s.H != sh || s.Dead.Load() {
		if s, err = resolveStream(t, fn, sh); err != nil {
			return err
		}
	}
	cfg := launchCfg{engine: -1, handoff: ho}
	if len(attrs) > 0 {
		if cfg, err = parseLaunchAttrs(fn, attrs, s.Ctx.Dev.Emu.SoC.Name); err != nil {
			return err
		}
		cfg.handoff = ho
	}
	if a.Func != f {
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: args handle %#x was built for kernel %s, not %s", fn, uintptr(ah), a.Func.Entry.Name, f.Entry.Name)
	}
	var first error
	var run runSpec
	var rs *runSpec
	if n > 1 {
		rs = &run
	}
	for range n {
		if err := launchArgs(t, fn, s, f, a, ah, blocks, cfg, rs); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// launchArgs queues one launch of f with the finalized blob of args handle
// a (handle ah) on s: the end of LaunchKernelWithConfig once the handles
// are resolved and checked. rs, when not nil, is the run's description
// (built on first use).
func launchArgs(t *core.Thread, fn string, s *core.Stream, f *core.Function, a *core.Args, ah core.Handle, blocks uint32, cfg launchCfg, rs *runSpec) error {
	a.Mu.Lock()
	if !a.Final {
		a.Mu.Unlock()
		return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: args handle %#x is not finalized: call aclrtKernelArgsFinalize after appending or updating", fn, uintptr(ah))
	}
	l := getLaunch(f.Bin.Host, a.Total)
	img := l.buf[launchHeader : launchHeader+a.Total]
	a.Fill(img, l.addr+launchHeader)
	a.Mu.Unlock()
	l.args, l.size = l.addr+launchHeader, uint64(a.Total)
	units := unitsOf(f, img)
	if rs == nil {
		return submitImage(t, fn, s, f, l, img, blocks, cfg, units)
	}
	if !rs.ok || rs.units != units {
		rs.ok = false
		if err := launchSpec(t, fn, s, f, blocks, cfg, units, &rs.spec); err != nil {
			putLaunch(l)
			return err
		}
		rs.ok, rs.units = true, units
	}
	return submitSpec(t, fn, s, f, l, img, blocks, cfg, &rs.spec)
}

// deviceArgs checks that argsData..+argsSize lies in one allocation of s's
// device and returns the unit count it holds for f.
func deviceArgs(fn string, s *core.Stream, f *core.Function, argsData uintptr, argsSize uint64) (uint64, bool) {
	hbm := s.Ctx.Dev.Emu.HBM
	base, size, ok := hbm.Find(argsData)
	if !ok || uint64(argsData-base)+argsSize > size {
		return 0, false
	}
	if f.Entry.NsPerUnit > 0 && uint64(f.Entry.SizeOffset)+8 <= argsSize {
		return peekU64(argsData + uintptr(f.Entry.SizeOffset)), true
	}
	return 0, true
}

// LaunchKernel implements aclrtLaunchKernel: argsData is device memory of
// the stream's device holding the packed arguments; the kernel reads it in
// place when it runs.
func LaunchKernel(t *core.Thread, fh core.Handle, blocks uint32, argsData uintptr, argsSize uint64, sh core.Handle) error {
	const fn = "aclrtLaunchKernel"
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	if err := checkBlocks(fn, blocks); err != nil {
		return err
	}
	if argsSize > 0 && argsData == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsData must not be NULL when argsSize is %d", fn, argsSize)
	}
	s, cfg, err := launchTarget(t, fn, blocks, sh, nil)
	if err != nil {
		return err
	}
	var units uint64
	if argsSize > 0 {
		var ok bool
		if units, ok = deviceArgs(fn, s, f, argsData, argsSize); !ok {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsData %#x..+%d is not inside one allocation of device %d's memory", fn, argsData, argsSize, s.Ctx.Dev.ID)
		}
	}
	l := getLaunch(f.Bin.Host, 0)
	l.args, l.size = argsData, argsSize
	return submitImage(t, fn, s, f, l, nil, blocks, cfg, units)
}

// LaunchKernelV2 implements aclrtLaunchKernelV2: aclrtLaunchKernel with a
// launch configuration. argsData may be device memory of the stream's
// device (read in place when the kernel runs, as aclrtLaunchKernel) or host
// memory, which is copied at the call; hostArgs returns the argsSize bytes
// at argsData when argsData is not device memory.
func LaunchKernelV2(t *core.Thread, fh core.Handle, blocks uint32, argsData uintptr, argsSize uint64, attrs []LaunchAttr, sh core.Handle, hostArgs func() []byte) error {
	const fn = "aclrtLaunchKernelV2"
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	if argsSize > 0 && argsData == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsData must not be NULL when argsSize is %d", fn, argsSize)
	}
	if argsSize > maxHostArgs {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsSize %d exceeds %d bytes", fn, argsSize, maxHostArgs)
	}
	s, cfg, err := launchTarget(t, fn, blocks, sh, attrs)
	if err != nil {
		return err
	}
	if argsSize == 0 {
		l := getLaunch(f.Bin.Host, 0)
		l.args, l.size = 0, 0
		return submitImage(t, fn, s, f, l, nil, blocks, cfg, 0)
	}
	if units, ok := deviceArgs(fn, s, f, argsData, argsSize); ok {
		l := getLaunch(f.Bin.Host, 0)
		l.args, l.size = argsData, argsSize
		return submitImage(t, fn, s, f, l, nil, blocks, cfg, units)
	}
	l, img := copyLaunch(f, hostArgs())
	return submitImage(t, fn, s, f, l, img, blocks, cfg, unitsOf(f, img))
}

// maxHostArgs bounds an argument blob passed by pointer and size.
const maxHostArgs = 1 << 30

// PlaceHolder is one aclrtPlaceHolderInfo: the blob offset of an 8-byte
// address slot and the blob offset of the data whose address it receives.
type PlaceHolder struct {
	AddrOffset, DataOffset uint32
}

// LaunchKernelWithHostArgs implements aclrtLaunchKernelWithHostArgs: the
// host blob is copied at the call; each placeholder's slot receives the
// address of its data in the copy (where the real runtime patches in the
// device address of the data it copied).
func LaunchKernelWithHostArgs(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, attrs []LaunchAttr, blob []byte, phs []PlaceHolder) error {
	const fn = "aclrtLaunchKernelWithHostArgs"
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	if len(blob) == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: hostArgs must not be NULL and argsSize must be > 0", fn)
	}
	for i, p := range phs {
		if uint64(p.AddrOffset)+8 > uint64(len(blob)) || uint64(p.DataOffset) >= uint64(len(blob)) {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: placeholder %d (addrOffset %d, dataOffset %d) lies outside the %d-byte argument blob", fn, i, p.AddrOffset, p.DataOffset, len(blob))
		}
	}
	s, cfg, err := launchTarget(t, fn, blocks, sh, attrs)
	if err != nil {
		return err
	}
	l, img := copyLaunch(f, blob)
	for _, p := range phs {
		binary.LittleEndian.PutUint64(img[p.AddrOffset:], uint64(l.args)+uint64(p.DataOffset))
	}
	return submitImage(t, fn, s, f, l, img, blocks, cfg, unitsOf(f, img))
}

// LaunchKernelWithArgsArray implements aclrtLaunchKernelWithArgsArray: func
// is a function handle or a kernel entry address (aclrtGetFuncBySymbol);
// param(i, size) returns the size bytes parameter i points to (nil when its
// pointer is NULL). The parameters are packed as aclrtKernelArgsAppend
// packs them, so the kernel needs its table to declare them.
func LaunchKernelWithArgsArray(t *core.Thread, fptr uintptr, blocks uint32, sh core.Handle, attrs []LaunchAttr, param func(i, size int) []byte) error {
	const fn = "aclrtLaunchKernelWithArgsArray"
	f, err := resolveFuncOrSymbol(fn, fptr)
	if err != nil {
		return err
	}
	layout, err := params(f, fn)
	if err != nil {
		return err
	}
	s, cfg, err := launchTarget(t, fn, blocks, sh, attrs)
	if err != nil {
		return err
	}
	total := 0
	if n := len(layout); n > 0 {
		total = layout[n-1].off + layout[n-1].size
	}
	l := getLaunch(f.Bin.Host, total)
	img := l.buf[launchHeader : launchHeader+total]
	clear(img)
	for i, p := range layout {
		v := param(i, p.size)
		if v == nil {
			putLaunch(l)
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: args[%d] is NULL (kernel %s has %d parameters)", fn, i, f.Entry.Name, len(layout))
		}
		copy(img[p.off:], v)
	}
	l.args, l.size = l.addr+launchHeader, uint64(total)
	return submitImage(t, fn, s, f, l, img, blocks, cfg, unitsOf(f, img))
}

// cycleProbe is a CycleHost that tells cheaply whether a launch's state
// holds a cycle record (an Ascend C launch). Done asks it first: fetching
// the record (KernelPipes counters by value through an interface) was ~7 %
// of a launch loop of empty kernels.
type cycleProbe interface {
	HasCycles(state []byte) bool
}
