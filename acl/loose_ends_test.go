package acl

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// Tests of acl/{databuffer,topo}.go, ASCEND_RT_VISIBLE_DEVICES in
// acl/devid.go, finalization hooks and the leak report's newer kinds.

func TestDataBuffer(t *testing.T) {
	th := core.NewThread() // no aclInit needed
	before := core.LiveDataBuffers()
	h := CreateDataBuffer(th, 0x1000, 1<<33)
	require.NotZero(t, h)
	b, err := GetDataBuffer(th, "aclGetDataBufferAddr", h)
	require.NoError(t, err)
	assert.Equal(t, core.DataBuffer{Addr: 0x1000, Size: 1 << 33}, b)

	empty := CreateDataBuffer(th, 0, 0) // an empty tensor
	b, err = GetDataBuffer(th, "aclGetDataBufferSizeV2", empty)
	require.NoError(t, err)
	assert.Equal(t, core.DataBuffer{}, b)

	require.NoError(t, UpdateDataBuffer(th, empty, 0x2000, 64))
	b, err = GetDataBuffer(th, "aclGetDataBufferAddr", empty)
	require.NoError(t, err)
	assert.Equal(t, core.DataBuffer{Addr: 0x2000, Size: 64}, b)
	assert.Equal(t, before+2, core.LiveDataBuffers())

	require.NoError(t, DestroyDataBuffer(th, h))
	require.NoError(t, DestroyDataBuffer(th, empty))
	assert.Equal(t, before, core.LiveDataBuffers())
	for name, bad := range map[string]core.Handle{"NULL": 0, "stale": h, "foreign": core.MakeHandle(core.KindStream, 1, 0)} {
		t.Run(name, func(t *testing.T) {
			requireCode(t, DestroyDataBuffer(th, bad), abi.ACL_ERROR_INVALID_PARAM)
			requireCode(t, UpdateDataBuffer(th, bad, 1, 1), abi.ACL_ERROR_INVALID_PARAM)
			_, err := GetDataBuffer(th, "aclGetDataBufferAddr", bad)
			requireCode(t, err, abi.ACL_ERROR_INVALID_PARAM)
			assert.Contains(t, err.Error(), "aclGetDataBufferAddr")
		})
	}
}

func TestVisibleDevicesRuntime(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_DEVICES": "4", emu.EnvVisible: "3,1"})
	var n uint32
	require.NoError(t, core.GetDeviceCount(th, &n))
	assert.Equal(t, uint32(2), n)
	requireCode(t, SetDevice(th, 2), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	require.NoError(t, SetDevice(th, 1))
	var cur int32
	require.NoError(t, core.GetDevice(th, &cur))
	assert.Equal(t, int32(1), cur, "aclrtGetDevice answers in user ids")
	require.NoError(t, core.ResetDevice(th, 1))

	type mapCase struct {
		name string
		f    func(*core.Thread, int32, *int32) error
		in   int32
		want int32 // −1: ACL_ERROR_RT_INVALID_DEVICEID
	}
	cases := []mapCase{
		{"user 0 → logic", GetLogicDevIdByUserDevId, 0, 3},
		{"user 1 → phy", GetPhyDevIdByUserDevId, 1, 1},
		{"user 2 → phy", GetPhyDevIdByUserDevId, 2, -1},
		{"logic 3 → user", GetUserDevIdByLogicDevId, 3, 0},
		{"logic 0 hidden", GetUserDevIdByLogicDevId, 0, -1},
		{"phy 1 → user", GetUserDevIdByPhyDevId, 1, 1},
		{"phy 2 hidden", GetUserDevIdByPhyDevId, 2, -1},
		{"phy 4 absent", GetUserDevIdByPhyDevId, 4, -1},
		{"phy 3 → \"logic\" (user)", GetLogicDevIdByPhyDevId, 3, 0},
		{"\"logic\" (user) 1 → phy", GetPhyDevIdByLogicDevId, 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := int32(-7)
			err := tc.f(th, tc.in, &out)
			if tc.want < 0 {
				requireCode(t, err, abi.ACL_ERROR_RT_INVALID_DEVICEID)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}

	bus, err := DeviceGetPCIBusId(th, 0, true, 13)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("0000:%02x:00.0", pciBusBase+3), bus, "the slot of physical device 3")
	var back int32
	require.NoError(t, DeviceGetByPCIBusId(th, bus, true, &back))
	assert.Equal(t, int32(0), back)
	requireCode(t, DeviceGetByPCIBusId(th, fmt.Sprintf("0000:%02x:00.0", pciBusBase), true, &back), abi.ACL_ERROR_INVALID_PARAM)
}

func TestVisibleDevicesNoneVisibleFailsInit(t *testing.T) {
	resetRuntime()
	t.Setenv("NPUEMU_DEVICES", "2")
	t.Setenv("NPUEMU_SOC", "")
	t.Setenv("NPUEMU_CONFIG", "")
	t.Setenv(emu.EnvVisible, "7")
	t.Cleanup(resetRuntime)
	th := core.NewThread()
	err := Init(th, "")
	requireCode(t, err, abi.ACL_ERROR_RT_INVALID_DEVICEID)
	assert.Contains(t, err.Error(), emu.EnvVisible)
	var n uint32
	requireCode(t, core.GetDeviceCount(th, &n), abi.ACL_ERROR_RT_INVALID_DEVICEID)
}

func TestDevicesTopo(t *testing.T) {
	const (
		hccs   = abi.ACL_RT_DEVS_TOPOLOGY_HCCS
		sio    = abi.ACL_RT_DEVS_TOPOLOGY_SIO
		hccsSw = abi.ACL_RT_DEVS_TOPOLOGY_HCCS_SW
		phb    = abi.ACL_RT_DEVS_TOPOLOGY_PHB
		sys    = abi.ACL_RT_DEVS_TOPOLOGY_SYS
	)
	tests := []struct {
		soc, visible string
		a, b         uint32
		want         uint64
	}{
		{"Ascend910B3", "", 0, 7, hccs},
		{"Ascend950PR_9599", "", 3, 1, hccs},
		{"Ascend910_9372", "", 0, 1, sio},
		{"Ascend910_9372", "", 1, 2, hccsSw},
		{"Ascend910_9372", "5,4", 0, 1, sio}, // physical 5 and 4 are one chip
		{"Ascend910_9372", "5,6", 0, 1, hccsSw},
		{"Ascend910A", "", 0, 3, hccs},
		{"Ascend910A", "", 3, 4, sys},
		{"Ascend310P3", "", 0, 1, phb},
		{"Ascend310B1", "", 1, 0, sys},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%s/%d-%d", tt.soc, tt.visible, tt.a, tt.b), func(t *testing.T) {
			th := setup(t, map[string]string{"NPUEMU_DEVICES": "8", "NPUEMU_SOC": tt.soc, emu.EnvVisible: tt.visible})
			var v, w uint64
			require.NoError(t, GetDevicesTopo(th, tt.a, tt.b, &v))
			assert.Equal(t, tt.want, v)
			require.NoError(t, GetDevicesTopo(th, tt.b, tt.a, &w))
			assert.Equal(t, v, w, "symmetric")
		})
	}
	th := setup(t, nil)
	var v uint64
	requireCode(t, GetDevicesTopo(th, 1, 1, &v), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, GetDevicesTopo(th, 0, 2, &v), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	requireCode(t, GetDevicesTopo(th, 1<<31, 0, &v), abi.ACL_ERROR_RT_INVALID_DEVICEID)
	requireCode(t, GetDevicesTopo(th, 0, 1, nil), abi.ACL_ERROR_INVALID_PARAM)
}

func TestSetTsDeviceAndTaskSchedulerMemory(t *testing.T) {
	th := setup(t, nil)
	require.NoError(t, SetTsDevice(th, abi.ACL_TS_ID_AICORE))
	require.NoError(t, SetTsDevice(th, abi.ACL_TS_ID_AIVECTOR))
	requireCode(t, SetTsDevice(th, abi.ACL_TS_ID_RESERVED), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, SetTsDevice(th, -1), abi.ACL_ERROR_INVALID_PARAM)

	var p uintptr
	err := MallocForTaskScheduler(th, &p, 4096, 0, nil)
	requireCode(t, err, abi.CodeOf(Malloc(th, &p, 4096, 0, core.MallocOpts{})))
	assert.Contains(t, err.Error(), "aclrtMallocForTaskScheduler")
	require.NoError(t, SetDevice(th, 0))
	require.NoError(t, MallocForTaskScheduler(th, &p, 4096, 0, nil))
	require.NotZero(t, p)
	base, size, ok := AllocationRange(p)
	require.True(t, ok, "a device allocation")
	assert.Equal(t, p, base)
	assert.GreaterOrEqual(t, size, uint64(4096))
	requireCode(t, MallocForTaskScheduler(th, &p, 0, 0, nil), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, Free(th, base, false))
	require.NoError(t, core.ResetDevice(th, 0))
}

// TestFinalizeHooks: finalize callbacks run before the last
// aclFinalizeReference really finalizes, and every stream it releases
// (default streams included) gets DESTROY_PRE first; same for aclFinalize.
func TestFinalizeHooks(t *testing.T) {
	for _, viaRef := range []bool{true, false} {
		t.Run(fmt.Sprintf("viaReference=%v", viaRef), func(t *testing.T) {
			th := setup(t, nil)
			log := &stateLog{th: core.NewThread()}
			fin := core.FinalizeCallback{Type: abi.ACL_REG_TYPE_OTHER, Key: 0xf1, Call: func() {
				log.add("finalize initialized=%v", core.Initialized())
			}}
			require.NoError(t, FinalizeCallbackRegister(th, fin))
			require.NoError(t, core.RegStreamStateCallback(th, "fin", true, func(h core.Handle, state int32) {
				kind := "explicit"
				if st, e := core.Streams.Get(h); e == nil && st.IsDefault {
					kind = "default"
				}
				log.add("stream %s %d", kind, state)
			}))
			t.Cleanup(func() {
				_ = FinalizeCallbackUnRegister(th, abi.ACL_REG_TYPE_OTHER, 0xf1)
				_ = core.RegStreamStateCallback(th, "fin", true, nil)
			})
			require.NoError(t, SetDevice(th, 0))
			var s core.Handle
			require.NoError(t, CreateStream(th, &s))
			var c core.Handle
			require.NoError(t, CreateContext(th, &c, 1))
			log.take()

			if viaRef {
				requireCode(t, Init(th, ""), abi.ACL_ERROR_REPEAT_INITIALIZE) // two references
				var rc uint64
				require.NoError(t, FinalizeReference(th, &rc))
				assert.Equal(t, uint64(1), rc)
				assert.Empty(t, log.take(), "not the last reference")
				require.NoError(t, FinalizeReference(th, &rc))
				assert.Equal(t, uint64(0), rc)
			} else {
				require.NoError(t, Finalize(th))
			}
			got := log.take()
			require.NotEmpty(t, got)
			assert.Equal(t, "finalize initialized=true", got[0])
			destroys := got[1:]
			assert.ElementsMatch(t, []string{
				fmt.Sprintf("stream explicit %d", abi.ACL_RT_STREAM_STATE_DESTROY_PRE),
				fmt.Sprintf("stream default %d", abi.ACL_RT_STREAM_STATE_DESTROY_PRE),
				fmt.Sprintf("stream default %d", abi.ACL_RT_STREAM_STATE_DESTROY_PRE),
			}, destroys, "explicit stream, primary and explicit context default streams")
			assert.False(t, core.Initialized())
		})
	}
}

func TestLeakReportAllKinds(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_SOC": "Ascend950PR_9599"})
	require.NoError(t, SetDevice(th, 0))
	var n, cn, l, ll core.Handle
	require.NoError(t, CreateNotify(th, &n, 0))
	require.NoError(t, CntNotifyCreate(th, &cn, 0))
	require.NoError(t, CreateLabel(th, &l))
	require.NoError(t, CreateLabelList(th, []core.Handle{l}, 1, &ll))
	var h uint64
	prop := PhysicalMemProp{MemAttr: abi.ACL_HBM_MEM_HUGE, Location: MemLocation{Id: 0, Type: abi.ACL_MEM_LOCATION_TYPE_DEVICE}}
	require.NoError(t, MallocPhysical(th, &h, 2<<20, &prop, 0))
	var va uintptr
	require.NoError(t, ReserveMemAddress(th, &va, 2<<20, 0, 0, 0, false))

	kinds := func() map[string]int {
		m := map[string]int{}
		for _, o := range core.LiveObjects() {
			m[o.Kind]++
		}
		return m
	}
	want := map[string]int{"device": 1, "context": 1, "stream": 1, "notify": 1, "cnt notify": 1,
		"label": 1, "label list": 1, "physical memory": 1, "address reservation": 1}
	assert.Equal(t, want, kinds())

	// Released objects leave the registry.
	require.NoError(t, DestroyLabelList(th, ll))
	require.NoError(t, DestroyNotify(th, n))
	require.NoError(t, FreePhysical(th, h))
	require.NoError(t, ReleaseMemAddress(th, va))
	for _, k := range []string{"label list", "notify", "physical memory", "address reservation"} {
		delete(want, k)
	}
	assert.Equal(t, want, kinds())

	// What is left is reported, and finalization empties the registry.
	require.NoError(t, MallocPhysical(th, &h, 2<<20, &prop, 0))
	require.NoError(t, ReserveMemAddress(th, &va, 2<<20, 0, 0, 0, false))
	var buf bytes.Buffer
	old := leakOut
	leakOut = &buf
	defer func() { leakOut = old }()
	t.Setenv(LeakCheckEnv, "1")
	require.NoError(t, Finalize(th))
	out := buf.String()
	for _, s := range []string{"device 0 cnt notify", "device 0 label ", "device 0 physical memory handle", "process address reservation"} {
		assert.Contains(t, out, s)
	}
	assert.NotContains(t, out, "label list")
	// device, primary context, default stream, cnt notify, label, physical, reservation
	assert.Equal(t, 7, strings.Count(out, "\n  "), "%s", out)
	assert.Empty(t, core.LiveObjects())
}

func TestVisibleDevicesPhyChipID(t *testing.T) {
	th := setup(t, map[string]string{"NPUEMU_DEVICES": "4", emu.EnvVisible: "2,0"})
	for user, phys := range []int64{2, 0} {
		var v int64
		require.NoError(t, GetDeviceInfo(th, uint32(user), abi.ACL_DEV_ATTR_PHY_CHIP_ID, &v))
		assert.Equal(t, phys, v, "user %d", user)
	}
}
