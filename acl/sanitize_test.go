package acl

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/rt/sanitize"
	"github.com/npuemu/npuemu/tsfw"
)

// useSanitizer turns the sanitizer on for one test and returns its output.
func useSanitizer(t *testing.T, c sanitize.Check) *bytes.Buffer {
	out := &bytes.Buffer{}
	prev, prevOn := core.SanitizerState, core.Sanitizing
	core.SanitizerState, core.Sanitizing = sanitize.New(c, core.SanitizeLookup, out), true
	t.Cleanup(func() { core.SanitizerState, core.Sanitizing = prev, prevOn })
	return out
}

func reports(out *bytes.Buffer, check string) []string {
	var l []string
	for _, s := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(s, sanitize.Prefix+check+":") {
			l = append(l, s)
		}
	}
	return l
}

// TestSanitizeKernels: a kernel's footprint is the allocations its pointer
// arguments point into; it races with another stream's memset unless an
// event orders them; a pointer into freed memory or a misaligned one is a
// memcheck report.
func TestSanitizeKernels(t *testing.T) {
	out := useSanitizer(t, sanitize.All)
	th, _, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	var s1, s2, ev core.Handle
	require.NoError(t, CreateStream(th, &s1))
	require.NoError(t, CreateStream(th, &s2))
	require.NoError(t, core.CreateEvent(th, &ev))
	var buf, dead uintptr
	require.NoError(t, Malloc(th, &buf, 4096, 0, core.MallocOpts{Fn: "aclrtMalloc"}))
	require.NoError(t, Malloc(th, &dead, 4096, 0, core.MallocOpts{Fn: "aclrtMalloc"}))
	require.NoError(t, Free(th, dead, false))
	args := u64(uint64(buf) + 64) // a pointer inside buf, 32-byte aligned

	// Ordered: memset on s2, event, kernel on s1, host sync.
	require.NoError(t, core.MemsetAsync(th, buf, 4096, 0, 4096, s2))
	require.NoError(t, core.RecordEvent(th, ev, s2, 0))
	require.NoError(t, core.StreamWaitEvent(th, s1, ev))
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 1, s1, nil, args, nil))
	require.NoError(t, core.SynchronizeStream(th, s1, -1))
	require.NoError(t, core.SynchronizeStream(th, s2, -1))
	assert.Empty(t, out.String())

	// Unordered: the kernel on s1 and a memset on s2.
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 1, s1, nil, args, nil))
	require.NoError(t, core.MemsetAsync(th, buf, 4096, 1, 16, s2))
	require.NoError(t, core.SynchronizeDevice(th))
	r := reports(out, "racecheck")
	require.Len(t, r, 1, out.String())
	assert.Contains(t, r[0], `aclrtLaunchKernelWithHostArgs of kernel "echo"`)
	assert.Contains(t, r[0], "aclrtMemsetAsync (task")

	out.Reset()
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 1, s1, nil, u64(uint64(dead)), nil))
	require.NoError(t, LaunchKernelWithHostArgs(th, f, 1, s1, nil, u64(uint64(buf)+4), nil))
	require.NoError(t, core.SynchronizeStream(th, s1, -1))
	r = reports(out, "memcheck")
	require.Len(t, r, 2, out.String())
	assert.Contains(t, r[0], "no live allocation covers")
	assert.Contains(t, r[1], "not 32-byte aligned")

	require.NoError(t, Free(th, buf, false))
	require.NoError(t, core.DestroyEvent(th, ev))
	require.NoError(t, core.DestroyStream(th, s1, false))
	require.NoError(t, core.DestroyStream(th, s2, false))
	require.NoError(t, BinaryUnLoad(th, bin))
}

// TestSanitizeOffAllocatesNothing: with the sanitizer off, the queueing
// point allocates nothing for a copy (the launch path has its own
// benchmarks).
func TestSanitizeOffAllocatesNothing(t *testing.T) {
	require.False(t, core.Sanitizing && core.SanitizerState == nil)
	prev, prevOn := core.SanitizerState, core.Sanitizing
	core.SanitizerState, core.Sanitizing = nil, false
	t.Cleanup(func() { core.SanitizerState, core.Sanitizing = prev, prevOn })
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	var s core.Handle
	require.NoError(t, CreateStream(th, &s))
	var buf uintptr
	require.NoError(t, Malloc(th, &buf, 4096, 0, core.MallocOpts{Fn: "aclrtMalloc"}))
	st, err := core.ResolveStream(th, "test", s)
	require.NoError(t, err)
	ev := st.Ctx.Dev.Emu.TS.NewEventUnpooled(0)
	defer ev.Destroy()
	allocs := testing.AllocsPerRun(100, func() {
		_ = st.Queue(th, "test", tsfwRecord(ev), core.Queued{Sync: ev})
	})
	require.NoError(t, core.SynchronizeStream(th, s, -1))
	assert.Zero(t, allocs)
	require.NoError(t, Free(th, buf, false))
	require.NoError(t, core.DestroyStream(th, s, false))
}

func tsfwRecord(ev *tsfw.Event) tsfw.Task { return tsfw.RecordTask(ev) }

// BenchmarkSanitizedTasks is replay_bench's direct round (alternating
// 256-byte memsets and device-to-device copies on one stream) with every
// check on: the sanitizer's cost per task.
func BenchmarkSanitizedTasks(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "all"
		}
		b.Run(name, func(b *testing.B) {
			prev, prevOn := core.SanitizerState, core.Sanitizing
			if on {
				core.SanitizerState, core.Sanitizing = sanitize.New(sanitize.All, core.SanitizeLookup, &bytes.Buffer{}), true
			} else {
				core.SanitizerState, core.Sanitizing = nil, false
			}
			defer func() { core.SanitizerState, core.Sanitizing = prev, prevOn }()
			resetRuntime()
			b.Setenv("NPUEMU_DEVICES", "1")
			th := core.NewThread()
			require.NoError(b, Init(th, ""))
			defer resetRuntime()
			require.NoError(b, SetDevice(th, 0))
			var s core.Handle
			require.NoError(b, CreateStream(th, &s))
			var a, c uintptr
			require.NoError(b, Malloc(th, &a, 1<<16, 0, core.MallocOpts{Fn: "aclrtMalloc"}))
			require.NoError(b, Malloc(th, &c, 1<<16, 0, core.MallocOpts{Fn: "aclrtMalloc"}))
			b.ResetTimer()
			for i := range b.N {
				off := uintptr(i%100/2) * 256
				if i%2 == 0 {
					require.NoError(b, core.MemsetAsync(th, a+off, 256, int32(i), 256, s))
				} else {
					require.NoError(b, core.MemcpyAsync(th, c+off, 256, a+off, 256, abi.ACL_MEMCPY_DEVICE_TO_DEVICE, s))
				}
				if i%100 == 99 {
					require.NoError(b, core.SynchronizeStream(th, s, -1))
				}
			}
			b.StopTimer()
			require.NoError(b, core.SynchronizeStream(th, s, -1))
		})
	}
}

// TestSanitizeCallbackOrders: the thread that runs a callback is ordered
// after the tasks queued before the callback: its synchronous copy of
// memory they wrote is no report; a copy from a thread that did not run
// the callback is.
func TestSanitizeCallbackOrders(t *testing.T) {
	out := useSanitizer(t, sanitize.All)
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	s := newStream(t, th)
	const tid = 0x4321
	var buf uintptr
	require.NoError(t, Malloc(th, &buf, 4096, 0, core.MallocOpts{Fn: "aclrtMalloc"}))
	host := make([]byte, 64)
	hostAddr := reflect.ValueOf(host).Pointer()
	require.NoError(t, SubscribeReport(th, tid, s))
	require.NoError(t, core.MemsetAsync(th, buf, 4096, 7, 4096, s))
	rth := core.NewThread()
	require.NoError(t, SetDevice(rth, 0))
	t.Cleanup(func() { _ = core.ResetDevice(rth, 0) })
	copied := make(chan error, 1)
	require.NoError(t, LaunchCallback(th, func() {
		copied <- core.Memcpy(rth, hostAddr, 64, buf, 64, abi.ACL_MEMCPY_DEVICE_TO_HOST)
	}, core.CallbackNoBlock, s))
	require.NoError(t, ProcessReport(rth, tid, 5000))
	require.NoError(t, <-copied)
	assert.Empty(t, out.String())

	// (The callback's own read and a later task of the stream race: the
	// callback does not block the stream. Another range, then.)
	require.NoError(t, core.MemsetAsync(th, buf+2048, 2048, 8, 2048, s))
	other := core.NewThread()
	require.NoError(t, SetDevice(other, 0))
	t.Cleanup(func() { _ = core.ResetDevice(other, 0) })
	require.NoError(t, core.SynchronizeStream(th, s, -1)) // th knows; other does not
	require.NoError(t, core.Memcpy(other, hostAddr, 64, buf+2048, 64, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	assert.Len(t, reports(out, "synccheck"), 1, out.String())
	require.NoError(t, UnSubscribeReport(th, tid, s))
	require.NoError(t, Free(th, buf, false))
}
