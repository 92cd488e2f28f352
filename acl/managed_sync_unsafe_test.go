package acl

import (
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/svm"
)

// hostAddr is the address of b's bytes (kept alive by the caller).
func hostAddr(b []byte) uintptr { return uintptr(unsafe.Pointer(&b[0])) }

// clock0 returns device 0's virtual clock.
func clock0(t *testing.T) time.Duration {
	t.Helper()
	n, err := core.TheNode()
	require.NoError(t, err)
	d := n.Opened(0)
	require.NotNil(t, d)
	return d.TS.Now()
}

// syncFaultClock runs synchronous operations that fault managed pages and
// returns, per step, how far device 0's clock moved.
func syncFaultClock(t *testing.T) []time.Duration {
	th := setup(t, map[string]string{"NPUEMU_SVM_HOST_FAULTS": ""})
	require.NoError(t, SetDevice(th, 0))
	var dm, p uintptr
	require.NoError(t, Malloc(th, &dm, 4096, 0, core.MallocOpts{}))
	t.Cleanup(func() { _ = Free(th, dm, false) })
	require.NoError(t, AllocManaged(th, &p, mpage, abi.ACL_RT_MEM_ATTACH_GLOBAL))
	t.Cleanup(func() { _ = Free(th, p, false) })
	// A plain synchronous memset first: from here the host has observed
	// the device clock, so each step below starts where the last ended.
	require.NoError(t, core.Memset(th, dm, 4096, 0, 4096))
	host := make([]byte, 64)
	hp := hostAddr(host)
	var moves []time.Duration
	step := func(op func() error) {
		before := clock0(t)
		require.NoError(t, op())
		moves = append(moves, clock0(t)-before)
	}
	memset := func() error { return core.Memset(th, p, mpage, 7, mpage) }
	copyOut := func() error { return core.Memcpy(th, hp, 64, p, 64, abi.ACL_MEMCPY_DEFAULT) }
	step(memset)  // device fault: host → device 0
	step(memset)  // resident: the memset alone
	step(copyOut) // host fault: device 0 → host, dirty (written back)
	step(copyOut) // resident on the host: the copy alone
	assert.Equal(t, uint64(1), devStats(t, 0).Faults)
	assert.Equal(t, uint64(1), devStats(t, -1).Faults)
	return moves
}

func TestManagedSyncFaultCharged(t *testing.T) {
	run := func(name string) (moves []time.Duration) {
		t.Run(name, func(t *testing.T) { moves = syncFaultClock(t) })
		require.Len(t, moves, 4)
		return moves
	}
	moves := run("first")
	c := svm.DefaultCost()
	xfer := func(bw float64) time.Duration { return time.Duration(float64(mpage) / bw * float64(time.Second)) }
	assert.Equal(t, c.FaultOverhead+xfer(c.HostToDevice), moves[0]-moves[1], "memset: the device fault's migration")
	assert.Equal(t, c.FaultOverhead+xfer(c.DeviceToHost), moves[2]-moves[3], "copy to the host: the host fault's write-back")
	assert.Positive(t, moves[1])
	assert.Positive(t, moves[3])
	assert.Equal(t, moves, run("again"), "deterministic")
}

func TestManagedSynchronizeWritesBack(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SVM_HOST_FAULTS": ""})
	require.NoError(t, SetDevice(th, 0))
	var p uintptr
	require.NoError(t, AllocManaged(th, &p, mpage, abi.ACL_RT_MEM_ATTACH_GLOBAL))
	t.Cleanup(func() { _ = Free(th, p, false) })
	var s, e core.Handle
	require.NoError(t, CreateStream(th, &s))
	t.Cleanup(func() { _ = core.DestroyStream(th, s, false) })
	require.NoError(t, core.CreateEvent(th, &e))
	t.Cleanup(func() { _ = core.DestroyEvent(th, e) })
	syncs := []struct {
		name string
		sync func() error
	}{
		{"stream", func() error { return core.SynchronizeStream(th, s, -1) }},
		{"stream timeout", func() error { return core.SynchronizeStream(th, s, 10000) }},
		{"device", func() error { return core.SynchronizeDevice(th) }},
		{"device timeout", func() error { return core.SynchronizeDeviceWithTimeout(th, 10000) }},
		{"event", func() error { return core.SynchronizeEvent(th, e, -1) }},
		{"event timeout", func() error { return core.SynchronizeEvent(th, e, 10000) }},
	}
	g := core.LoadedSVM()
	require.NotNil(t, g)
	for _, tc := range syncs {
		t.Run(tc.name, func(t *testing.T) {
			// An asynchronous memset writes the page on device 0.
			require.NoError(t, core.MemsetAsync(th, p, mpage, 1, mpage, s))
			require.NoError(t, core.RecordEvent(th, e, s, abi.ACL_EVENT_RECORD_DEFAULT))
			pi, err := g.Page(p)
			require.NoError(t, err)
			require.True(t, pi.Dirty)
			before := devStats(t, 0).BytesDtoH
			clock := clock0(t)
			require.NoError(t, tc.sync())
			pi, err = g.Page(p)
			require.NoError(t, err)
			assert.False(t, pi.Dirty, "written back at the synchronize")
			assert.Equal(t, svm.Location(0), pi.Location, "written back, not moved")
			assert.Equal(t, before+mpage, devStats(t, 0).BytesDtoH)
			assert.Greater(t, clock0(t), clock, "the write-back is charged")
		})
	}
}

func TestMemP2PMap(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SVM_HOST_FAULTS": ""})
	require.NoError(t, SetDevice(th, 0))
	var p, dm uintptr
	require.NoError(t, AllocManaged(th, &p, 2*mpage, abi.ACL_RT_MEM_ATTACH_GLOBAL))
	t.Cleanup(func() { _ = Free(th, p, false) })
	require.NoError(t, Malloc(th, &dm, 4096, 0, core.MallocOpts{}))
	t.Cleanup(func() { _ = Free(th, dm, false) })
	host := make([]byte, 64)

	requireCode(t, MemP2PMap(th, p, mpage, 1, 0), abi.ACL_ERROR_RT_PARAM_INVALID) // no peer access yet
	require.NoError(t, DeviceEnablePeerAccess(th, 1, 0))
	cases := []struct {
		name  string
		p     uintptr
		size  uint64
		dst   int32
		flags uint64
		code  abi.Code
	}{
		{"NULL", 0, mpage, 1, 0, abi.ACL_ERROR_INVALID_PARAM},
		{"size 0", p, 0, 1, 0, abi.ACL_ERROR_INVALID_PARAM},
		{"flags", p, mpage, 1, 1, abi.ACL_ERROR_INVALID_PARAM},
		{"device 9", p, mpage, 9, 0, abi.ACL_ERROR_RT_INVALID_DEVICEID},
		{"device -1", p, mpage, -1, 0, abi.ACL_ERROR_RT_INVALID_DEVICEID},
		{"own device", p, mpage, 0, 0, abi.ACL_ERROR_RT_PARAM_INVALID},
		{"past the allocation", p, 3 * mpage, 1, 0, abi.ACL_ERROR_RT_PARAM_INVALID},
		{"host memory", hostAddr(host), 64, 1, 0, abi.ACL_ERROR_INVALID_PARAM},
		{"device memory overrun", dm, 1 << 20, 1, 0, abi.ACL_ERROR_RT_PARAM_INVALID},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			requireCode(t, MemP2PMap(th, c.p, c.size, c.dst, c.flags), c.code)
		})
	}
	require.NoError(t, MemP2PMap(th, dm, 4096, 1, 0))
	g := core.LoadedSVM()
	pi, err := g.Page(p + mpage)
	require.NoError(t, err)
	assert.Empty(t, pi.Peers, "nothing mapped by the failed calls")

	// Map the second page for device 1; device 0 owns both pages.
	require.NoError(t, core.MemsetAsync(th, p, 2*mpage, 3, 2*mpage, 0))
	require.NoError(t, core.SynchronizeDevice(th))
	require.NoError(t, MemP2PMap(th, p+mpage, mpage, 1, 0))
	pi, err = g.Page(p + mpage)
	require.NoError(t, err)
	assert.Equal(t, []svm.Location{1}, pi.Peers)

	// Device 1 writes both pages: the mapped one is a remote access.
	require.NoError(t, SetDevice(th, 1))
	require.NoError(t, core.MemsetAsync(th, p, 2*mpage, 4, 2*mpage, 0))
	require.NoError(t, core.SynchronizeDevice(th))
	st := devStats(t, 1)
	assert.Equal(t, uint64(1), st.Faults, "the unmapped page faults")
	assert.Equal(t, uint64(1), st.RemoteAccesses, "the mapped page does not")
	pi, err = g.Page(p + mpage)
	require.NoError(t, err)
	assert.Equal(t, svm.Location(0), pi.Location, "the mapped page stays")
	require.NoError(t, SetDevice(th, 0))
}
