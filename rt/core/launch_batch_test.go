package core

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// batchHost runs batches (emu.BatchKernelHost), recording each call's jobs,
// and fails the job of entry *failFn; single runs are counted in runs.
type batchHost struct {
	goHost
	calls  *[][]emu.KernelJob
	runs   *int
	failFn *uintptr
}

func (h batchHost) RunOnes(jobs []emu.KernelJob) (int, error) {
	*h.calls = append(*h.calls, slices.Clone(jobs))
	for i, j := range jobs {
		if j.Fn == *h.failFn {
			return i + 1, errors.New("trap")
		}
	}
	return len(jobs), nil
}

func (h batchHost) Run(fn, args uintptr, size uint64, b, n uint32, state []byte) error {
	*h.runs++
	return nil
}

// TestLaunchRunBatch: a launch runs the launches after it on its host in
// one call of the host, stopping before a launch of another host or one
// the sanitizer watches, and at a failure, which is reported as the
// failing launch's fault; a launch the sanitizer watches runs alone.
func TestLaunchRunBatch(t *testing.T) {
	var calls [][]emu.KernelJob
	var runs int
	var failFn uintptr
	h := batchHost{calls: &calls, runs: &runs, failFn: &failFn}
	other := batchHost{calls: new([][]emu.KernelJob), runs: new(int), failFn: new(uintptr)}
	mk := func(host emu.KernelHost, i int) *Launch {
		l := GetLaunch(nil, host, 8)
		l.F = &Function{Bin: &Binary{}, Entry: emu.KernelEntry{Name: fmt.Sprintf("k%d", i), Fn: uintptr(0x100 + i)}}
		l.Args, l.Size = l.Addr+LaunchHeader, 8
		return l
	}
	ls := []*Launch{mk(h, 0), mk(h, 1), mk(h, 2), mk(other, 3), mk(h, 4)}
	ks := make([]tsfw.Kernel, len(ls))
	for i, l := range ls {
		ks[i] = l
	}

	n, err := ls[0].RunBatch(ks)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "up to the launch of another host")
	require.Len(t, calls, 1)
	assert.Equal(t, []emu.KernelJob{
		{Fn: 0x100, Args: ls[0].Args, Size: 8, State: ls[0].Addr},
		{Fn: 0x101, Args: ls[1].Args, Size: 8, State: ls[1].Addr},
		{Fn: 0x102, Args: ls[2].Args, Size: 8, State: ls[2].Addr},
	}, calls[0])

	failFn = 0x101
	n, err = ls[0].RunBatch(ks)
	assert.Equal(t, 2, n, "stops after the failure")
	var kf *KernelFaultError
	require.ErrorAs(t, err, &kf)
	assert.Contains(t, err.Error(), "kernel k1, block 0 of 1")

	ls[1].san = &sanitize.Pending{}
	n, err = ls[0].RunBatch(ks)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "not past a launch the sanitizer watches")
	assert.Zero(t, runs)
	n, err = ls[1].RunBatch(ks[1:])
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, 1, runs, "a watched launch runs alone")
	ls[1].san = nil
	for _, l := range ls {
		PutLaunch(l)
	}
}
