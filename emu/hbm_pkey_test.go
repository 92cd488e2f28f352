package emu

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPKeysEnabled(t *testing.T) {
	for _, c := range []struct {
		protect, pkeys string
		want           bool
	}{
		{"", "", false}, {"", "1", true}, {"1", " 1 ", true}, {"0", "1", false},
		{"", "0", false}, {"", "yes", false},
	} {
		t.Setenv(EnvProtect, c.protect)
		t.Setenv(EnvPKeys, c.pkeys)
		assert.Equal(t, c.want, PKeysEnabled(), "%s=%q %s=%q", EnvProtect, c.protect, EnvPKeys, c.pkeys)
	}
}

// TestHBMUseKey: a protected device memory takes the key it is given, all
// of it, and keeps it through the mprotect calls that open blocks; an
// unprotected one and a key ≤ 0 change nothing. Without protection keys
// the kernel refuses the key and none is recorded.
func TestHBMUseKey(t *testing.T) {
	t.Setenv(EnvProtect, "1")
	h := newTestHBM(t, 64<<20)
	h.useKey(0)
	h.useKey(-1)
	assert.Equal(t, 0, h.pkey)
	if !HostPKeys() || sysPkeyMprotect == 0 {
		h.useKey(1)
		assert.Equal(t, 0, h.pkey, "without protection keys pkey_mprotect fails: nothing is keyed")
		return
	}
	k, _, errno := syscall.Syscall(330 /* pkey_alloc */, 0, 0, 0)
	require.Zero(t, errno, "pkey_alloc")
	key := int(k)
	defer syscall.Syscall(331 /* pkey_free */, k, 0, 0) //nolint:errcheck
	h.useKey(key)
	require.Equal(t, key, h.pkey)
	keyOf := func(addr uintptr) int {
		_, k := mappingOf(t, addr)
		return k
	}
	base, span := h.Range()
	assert.Equal(t, key, keyOf(base))
	assert.Equal(t, key, keyOf(base+uintptr(span)-1))
	a, err := h.Alloc(8192, 0)
	require.NoError(t, err)
	assert.Equal(t, "rw-", protOf(t, a))
	assert.Equal(t, key, keyOf(a), "opening a block keeps the key")

	t.Setenv(EnvProtect, "0")
	off := newTestHBM(t, 64<<20)
	off.useKey(key)
	assert.Equal(t, 0, off.pkey, "an unprotected memory is not keyed")
}
