package core

import (
	"github.com/npuemu/npuemu/rt/sanitize"
)

// Exact kernel footprints for the sanitizer (docs/sanitizer.md). Every
// launch queued while the sanitizer follows tasks carries a
// sanitize.Pending: the sanitizer checks the launch when it completes,
// with the GM byte ranges its blocks read and wrote when the kernel host
// recorded them (Ascend C kernels: emu/include/npuemu/ascendc_rt.h,
// gm_check), else with the whole of every allocation its pointer
// arguments point into (a footprint past its cap). Plain npuemu/kernel.h
// kernels have their pages tracked instead (kernel_track.go).

// FootprintHost is implemented by kernel hosts that record launch
// footprints. Footprint returns the launch's ranges and exact = true, or
// exact = false when the launch kept none or more than it could.
type FootprintHost interface {
	Footprint(state []byte) (fp []sanitize.Range, exact bool)
}

// sanitizePend makes a launch about to be queued wait for its footprint.
func sanitizePend(op *sanitize.Op, x *Queued) {
	l := x.Launch
	if l == nil || op == nil {
		return
	}
	op.Pending = new(sanitize.Pending)
	l.san = op.Pending
	l.trk = new(kernelTrack)
}

// sanitizeLaunchDone hands a completed launch's footprint to the
// sanitizer (launch.Done, before the launch state is flushed).
func (l *Launch) sanitizeLaunchDone() {
	p, k := l.san, l.trk
	l.san, l.trk = nil, nil
	var paged []sanitize.PageRange
	pagedOK := false
	if k != nil {
		paged, pagedOK = k.end(l)
	}
	var fp []sanitize.Range
	exact := false
	if fh, ok := l.Host.(FootprintHost); ok {
		fp, exact = fh.Footprint(l.Buf[:LaunchHeader])
	}
	switch {
	case exact:
		if l.F != nil {
			selfFootprint.Store(l.F, struct{}{}) // an Ascend C kernel: not tracked again
		}
		SanitizerState.Complete(p, fp, true)
	case pagedOK:
		SanitizerState.CompletePaged(p, paged, k.bases)
	default:
		SanitizerState.Complete(p, nil, false)
	}
}
