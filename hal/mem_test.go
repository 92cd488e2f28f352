package hal

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
)

// Flag words the open-source runtime passes (hal-api.md §3.2).
const (
	moduleApp      = uint64(33) << abi.MEM_MODULE_ID_BIT
	flagMallocHuge = 0x920000 // MEM_SET_ALIGN_SIZE(9) | MEM_SVM_HUGE
	flagMallocNorm = 0x900000 // MEM_SET_ALIGN_SIZE(9) | MEM_SVM_NORMAL
	flagMallocHost = 0x900800 // MEM_SET_ALIGN_SIZE(9) | MEM_HOST
	flagManaged    = 0x21C00  // MEM_UVM | MEM_PAGE_HUGE
)

func TestDecodeFlag(t *testing.T) {
	cases := []struct {
		name string
		flag uint64
		want AllocFlag
	}{
		{"aclrtMalloc huge first", flagMallocHuge | 3 | moduleApp,
			AllocFlag{Dev: 3, Virt: virtSVM, Page: pageHuge, AlignLog: 9, Module: 33}},
		{"aclrtMalloc normal", flagMallocNorm | 1,
			AllocFlag{Dev: 1, Virt: virtSVM, Page: pageNormal, AlignLog: 9}},
		{"aclrtMallocHost", flagMallocHost,
			AllocFlag{Virt: virtHost, AlignLog: 9}},
		{"HUGE1G_ONLY P2P", abi.MEM_DEV | abi.MEM_PAGE_GIANT | abi.MEM_TYPE_HBM | abi.MEM_ADVISE_P2P | 5 | moduleApp,
			AllocFlag{Dev: 5, Virt: virtDev, Phy: phyHBM, Giant: true, P2P: true, Module: 33}},
		{"managed", flagManaged,
			AllocFlag{Virt: virtUVM, Page: pageHuge}},
		{"every advise bit", abi.MEM_CONTIGUOUS_PHY | abi.MEM_ADVISE_4G | abi.MEM_ADVISE_TS | abi.MEM_ADVISE_BAR |
			abi.MEM_READONLY | abi.MEM_HOST_RW_DEV_RO | abi.MEM_DEV_CP_ONLY,
			AllocFlag{Contiguous: true, Adv4G: true, TS: true, BAR: true, ReadOnly: true, HostRWDevR: true, DevCPOnly: true}},
		{"reserved bits and device mask", 1<<40 | 0x3FF,
			AllocFlag{Dev: 0x3FF, Reserved: 1 << 40}},
		{"max alignment, max module", 0x1F<<abi.MEM_ALIGN_BIT | uint64(0xFF)<<56,
			AllocFlag{AlignLog: 31, Module: 0xFF}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, DecodeFlag(c.flag))
		})
	}
	assert.Equal(t, uint64(512), DecodeFlag(flagMallocHuge).Alignment())
	assert.Contains(t, DecodeFlag(flagMallocHost).String(), "MEM_HOST")
}

func TestMemAllocFlagErrors(t *testing.T) {
	useNode(t, "Ascend310P3", 2, 64<<20)
	cases := []struct {
		name string
		flag uint64
		code abi.DrvCode
	}{
		{"host agent", abi.MEM_HOST_AGENT, abi.DRV_ERROR_NOT_SUPPORT},
		{"host UVA", abi.MEM_HOST_UVA, abi.DRV_ERROR_NOT_SUPPORT},
		{"DVPP", abi.MEM_DVPP | abi.MEM_TYPE_HBM, abi.DRV_ERROR_NOT_SUPPORT},
		{"reserve", abi.MEM_RESERVE, abi.DRV_ERROR_NOT_SUPPORT},
		{"virtual type 8", 8 << abi.MEM_VIRT_BIT, abi.DRV_ERROR_INVALID_VALUE},
		{"virtual type 15", 15 << abi.MEM_VIRT_BIT, abi.DRV_ERROR_INVALID_VALUE},
		{"physical type 2", abi.MEM_DEV | 2<<abi.MEM_PHY_BIT, abi.DRV_ERROR_INVALID_VALUE},
		{"page field 2", abi.MEM_DEV | 2<<abi.MEM_PAGE_BIT, abi.DRV_ERROR_INVALID_VALUE},
		{"huge and giant", abi.MEM_DEV | abi.MEM_PAGE_HUGE | abi.MEM_PAGE_GIANT, abi.DRV_ERROR_INVALID_VALUE},
		{"readonly both ways", abi.MEM_DEV | abi.MEM_READONLY | abi.MEM_HOST_RW_DEV_RO, abi.DRV_ERROR_INVALID_VALUE},
		{"4G without contiguous", abi.MEM_DEV | abi.MEM_ADVISE_4G, abi.DRV_ERROR_INVALID_VALUE},
		{"4G contiguous", abi.MEM_DEV | abi.MEM_ADVISE_4G | abi.MEM_CONTIGUOUS_PHY, abi.DRV_ERROR_NOT_SUPPORT},
		{"readonly", abi.MEM_DEV | abi.MEM_READONLY, abi.DRV_ERROR_NOT_SUPPORT},
		{"TS", abi.MEM_DEV | abi.MEM_ADVISE_TS, abi.DRV_ERROR_NOT_SUPPORT},
		{"BAR", abi.MEM_DEV | abi.MEM_ADVISE_BAR, abi.DRV_ERROR_NOT_SUPPORT},
		{"reserved bit 33", abi.MEM_DEV | 1<<33, abi.DRV_ERROR_INVALID_VALUE},
		{"reserved bit 55", abi.MEM_DEV | 1<<55, abi.DRV_ERROR_INVALID_VALUE},
		{"device 2 of 2", abi.MEM_DEV | 2, abi.DRV_ERROR_INVALID_DEVICE},
		{"device 1023", abi.MEM_DEV | 0x3FF, abi.DRV_ERROR_INVALID_DEVICE},
		{"giant off A2/A3", abi.MEM_DEV | abi.MEM_PAGE_GIANT, abi.DRV_ERROR_NOT_SUPPORT},
		{"giant host", abi.MEM_HOST | abi.MEM_PAGE_GIANT, abi.DRV_ERROR_INVALID_VALUE},
		{"host copy-engine only", abi.MEM_HOST | abi.MEM_DEV_CP_ONLY, abi.DRV_ERROR_INVALID_VALUE},
		{"host 2 MiB aligned", abi.MEM_HOST | 21<<abi.MEM_ALIGN_BIT, abi.DRV_ERROR_NOT_SUPPORT},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p uintptr = 0xdead
			assertDrv(t, MemAlloc(&p, 4096, c.flag), c.code, "flag %#x", c.flag)
			assert.Equal(t, uintptr(0xdead), p, "output untouched on failure")
		})
	}
	var p uintptr
	assertDrv(t, MemAlloc(nil, 4096, abi.MEM_DEV), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MemAlloc(&p, 0, abi.MEM_DEV), abi.DRV_ERROR_INVALID_VALUE)
	// Unmodelled kinds say what is supported (SVM and UVM: uvm_test.go).
	err := MemAlloc(&p, 4096, abi.MEM_HOST_AGENT)
	assert.Contains(t, err.Error(), "MEM_UVM (managed memory) are supported")
}

func TestMemAllocDeviceAccounting(t *testing.T) {
	const hbm = 256 << 20
	n := useNode(t, "Ascend910B3", 2, hbm)
	var before MemPhyInfo
	require.NoError(t, MemGetInfo("halMemGetInfo", 1, abi.MEM_INFO_TYPE_HBM_SIZE, &before))
	assert.Equal(t, MemPhyInfo{Total: hbm, Free: hbm}, before, "unopened device: all free")

	cases := []struct {
		name        string
		size, flag  uint64
		page, align uint64
	}{
		{"normal pages", 1000, abi.MEM_DEV | abi.MEM_TYPE_HBM | 1 | moduleApp, 4 << 10, 4 << 10},
		{"huge pages", 3 << 20, abi.MEM_DEV | abi.MEM_PAGE_HUGE | 1, 2 << 20, 2 << 20},
		{"64 KiB alignment, DDR request", 100, abi.MEM_DEV | abi.MEM_TYPE_DDR | 16<<abi.MEM_ALIGN_BIT | 1, 4 << 10, 64 << 10},
		{"P2P contiguous copy-engine only", 5000, abi.MEM_DEV | abi.MEM_ADVISE_P2P | abi.MEM_CONTIGUOUS_PHY | abi.MEM_DEV_CP_ONLY | 1, 4 << 10, 4 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b0 MemPhyInfo
			require.NoError(t, MemGetInfo("halMemGetInfo", 1, abi.MEM_INFO_TYPE_HBM_SIZE, &b0))
			var p uintptr
			require.NoError(t, MemAlloc(&p, c.size, c.flag))
			d := n.Opened(1)
			require.NotNil(t, d)
			assert.True(t, d.HBM.Contains(p), "device 1 memory")
			assert.Zero(t, uint64(p)%c.align, "aligned to %d", c.align)
			charged := alignUp(c.size, c.page)

			var info MemPhyInfo
			require.NoError(t, MemGetInfo("halMemGetInfoEx", 1, abi.MEM_INFO_TYPE_HBM_P2P_SIZE, &info))
			assert.Equal(t, b0.Free-charged, info.Free, "free drops by the page-rounded size")
			assert.Equal(t, uint64(hbm), info.Total)

			var base uintptr
			var size uint64
			require.NoError(t, AddressRange(p+uintptr(c.size)-1, &base, &size))
			assert.Equal(t, p, base)
			assert.Equal(t, charged, size)
			require.NoError(t, AddressRange(p, nil, nil), "pbase and psize are optional")

			var attr DVAttribute
			require.NoError(t, MemGetAttribute(p+1, &attr))
			assert.Equal(t, DVAttribute{MemType: abi.DV_MEM_LOCK_DEV, DevId: 1, PageSize: uint32(c.page)}, attr)

			assertDrv(t, MemFree(p+1), abi.DRV_ERROR_INVALID_VALUE, "inside a block")
			require.NoError(t, MemFree(p))
			require.NoError(t, MemGetInfo("halMemGetInfo", 1, abi.MEM_INFO_TYPE_HBM_SIZE, &info))
			assert.Equal(t, b0.Free, info.Free, "free restored")
			assertDrv(t, MemFree(p), abi.DRV_ERROR_INVALID_VALUE, "double free")
		})
	}

	// The DDR query of an HBM part reads 0; other types fail.
	var info MemPhyInfo
	require.NoError(t, MemGetInfo("halMemGetInfo", 0, abi.MEM_INFO_TYPE_DDR_SIZE, &info))
	assert.Equal(t, MemPhyInfo{}, info)
	assertDrv(t, MemGetInfo("halMemGetInfo", 0, abi.MEM_INFO_TYPE_ADDR_CHECK, &info), abi.DRV_ERROR_NOT_SUPPORT)
	assertDrv(t, MemGetInfo("halMemGetInfo", 0, 0, &info), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MemGetInfo("halMemGetInfo", 0, abi.MEM_INFO_TYPE_MAX, &info), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MemGetInfo("halMemGetInfo", 2, abi.MEM_INFO_TYPE_HBM_SIZE, &info), abi.DRV_ERROR_INVALID_DEVICE)
	assertDrv(t, MemGetInfo("halMemGetInfo", 0, abi.MEM_INFO_TYPE_HBM_SIZE, nil), abi.DRV_ERROR_INVALID_VALUE)
}

func TestMemGetInfoDDRPart(t *testing.T) {
	n := useNode(t, "Ascend310P3", 1, 0)
	var info MemPhyInfo
	require.NoError(t, MemGetInfo("halMemGetInfo", 0, abi.MEM_INFO_TYPE_DDR_SIZE, &info))
	assert.Equal(t, n.HBMTotal(), info.Total, "310P memory is DDR")
	require.NoError(t, MemGetInfo("halMemGetInfo", 0, abi.MEM_INFO_TYPE_HBM_SIZE, &info))
	assert.Equal(t, MemPhyInfo{}, info)
}

func TestMemAllocOutOfMemory(t *testing.T) {
	const hbm = 64 << 20
	useNode(t, "Ascend910B3", 1, hbm)
	var p uintptr
	assertDrv(t, MemAlloc(&p, hbm+1, abi.MEM_DEV), abi.DRV_ERROR_OUT_OF_MEMORY)
	assertDrv(t, MemAlloc(&p, ^uint64(0), abi.MEM_DEV), abi.DRV_ERROR_OUT_OF_MEMORY, "no overflow when rounding")
	require.NoError(t, MemAlloc(&p, hbm, abi.MEM_DEV), "exactly the capacity fits")
	var q uintptr
	assertDrv(t, MemAlloc(&q, 4096, abi.MEM_DEV), abi.DRV_ERROR_OUT_OF_MEMORY)
	require.NoError(t, MemFree(p))

	// A size that fits in normal pages but not once rounded to huge pages.
	require.NoError(t, MemAlloc(&p, 1<<20, abi.MEM_DEV))
	const size = hbm - 2<<20 + 1
	assertDrv(t, MemAlloc(&q, size, abi.MEM_DEV|abi.MEM_PAGE_HUGE), abi.DRV_ERROR_OUT_OF_MEMORY)
	require.NoError(t, MemAlloc(&q, size, abi.MEM_DEV))
	require.NoError(t, MemFree(q))
	require.NoError(t, MemFree(p))
}

// fill writes a recognisable pattern.
func fill(b []byte, seed byte) {
	for i := range b {
		b[i] = seed + byte(i*7)
	}
}

func TestCopiesAndMemset(t *testing.T) {
	n := useNode(t, "Ascend910B3", 2, 64<<20)
	const size = 10000
	alloc := func(flag uint64) uintptr {
		var p uintptr
		require.NoError(t, MemAlloc(&p, size, flag))
		t.Cleanup(func() { _ = MemFree(p) })
		return p
	}
	h1, h2 := alloc(abi.MEM_HOST), alloc(abi.MEM_HOST)
	d0, d0b, d1 := alloc(abi.MEM_DEV), alloc(abi.MEM_DEV), alloc(abi.MEM_DEV|1)
	fill(bytesAt(h1, size), 3)
	want := bytes.Clone(bytesAt(h1, size))

	require.NoError(t, Memcpy(d0, size, h1, size))  // H2D
	require.NoError(t, Memcpy(d0b, size, d0, size)) // D2D
	require.NoError(t, Memcpy(d1, size, d0b, size)) // P2P
	info := MemcpyInfo{Dir: abi.DRV_MEMCPY_DEVICE_TO_HOST, Devid: 1}
	require.NoError(t, HalMemcpy(h2, size, d1, size, &info)) // D2H
	assert.Equal(t, want, bytesAt(h2, size))
	assert.Equal(t, want, bytesAt(d0b, size))

	// Host to host (pinned blocks) on the calling thread.
	fill(bytesAt(h1, size), 9)
	require.NoError(t, SdmaCopy(h2, size, h1, size))
	assert.Equal(t, bytesAt(h1, size), bytesAt(h2, size))

	// Memset on device and host memory.
	require.NoError(t, MemsetD8(d0+100, size-100, 0xA5, size-100))
	require.NoError(t, Memcpy(h2, size, d0, size))
	got := bytesAt(h2, size)
	assert.Equal(t, want[:100], got[:100], "bytes before the memset are untouched")
	assert.Equal(t, bytes.Repeat([]byte{0xA5}, size-100), got[100:])
	require.NoError(t, MemsetD8(h1, size, 7, size))
	assert.Equal(t, bytes.Repeat([]byte{7}, size), bytesAt(h1, size))

	// The SDMA model charged the copies to the devices' virtual clocks.
	assert.Positive(t, n.Opened(0).TS.Now())

	room := alignUp(size, 4096)
	errs := []struct {
		name string
		err  error
		code abi.DrvCode
	}{
		{"count > destMax", Memcpy(d0, 10, h1, 11), abi.DRV_ERROR_INVALID_VALUE},
		{"count 0", Memcpy(d0, 10, h1, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"NULL dst", Memcpy(0, 10, h1, 10), abi.DRV_ERROR_INVALID_VALUE},
		{"NULL src", Memcpy(d0, 10, 0, 10), abi.DRV_ERROR_INVALID_VALUE},
		{"past the device block", Memcpy(d0+1, room, h1, room), abi.DRV_ERROR_INVALID_VALUE},
		{"past the pinned block", Memcpy(d0, room, h1+1, room), abi.DRV_ERROR_INVALID_VALUE},
		{"unallocated device memory", Memcpy(d0+uintptr(room)*64, 10, h1, 10), abi.DRV_ERROR_INVALID_VALUE},
		{"halMemcpy H2D", HalMemcpy(d0, size, h1, size, &MemcpyInfo{Dir: abi.DRV_MEMCPY_HOST_TO_DEVICE}), abi.DRV_ERROR_NOT_SUPPORT},
		{"halMemcpy bad dir", HalMemcpy(h1, size, d0, size, &MemcpyInfo{Dir: 4}), abi.DRV_ERROR_INVALID_VALUE},
		{"halMemcpy wrong device", HalMemcpy(h1, size, d0, size, &MemcpyInfo{Dir: abi.DRV_MEMCPY_DEVICE_TO_HOST, Devid: 1}), abi.DRV_ERROR_INVALID_VALUE},
		{"halMemcpy bad device", HalMemcpy(h1, size, d0, size, &MemcpyInfo{Dir: abi.DRV_MEMCPY_DEVICE_TO_HOST, Devid: 2}), abi.DRV_ERROR_INVALID_DEVICE},
		{"halMemcpy to device", HalMemcpy(d1, size, d0, size, &MemcpyInfo{Dir: abi.DRV_MEMCPY_DEVICE_TO_HOST}), abi.DRV_ERROR_INVALID_VALUE},
		{"halMemcpy NULL info", HalMemcpy(h1, size, d0, size, nil), abi.DRV_ERROR_INVALID_VALUE},
		{"halSdmaCopy P2P", SdmaCopy(d1, size, d0, size), abi.DRV_ERROR_NOT_SUPPORT},
		{"memset num 0", MemsetD8(d0, 10, 1, 0), abi.DRV_ERROR_INVALID_VALUE},
		{"memset num > destMax", MemsetD8(d0, 10, 1, 11), abi.DRV_ERROR_INVALID_VALUE},
		{"memset NULL", MemsetD8(0, 10, 1, 1), abi.DRV_ERROR_INVALID_VALUE},
		{"memset past the block", MemsetD8(d0+8, room, 1, room), abi.DRV_ERROR_INVALID_VALUE},
	}
	for _, e := range errs {
		assertDrv(t, e.err, e.code, e.name)
	}
}

func TestHostMemoryAndAttributes(t *testing.T) {
	n := useNode(t, "Ascend910B3", 1, 64<<20)
	used := n.Host().Used()
	var p uintptr
	require.NoError(t, MemAlloc(&p, 5000, flagMallocHost))
	assert.Zero(t, p%4096)
	assert.Equal(t, used+8192, n.Host().Used(), "pinned pool of the node, whole pages")
	bytesAt(p, 5000)[4999] = 1 // writable by the host

	var base uintptr
	var size uint64
	require.NoError(t, AddressRange(p+4999, &base, &size))
	assert.Equal(t, p, base)
	assert.Equal(t, uint64(8192), size)
	var attr DVAttribute
	require.NoError(t, MemGetAttribute(p, &attr))
	assert.Equal(t, uint32(abi.DV_MEM_LOCK_HOST), attr.MemType)
	require.NoError(t, MemFree(p))
	assert.Equal(t, used, n.Host().Used())

	// Addresses the driver does not know.
	require.NoError(t, MemGetAttribute(0x1000, &attr))
	assert.Zero(t, attr.MemType)
	assertDrv(t, AddressRange(0x1000, &base, &size), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, AddressRange(0, &base, &size), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MemGetAttribute(0, &attr), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MemGetAttribute(0x1000, nil), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MemFree(0), abi.DRV_ERROR_INVALID_VALUE)
	assertDrv(t, MemFree(0x1000), abi.DRV_ERROR_INVALID_VALUE)
}

func TestFreeOfOtherAllocators(t *testing.T) {
	n := useNode(t, "Ascend910B3", 1, 64<<20)
	d, err := n.Device(0)
	require.NoError(t, err)
	// What aclrtMalloc / aclrtMallocHost do underneath.
	accl, err := d.HBM.Alloc(4096, 512)
	require.NoError(t, err)
	host, err := n.Host().Alloc(4096)
	require.NoError(t, err)

	err = MemFree(accl)
	assertDrv(t, err, abi.DRV_ERROR_INVALID_VALUE)
	assert.Contains(t, err.Error(), "aclrtMalloc")
	err = MemFree(host)
	assertDrv(t, err, abi.DRV_ERROR_INVALID_VALUE)
	assert.Contains(t, err.Error(), "aclrtMallocHost")
	assert.Equal(t, uint64(4096), d.HBM.Used(), "refused frees change nothing")

	// The driver still answers address queries for them.
	var size uint64
	require.NoError(t, AddressRange(accl+10, nil, &size))
	assert.Equal(t, uint64(4096), size)
}

func TestNodeRenewalForgetsBlocks(t *testing.T) {
	useNode(t, "Ascend910B3", 1, 64<<20)
	var p uintptr
	require.NoError(t, MemAlloc(&p, 4096, abi.MEM_DEV))
	emu.CloseCurrent() // aclFinalize
	assertDrv(t, MemFree(p), abi.DRV_ERROR_INVALID_VALUE, "the block went with its node")
	var info MemPhyInfo
	require.NoError(t, MemGetInfo("halMemGetInfo", 0, abi.MEM_INFO_TYPE_HBM_SIZE, &info))
	assert.Equal(t, info.Total, info.Free, "the fresh node starts empty")
}

func TestGiantPages(t *testing.T) {
	n := useNode(t, "Ascend910B3", 1, 3<<30)
	var p uintptr
	require.NoError(t, MemAlloc(&p, 4096, abi.MEM_DEV|abi.MEM_PAGE_GIANT|abi.MEM_TYPE_HBM|abi.MEM_ADVISE_P2P))
	assert.Zero(t, uint64(p)%(1<<30), "1 GiB aligned")
	assert.Equal(t, uint64(1<<30), n.Opened(0).HBM.Used(), "a whole giant page is charged")
	var attr DVAttribute
	require.NoError(t, MemGetAttribute(p, &attr))
	assert.Equal(t, uint32(1<<30), attr.PageSize)
	require.NoError(t, MemFree(p))
	assert.Zero(t, n.Opened(0).HBM.Used())
}
