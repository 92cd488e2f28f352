package svm

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

// newUffdSpace builds a Space served by a started UffdWP, or skips with the
// reason the platform refuses userfaultfd write-protect.
func newUffdSpace(t *testing.T, budgetPages []uint64) (*Space, *UffdWP) {
	t.Helper()
	u, err := NewUffdWP()
	if err != nil {
		requireCode(t, err, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		t.Skipf("userfaultfd write-protect unavailable: %v", err)
	}
	s, _ := newSpace(t, budgetPages, func(c *Config) { c.Protector = u })
	if err := u.Start(s); err != nil {
		_ = u.Close()
		requireCode(t, err, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
		t.Skipf("userfaultfd write-protect unavailable: %v", err)
	}
	t.Cleanup(func() { assert.NoError(t, u.Close()) })
	return s, u
}

// hostWrite writes b[0] = v on another goroutine and waits for it: a write
// to a protected page blocks until the event loop serves it. The bound only
// turns a broken loop into a failure instead of a hung test. The collector
// is off meanwhile: a stop-the-world would wait for the blocked writer.
func hostWrite(t *testing.T, b []byte, v byte) {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer twoPs()()
	done := make(chan struct{})
	go func() { b[0] = v; close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("host write to a write-protected page was not served")
	}
}

// twoPs gives the runtime at least two Ps until the returned function
// runs: a goroutine blocked in the kernel on a write-protected page keeps
// its P, and the event loop needs another to serve it (under
// GOMAXPROCS=1 the write would wait forever; the application's writers
// are C threads, which hold none).
func twoPs() func() {
	if runtime.GOMAXPROCS(0) >= 2 {
		return func() {}
	}
	old := runtime.GOMAXPROCS(2)
	return func() { runtime.GOMAXPROCS(old) }
}

func TestUffdWPHostWriteMigratesBack(t *testing.T) {
	s, u := newUffdSpace(t, []uint64{2})
	p, err := s.Alloc(2 * pg)
	require.NoError(t, err)
	b, err := s.Bytes(p, 2*pg)
	require.NoError(t, err)
	b[0], b[pg] = 7, 9 // page 1 untouched beyond this

	tests := []struct {
		name  string
		addr  uintptr
		buf   []byte
		setup func() error
	}{
		{"device-resident page", p, b, func() error { _, err := s.Access(0, p, 1, true); return err }},
		{"read-mostly duplicate", p + pg, b[pg:], func() error {
			if err := s.Advise(p+pg, pg, AdviseSetReadMostly, NoLocation); err != nil {
				return err
			}
			_, err := s.Access(0, p+pg, 1, false)
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.setup())
			pi := loc(t, s, tc.addr)
			require.True(t, pi.Location != Host || len(pi.Copies) > 0, "precondition: a device holds the page")
			before, err := s.Stats(Host)
			require.NoError(t, err)
			served := u.Faults()
			old := tc.buf[0]
			assert.Equal(t, old, tc.buf[0], "reads are not trapped and see the one backing store")

			hostWrite(t, tc.buf, old+1)

			assert.Equal(t, old+1, tc.buf[0])
			assert.Equal(t, served+1, u.Faults(), "one write fault served")
			pi = loc(t, s, tc.addr)
			assert.Equal(t, Host, pi.Location, "the write migrated the page back to the host")
			assert.Empty(t, pi.Copies, "and dropped the device copies")
			after, err := s.Stats(Host)
			require.NoError(t, err)
			assert.Equal(t, before.Faults+1, after.Faults, "host fault accounted")

			hostWrite(t, tc.buf, old+2) // now host read-write: no fault
			assert.Equal(t, served+1, u.Faults())
		})
	}
}

func TestUffdWPUntouchedPageAndFree(t *testing.T) {
	s, u := newUffdSpace(t, []uint64{1})
	p, err := s.Alloc(pg)
	require.NoError(t, err)
	b, err := s.Bytes(p, pg)
	require.NoError(t, err)
	_, err = s.Access(0, p, 1, false) // no host byte touched yet
	require.NoError(t, err)
	hostWrite(t, b[pg/2:], 5)
	assert.Equal(t, uint64(1), u.Faults())
	assert.Equal(t, Host, loc(t, s, p).Location)

	// Freed while device-resident, then reused: no stale protection.
	_, err = s.Access(0, p, 1, true)
	require.NoError(t, err)
	u.Disarm(p, pg)
	require.NoError(t, s.Free(p))
	q, err := s.Alloc(pg)
	require.NoError(t, err)
	c, err := s.Bytes(q, pg)
	require.NoError(t, err)
	hostWrite(t, c, 1)
	assert.Equal(t, uint64(1), u.Faults())
}

func TestUffdWPMisuse(t *testing.T) {
	u, err := NewUffdWP()
	if err != nil {
		t.Skipf("userfaultfd write-protect unavailable: %v", err)
	}
	defer func() { assert.NoError(t, u.Close()) }()
	assert.Equal(t, ModeUserfaultfdWP, u.Mode())
	requireCode(t, u.Start(nil), abi.ACL_ERROR_INVALID_PARAM)
	other, _ := newSpace(t, []uint64{1})
	requireCode(t, u.Start(other), abi.ACL_ERROR_INVALID_PARAM)
}
