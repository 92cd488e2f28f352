package core

import (
	"encoding/binary"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// UnitsOf reads f's unit count from a launch image.
func UnitsOf(f *Function, img []byte) uint64 {
	if f.Entry.NsPerUnit > 0 && int(f.Entry.SizeOffset)+8 <= len(img) {
		return binary.LittleEndian.Uint64(img[f.Entry.SizeOffset:])
	}
	return 0
}

// SubmitImage queues a launch whose image is in l: img is the copied image,
// nil when the kernel reads its arguments in place (l.args, l.size). A
// stream that records (capture, model build) takes the task instead; the
// managed allocations the arguments point into are faulted in ahead of the
// kernel (managed.go).
func SubmitImage(t *Thread, fn string, s *Stream, f *Function, l *Launch, img []byte, blocks uint32, cfg LaunchCfg, units uint64) error {
	var task tsfw.Task
	if err := launchSpec(t, fn, s, f, blocks, cfg, units, task.SetKernel(l)); err != nil {
		PutLaunch(l)
		return err
	}
	return submitTask(t, fn, s, f, l, img, blocks, cfg, &task)
}

// launchSpec writes to spec the tsfw description of a launch of f on s by
// t: the function's costs, the thread's and stream's core limits, the
// cooperative launch's check. (In place: SubmitImage passes the task's
// own spec, Task.SetKernel, so the description is written once.)
func launchSpec(t *Thread, fn string, s *Stream, f *Function, blocks uint32, cfg LaunchCfg, units uint64, spec *tsfw.KernelSpec) error {
	KernelSpec(spec, f, blocks, cfg, units)
	spec.MaxCores = launchCap(t, s, spec)
	if f.Entry.Flags != 0 {
		soc := &s.Ctx.Dev.Emu.SoC
		return Cooperative(fn, &f.Entry, spec, soc.CubeCores, soc.VectorCores)
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

// submitTask is SubmitImage with the task built.
func submitTask(t *Thread, fn string, s *Stream, f *Function, l *Launch, img []byte, blocks uint32, cfg LaunchCfg, task *tsfw.Task) error {
	if err := prepareLaunch(t, fn, s, f, l, img, blocks, cfg, nil); err != nil {
		return err
	}
	// queueLaunch's body: a call less on launch + synchronize's path.
	err := s.QueueTask(t, fn, task, Queued{Launch: l, Counted: true, Handover: cfg.handoff})
	if err != nil {
		dropLaunch(l)
	}
	return err
}

// prepareLaunch readies launch l of f on s by t (image img) for the
// queue, its binary's count taken from cr when not nil (a run's); on
// failure l is recycled.
func prepareLaunch(t *Thread, fn string, s *Stream, f *Function, l *Launch, img []byte, blocks uint32, cfg LaunchCfg, cr *binCredit) error {
	l.blocks = blocks
	sh := t.shard()
	var err error
	if cr != nil {
		err = cr.take(fn, f.Bin, sh)
	} else {
		err = f.Bin.AcquireIn(fn, sh)
	}
	if err != nil {
		PutLaunch(l)
		return err
	}
	l.shard = sh
	l.F, l.Attr = f, cfg.flags
	// Managed pages are faulted in ahead of the kernel; launchManaged does
	// nothing for a stream that records (the recorder then takes the task).
	// A process without managed memory pays one load here.
	if g := LoadedSVM(); g != nil {
		words, word := blobWords(img)
		if img == nil {
			words, word = deviceWords(l.Args, l.Size)
		}
		if err := launchManaged(g, fn, s, l, words, word); err != nil {
			f.Bin.ReleaseIn(sh)
			PutLaunch(l)
			return err
		}
	}
	return nil
}

// queueLaunch queues a prepared launch's task (ho: cfg.handoff); on
// failure the launch is released and recycled.
func queueLaunch(t *Thread, fn string, s *Stream, l *Launch, task *tsfw.Task, ho *Handover) error {
	err := s.QueueTask(t, fn, task, Queued{Launch: l, Counted: true, Handover: ho})
	if err != nil {
		dropLaunch(l)
	}
	return err
}

// dropLaunch releases and recycles a prepared launch that was not queued.
func dropLaunch(l *Launch) {
	l.F.Bin.ReleaseIn(l.shard)
	PutLaunch(l)
}

// LaunchKernelN makes n launches of one kernel with one args handle and
// configuration, resolving and checking the handles once; it returns the
// first error (a handle that does not resolve fails all n the same way).
// With ho not nil they never wait for ring space (HandOverLaunches). on,
// when not nil, is stream sh already resolved for t in the same crossing
// (ClaimForSync): it is not resolved again unless it died meanwhile (the
// resolution then reports it as before).
func LaunchKernelN(t *Thread, fh Handle, blocks uint32, sh Handle, on *Stream, attrs []LaunchAttr, ah Handle, n int, ho *Handover) error {
	const fn = "aclrtLaunchKernelWithConfig"
	f, err := ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	if err := CheckBlocks(fn, blocks); err != nil {
		return err
	}
	a, err := ResolveArgs(fn, ah)
	if err != nil {
		return err
	}
	// launchTarget without its second checkBlocks, and without the
	// resolution when the crossing carries the stream.
	s := on
	if s == nil || s.H != sh || s.Dead.Load() {
		if s, err = StreamLookup(t, fn, sh); err != nil {
			return err
		}
	}
	cfg := LaunchCfg{Engine: -1, handoff: ho}
	if len(attrs) > 0 {
		if cfg, err = ParseLaunchAttrs(fn, attrs, s.Ctx.Dev.Emu.SoC.Name); err != nil {
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
	t.BeginRun(s, n)
	defer t.EndRun()
	if rs != nil && RunQueueable(s) {
		return launchRun(t, fn, s, f, a, ah, blocks, cfg, rs, n)
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
func launchArgs(t *Thread, fn string, s *Stream, f *Function, a *Args, ah Handle, blocks uint32, cfg LaunchCfg, rs *runSpec) error {
	if rs == nil { // argsImage's body: a call less on launch + synchronize's path
		l, img, ok := a.launchImage(s, f.Bin.Host, nil)
		if !ok {
			return notFinalized(fn, ah)
		}
		l.Args, l.Size = l.Addr+LaunchHeader, uint64(len(img))
		return SubmitImage(t, fn, s, f, l, img, blocks, cfg, UnitsOf(f, img))
	}
	var task tsfw.Task
	l, err := prepareRunLaunch(t, fn, s, f, a, ah, blocks, cfg, rs, &task, nil)
	if err != nil {
		return err
	}
	return queueLaunch(t, fn, s, l, &task, cfg.handoff)
}

// argsImage takes a launch object holding the finalized blob of args
// handle a (handle ah), from stash when not nil (getLaunch).
func argsImage(fn string, s *Stream, f *Function, a *Args, ah Handle, stash *launchStash) (*Launch, []byte, error) {
	l, img, ok := a.launchImage(s, f.Bin.Host, stash)
	if !ok {
		return nil, nil, notFinalized(fn, ah)
	}
	l.Args, l.Size = l.Addr+LaunchHeader, uint64(len(img))
	return l, img, nil
}

// notFinalized is the error of a launch with an args handle that is not
// finalized.
func notFinalized(fn string, ah Handle) error {
	return abi.Errorf(abi.ACL_ERROR_RT_PARAM_INVALID, "%s: args handle %#x is not finalized: call aclrtKernelArgsFinalize after appending or updating", fn, uintptr(ah))
}

// prepareRunLaunch prepares one launch of a run (rs: its description,
// built on first use) and writes its task to task.
func prepareRunLaunch(t *Thread, fn string, s *Stream, f *Function, a *Args, ah Handle, blocks uint32, cfg LaunchCfg, rs *runSpec, task *tsfw.Task, q *RunQueue) (*Launch, error) {
	var stash *launchStash
	var cr *binCredit
	if q != nil {
		stash, cr = &q.stash, &q.credit
	}
	l, img, err := argsImage(fn, s, f, a, ah, stash)
	if err != nil {
		return nil, err
	}
	if units := UnitsOf(f, img); !rs.ok || rs.units != units {
		rs.ok = false
		if err := launchSpec(t, fn, s, f, blocks, cfg, units, &rs.spec); err != nil {
			PutLaunch(l)
			return nil, err
		}
		rs.ok, rs.units = true, units
	}
	if err := prepareLaunch(t, fn, s, f, l, img, blocks, cfg, cr); err != nil {
		return nil, err
	}
	task.ResetKernel(l, &rs.spec)
	return l, nil
}

// PlaceHolder is one aclrtPlaceHolderInfo: the blob offset of an 8-byte
// address slot and the blob offset of the data whose address it receives.
type PlaceHolder struct {
	AddrOffset, DataOffset uint32
}

// cycleProbe is a CycleHost that tells cheaply whether a launch's state
// holds a cycle record (an Ascend C launch). Done asks it first: fetching
// the record (KernelPipes counters by value through an interface) was ~7 %
// of a launch loop of empty kernels.
type cycleProbe interface {
	HasCycles(state []byte) bool
}

// StreamLookup is core.ResolveStream, the one way this package's launches
// and synchronisations resolve a stream argument (a variable: tests count
// the resolutions through it).
var StreamLookup = ResolveStream

// LaunchKernelWithConfigN makes n launches LaunchKernelWithConfig(t, fh,
// blocks, sh, nil, ah) would make one by one (the front hands over runs of
// the same launch), resolving and checking the handles once. It returns
// the first error; a handle that does not resolve fails all n the same way.
func LaunchKernelWithConfigN(t *Thread, fh Handle, blocks uint32, sh Handle, ah Handle, n int) error {
	return LaunchKernelN(t, fh, blocks, sh, nil, nil, ah, n, nil)
}

// WaitStreamRoom waits until stream sh has completed wait tasks (the wait
// HandOverLaunches owes), or is destroyed; a stale handle needs no wait.
func WaitStreamRoom(sh Handle, wait uint64) {
	if s, err := Streams.Get(sh); err == nil {
		s.SQ.WaitRoom(wait)
	}
}

// LaunchTarget resolves and checks what every variant shares.
func LaunchTarget(t *Thread, fn string, blocks uint32, sh Handle, attrs []LaunchAttr) (*Stream, LaunchCfg, error) {
	cfg := LaunchCfg{Engine: -1}
	if err := CheckBlocks(fn, blocks); err != nil {
		return nil, cfg, err
	}
	s, err := StreamLookup(t, fn, sh)
	if err != nil {
		return nil, cfg, err
	}
	if len(attrs) > 0 {
		if cfg, err = ParseLaunchAttrs(fn, attrs, s.Ctx.Dev.Emu.SoC.Name); err != nil {
			return nil, cfg, err
		}
	}
	return s, cfg, nil
}

// LaunchKernelWithConfig implements aclrtLaunchKernelWithConfig: the
// finalized blob of the args handle is copied, so later updates do not
// affect this launch.
func LaunchKernelWithConfig(t *Thread, fh Handle, blocks uint32, sh Handle, attrs []LaunchAttr, ah Handle) error {
	return LaunchKernelN(t, fh, blocks, sh, nil, attrs, ah, 1, nil)
}

// DeviceArgs checks that argsData..+argsSize lies in one allocation of s's
// device and returns the unit count it holds for f.
func DeviceArgs(fn string, s *Stream, f *Function, argsData uintptr, argsSize uint64) (uint64, bool) {
	hbm := s.Ctx.Dev.Emu.HBM
	base, size, ok := hbm.Find(argsData)
	if !ok || uint64(argsData-base)+argsSize > size {
		return 0, false
	}
	if f.Entry.NsPerUnit > 0 && uint64(f.Entry.SizeOffset)+8 <= argsSize {
		return PeekU64(argsData + uintptr(f.Entry.SizeOffset)), true
	}
	return 0, true
}

// LaunchKernel implements aclrtLaunchKernel: argsData is device memory of
// the stream's device holding the packed arguments; the kernel reads it in
// place when it runs.
func LaunchKernel(t *Thread, fh Handle, blocks uint32, argsData uintptr, argsSize uint64, sh Handle) error {
	return LaunchKernelDeviceN(t, fh, blocks, argsData, argsSize, sh, nil, 1, nil)
}

// LaunchKernelDeviceN makes n launches LaunchKernel(t, fh, blocks,
// argsData, argsSize, sh) would make one by one, resolving and checking
// the handles and the arguments' place once; it returns the first error.
// on and ho are LaunchKernelN's (a front hand-over).
func LaunchKernelDeviceN(t *Thread, fh Handle, blocks uint32, argsData uintptr, argsSize uint64, sh Handle, on *Stream, n int, ho *Handover) error {
	const fn = "aclrtLaunchKernel"
	f, err := ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	if err := CheckBlocks(fn, blocks); err != nil {
		return err
	}
	if argsSize > 0 && argsData == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsData must not be NULL when argsSize is %d", fn, argsSize)
	}
	s, cfg := on, LaunchCfg{Engine: -1, handoff: ho}
	if s == nil || s.H != sh || s.Dead.Load() {
		if s, cfg, err = LaunchTarget(t, fn, blocks, sh, nil); err != nil {
			return err
		}
		cfg.handoff = ho
	}
	var units uint64
	if argsSize > 0 {
		var ok bool
		if units, ok = DeviceArgs(fn, s, f, argsData, argsSize); !ok {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: argsData %#x..+%d is not inside one allocation of device %d's memory", fn, argsData, argsSize, s.Ctx.Dev.ID)
		}
	}
	var first error
	t.BeginRun(s, n)
	defer t.EndRun()
	if n > 1 && RunQueueable(s) {
		var q RunQueue
		q.Begin(t, fn, s, cfg)
		defer q.End()
		for range n {
			l := q.Launch(f.Bin.Host, 0)
			l.Args, l.Size = argsData, argsSize
			q.AddImage(f, l, nil, blocks, cfg, units)
		}
		return q.Flush()
	}
	for range n {
		l := GetLaunch(s, f.Bin.Host, 0)
		l.Args, l.Size = argsData, argsSize
		if err := SubmitImage(t, fn, s, f, l, nil, blocks, cfg, units); err != nil && first == nil {
			first = err
		}
	}
	return first
}
