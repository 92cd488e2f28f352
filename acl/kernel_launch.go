package acl

import (
	"encoding/binary"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// The launch variants. All of them end in one launch image: the argument
// blob the kernel's blocks see, either copied into the launch's host
// buffer at the call (WithConfig, WithHostArgs, WithArgsArray, V2 with host
// arguments) or read in place from device memory when the kernel runs
// (aclrtLaunchKernel, V2 with device arguments).

// copyLaunch returns a launch into s holding a copy of blob as its image.
func copyLaunch(s *core.Stream, f *core.Function, blob []byte) (*core.Launch, []byte) {
	return copyInto(core.GetLaunch(s, f.Bin.Host, len(blob)), blob)
}

// copyInto copies blob into l's buffer (room for it) as its image.
func copyInto(l *core.Launch, blob []byte) (*core.Launch, []byte) {
	img := l.Buf[core.LaunchHeader : core.LaunchHeader+len(blob)]
	copy(img, blob)
	l.Args, l.Size = l.Addr+core.LaunchHeader, uint64(len(blob))
	return l, img
}

// LaunchKernelV2 implements aclrtLaunchKernelV2: aclrtLaunchKernel with a
// launch configuration. argsData may be device memory of the stream's
// device (read in place when the kernel runs, as aclrtLaunchKernel) or host
// memory, which is copied at the call; hostArgs returns the argsSize bytes
// at argsData when argsData is not device memory.
func LaunchKernelV2(t *core.Thread, fh core.Handle, blocks uint32, argsData uintptr, argsSize uint64, attrs []core.LaunchAttr, sh core.Handle, hostArgs func() []byte) error {
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
	s, cfg, err := core.LaunchTarget(t, fn, blocks, sh, attrs)
	if err != nil {
		return err
	}
	if argsSize == 0 {
		l := core.GetLaunch(s, f.Bin.Host, 0)
		l.Args, l.Size = 0, 0
		return core.SubmitImage(t, fn, s, f, l, nil, blocks, cfg, 0)
	}
	if units, ok := core.DeviceArgs(fn, s, f, argsData, argsSize); ok {
		l := core.GetLaunch(s, f.Bin.Host, 0)
		l.Args, l.Size = argsData, argsSize
		return core.SubmitImage(t, fn, s, f, l, nil, blocks, cfg, units)
	}
	l, img := copyLaunch(s, f, hostArgs())
	return core.SubmitImage(t, fn, s, f, l, img, blocks, cfg, core.UnitsOf(f, img))
}

// maxHostArgs bounds an argument blob passed by pointer and size.
const maxHostArgs = 1 << 30

// LaunchKernelWithHostArgs implements aclrtLaunchKernelWithHostArgs: the
// host blob is copied at the call; each placeholder's slot receives the
// address of its data in the copy (where the real runtime patches in the
// device address of the data it copied).
func LaunchKernelWithHostArgs(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, attrs []core.LaunchAttr, blob []byte, phs []core.PlaceHolder) error {
	return hostArgsN(t, fh, blocks, sh, nil, attrs, 1, func(int) []byte { return blob }, phs, nil)
}

// hostArgsN makes n launches LaunchKernelWithHostArgs(t, fh, blocks, sh,
// attrs, blob(i), phs) would make one by one, resolving and checking the
// handles once (every blob(i) has the size of blob(0)); it returns the
// first error. on and ho are HandOverHostLaunches': the stream as the
// crossing resolved it (nil: resolve sh) and the hand-over's record (nil:
// a launch made at its call).
func hostArgsN(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, on *core.Stream, attrs []core.LaunchAttr, n int, blob func(int) []byte, phs []core.PlaceHolder, ho *core.Handover) error {
	const fn = "aclrtLaunchKernelWithHostArgs"
	f, err := core.ResolveFunction(fn, fh)
	if err != nil {
		return err
	}
	size := len(blob(0))
	if size == 0 {
		return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: hostArgs must not be NULL and argsSize must be > 0", fn)
	}
	for i, p := range phs {
		if uint64(p.AddrOffset)+8 > uint64(size) || uint64(p.DataOffset) >= uint64(size) {
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: placeholder %d (addrOffset %d, dataOffset %d) lies outside the %d-byte argument blob", fn, i, p.AddrOffset, p.DataOffset, size)
		}
	}
	s, cfg := on, core.LaunchCfg{Engine: -1}
	if s == nil || s.H != sh || s.Dead.Load() || len(attrs) > 0 {
		if s, cfg, err = core.LaunchTarget(t, fn, blocks, sh, attrs); err != nil {
			return err
		}
	} else if err := core.CheckBlocks(fn, blocks); err != nil {
		return err
	}
	cfg = cfg.HandedOver(ho)
	t.BeginRun(s, n)
	defer t.EndRun()
	// image copies blob b into launch l (room for it) and fills in the
	// placeholders' addresses.
	image := func(l *core.Launch, b []byte) (*core.Launch, []byte) {
		l, img := copyInto(l, b)
		for _, p := range phs {
			binary.LittleEndian.PutUint64(img[p.AddrOffset:], uint64(l.Args)+uint64(p.DataOffset))
		}
		return l, img
	}
	if n > 1 && core.RunQueueable(s) { // queued in chunks (rt/core/launch_run.go)
		var q core.RunQueue
		q.Begin(t, fn, s, cfg)
		defer q.End()
		for i := range n {
			b := blob(i)
			l, img := image(q.Launch(f.Bin.Host, len(b)), b)
			q.AddImage(f, l, img, blocks, cfg, core.UnitsOf(f, img))
		}
		return q.Flush()
	}
	var first error
	for i := range n {
		b := blob(i)
		l, img := image(core.GetLaunch(s, f.Bin.Host, len(b)), b)
		if err := core.SubmitImage(t, fn, s, f, l, img, blocks, cfg, core.UnitsOf(f, img)); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// LaunchKernelWithArgsArray implements aclrtLaunchKernelWithArgsArray: func
// is a function handle or a kernel entry address (aclrtGetFuncBySymbol);
// param(i, size) returns the size bytes parameter i points to (nil when its
// pointer is NULL). The parameters are packed as aclrtKernelArgsAppend
// packs them, so the kernel needs its table to declare them.
func LaunchKernelWithArgsArray(t *core.Thread, fptr uintptr, blocks uint32, sh core.Handle, attrs []core.LaunchAttr, param func(i, size int) []byte) error {
	const fn = "aclrtLaunchKernelWithArgsArray"
	f, err := resolveFuncOrSymbol(fn, fptr)
	if err != nil {
		return err
	}
	layout, err := params(f, fn)
	if err != nil {
		return err
	}
	s, cfg, err := core.LaunchTarget(t, fn, blocks, sh, attrs)
	if err != nil {
		return err
	}
	total := 0
	if n := len(layout); n > 0 {
		total = layout[n-1].off + layout[n-1].size
	}
	l := core.GetLaunch(s, f.Bin.Host, total)
	img := l.Buf[core.LaunchHeader : core.LaunchHeader+total]
	clear(img)
	for i, p := range layout {
		v := param(i, p.size)
		if v == nil {
			core.PutLaunch(l)
			return abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "%s: args[%d] is NULL (kernel %s has %d parameters)", fn, i, f.Entry.Name, len(layout))
		}
		copy(img[p.off:], v)
	}
	l.Args, l.Size = l.Addr+core.LaunchHeader, uint64(total)
	return core.SubmitImage(t, fn, s, f, l, img, blocks, cfg, core.UnitsOf(f, img))
}

// LaunchKernelWithConfig implements aclrtLaunchKernelWithConfig; the runtime
// does the work (core.LaunchKernelWithConfig, which the rt* API calls too).
func LaunchKernelWithConfig(t *core.Thread, fh core.Handle, blocks uint32, sh core.Handle, attrs []core.LaunchAttr, ah core.Handle) error {
	return core.LaunchKernelWithConfig(t, fh, blocks, sh, attrs, ah)
}

// LaunchKernel implements aclrtLaunchKernel; the runtime does the work
// (core.LaunchKernel, which the rt* API calls too).
func LaunchKernel(t *core.Thread, fh core.Handle, blocks uint32, argsData uintptr, argsSize uint64, sh core.Handle) error {
	return core.LaunchKernel(t, fh, blocks, argsData, argsSize, sh)
}
