package acl

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

func poolProps(maxSize uint64) *MemPoolProps {
	return &MemPoolProps{Location: MemLocation{Type: abi.ACL_MEM_LOCATION_TYPE_DEVICE}, MaxSize: maxSize}
}

func poolAttr(t *testing.T, th *core.Thread, p core.Handle, attr int32) uint64 {
	t.Helper()
	var v uint64
	require.NoError(t, MemPoolGetAttr(th, p, attr, &v))
	return v
}

func setPoolAttr(t *testing.T, th *core.Thread, p core.Handle, attr int32, v uint64) {
	t.Helper()
	require.NoError(t, MemPoolSetAttr(th, p, attr, &v))
}

func TestMemPoolCreateChecks(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	var p core.Handle
	bad := func(f func(*MemPoolProps)) *MemPoolProps { pp := poolProps(1 << 20); f(pp); return pp }
	for name, props := range map[string]*MemPoolProps{
		"nil":        nil,
		"allocType":  bad(func(p *MemPoolProps) { p.AllocType = 1 }),
		"handleType": bad(func(p *MemPoolProps) { p.HandleType = abi.ACL_MEM_HANDLE_TYPE_POSIX }),
		"host":       bad(func(p *MemPoolProps) { p.Location.Type = abi.ACL_MEM_LOCATION_TYPE_HOST }),
		"maxSize":    bad(func(p *MemPoolProps) { p.MaxSize = 0 }),
		"reserved":   bad(func(p *MemPoolProps) { p.Reserved[31] = 1 }),
	} {
		t.Run(name, func(t *testing.T) {
			requireCode(t, MemPoolCreate(th, &p, props), abi.ACL_ERROR_INVALID_PARAM)
		})
	}
	requireCode(t, MemPoolCreate(th, nil, poolProps(1)), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemPoolCreate(th, &p, &MemPoolProps{Location: MemLocation{Type: abi.ACL_MEM_LOCATION_TYPE_DEVICE, Id: 9}, MaxSize: 1}), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	require.NoError(t, MemPoolCreate(th, &p, poolProps(1<<20)))
	// Defaults of unset attributes.
	for attr, want := range map[int32]uint64{
		abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:   1,
		abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:         1,
		abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES: 1,
		abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:            0,
		abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:         0,
		abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:                0,
	} {
		assert.Equal(t, want, poolAttr(t, th, p, attr), "attr %d", attr)
	}
	v := uint64(2)
	requireCode(t, MemPoolSetAttr(th, p, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &v), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemPoolSetAttr(th, p, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemPoolSetAttr(th, p, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemPoolSetAttr(th, p, 99, &v), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemPoolSetAttr(th, p, abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, nil), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemPoolGetAttr(th, p, 0, &v), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemPoolGetAttr(th, 0, 1, &v), abi.ACL_ERROR_INVALID_PARAM)

	// Stream and pointer checks: the pool is on device 1, the thread's
	// default stream on device 0.
	var p1 core.Handle
	pp := poolProps(1 << 20)
	pp.Location.Id = 1
	require.NoError(t, MemPoolCreate(th, &p1, pp))
	var x uintptr
	requireCode(t, MemPoolMallocAsync(th, &x, 64, p1, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, MemPoolMallocAsync(th, &x, 64, 0, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemPoolFreeAsync(th, 0, 0), abi.ACL_ERROR_INVALID_PARAM)
	var m uintptr
	require.NoError(t, Malloc(th, &m, 64, 0, core.MallocOpts{}))
	requireCode(t, MemPoolFreeAsync(th, m, 0), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, Free(th, m, false))
	require.NoError(t, MemPoolDestroy(th, p1))

	require.NoError(t, MemPoolDestroy(th, p))
	requireCode(t, MemPoolDestroy(th, p), abi.ACL_ERROR_INVALID_PARAM)
}

func TestMemPoolConcurrent(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	var p core.Handle
	require.NoError(t, MemPoolCreate(th, &p, poolProps(64<<20)))
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 64<<20)
	const workers, rounds = 4, 50
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wt := core.NewThread()
			wt.Ctx = th.Ctx
			var s core.Handle
			if err := CreateStream(wt, &s); err != nil {
				errs <- err
				return
			}
			defer func() { _ = core.DestroyStream(wt, s, false) }()
			for i := range rounds {
				var a uintptr
				if err := MemPoolMallocAsync(wt, &a, uint64(512*(1+(i+w)%4)), p, s); err != nil {
					errs <- err
					return
				}
				if err := core.MemsetAsync(wt, a, 512, int32(w), 512, s); err != nil {
					errs <- err
					return
				}
				if err := MemPoolFreeAsync(wt, a, s); err != nil {
					errs <- err
					return
				}
			}
			errs <- core.SynchronizeStream(wt, s, -1)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Zero(t, poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT))
	// Blocks are reused: a new one is made only when every free block is
	// too small, so at most one block per size per worker exists.
	assert.LessOrEqual(t, poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), uint64(workers*(512+1024+1536+2048)))
	require.NoError(t, MemPoolTrimTo(th, p, 0))
	assert.Zero(t, poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT))
	require.NoError(t, MemPoolDestroy(th, p))
}

func TestMemPoolNotOnOtherSoCs(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910_9362"})
	require.NoError(t, SetDevice(th, 0))
	requireCode(t, core.CheckSoC("aclrtMemPoolCreate"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, core.CheckSoC("aclrtMemPoolTrimTo"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
}

func TestMemPoolReuseAndStats(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	hbm := th.Ctx.Dev.Emu.HBM
	used0 := hbm.Used()
	var p, s1, s2 core.Handle
	require.NoError(t, MemPoolCreate(th, &p, poolProps(8<<10)))
	require.NoError(t, CreateStream(th, &s1))
	require.NoError(t, CreateStream(th, &s2))
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 1<<20) // keep idle memory

	var a, b, c uintptr
	requireCode(t, MemPoolMallocAsync(th, &a, 0, p, s1), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, MemPoolMallocAsync(th, nil, 1, p, s1), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, MemPoolMallocAsync(th, &a, 1000, p, s1))
	assert.Equal(t, uint64(1024), poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT))
	assert.Equal(t, uint64(1024), poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT))
	assert.Equal(t, used0+1024, hbm.Used(), "the reservation is charged to HBM")
	// Pool memory is device memory to copies.
	require.NoError(t, core.Memset(th, a, 1000, 7, 1000))
	requireCode(t, Free(th, a, false), abi.ACL_ERROR_RT_PARAM_INVALID)

	// Same stream: the freed block is reused at once, in stream order.
	require.NoError(t, MemPoolFreeAsync(th, a, s1))
	requireCode(t, MemPoolFreeAsync(th, a, s1), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, MemPoolMallocAsync(th, &b, 600, p, s1))
	assert.Equal(t, a, b)
	assert.Equal(t, uint64(1024), poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT))
	require.NoError(t, MemPoolFreeAsync(th, b, s1))
	require.NoError(t, core.SynchronizeStream(th, s1, -1))
	assert.Zero(t, poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT))
	assert.Equal(t, uint64(1024), poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH))

	// Another stream without opportunistic or internal reuse: a new block.
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 0)
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0)
	require.NoError(t, MemPoolMallocAsync(th, &c, 512, p, s2))
	assert.NotEqual(t, a, c)
	assert.Equal(t, uint64(1536), poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT))
	require.NoError(t, MemPoolFreeAsync(th, c, s2))
	require.NoError(t, core.SynchronizeStream(th, s2, -1))
	// Opportunistic: the idle block of s1 serves s2 (closest size first).
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 1)
	require.NoError(t, MemPoolMallocAsync(th, &b, 700, p, s2))
	assert.Equal(t, a, b)
	require.NoError(t, MemPoolMallocAsync(th, &c, 100, p, s1))
	assert.NotEqual(t, a, c, "the 512-byte block of s2 is idle and the closest")

	// maxSize bounds the reservation; idle memory is handed back first.
	var big uintptr
	requireCode(t, MemPoolMallocAsync(th, &big, 9<<10, p, s1), abi.ACL_ERROR_RT_MEMORY_ALLOCATION)
	requireCode(t, MemPoolMallocAsync(th, &big, 7<<10, p, s1), abi.ACL_ERROR_RT_MEMORY_ALLOCATION)
	require.NoError(t, MemPoolFreeAsync(th, c, s1))
	require.NoError(t, MemPoolFreeAsync(th, b, s2))
	require.NoError(t, core.SynchronizeStream(th, s2, -1))
	require.NoError(t, core.SynchronizeStream(th, s1, -1))
	require.NoError(t, MemPoolMallocAsync(th, &big, 7<<10, p, s1))
	// Only the 1 KiB block had to go: 512 + 7 KiB stay reserved.
	assert.Equal(t, uint64(512+7<<10), poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT))
	assert.Equal(t, uint64(512+7<<10), poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH))

	// Watermarks reset to the current level; destroy waits for frees.
	requireCode(t, MemPoolDestroy(th, p), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, MemPoolFreeAsync(th, big, s1))
	require.NoError(t, core.SynchronizeStream(th, s1, -1))
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, 0)
	assert.Zero(t, poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH))
	require.NoError(t, MemPoolTrimTo(th, p, 0))
	assert.Zero(t, poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT))
	assert.Equal(t, used0, hbm.Used())
	require.NoError(t, MemPoolDestroy(th, p))
	require.NoError(t, core.DestroyStream(th, s1, false))
	require.NoError(t, core.DestroyStream(th, s2, false))
}

func TestMemPoolInternalDependency(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	var p, s1, s2 core.Handle
	require.NoError(t, MemPoolCreate(th, &p, poolProps(1<<20)))
	require.NoError(t, CreateStream(th, &s1))
	require.NoError(t, CreateStream(th, &s2))
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 0)
	st1, err := core.Streams.Get(s1)
	require.NoError(t, err)

	// s1 is held by a host task, so its free stays queued.
	gate := make(chan struct{})
	require.NoError(t, st1.SQ.Submit(tsfw.HostTask(func() error { <-gate; return nil })))
	var a, b uintptr
	require.NoError(t, MemPoolMallocAsync(th, &a, 4096, p, s1))
	require.NoError(t, MemPoolFreeAsync(th, a, s1))
	require.NoError(t, MemPoolMallocAsync(th, &b, 4096, p, s2))
	assert.Equal(t, a, b, "reused across streams through an internal dependency")
	var status int32
	require.NoError(t, core.StreamQuery(th, s2, &status))
	assert.Equal(t, int32(abi.ACL_STREAM_STATUS_NOT_READY), status, "s2 waits for s1's free")
	close(gate)
	require.NoError(t, core.SynchronizeStream(th, s2, -1))
	require.NoError(t, MemPoolFreeAsync(th, b, s2))

	// RELEASE_THRESHOLD 0: idle memory goes back at the next synchronise.
	require.NoError(t, core.SynchronizeStream(th, s2, -1))
	assert.Zero(t, poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT))

	// A destroyed stream's queued free settles; the pool can go.
	gate2 := make(chan struct{})
	require.NoError(t, st1.SQ.Submit(tsfw.HostTask(func() error { <-gate2; return nil })))
	require.NoError(t, MemPoolMallocAsync(th, &a, 100, p, s1))
	require.NoError(t, MemPoolFreeAsync(th, a, s1))
	close(gate2)
	require.NoError(t, core.DestroyStream(th, s1, false))
	require.NoError(t, MemPoolTrimTo(th, p, 0))
	assert.Zero(t, poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT))
	require.NoError(t, MemPoolDestroy(th, p))
	require.NoError(t, core.DestroyStream(th, s2, false))
}

// BenchmarkMemPoolMallocFreeAsync measures a pool allocation and its
// stream-ordered free on one stream, the steady state of a caching
// allocator (the block is reused every time; the free queues a host task).
func BenchmarkMemPoolMallocFreeAsync(b *testing.B) {
	b.Setenv("NPUEMU_SOC", "Ascend910B3")
	th := benchSetup(b)
	var p core.Handle
	require.NoError(b, MemPoolCreate(th, &p, poolProps(1<<30)))
	var ptr uintptr
	n := 0
	for b.Loop() {
		if err := MemPoolMallocAsync(th, &ptr, 4096, p, 0); err != nil {
			b.Fatal(err)
		}
		if err := MemPoolFreeAsync(th, ptr, 0); err != nil {
			b.Fatal(err)
		}
		if n++; n%1024 == 0 {
			require.NoError(b, core.SynchronizeStream(th, 0, -1))
		}
	}
	require.NoError(b, core.SynchronizeStream(th, 0, -1))
	require.NoError(b, MemPoolDestroy(th, p))
}

func TestMemPoolFollowEventDependencies(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	var p, s1, s2, s3, e1, e2 core.Handle
	require.NoError(t, MemPoolCreate(th, &p, poolProps(1<<20)))
	for _, s := range []*core.Handle{&s1, &s2, &s3} {
		require.NoError(t, CreateStream(th, s))
	}
	require.NoError(t, core.CreateEvent(th, &e1))
	require.NoError(t, core.CreateEvent(th, &e2))
	// Only event dependencies may move a block between streams.
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 0)
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0)
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 1<<20)
	st1, err := core.Streams.Get(s1)
	require.NoError(t, err)
	gate := make(chan struct{})
	require.NoError(t, st1.SQ.Submit(tsfw.HostTask(func() error { <-gate; return nil })))

	var a, b, c uintptr
	require.NoError(t, MemPoolMallocAsync(th, &a, 4096, p, s1))
	// A record made before the free does not cover it.
	require.NoError(t, core.RecordEvent(th, e1, s1, 0))
	require.NoError(t, MemPoolFreeAsync(th, a, s1))
	require.NoError(t, core.StreamWaitEvent(th, s2, e1))
	require.NoError(t, MemPoolMallocAsync(th, &b, 4096, p, s2))
	assert.NotEqual(t, a, b, "the wait precedes the free")
	require.NoError(t, MemPoolFreeAsync(th, b, s2))

	// Recorded after the free and waited for: s2 reuses the block while
	// the free is still queued, with no wait of its own.
	require.NoError(t, core.RecordEvent(th, e1, s1, 0))
	require.NoError(t, core.StreamWaitEvent(th, s2, e1))
	require.NoError(t, MemPoolMallocAsync(th, &c, 4096, p, s2))
	assert.Equal(t, a, c, "reused through the application's event dependency")

	// Transitively: s3 waits for a record on s2 made after s2's wait.
	require.NoError(t, MemPoolFreeAsync(th, c, s2))
	require.NoError(t, core.RecordEvent(th, e2, s2, 0))
	require.NoError(t, core.StreamWaitEvent(th, s3, e2))
	var d uintptr
	require.NoError(t, MemPoolMallocAsync(th, &d, 4096, p, s3))
	assert.Contains(t, []uintptr{a, b}, d, "s3 is ordered after s2's frees")
	assert.Equal(t, uint64(8192), poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), "no new block")

	// Off: the same dependency adds no reuse.
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, 0)
	require.NoError(t, MemPoolFreeAsync(th, d, s3))
	require.NoError(t, core.RecordEvent(th, e2, s3, 0))
	require.NoError(t, core.StreamWaitEvent(th, s1, e2))
	var x uintptr
	require.NoError(t, MemPoolMallocAsync(th, &x, 4096, p, s1))
	assert.NotEqual(t, a, x)
	require.NoError(t, MemPoolFreeAsync(th, x, s1))
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, 1)

	close(gate)
	require.NoError(t, core.SynchronizeDevice(th))
	// A destroyed event forgets its snapshot; streams keep what they waited.
	require.NoError(t, core.DestroyEvent(th, e1))
	require.NoError(t, core.DestroyEvent(th, e2))
	require.NoError(t, MemPoolTrimTo(th, p, 0))
	require.NoError(t, MemPoolDestroy(th, p))
	for _, s := range []core.Handle{s1, s2, s3} {
		require.NoError(t, core.DestroyStream(th, s, false))
	}
	core.PoolDeps.Mu.Lock()
	for _, s := range []core.Handle{s1, s2, s3} {
		for st := range core.PoolDeps.Frees {
			assert.NotEqual(t, s, st.H, "destroyed streams are forgotten")
		}
	}
	core.PoolDeps.Mu.Unlock()
}

func TestMemPoolReleaseThresholdAtEverySynchronize(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	var p, s, e core.Handle
	require.NoError(t, MemPoolCreate(th, &p, poolProps(1<<20)))
	require.NoError(t, CreateStream(th, &s))
	require.NoError(t, core.CreateEvent(th, &e))
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 1024)
	reserved := func() uint64 { return poolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) }
	for name, sync := range map[string]func() error{
		"device":              func() error { return core.SynchronizeDevice(th) },
		"device with timeout": func() error { return core.SynchronizeDeviceWithTimeout(th, 5000) },
		"event":               func() error { return core.SynchronizeEvent(th, e, -1) },
		"event with timeout":  func() error { return core.SynchronizeEvent(th, e, 5000) },
	} {
		t.Run(name, func(t *testing.T) {
			var a, b uintptr
			require.NoError(t, MemPoolMallocAsync(th, &a, 1024, p, s))
			require.NoError(t, MemPoolMallocAsync(th, &b, 4096, p, s))
			require.NoError(t, MemPoolFreeAsync(th, a, s))
			require.NoError(t, MemPoolFreeAsync(th, b, s))
			require.NoError(t, core.RecordEvent(th, e, s, 0))
			require.Equal(t, uint64(5120), reserved())
			require.NoError(t, sync())
			assert.Equal(t, uint64(1024), reserved(), "idle memory above the threshold went back")
			require.NoError(t, MemPoolTrimTo(th, p, 0))
		})
	}
	require.NoError(t, MemPoolDestroy(th, p))
	require.NoError(t, core.DestroyEvent(th, e))
	require.NoError(t, core.DestroyStream(th, s, false))
}

// TestMemPoolRecordingStreams checks the refusal on streams that record
// tasks, and that a record or wait captured into a graph orders no free.
func TestMemPoolRecordingStreams(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	require.NoError(t, SetDevice(th, 0))
	var p, s, s2, e core.Handle
	require.NoError(t, MemPoolCreate(th, &p, poolProps(1<<20)))
	require.NoError(t, CreateStream(th, &s))
	require.NoError(t, CreateStream(th, &s2))
	require.NoError(t, core.CreateEvent(th, &e))
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 0)
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0)
	setPoolAttr(t, th, p, abi.ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 1<<20)
	var a, b uintptr
	require.NoError(t, MemPoolMallocAsync(th, &a, 512, p, s))
	require.NoError(t, MemPoolFreeAsync(th, a, s))

	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	requireCode(t, MemPoolMallocAsync(th, &b, 512, p, s), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	requireCode(t, MemPoolFreeAsync(th, a, s), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
	// Recorded into the graph, not executed: s2 is not ordered after the
	// free by it.
	require.NoError(t, core.RecordEvent(th, e, s, 0))
	var ri core.Handle
	require.NoError(t, CaptureEnd(th, s, &ri))
	require.NoError(t, core.StreamWaitEvent(th, s2, e))
	require.NoError(t, MemPoolMallocAsync(th, &b, 512, p, s2))
	assert.NotEqual(t, a, b)

	require.NoError(t, MemPoolFreeAsync(th, b, s2))
	require.NoError(t, core.SynchronizeDevice(th))
	require.NoError(t, Destroy(th, ri))
	require.NoError(t, MemPoolTrimTo(th, p, 0))
	require.NoError(t, MemPoolDestroy(th, p))
	require.NoError(t, core.DestroyEvent(th, e))
	require.NoError(t, core.DestroyStream(th, s, false))
	require.NoError(t, core.DestroyStream(th, s2, false))
}
