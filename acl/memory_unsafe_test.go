package acl

import (
	"math"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
)

// bufAddr returns the address of a Go buffer (pageable host memory); the
// caller keeps b alive across the copies with runtime.KeepAlive.
func bufAddr(b []byte) uintptr { return uintptr(unsafe.Pointer(&b[0])) }

func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7) + seed
	}
	return b
}

func TestMallocAccounting(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend910B3"})
	var p uintptr
	requireCode(t, Malloc(th, &p, 64, 0, core.MallocOpts{}), abi.ACL_ERROR_RT_CONTEXT_NULL)
	require.NoError(t, SetDevice(th, 0))
	d := th.Ctx.Dev
	requireCode(t, Malloc(th, &p, 0, 0, core.MallocOpts{}), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, Malloc(th, nil, 64, 0, core.MallocOpts{}), abi.ACL_ERROR_INVALID_PARAM)

	tests := []struct {
		name         string
		size         uint64
		policy       uint32
		opts         core.MallocOpts
		usable, used uint64
	}{
		{"small normal", 100, abi.ACL_MEM_MALLOC_HUGE_FIRST, core.MallocOpts{}, 160, 4096},
		{"align32", 100, abi.ACL_MEM_MALLOC_HUGE_FIRST, core.MallocOpts{Align32: true}, 128, 4096},
		{"1 MiB stays normal", 1 << 20, abi.ACL_MEM_MALLOC_HUGE_FIRST, core.MallocOpts{}, 1<<20 + 32, 1<<20 + 4096},
		{"above 1 MiB is huge", 1<<20 + 1, abi.ACL_MEM_MALLOC_HUGE_FIRST, core.MallocOpts{}, 1<<20 + 64, 2 << 20},
		{"huge only", 64, abi.ACL_MEM_MALLOC_HUGE_ONLY, core.MallocOpts{}, 96, 2 << 20},
		{"1G", 64, abi.ACL_MEM_MALLOC_HUGE1G_ONLY, core.MallocOpts{}, 64, 1 << 30},
		{"with cfg flags", 64, abi.ACL_MEM_MALLOC_NORMAL_ONLY | abi.ACL_MEM_TYPE_HIGH_BAND_WIDTH, core.MallocOpts{WithCfg: true}, 96, 4096},
	}
	for _, tt := range tests {
		before := d.Emu.HBM.Used()
		var p uintptr
		require.NoError(t, Malloc(th, &p, tt.size, tt.policy, tt.opts), tt.name)
		assert.Zero(t, p%512, tt.name)
		assert.Equal(t, tt.used, d.Emu.HBM.Used()-before, tt.name)
		d.AllocMu.RLock()
		assert.Equal(t, tt.usable, d.Allocs[p].Size, tt.name)
		d.AllocMu.RUnlock()
		var free, total uint64
		require.NoError(t, GetMemInfo(th, abi.ACL_HBM_MEM, &free, &total))
		assert.Equal(t, d.Emu.HBM.Total(), total)
		assert.Equal(t, total-d.Emu.HBM.Used(), free)
		require.NoError(t, Free(th, p, false), tt.name)
		assert.Equal(t, before, d.Emu.HBM.Used(), tt.name)
	}
	requireCode(t, Free(th, 0, false), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, Malloc(th, &p, 4096, 0, core.MallocOpts{}))
	requireCode(t, Free(th, p+64, false), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, Free(th, p, true))
	requireCode(t, Free(th, p, false), abi.ACL_ERROR_RT_PARAM_INVALID)

	var free, total uint64
	require.NoError(t, GetMemInfo(th, 9999, &free, &total))
	assert.Zero(t, free+total, "unsupported attribute reads 0/0")

	var pa PtrAttributes
	require.NoError(t, Malloc(th, &p, 4096, 0, core.MallocOpts{}))
	require.NoError(t, PointerGetAttributes(th, p+10, &pa))
	assert.Equal(t, uint32(abi.ACL_MEM_LOCATION_TYPE_DEVICE), pa.Location.Type)
	host := make([]byte, 8)
	require.NoError(t, PointerGetAttributes(th, bufAddr(host), &pa))
	assert.Equal(t, uint32(abi.ACL_MEM_LOCATION_TYPE_UNREGISTERED), pa.Location.Type)
	require.NoError(t, Free(th, p, false))
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestMallocOutOfMemory(t *testing.T) {
	cfg := writeTemp(t, `{"hbm_bytes": 67108864}`) // 64 MiB devices
	th := setup(t, map[string]string{"NPUEMU_CONFIG": cfg})
	require.NoError(t, SetDevice(th, 0))
	var a, b uintptr
	require.NoError(t, Malloc(th, &a, 48<<20, 0, core.MallocOpts{}))
	requireCode(t, Malloc(th, &b, 32<<20, 0, core.MallocOpts{}), abi.ACL_ERROR_RT_MEMORY_ALLOCATION)
	require.NoError(t, Free(th, a, false))
	require.NoError(t, Malloc(th, &b, 32<<20, 0, core.MallocOpts{}))
	require.NoError(t, Free(th, b, false))
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestMemcpyRoundTrip(t *testing.T) {
	th := setup(t, nil)
	const n = 3 << 20
	src, out := pattern(n, 3), make([]byte, n)
	requireCode(t, core.Memcpy(th, bufAddr(out), n, bufAddr(src), n, abi.ACL_MEMCPY_HOST_TO_HOST), abi.ACL_ERROR_RT_CONTEXT_NULL)
	require.NoError(t, SetDevice(th, 0))
	var d1, d2 uintptr
	require.NoError(t, Malloc(th, &d1, n, 0, core.MallocOpts{}))
	require.NoError(t, Malloc(th, &d2, n, 0, core.MallocOpts{}))
	// kind is advisory for aclrtMemcpy: the direction comes from the pointers.
	require.NoError(t, core.Memcpy(th, d1, n, bufAddr(src), n, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	require.NoError(t, core.Memcpy(th, d2, n, d1, n, abi.ACL_MEMCPY_DEFAULT))
	require.NoError(t, core.Memcpy(th, bufAddr(out), n, d2, n, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	assert.Equal(t, src, out)

	// Refusals happen before anything is written.
	clear(out)
	tests := []struct {
		name       string
		dst        uintptr
		max        uint64
		src        uintptr
		count      uint64
		kind       int32
		code       abi.Code
		zeroLength bool
	}{
		{"count 0 first", 0, 0, 0, 0, 99, 0, true},
		{"inner d2d kind", bufAddr(out), n, d1, 16, abi.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, abi.ACL_ERROR_INVALID_PARAM, false},
		{"inter d2d kind", bufAddr(out), n, d1, 16, abi.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, abi.ACL_ERROR_INVALID_PARAM, false},
		{"null src", bufAddr(out), n, 0, 16, abi.ACL_MEMCPY_DEFAULT, abi.ACL_ERROR_INVALID_PARAM, false},
		{"count > destMax", bufAddr(out), 8, d1, 16, abi.ACL_MEMCPY_DEFAULT, abi.ACL_ERROR_RT_PARAM_INVALID, false},
		{"overrun src allocation", bufAddr(out), n, d1 + n - 8, 64 + 8, abi.ACL_MEMCPY_DEFAULT, abi.ACL_ERROR_RT_PARAM_INVALID, false},
		{"overrun dst allocation", d1 + 64, n, bufAddr(src), n, abi.ACL_MEMCPY_DEFAULT, abi.ACL_ERROR_RT_PARAM_INVALID, false},
	}
	for _, tt := range tests {
		err := core.Memcpy(th, tt.dst, tt.max, tt.src, tt.count, tt.kind)
		if tt.zeroLength {
			require.NoError(t, err, tt.name)
			continue
		}
		requireCode(t, err, tt.code)
	}
	assert.Equal(t, make([]byte, n), out, "a refused copy wrote nothing")
	// The overrun into d1 was refused too: d1 still holds src.
	require.NoError(t, core.Memcpy(th, bufAddr(out), n, d1, n, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	assert.Equal(t, src, out)

	// Memset (low byte of value) and its checks.
	require.NoError(t, core.Memset(th, d1, n, 0x1AB, n))
	require.NoError(t, core.Memcpy(th, bufAddr(out), n, d1, n, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	assert.Equal(t, byte(0xAB), out[0])
	assert.Equal(t, byte(0xAB), out[n-1])
	require.NoError(t, core.Memset(th, 0, 0, 0, 0))
	requireCode(t, core.Memset(th, d1, 8, 0, 16), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, core.Memset(th, d1+64, n, 0, n), abi.ACL_ERROR_RT_PARAM_INVALID)
	runtime.KeepAlive(src)
	runtime.KeepAlive(out)
	require.NoError(t, Free(th, d1, false))
	require.NoError(t, Free(th, d2, false))
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestAsyncCopiesOrderedByEvent(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	const n = 1 << 20
	var pinnedIn, pinnedOut, dev uintptr
	require.NoError(t, core.MallocHost(th, &pinnedIn, n, ""))
	require.NoError(t, core.MallocHost(th, &pinnedOut, n, ""))
	require.NoError(t, Malloc(th, &dev, n, 0, core.MallocOpts{}))
	in, outB := pattern(n, 9), make([]byte, n)
	require.NoError(t, core.Memcpy(th, pinnedIn, n, bufAddr(in), n, abi.ACL_MEMCPY_HOST_TO_HOST))

	var a, b, start, done core.Handle
	require.NoError(t, CreateStream(th, &a))
	require.NoError(t, CreateStream(th, &b))
	require.NoError(t, core.CreateEvent(th, &start))
	require.NoError(t, CreateEventWithFlag(th, &done, abi.ACL_EVENT_SYNC|abi.ACL_EVENT_TIME_LINE))

	var st int32
	require.NoError(t, core.QueryEventStatus(th, done, &st))
	assert.Equal(t, int32(abi.ACL_EVENT_RECORDED_STATUS_NOT_READY), st, "never recorded")
	require.NoError(t, core.RecordEvent(th, start, a, 0))
	require.NoError(t, core.MemcpyAsync(th, dev, n, pinnedIn, n, abi.ACL_MEMCPY_HOST_TO_DEVICE, a))
	require.NoError(t, core.RecordEvent(th, done, a, 0))
	require.NoError(t, core.StreamWaitEvent(th, b, done))
	require.NoError(t, core.MemcpyAsync(th, pinnedOut, n, dev, n, abi.ACL_MEMCPY_DEVICE_TO_HOST, b))
	require.NoError(t, core.SynchronizeStream(th, b, -1))
	require.NoError(t, core.Memcpy(th, bufAddr(outB), n, pinnedOut, n, abi.ACL_MEMCPY_HOST_TO_HOST))
	assert.Equal(t, in, outB)
	runtime.KeepAlive(outB)

	require.NoError(t, core.SynchronizeEvent(th, done, -1))
	require.NoError(t, core.QueryEventStatus(th, done, &st))
	assert.Equal(t, int32(abi.ACL_EVENT_RECORDED_STATUS_COMPLETE), st)
	require.NoError(t, core.QueryEvent(th, done, &st))
	assert.Equal(t, int32(abi.ACL_EVENT_STATUS_COMPLETE), st, "the deprecated enum is inverted")
	require.NoError(t, core.QueryEventWaitStatus(th, done, &st))
	assert.Equal(t, int32(abi.ACL_EVENT_WAIT_STATUS_COMPLETE), st)
	var ms float32
	require.NoError(t, core.EventElapsedTime(th, &ms, start, done))
	assert.Greater(t, ms, float32(0), "a 1 MiB copy takes virtual time")
	requireCode(t, core.EventElapsedTime(th, &ms, done, start), abi.ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL)
	var ts uint64
	require.NoError(t, EventGetTimestamp(th, done, &ts))

	// Reset for default-flag and WithFlag(SYNC) events.
	require.NoError(t, core.ResetEvent(th, start, b))
	require.NoError(t, core.ResetEvent(th, done, b))
	var ex, nosync core.Handle
	require.NoError(t, CreateEventExWithFlag(th, &ex, abi.ACL_EVENT_SYNC))
	require.NoError(t, core.QueryEventStatus(th, ex, &st))
	assert.Equal(t, int32(abi.ACL_EVENT_RECORDED_STATUS_COMPLETE), st, "Ex events are complete before any record")
	requireCode(t, core.ResetEvent(th, ex, b), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, core.QueryEvent(th, ex, &st), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, CreateEventWithFlag(th, &nosync, abi.ACL_EVENT_TIME_LINE))
	requireCode(t, core.StreamWaitEvent(th, b, nosync), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, CreateEventWithFlag(th, &nosync, abi.ACL_EVENT_EXTERNAL|abi.ACL_EVENT_SYNC), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, CreateEventWithFlag(th, &nosync, abi.ACL_EVENT_IPC), abi.ACL_ERROR_INVALID_PARAM)

	// Pageable host memory makes the async copy synchronous.
	host := make([]byte, 4096)
	require.NoError(t, core.MemcpyAsync(th, bufAddr(host), 4096, dev, 4096, abi.ACL_MEMCPY_DEVICE_TO_HOST, b))
	assert.Equal(t, in[:4096], host)
	runtime.KeepAlive(host)
	requireCode(t, core.MemcpyAsync(th, dev, n, dev, 16, abi.ACL_MEMCPY_HOST_TO_DEVICE, b), abi.ACL_ERROR_RT_PARAM_INVALID)
	requireCode(t, core.MemcpyAsync(th, pinnedOut, n, pinnedIn, 16, abi.ACL_MEMCPY_HOST_TO_HOST, b), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)

	require.NoError(t, core.DestroyEvent(th, start))
	requireCode(t, core.RecordEvent(th, start, a, 0), abi.ACL_ERROR_RT_INVALID_HANDLE)
	require.NoError(t, core.FreeHost(th, pinnedIn, false))
	require.NoError(t, core.FreeHost(th, pinnedOut, true))
	require.NoError(t, Free(th, dev, false))
	// Streams and the remaining events go with the context.
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestPeerCopy(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 1))
	var d1 uintptr
	require.NoError(t, Malloc(th, &d1, 4096, 0, core.MallocOpts{}))
	require.NoError(t, SetDevice(th, 0))
	var d0 uintptr
	require.NoError(t, Malloc(th, &d0, 4096, 0, core.MallocOpts{}))
	src := pattern(4096, 1)
	require.NoError(t, core.Memcpy(th, d0, 4096, bufAddr(src), 4096, 0))
	requireCode(t, core.Memcpy(th, d1, 4096, d0, 4096, abi.ACL_MEMCPY_DEVICE_TO_DEVICE), abi.ACL_ERROR_RT_PARAM_INVALID)
	require.NoError(t, DeviceEnablePeerAccess(th, 1, 0))
	require.NoError(t, core.Memcpy(th, d1, 4096, d0, 4096, abi.ACL_MEMCPY_DEVICE_TO_DEVICE))
	out := make([]byte, 4096)
	require.NoError(t, core.Memcpy(th, bufAddr(out), 4096, d1, 4096, 0))
	assert.Equal(t, src, out)
	runtime.KeepAlive(src)
	runtime.KeepAlive(out)
	require.NoError(t, Free(th, d0, false))
	require.NoError(t, Free(th, d1, false))
	require.NoError(t, core.ResetDevice(th, 0))
	require.NoError(t, core.ResetDevice(th, 1))
}

func TestMemcpy2D(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetDevice(th, 0))
	const w, h, sp, dp = 16, 4, 32, 20
	src := pattern(sp*h, 5)
	var dev uintptr
	require.NoError(t, Malloc(th, &dev, dp*h, 0, core.MallocOpts{}))
	require.NoError(t, Memcpy2D(th, dev, dp, bufAddr(src), sp, w, h, abi.ACL_MEMCPY_HOST_TO_DEVICE))
	out := make([]byte, w*h)
	require.NoError(t, Memcpy2D(th, bufAddr(out), w, dev, dp, w, h, abi.ACL_MEMCPY_DEVICE_TO_HOST))
	for r := 0; r < h; r++ {
		assert.Equal(t, src[r*sp:r*sp+w], out[r*w:(r+1)*w], "row %d", r)
	}
	requireCode(t, Memcpy2D(th, dev, 8, bufAddr(src), sp, w, h, abi.ACL_MEMCPY_HOST_TO_DEVICE), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, Memcpy2D(th, dev, dp, bufAddr(src), sp, w, h, abi.ACL_MEMCPY_DEVICE_TO_DEVICE), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, Memcpy2D(th, dev, dp, bufAddr(src), sp, w, h+3, abi.ACL_MEMCPY_HOST_TO_DEVICE), abi.ACL_ERROR_RT_PARAM_INVALID)
	runtime.KeepAlive(src)
	runtime.KeepAlive(out)
	require.NoError(t, Free(th, dev, false))
	require.NoError(t, core.ResetDevice(th, 0))
}

func TestFloat16(t *testing.T) {
	toF := []struct {
		in   uint16
		want float32
	}{
		{0x0000, 0}, {0x3C00, 1}, {0xC000, -2}, {0x7BFF, 65504}, {0x0001, 5.9604645e-08},
		{0x7C00, 65536}, {0xFC00, -65536}, {0x7E00, 98304},
	}
	for _, tt := range toF {
		assert.Equal(t, tt.want, Float16ToFloat(tt.in), "%#04x", tt.in)
	}
	inf := float32(math.Inf(1))
	toH := []struct {
		in   float32
		want uint16
	}{
		{0, 0}, {1, 0x3C00}, {-2, 0xC000}, {0.5, 0x3800}, {65504, 0x7BFF}, {1e6, 0x7BFF},
		{inf, 0x7BFF}, {-inf, 0xFBFF}, {inf - inf, 0x7BFF}, {5.9604645e-08, 0x0001}, {1e-9, 0},
		{1.0009765625, 0x3C01}, {1.00048828125, 0x3C00}, // ties round to even
	}
	for _, tt := range toH {
		assert.Equal(t, tt.want, FloatToFloat16(tt.in), "%v", tt.in)
	}
	assert.Equal(t, uint64(2), DataTypeSize(abi.ACL_BF16))
	assert.Equal(t, uint64(16), DataTypeSize(abi.ACL_COMPLEX128))
	assert.Zero(t, DataTypeSize(abi.ACL_INT4))
}
