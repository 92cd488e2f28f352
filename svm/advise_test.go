package svm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadMostly(t *testing.T) {
	for _, tc := range []struct {
		name       string
		readMostly bool
	}{{"advised", true}, {"not advised", false}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newSpace(t, []uint64{2, 2})
			p, err := s.Alloc(pg)
			require.NoError(t, err)
			if tc.readMostly {
				require.NoError(t, s.Advise(p, pg, AdviseSetReadMostly, NoLocation))
			}
			_, err = s.Access(0, p, 64, false)
			require.NoError(t, err)
			_, err = s.Access(1, p, 64, false)
			require.NoError(t, err)
			_, err = s.Access(0, p, 64, false) // a hit only if duplicated
			require.NoError(t, err)
			pi := loc(t, s, p)
			if tc.readMostly {
				assert.Equal(t, Host, pi.Location)
				assert.Equal(t, []Location{0, 1}, pi.Copies)
				assert.Equal(t, uint64(1), stats(t, s, 0).Faults)
				assert.Equal(t, uint64(pg), stats(t, s, 0).ResidentBytes)
				assert.Equal(t, uint64(pg), stats(t, s, 1).ResidentBytes)
			} else {
				assert.Equal(t, Location(0), pi.Location)
				assert.Empty(t, pi.Copies)
				assert.Equal(t, uint64(2), stats(t, s, 0).Faults, "the page ping-pongs")
				assert.Zero(t, stats(t, s, 1).ResidentBytes)
			}
		})
	}
}

func TestReadMostlyWriteInvalidates(t *testing.T) {
	s, _ := newSpace(t, []uint64{2, 2})
	p, err := s.Alloc(pg)
	require.NoError(t, err)
	require.NoError(t, s.Advise(p, pg, AdviseSetReadMostly, NoLocation))
	for _, d := range []Location{0, 1} {
		_, err = s.Access(d, p, 8, false)
		require.NoError(t, err)
	}
	_, err = s.Access(1, p, 8, true)
	require.NoError(t, err)
	pi := loc(t, s, p)
	assert.Equal(t, Location(1), pi.Location)
	assert.Empty(t, pi.Copies)
	assert.True(t, pi.Dirty)
	assert.Equal(t, uint64(1), stats(t, s, 0).Invalidations)
	assert.Equal(t, uint64(1), stats(t, s, Host).Invalidations)
	assert.Zero(t, stats(t, s, 0).ResidentBytes)
	assert.Equal(t, uint64(2), stats(t, s, 1).Faults, "read fault plus write upgrade")

	// A host read duplicates back to the host (writing back first); a host
	// write then invalidates the device copy.
	_, err = s.HostAccess(p, 8, false)
	require.NoError(t, err)
	pi = loc(t, s, p)
	assert.Equal(t, Location(1), pi.Location)
	assert.Equal(t, []Location{Host}, pi.Copies)
	assert.Equal(t, uint64(pg), stats(t, s, 1).BytesDtoH)
	_, err = s.HostAccess(p, 8, true)
	require.NoError(t, err)
	assert.Equal(t, Host, loc(t, s, p).Location)
	assert.Equal(t, uint64(1), stats(t, s, 1).Invalidations)

	// Unsetting read-mostly drops duplicates.
	_, err = s.Access(0, p, 8, false)
	require.NoError(t, err)
	require.NoError(t, s.Advise(p, pg, AdviseUnsetReadMostly, NoLocation))
	assert.Empty(t, loc(t, s, p).Copies)
	assert.Zero(t, stats(t, s, 0).ResidentBytes)
}

func TestPreferredLocation(t *testing.T) {
	s, _ := newSpace(t, []uint64{2, 2})
	p, err := s.Alloc(2 * pg)
	require.NoError(t, err)
	require.NoError(t, s.Advise(p, pg, AdviseSetPreferredLocation, 0))

	// Device 1 reads page 0 remotely; page 1 (no advice) migrates.
	_, err = s.Access(1, p, 2*pg, false)
	require.NoError(t, err)
	st1 := stats(t, s, 1)
	assert.Equal(t, uint64(1), st1.RemoteAccesses)
	assert.Equal(t, uint64(1), st1.Faults)
	assert.Equal(t, Host, loc(t, s, p).Location)
	assert.Equal(t, Location(1), loc(t, s, p+pg).Location)

	// The preferred device faults the page in; afterwards it stays there.
	_, err = s.Access(0, p, 1, false)
	require.NoError(t, err)
	assert.Equal(t, uint64(1), stats(t, s, 0).Faults)
	for _, l := range []Location{1, 1} {
		_, err = s.Access(l, p, 16, true)
		require.NoError(t, err)
	}
	pi := loc(t, s, p)
	assert.Equal(t, Location(0), pi.Location)
	assert.True(t, pi.Dirty, "remote writes land in the device copy")
	assert.Equal(t, uint64(3), stats(t, s, 1).RemoteAccesses)
	assert.Equal(t, uint64(1), stats(t, s, 1).Faults, "no further faults")

	// Preferred host: a device never pulls the page.
	require.NoError(t, s.Advise(p+pg, pg, AdviseSetPreferredLocation, Host))
	_, err = s.HostAccess(p+pg, 1, false)
	require.NoError(t, err)
	_, err = s.Access(0, p+pg, 1, true)
	require.NoError(t, err)
	assert.Equal(t, Host, loc(t, s, p+pg).Location)
	assert.Equal(t, uint64(1), stats(t, s, 0).RemoteAccesses)

	// Unset: the next access migrates again.
	require.NoError(t, s.Advise(p+pg, pg, AdviseUnsetPreferredLocation, NoLocation))
	_, err = s.Access(0, p+pg, 1, false)
	require.NoError(t, err)
	assert.Equal(t, Location(0), loc(t, s, p+pg).Location)
}

func TestAccessedBy(t *testing.T) {
	s, _ := newSpace(t, []uint64{2, 2})
	p, err := s.Alloc(pg)
	require.NoError(t, err)
	_, err = s.Access(0, p, 1, true)
	require.NoError(t, err)
	require.NoError(t, s.Advise(p, pg, AdviseSetAccessedBy, 1))

	_, err = s.Access(1, p, 1, false)
	require.NoError(t, err)
	assert.Equal(t, Location(0), loc(t, s, p).Location, "mapped, not migrated")
	assert.Equal(t, uint64(1), stats(t, s, 1).RemoteAccesses)
	assert.Zero(t, stats(t, s, 1).Faults)
	// Device 0 is not in the accessed-by set: it still migrates normally.
	_, err = s.HostAccess(p, 1, false)
	require.NoError(t, err)
	_, err = s.Access(0, p, 1, false)
	require.NoError(t, err)
	assert.Equal(t, uint64(2), stats(t, s, 0).Faults)

	a, err := s.RangeAttrs(p, pg)
	require.NoError(t, err)
	assert.Equal(t, []Location{1}, a.AccessedBy)

	require.NoError(t, s.Advise(p, pg, AdviseUnsetAccessedBy, 1))
	_, err = s.Access(1, p, 1, false)
	require.NoError(t, err)
	assert.Equal(t, Location(1), loc(t, s, p).Location)
	assert.Equal(t, uint64(1), stats(t, s, 1).Faults)
}

func TestRangeAttrs(t *testing.T) {
	s, _ := newSpace(t, []uint64{1, 1})
	p, err := s.Alloc(2 * pg)
	require.NoError(t, err)
	require.NoError(t, s.Advise(p, 2*pg, AdviseSetReadMostly, NoLocation))
	require.NoError(t, s.Advise(p, 2*pg, AdviseSetPreferredLocation, 1))
	require.NoError(t, s.Advise(p, 2*pg, AdviseSetAccessedBy, Host))
	require.NoError(t, s.Advise(p, pg, AdviseSetAccessedBy, 0))
	a, err := s.RangeAttrs(p, 2*pg)
	require.NoError(t, err)
	assert.Equal(t, Attrs{ReadMostly: true, Preferred: 1, AccessedBy: []Location{Host}, LastPrefetch: NoLocation}, a)

	// LastPrefetch: the last prefetch's destination where every page
	// shares it.
	_, err = s.Prefetch(p, 2*pg, 1)
	require.NoError(t, err)
	_, err = s.Prefetch(p+pg, pg, Host)
	require.NoError(t, err)
	a, err = s.RangeAttrs(p, pg)
	require.NoError(t, err)
	assert.Equal(t, Location(1), a.LastPrefetch)
	a, err = s.RangeAttrs(p, 2*pg)
	require.NoError(t, err)
	assert.Equal(t, NoLocation, a.LastPrefetch)

	require.NoError(t, s.Advise(p+pg, pg, AdviseSetPreferredLocation, 0))
	require.NoError(t, s.Advise(p, pg, AdviseUnsetReadMostly, NoLocation))
	a, err = s.RangeAttrs(p, 2*pg)
	require.NoError(t, err)
	assert.False(t, a.ReadMostly)
	assert.Equal(t, NoLocation, a.Preferred, "mixed")
	a, err = s.RangeAttrs(p, pg)
	require.NoError(t, err)
	assert.Equal(t, []Location{Host, 0}, a.AccessedBy)
}

func TestAdviseResidency(t *testing.T) {
	s, _ := newSpace(t, []uint64{4, 4})
	p, err := s.Alloc(2 * pg)
	require.NoError(t, err)

	_, err = s.AdviseResidency(p, 1, Residency{PreferDevice: true}, 1) // count rounds up to a page
	require.NoError(t, err)
	assert.Equal(t, Location(1), loc(t, s, p).Preferred)
	assert.Equal(t, NoLocation, loc(t, s, p+pg).Preferred)

	_, err = s.AdviseResidency(p+pg, pg, Residency{PinHost: true}, 1)
	require.NoError(t, err)
	assert.Equal(t, Host, loc(t, s, p+pg).Preferred)
	_, err = s.AdviseResidency(p+pg, pg, Residency{Unpin: true}, 1)
	require.NoError(t, err)
	assert.Equal(t, NoLocation, loc(t, s, p+pg).Preferred)

	_, err = s.AdviseResidency(p, 2*pg, Residency{Prefetch: true}, 0)
	require.NoError(t, err)
	st := stats(t, s, 0)
	assert.Equal(t, uint64(2*pg), st.PrefetchedBytes)
	assert.Zero(t, st.Faults)
}
