package emu

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func drvIs(t *testing.T, err error, code abi.DrvCode) {
	t.Helper()
	require.Error(t, err)
	assert.True(t, errors.Is(err, abi.DrvErr(code)), "got %v, want %s", err, code.Name())
}

func TestVMMMappingsAliasAndAccount(t *testing.T) {
	n := newTestNode(t, Config{SoC: DefaultSoC, Devices: 2, HBMBytes: 64 << 20})
	v := n.VMM()
	const g = VMMGranularity
	h, err := v.Create(2*g, PhysProp{Dev: 0, PageType: PageHuge})
	require.NoError(t, err)
	d0, err := n.Device(0)
	require.NoError(t, err)
	assert.Equal(t, uint64(2*g), d0.HBM.Used(), "a physical allocation charges its device")

	va1, err := v.Reserve(4*g, 0, 0, false)
	require.NoError(t, err)
	va2, err := v.Reserve(2*g, 0, 0, false)
	require.NoError(t, err)
	require.NoError(t, v.Map(va1+g, 2*g, 0, h, false))
	require.NoError(t, v.Map(va2, 2*g, 0, h, false))

	a, b := rawBytes(va1+g, 2*g), rawBytes(va2, 2*g)
	a[0], a[2*g-1] = 0x5A, 0xA5
	assert.Equal(t, byte(0x5A), b[0], "two mappings of one allocation alias")
	assert.Equal(t, byte(0xA5), b[2*g-1])

	r, ok := v.Find(va1 + g + 100)
	require.True(t, ok)
	assert.Equal(t, Region{Base: va1 + g, Size: 2 * g, Dev: d0}, r)
	_, ok = v.Find(va1)
	assert.False(t, ok, "the unmapped part of a reservation is not mapped memory")
	assert.True(t, v.Reserved(va1))

	// Bad input.
	drvIs(t, v.Map(va1+g, 2*g, 0, h, false), abi.DRV_ERROR_INVALID_VALUE)    // mapped already
	drvIs(t, v.Map(va1+2*g, 2*g, 0, h, false), abi.DRV_ERROR_INVALID_VALUE)  // overlaps
	drvIs(t, v.Map(va1, g, 0, h, false), abi.DRV_ERROR_INVALID_VALUE)        // size is not the allocation's
	drvIs(t, v.Map(va1, 2*g, 4096, h, false), abi.DRV_ERROR_INVALID_VALUE)   // offset
	drvIs(t, v.Map(va1+4096, 2*g, 0, h, false), abi.DRV_ERROR_INVALID_VALUE) // unaligned
	drvIs(t, v.Map(va1, 2*g, 0, 12345, false), abi.DRV_ERROR_INVALID_HANDLE)
	drvIs(t, v.Unmap(va1), abi.DRV_ERROR_INVALID_VALUE)        // not mapped
	drvIs(t, v.Unmap(va1+g+4096), abi.DRV_ERROR_INVALID_VALUE) // not the start
	drvIs(t, v.Free(va1), abi.DRV_ERROR_INVALID_VALUE)         // still mapped
	_, err = v.Create(g+4096, PhysProp{Dev: 0})
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE)
	_, err = v.Create(g, PhysProp{Dev: 2})
	drvIs(t, err, abi.DRV_ERROR_INVALID_DEVICE)
	_, err = v.Create(128<<20, PhysProp{Dev: 0})
	drvIs(t, err, abi.DRV_ERROR_OUT_OF_MEMORY)

	// A device-1 allocation cannot join a reservation of device-0 memory.
	h1, err := v.Create(g, PhysProp{Dev: 1})
	require.NoError(t, err)
	drvIs(t, v.Map(va1, g, 0, h1, false), abi.DRV_ERROR_INVALID_VALUE)
	require.NoError(t, v.Release(h1))

	// Release while mapped: the memory stays until the last unmap.
	require.NoError(t, v.Release(h))
	assert.Equal(t, byte(0x5A), b[0])
	assert.Equal(t, uint64(2*g), d0.HBM.Used())
	drvIs(t, v.Release(h), abi.DRV_ERROR_INVALID_HANDLE)
	require.NoError(t, v.Unmap(va1+g))
	assert.Equal(t, uint64(2*g), d0.HBM.Used())
	require.NoError(t, v.Unmap(va2))
	assert.Equal(t, uint64(0), d0.HBM.Used(), "the last unmap of a released allocation frees it")
	require.NoError(t, v.Free(va1))
	require.NoError(t, v.Free(va2))
	drvIs(t, v.Free(va2), abi.DRV_ERROR_INVALID_VALUE)
	hs, rs, ss := v.Counts()
	assert.Equal(t, [3]int{0, 0, 0}, [3]int{hs, rs, ss})
}

func TestVMMAccessAndSharing(t *testing.T) {
	n := newTestNode(t, Config{SoC: DefaultSoC, Devices: 2, HBMBytes: 64 << 20})
	v := n.VMM()
	const g = VMMGranularity
	h, err := v.Create(g, PhysProp{Dev: 1})
	require.NoError(t, err)
	va, err := v.Reserve(g, 0, 0, false)
	require.NoError(t, err)
	require.NoError(t, v.Map(va, g, 0, h, true))
	a, err := v.GetAccess(va, Location{ID: 1})
	require.NoError(t, err)
	assert.Equal(t, AccessUnset, a)
	require.NoError(t, v.SetAccess(va, g, []AccessDesc{{Flags: AccessRead, Loc: Location{Host: true}}}))
	a, err = v.GetAccess(va+10, Location{ID: 1})
	require.NoError(t, err)
	assert.Equal(t, AccessReadWrite, a, "the owner gets READWRITE")
	drvIs(t, v.SetAccess(va, g, []AccessDesc{{Flags: AccessReadWrite, Loc: Location{Host: true}}}), abi.DRV_ERROR_BUSY)
	drvIs(t, v.SetAccess(va, g/2, []AccessDesc{{Flags: AccessRead, Loc: Location{ID: 0}}}), abi.DRV_ERROR_INVALID_VALUE)
	drvIs(t, v.SetAccess(va, g, []AccessDesc{{Flags: AccessRead, Loc: Location{ID: 9}}}), abi.DRV_ERROR_INVALID_DEVICE)

	// Export → import → map elsewhere: the same memory.
	sh, err := v.Export(h, false)
	require.NoError(t, err)
	_, err = v.Export(h, false)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE)
	_, err = v.Import(sh, 0, 4242)
	drvIs(t, err, abi.DRV_ERROR_OPER_NOT_PERMITTED)
	require.NoError(t, v.SetSharePids(sh, []int32{4242}))
	ih, err := v.Import(sh, 0, 4242)
	require.NoError(t, err)
	iva, err := v.Reserve(g, 0, 0, false)
	require.NoError(t, err)
	require.NoError(t, v.Map(iva, g, 0, ih, false))
	rawBytes(iva, g)[77] = 9
	assert.Equal(t, byte(9), rawBytes(va, g)[77])
	require.NoError(t, v.Unmap(iva))
	require.NoError(t, v.Release(ih))
	require.NoError(t, v.Unmap(va))
	require.NoError(t, v.Release(h))
	_, err = v.Import(sh, 0, 4242)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE) // the export ended with its allocation
	require.NoError(t, v.Free(va))
	require.NoError(t, v.Free(iva))
}

func TestShmemAliasesHBMBlocks(t *testing.T) {
	n := newTestNode(t, Config{SoC: DefaultSoC, Devices: 1, HBMBytes: 64 << 20})
	v := n.VMM()
	d, err := n.Device(0)
	require.NoError(t, err)
	p, err := d.HBM.Alloc(3*pageSize, pageSize)
	require.NoError(t, err)
	rawBytes(p, 10)[3] = 42
	_, err = v.ShmemCreate(p+100, 100, false)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE) // not page aligned
	_, err = v.ShmemCreate(p+pageSize, 100, true)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE) // not the block's start
	_, err = v.ShmemCreate(p, 4*pageSize, false)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE) // past the end
	name, err := v.ShmemCreate(p, 3*pageSize, true)
	require.NoError(t, err)
	assert.Less(t, len(name), ShmemNameLen)
	_, err = v.ShmemOpen(name, 0, pid)
	drvIs(t, err, abi.DRV_ERROR_OPER_NOT_PERMITTED)
	require.NoError(t, v.ShmemSetPids(name, []int32{pid}))
	q, err := v.ShmemOpen(name, 0, pid)
	require.NoError(t, err)
	assert.NotEqual(t, p, q)
	assert.Equal(t, byte(42), rawBytes(q, 10)[3], "the export keeps the block's bytes")
	rawBytes(q, 10)[4] = 43
	assert.Equal(t, byte(43), rawBytes(p, 10)[4], "the opened address aliases the block")
	r, ok := v.Find(q + 5)
	require.True(t, ok)
	assert.Equal(t, d, r.Dev)

	// The exporter frees: the opened memory survives, the block's range
	// is private again, and the name can no longer be opened.
	_, err = d.HBM.Free(p)
	require.NoError(t, err)
	assert.Equal(t, byte(43), rawBytes(q, 10)[4])
	p2, err := d.HBM.Alloc(3*pageSize, pageSize)
	require.NoError(t, err)
	require.Equal(t, p, p2)
	rawBytes(p2, 10)[4] = 1
	assert.Equal(t, byte(43), rawBytes(q, 10)[4], "a new block at the address does not alias the importer")
	_, err = v.ShmemOpen(name, 0, pid)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE)
	require.NoError(t, v.ShmemClose(q))
	drvIs(t, v.ShmemClose(q), abi.DRV_ERROR_INVALID_VALUE)
	require.NoError(t, v.ShmemDestroy(name))
	drvIs(t, v.ShmemDestroy(name), abi.DRV_ERROR_INVALID_VALUE)
}

func TestHostRegistration(t *testing.T) {
	n := newTestNode(t, Config{SoC: DefaultSoC, Devices: 1, HBMBytes: 64 << 20})
	v := n.VMM()
	base := uintptr(0x7f0000000000)
	dp, err := v.HostRegister(base, 3*pageSize, 0, 0, true)
	require.NoError(t, err)
	assert.Equal(t, base, dp)
	_, err = v.HostRegister(base+pageSize, pageSize, 0, 0, true)
	drvIs(t, err, abi.DRV_ERROR_REPEATED_USERD)
	_, err = v.HostRegister(base+100, pageSize, 0, 0, true)
	drvIs(t, err, abi.DRV_ERROR_INVALID_VALUE)
	got, err := v.HostDevPointer(base+pageSize+8, 0)
	require.NoError(t, err)
	assert.Equal(t, base+pageSize+8, got)
	drvIs(t, v.HostUnregister(base+pageSize, 0), abi.DRV_ERROR_NOT_EXIST)
	require.NoError(t, v.HostUnregister(base, 0))
	drvIs(t, v.HostUnregister(base, 0), abi.DRV_ERROR_NOT_EXIST)
}
