package acl

import (
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// nopHost is a fakeHost whose blocks do nothing and take no lock: the
// launch benchmarks measure the launch path, not the fake.
type nopHost struct{ *fakeHost }

func (nopHost) Run(fn, args uintptr, size uint64, block, blocks uint32, state []byte) error {
	return nil
}

// cpuTime is the CPU time of the process so far (every thread: the
// launchers and the lanes). On a loaded host the wall time of a launch
// mostly measures the wait for a CPU; cpu-ns/op does not.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// reportCPU reports the CPU time per op since c0.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}

// launchBench sets up a device with the fake kernels and returns the
// thread, the "cube" function and a finalized args handle of 4 words.
func launchBench(b *testing.B) (*core.Thread, core.Handle, core.Handle) {
	resetRuntime()
	b.Setenv("NPUEMU_DEVICES", "1")
	b.Setenv("NPUEMU_SOC", "")
	b.Setenv("NPUEMU_CONFIG", "")
	usePlatform(b, emu.Platform{Kernels: nopHost{&fakeHost{bufs: map[uintptr][]byte{}, closed: map[uintptr]int{}, fail: map[uint32]bool{}, quiet: true}}})
	th := core.NewThread()
	require.NoError(b, Init(th, ""))
	b.Cleanup(resetRuntime)
	require.NoError(b, SetDevice(th, 0))
	var bin, f, a, p core.Handle
	require.NoError(b, BinaryLoadFromData(th, []byte("KERNELS"), nil, &bin))
	require.NoError(b, BinaryGetFunction(th, bin, "cube", &f))
	require.NoError(b, KernelArgsInit(th, f, &a))
	for i := range 4 {
		require.NoError(b, KernelArgsAppend(th, a, u64(uint64(i)), &p))
	}
	require.NoError(b, KernelArgsFinalize(th, a))
	return th, f, a
}

// BenchmarkLaunchLoop: one thread launches one-block kernels into one
// stream without synchronising (the benchmark's launch_enqueue loop: the
// ring fills and the launcher runs kernels itself), then synchronises.
func BenchmarkLaunchLoop(b *testing.B) {
	th, f, a := launchBench(b)
	var s core.Handle
	require.NoError(b, CreateStream(th, &s))
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		if err := core.LaunchKernelWithConfig(th, f, 1, s, nil, a); err != nil {
			b.Fatal(err)
		}
	}
	require.NoError(b, core.SynchronizeStream(th, s, -1))
	reportCPU(b, c0)
}

// BenchmarkLaunchParallel4: 4 goroutines, each with a thread and a stream
// of its own, launch b.N kernels in all (launch_mt4_throughput), then
// synchronise their streams.
func BenchmarkLaunchParallel4(b *testing.B) {
	th, f, a := launchBench(b)
	const workers = 4
	ths := make([]*core.Thread, workers)
	ss := make([]core.Handle, workers)
	for i := range ths {
		ths[i] = core.NewThread()
		require.NoError(b, SetDevice(ths[i], 0))
		require.NoError(b, CreateStream(th, &ss[i]))
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < b.N; i += workers {
				if err := core.LaunchKernelWithConfig(ths[w], f, 1, ss[w], nil, a); err != nil {
					b.Error(err)
					return
				}
			}
			if err := core.SynchronizeStream(ths[w], ss[w], -1); err != nil {
				b.Error(err)
			}
		}()
	}
	wg.Wait()
	reportCPU(b, c0)
}

// BenchmarkLaunchSync: launch one kernel and synchronise its stream
// (launch_sync_roundtrip).
func BenchmarkLaunchSync(b *testing.B) {
	th, f, a := launchBench(b)
	var s core.Handle
	require.NoError(b, CreateStream(th, &s))
	c0 := cpuTime()
	for b.Loop() {
		if err := core.LaunchKernelWithConfig(th, f, 1, s, nil, a); err != nil {
			b.Fatal(err)
		}
		if err := core.SynchronizeStream(th, s, -1); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}
