package svm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func TestMapPeer(t *testing.T) {
	s, _ := newSpace(t, []uint64{4, 4, 4})
	p, err := s.Alloc(3 * pg)
	require.NoError(t, err)
	_, err = s.Access(0, p, 2*pg, true) // pages 0 and 1 on device 0
	require.NoError(t, err)

	// A range inside page 1 maps the whole page (and only it) for device 1.
	require.NoError(t, s.MapPeer(p+pg+100, 10, 1))
	assert.Equal(t, []Location{1}, loc(t, s, p+pg).Peers)
	assert.Empty(t, loc(t, s, p).Peers)

	_, err = s.Access(1, p+pg, 64, true)
	require.NoError(t, err)
	st1 := stats(t, s, 1)
	assert.Zero(t, st1.Faults, "a mapped peer does not fault")
	assert.Equal(t, uint64(1), st1.RemoteAccesses)
	assert.Zero(t, st1.ResidentBytes)
	assert.Equal(t, Location(0), loc(t, s, p+pg).Location, "nothing migrates")

	// Unmapped page 0: device 1 faults it in as usual.
	_, err = s.Access(1, p, 64, true)
	require.NoError(t, err)
	assert.Equal(t, uint64(1), stats(t, s, 1).Faults)

	// Not advice: the attribute query does not show it.
	a, err := s.RangeAttrs(p+pg, pg)
	require.NoError(t, err)
	assert.Empty(t, a.AccessedBy)

	for _, tc := range []struct {
		name string
		addr uintptr
		n    uint64
		dev  Location
		code abi.Code
	}{
		{"host", p, pg, Host, abi.ACL_ERROR_RT_INVALID_DEVICEID},
		{"no such device", p, pg, 3, abi.ACL_ERROR_RT_INVALID_DEVICEID},
		{"NULL", 0, pg, 1, abi.ACL_ERROR_INVALID_PARAM},
		{"size 0", p, 0, 1, abi.ACL_ERROR_INVALID_PARAM},
		{"past the allocation", p + pg, 3 * pg, 1, abi.ACL_ERROR_RT_PARAM_INVALID},
		{"not managed", p + 3*pg, pg, 1, abi.ACL_ERROR_RT_PARAM_INVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.ErrorIs(t, s.MapPeer(tc.addr, tc.n, tc.dev), abi.Err(tc.code))
		})
	}
}

func TestHostAccessByDevice(t *testing.T) {
	s, _ := newSpace(t, []uint64{4, 4})
	p, err := s.Alloc(4 * pg)
	require.NoError(t, err)
	_, err = s.Access(0, p, pg, true) // page 0: dirty on device 0
	require.NoError(t, err)
	_, err = s.Access(1, p+pg, pg, false) // page 1: on device 1 (a read: clean)
	require.NoError(t, err)
	// Page 2 stays on the host, page 3 too.
	by, err := s.HostAccessByDevice(p, 4*pg, false)
	require.NoError(t, err)
	c := DefaultCost()
	assert.Equal(t, c.FaultOverhead+transfer(pg, c.DeviceToHost), by[0], "fault + write-back")
	assert.Equal(t, c.FaultOverhead, by[1], "fault, clean page")
	assert.Len(t, by, 2)
	assert.Equal(t, Host, loc(t, s, p).Location)
	assert.Equal(t, Host, loc(t, s, p+pg).Location)
	_, err = s.HostAccessByDevice(p, 5*pg, false)
	assert.ErrorIs(t, err, abi.Err(abi.ACL_ERROR_RT_PARAM_INVALID))
}
