package acl

import (
	"testing"

	"github.com/npuemu/npuemu/rt/core"
	"github.com/stretchr/testify/require"
)

// TestHandOverLaunches: behind a head that waits for an event, launches
// handed over past the stream's depth return at once and say how many
// completions the last would have waited for; WaitStreamRoom returns once
// the event is recorded, and every launch runs. A stale stream handle
// needs no wait.
func TestHandOverLaunches(t *testing.T) {
	th, _, bin := kernelSetup(t)
	slow := function(t, th, bin, "slow")
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, slow, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	s, o, e := waitSetup(t, th)
	require.NoError(t, core.StreamWaitEvent(th, s, e))

	wait, err := HandOverLaunches(th, slow, 1, s, nil, a, 1000)
	require.NoError(t, err)
	require.Zero(t, wait, "1001 tasks fit a 1024-task ring")
	wait, err = HandOverLaunches(th, slow, 1, s, nil, a, 100)
	require.NoError(t, err)
	require.Equal(t, uint64(1101-1024), wait, "the 1101st task waits for 77 completions")

	require.NoError(t, core.RecordEvent(th, e, o, 0))
	core.WaitStreamRoom(s, wait)
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	wait, err = HandOverLaunches(th, slow, 1, s, nil, a, 1)
	require.NoError(t, err)
	require.Zero(t, wait)
	require.NoError(t, core.SynchronizeStream(th, s, -1))

	require.NoError(t, core.DestroyStream(th, s, false))
	core.WaitStreamRoom(s, 1<<40) // stale: returns
	require.NoError(t, core.DestroyStream(th, o, false))
	require.NoError(t, core.DestroyEvent(th, e))
	require.NoError(t, BinaryUnLoad(th, bin))
}

// TestHandOverHostLaunches: host-argument launches handed over in one run
// each run with their own bytes, in order, with the task ids the same
// launches get one by one; a run that does not resolve fails as one launch
// made at its call does.
func TestHandOverHostLaunches(t *testing.T) {
	th, h, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	blobs := [][]byte{u64(11), u64(22), u64(33)}
	for _, b := range blobs {
		require.NoError(t, LaunchKernelWithHostArgs(th, f, 1, s, nil, b, nil))
	}
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	oneByOne := th.LastTask
	wait, err := HandOverHostLaunches(th, f, 1, s, nil, len(blobs), func(i int) []byte { return blobs[i] })
	require.NoError(t, err)
	require.Zero(t, wait)
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	require.Equal(t, oneByOne+uint32(len(blobs)), th.LastTask, "one task id per launch")
	h.mu.Lock()
	seen := h.blobs[len(h.blobs)-2*len(blobs):]
	h.mu.Unlock()
	require.Equal(t, append(append([][]byte{}, blobs...), blobs...), seen, "each launch ran with its own bytes, in order")

	for _, c := range []struct {
		fh     core.Handle
		blocks uint32
	}{{f, 0}, {f + 4096, 1}} {
		want := LaunchKernelWithHostArgs(th, c.fh, c.blocks, s, nil, blobs[0], nil)
		require.Error(t, want)
		_, got := HandOverHostLaunches(th, c.fh, c.blocks, s, nil, 2, func(i int) []byte { return blobs[i] })
		require.Equal(t, want.Error(), got.Error())
	}
	require.NoError(t, core.DestroyStream(th, s, false))
	require.NoError(t, BinaryUnLoad(th, bin))
}

// TestHandOverRunChunks: a run handed over while its stream waits is
// queued in chunks through the inbox (core.RunQueue, tsfw's SubmitRun),
// args-handle and host-argument runs alike, and gets the task ids the same
// launches get one by one, the last one the thread's last task; every
// launch runs once, in order, with its own arguments, after the wait.
func TestHandOverRunChunks(t *testing.T) {
	th, h, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	a := finalizedArgs(t, th, f, u64(77))
	const n = 50
	for _, tc := range []struct {
		name     string
		handOver func(s core.Handle) (uint64, error)
		blob     func(i int) []byte
	}{
		{"args handle", func(s core.Handle) (uint64, error) { return HandOverLaunches(th, f, 1, s, nil, a, n) },
			func(int) []byte { return u64(77) }},
		{"host args", func(s core.Handle) (uint64, error) {
			return HandOverHostLaunches(th, f, 1, s, nil, n, func(i int) []byte { return u64(uint64(1000 + i)) })
		}, func(i int) []byte { return u64(uint64(1000 + i)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, o, e := waitSetup(t, th)
			require.NoError(t, LaunchKernelWithConfig(th, f, 1, s, nil, a))
			first := th.LastTask
			require.NoError(t, core.SynchronizeStream(th, s, -1))
			require.NoError(t, core.StreamWaitEvent(th, s, e)) // s waits for e's next record
			wait, err := tc.handOver(s)
			require.NoError(t, err)
			require.Zero(t, wait)
			require.Equal(t, first+1+n, th.LastTask, "one id per launch, after the wait's")
			h.mu.Lock()
			ran := len(h.blobs)
			h.mu.Unlock()
			require.NoError(t, core.RecordEvent(th, e, o, 0))
			require.NoError(t, core.SynchronizeStream(th, s, -1))
			h.mu.Lock()
			after := h.blobs[ran:]
			h.mu.Unlock()
			require.Len(t, after, n, "each launch ran once, after the wait")
			for i, b := range after {
				require.Equal(t, tc.blob(i), b, "launch %d's arguments, in order", i)
			}
			require.NoError(t, core.DestroyStream(th, s, false))
			require.NoError(t, core.DestroyStream(th, o, false))
			require.NoError(t, core.DestroyEvent(th, e))
		})
	}
	require.NoError(t, BinaryUnLoad(th, bin))
}

// waitSetup creates streams s and o and an event e whose record o made
// and a reset consumed: a wait for e queued on s now waits for e's next
// record.
func waitSetup(t *testing.T, th *core.Thread) (s, o, e core.Handle) {
	t.Helper()
	require.NoError(t, CreateStream(th, &s))
	require.NoError(t, CreateStream(th, &o))
	require.NoError(t, core.CreateEvent(th, &e))
	require.NoError(t, core.RecordEvent(th, e, o, 0))
	require.NoError(t, core.SynchronizeStream(th, o, -1))
	require.NoError(t, core.ResetEvent(th, e, o))
	require.NoError(t, core.SynchronizeStream(th, o, -1))
	return s, o, e
}

// finalizedArgs returns a finalized args handle of f holding one
// parameter, value.
func finalizedArgs(t *testing.T, th *core.Thread, f core.Handle, value []byte) core.Handle {
	t.Helper()
	var a, p core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsAppend(th, a, value, &p))
	require.NoError(t, KernelArgsFinalize(th, a))
	return a
}
