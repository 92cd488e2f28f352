package svm

import (
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// recorder is a Protector that remembers the last protection of each page.
type recorder struct {
	prot  map[uintptr]string
	calls int
}

func (r *recorder) Mode() string { return "recorder" }
func (r *recorder) Protect(addr uintptr, size uint64, ro bool) error {
	r.calls++
	if ro {
		r.prot[addr] = "r"
	} else {
		r.prot[addr] = "none"
	}
	return nil
}
func (r *recorder) Unprotect(addr uintptr, size uint64) error {
	r.calls++
	r.prot[addr] = "rw"
	return nil
}

func TestProtectionBookkeeping(t *testing.T) {
	rec := &recorder{prot: map[uintptr]string{}}
	s, _ := newSpace(t, []uint64{1, 1}, func(c *Config) { c.Protector = rec })
	p, err := s.Alloc(2 * pg)
	require.NoError(t, err)
	assert.Zero(t, rec.calls, "fresh pages are host read-write already")

	steps := []struct {
		name string
		do   func() error
		want map[uintptr]string
	}{
		{"device takes page 0", func() error { _, err := s.Access(0, p, 1, true); return err },
			map[uintptr]string{p: "none"}},
		{"page 1 evicts page 0 back to the host", func() error { _, err := s.Access(0, p+pg, 1, false); return err },
			map[uintptr]string{p: "rw", p + pg: "none"}},
		{"host takes page 1 back", func() error { _, err := s.HostAccess(p+pg, 1, false); return err },
			map[uintptr]string{p: "rw", p + pg: "rw"}},
		{"read-mostly duplicate keeps host reads", func() error {
			if err := s.Advise(p, pg, AdviseSetReadMostly, NoLocation); err != nil {
				return err
			}
			_, err := s.Access(1, p, 1, false)
			return err
		}, map[uintptr]string{p: "r", p + pg: "rw"}},
		{"host write collapses duplicates", func() error { _, err := s.HostAccess(p, 1, true); return err },
			map[uintptr]string{p: "rw", p + pg: "rw"}},
		{"accessed-by host maps remotely", func() error {
			if err := s.Advise(p+pg, pg, AdviseSetAccessedBy, Host); err != nil {
				return err
			}
			_, err := s.Access(1, p+pg, 1, true)
			return err
		}, map[uintptr]string{p: "rw", p + pg: "rw"}},
	}
	for _, st := range steps {
		require.NoError(t, st.do(), st.name)
		assert.Equal(t, st.want, rec.prot, st.name)
	}
	assert.Equal(t, Location(1), loc(t, s, p+pg).Location)
}

type failing struct{ Mprotect }

func (failing) Protect(uintptr, uint64, bool) error { return assert.AnError }

func TestProtectorFailureIsReported(t *testing.T) {
	s, _ := newSpace(t, []uint64{1}, func(c *Config) { c.Protector = failing{} })
	p, err := s.Alloc(pg)
	require.NoError(t, err)
	_, err = s.Access(0, p, 1, false)
	requireCode(t, err, abi.ACL_ERROR_RT_INTERNAL_ERROR)
	// The residency change happened; only the trap is missing.
	assert.Equal(t, Location(0), loc(t, s, p).Location)
	_, err = s.Access(0, p, 1, false)
	assert.NoError(t, err, "the error does not stick to later operations")
}

var sink byte

// faults reports whether reading (or writing) b[0] traps.
func faults(b []byte, write bool) (trapped bool) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() { trapped = recover() != nil }()
	if write {
		b[0]++
	} else {
		sink = b[0] // a real load: the compiler may drop `_ = b[0]`
	}
	return false
}

func TestMprotectArmsRealTraps(t *testing.T) {
	s, _ := newSpace(t, []uint64{2}, func(c *Config) { c.Protector = Mprotect{} })
	p, err := s.Alloc(2 * pg)
	require.NoError(t, err)
	b, err := s.Bytes(p, 2*pg)
	require.NoError(t, err)
	b[0] = 42
	page1 := b[pg:]
	require.NoError(t, s.Advise(p+pg, pg, AdviseSetReadMostly, NoLocation))

	_, err = s.Access(0, p, 1, true)
	require.NoError(t, err)
	_, err = s.Access(0, p+pg, 1, false)
	require.NoError(t, err)
	assert.True(t, faults(b, false), "host read of a device-resident page traps")
	assert.False(t, faults(page1, false), "read-mostly duplicate: host reads in place")
	assert.True(t, faults(page1, true), "read-mostly duplicate: host writes trap")

	// What the SIGSEGV handler will do: report the access, then retry.
	_, err = s.HostAccess(p, 1, false)
	require.NoError(t, err)
	assert.False(t, faults(b, false))
	assert.Equal(t, byte(42), b[0])
	assert.False(t, faults(b, true))
}

func TestModes(t *testing.T) {
	m := DetectMode()
	assert.Contains(t, []string{ModeUserfaultfdWP, ModeMprotect}, m)
	t.Logf("host fault detection available here: %s", m)
	for _, mode := range []string{ModeExplicit, ModeMprotect} {
		pr, err := NewProtector(mode)
		require.NoError(t, err)
		assert.Equal(t, mode, pr.Mode())
	}
	_, err := NewProtector(ModeUserfaultfdWP)
	requireCode(t, err, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
}

// callLog is a Protector that logs every call.
type callLog struct{ calls []string }

func (c *callLog) Mode() string { return "log" }
func (c *callLog) Protect(addr uintptr, size uint64, ro bool) error {
	kind := "none"
	if ro {
		kind = "r"
	}
	c.calls = append(c.calls, fmt.Sprintf("%s %#x+%d", kind, addr, size/pg))
	return nil
}
func (c *callLog) Unprotect(addr uintptr, size uint64) error {
	c.calls = append(c.calls, fmt.Sprintf("rw %#x+%d", addr, size/pg))
	return nil
}

// An operation over many pages changes each run of adjacent pages that
// need the same protection with one call, at its end.
func TestProtectionBatched(t *testing.T) {
	log := &callLog{}
	s, _ := newSpace(t, []uint64{8, 8}, func(c *Config) { c.Protector = log })
	p, err := s.Alloc(6 * pg)
	require.NoError(t, err)
	require.NoError(t, s.Advise(p+2*pg, pg, AdviseSetReadMostly, NoLocation))
	steps := []struct {
		name string
		do   func() error
		want []string
	}{
		{"prefetch: two runs around the read-mostly duplicate", func() error {
			_, err := s.Prefetch(p, 6*pg, 0)
			return err
		}, []string{fmt.Sprintf("none %#x+2", p), fmt.Sprintf("r %#x+1", p+2*pg), fmt.Sprintf("none %#x+3", p+3*pg)}},
		{"hold: one run opens", func() error { return s.Hold(p, 6*pg, true) },
			[]string{fmt.Sprintf("rw %#x+6", p)}},
		{"access while held: nothing", func() error { _, err := s.Access(1, p, 6*pg, true); return err }, nil},
		{"release: one run closes", func() error { return s.Hold(p, 6*pg, false) },
			[]string{fmt.Sprintf("none %#x+6", p)}},
		{"host takes the pages back", func() error { _, err := s.HostAccess(p+pg, 4*pg, true); return err },
			[]string{fmt.Sprintf("rw %#x+4", p+pg)}},
		{"hold and release of one page: a call each", func() error {
			// Device 1 still owns page 0.
			if err := s.Hold(p, pg, true); err != nil {
				return err
			}
			return s.Hold(p, pg, false)
		}, []string{fmt.Sprintf("rw %#x+1", p), fmt.Sprintf("none %#x+1", p)}},
	}
	for _, st := range steps {
		log.calls = nil
		require.NoError(t, st.do(), st.name)
		assert.Equal(t, st.want, log.calls, st.name)
	}
}
