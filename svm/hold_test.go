package svm

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHoldKeepsDevicePagesReachable(t *testing.T) {
	rec := &recorder{prot: map[uintptr]string{}}
	s, _ := newSpace(t, []uint64{2}, func(c *Config) { c.Protector = rec })
	p, err := s.Alloc(2 * pg)
	require.NoError(t, err)

	require.NoError(t, s.Hold(p, 2*pg, true))
	_, err = s.Access(0, p, 2*pg, true)
	require.NoError(t, err)
	assert.Equal(t, Location(0), loc(t, s, p).Location)
	assert.Empty(t, rec.prot, "held pages keep their read-write mapping while the device owns them")

	require.NoError(t, s.Hold(p, pg, true)) // nested on page 0
	require.NoError(t, s.Hold(p, 2*pg, false))
	assert.Equal(t, map[uintptr]string{p + pg: "none"}, rec.prot, "page 1 lost its last hold")
	require.NoError(t, s.Hold(p, pg, false))
	assert.Equal(t, map[uintptr]string{p: "none", p + pg: "none"}, rec.prot)

	assert.Error(t, s.Hold(p, pg, false), "releasing a page nobody holds")
	assert.Error(t, s.Hold(p+4*pg, pg, true), "outside the allocation")
}

func TestTrappedHostAccess(t *testing.T) {
	rec := &recorder{prot: map[uintptr]string{}}
	s, _ := newSpace(t, []uint64{2}, func(c *Config) { c.Protector = rec })
	p, err := s.Alloc(pg)
	require.NoError(t, err)
	_, err = s.Access(0, p, pg, true)
	require.NoError(t, err)
	require.Equal(t, "none", rec.prot[p])

	// The handler let a host read through with PROT_READ; the page comes
	// back to the host and the Space restores read-write.
	before, err := s.Stats(Host)
	require.NoError(t, err)
	_, err = s.Trapped(Host, p+100, false, syscall.PROT_READ)
	require.NoError(t, err)
	after, err := s.Stats(Host)
	require.NoError(t, err)
	assert.Equal(t, before.Faults+1, after.Faults)
	assert.Equal(t, Host, loc(t, s, p).Location)
	assert.Equal(t, "rw", rec.prot[p])

	// A kernel of device 0 touched the page out of its footprint: the
	// handler opened it; Trapped migrates it and arms the protection again.
	_, err = s.Trapped(0, p, true, syscall.PROT_READ|syscall.PROT_WRITE)
	require.NoError(t, err)
	assert.Equal(t, Location(0), loc(t, s, p).Location)
	assert.Equal(t, "none", rec.prot[p])

	_, err = s.Trapped(Host, p+pg, false, syscall.PROT_READ)
	assert.Error(t, err, "not managed memory")
}
