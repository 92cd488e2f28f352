package emu

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
)

func nodeTestConfig(t *testing.T) (Config, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "node")
	cfg := DefaultConfig()
	cfg.Devices = 2
	cfg.HBMBytes = 1 << 30
	cfg.NodeDir = dir
	return cfg, dir
}

func openTestDir(t *testing.T, cfg Config) (*NodeDir, error) {
	soc, _ := LookupSoC(cfg.SoC)
	return OpenNodeDir(cfg.NodeDir, cfg, soc, cfg.HBMBytes)
}

// twoProcs opens one node twice (two attachments, as two processes): a is
// closed when the test ends, b is the test's to close or to let die.
func twoProcs(t *testing.T) (a, b *NodeDir) {
	t.Helper()
	cfg, _ := nodeTestConfig(t)
	a, err := openTestDir(t, cfg)
	require.NoError(t, err)
	t.Cleanup(a.Close)
	b, err = openTestDir(t, cfg)
	require.NoError(t, err)
	return a, b
}

func TestResolveNodeDir(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"abc", "/dev/shm/npuemu-abc"},
		{"/x/y/", "/x/y"},
		{"a.b_c-1", "/dev/shm/npuemu-a.b_c-1"},
	} {
		got, err := resolveNodeDir(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got)
	}
	for _, bad := range []string{"a/b", "..", ".", "x y", "a:b", "n\u00fc", "a\x00"} {
		_, err := resolveNodeDir(bad)
		assert.Equal(t, abi.ACL_ERROR_INVALID_PARAM, abi.CodeOf(err), bad)
	}
}

// TestNodeDirShared: two attachments (two open file descriptions, as two
// processes) see one device memory; the dead one's memory comes back.
func TestNodeDirShared(t *testing.T) {
	cfg, dir := nodeTestConfig(t)
	a, err := openTestDir(t, cfg)
	require.NoError(t, err)
	defer a.Close()
	st, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm(), "owner-only directory")
	st, err = os.Stat(filepath.Join(dir, "node"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "owner-only node file")

	b, err := openTestDir(t, cfg)
	require.NoError(t, err)
	assert.NotEqual(t, a.Slot(), b.Slot())

	// b "allocates" through the node accounting, then dies: its descriptor
	// closes without any clean-up, as at kill -9.
	nd := &nodeHBM{dir: b, phys: 1, rec: b.Device(1), chunks: b.Chunks(1), me: uint32(b.Slot() + 1)}
	b.Self().DevicesOpen |= 1 << 1 // as newNodeHBM marks it: the reclaim looks at opened devices only
	require.True(t, nd.charge(512<<20))
	require.True(t, atomicCAS32(&b.Chunks(1)[3], 0, nd.me))
	assert.Equal(t, uint64(512<<20), a.Device(1).HBMUsed, "a sees b's memory")
	assert.False(t, nd.charge(600<<20), "b cannot exceed the device")

	b.unmap()
	require.NoError(t, syscall.Close(b.fd))
	a.Reclaim(true)
	assert.Equal(t, uint64(0), a.Device(1).HBMUsed, "b's memory is back")
	assert.Equal(t, uint32(0), a.Chunks(1)[3], "b's chunk is free")
	assert.Equal(t, uint32(NodeProcFree), a.Proc(int(nd.me-1)).State)
}

// TestNodeDirKeys: a key is found by name, refused to a pid outside its
// whitelist, changed only by its creator, and destroyed with a dead
// creator.
func TestNodeDirKeys(t *testing.T) {
	a, b := twoProcs(t)

	name, err := b.ExportKey(0, NodeWindowBase+4096, 8192)
	require.NoError(t, err)
	_, _, _, err = a.KeyOpen(name, 4242)
	assert.Equal(t, abi.DRV_ERROR_OPER_NOT_PERMITTED, abi.DrvCodeOf(err))
	assert.Equal(t, abi.DRV_ERROR_OPER_NOT_PERMITTED, abi.DrvCodeOf(a.KeySetPids(name, []int32{4242})), "only the creator sets pids")
	require.NoError(t, b.KeySetPids(name, []int32{4242}))
	phys, addr, size, err := a.KeyOpen(name, 4242)
	require.NoError(t, err)
	assert.Equal(t, 0, phys)
	assert.Equal(t, uintptr(NodeWindowBase+4096), addr)
	assert.Equal(t, uint64(8192), size)
	n, err := b.KeyImports(name)
	require.NoError(t, err)
	assert.Equal(t, 1, n)

	b.unmap()
	require.NoError(t, syscall.Close(b.fd))
	a.Reclaim(true)
	_, _, _, err = a.KeyOpen(name, 4242)
	assert.Equal(t, abi.DRV_ERROR_INVALID_VALUE, abi.DrvCodeOf(err), "the dead creator's key is gone")
	ok, err := a.KeyClose(addr)
	require.NoError(t, err)
	assert.False(t, ok, "imports of a destroyed key are closed")
}

// TestNodeDirCloseMade: a process's Close reclaims what it made in every
// table it used — its key, event and notify are destroyed, its imports of
// another's closed — and scans only those tables (made): the other's
// entries stay.
func TestNodeDirCloseMade(t *testing.T) {
	a, b := twoProcs(t)
	assert.Equal(t, made(0), b.made, "nothing made yet")

	aEv, aEvEntry, err := a.ExportEvent(0)
	require.NoError(t, err)
	aNt, aNtEntry, err := a.ExportNotify(0, false)
	require.NoError(t, err)
	aKey, err := a.ExportKey(0, NodeWindowBase, 4096)
	require.NoError(t, err)

	bKey, err := b.ExportKey(0, NodeWindowBase+4096, 4096)
	require.NoError(t, err)
	bEv, _, err := b.ExportEvent(0)
	require.NoError(t, err)
	_, err = b.OpenEvent(aEv)
	require.NoError(t, err)
	_, _, err = b.OpenNotify(aNt, int32(os.Getpid()))
	require.NoError(t, err)
	require.NoError(t, a.KeySetPids(aKey, []int32{int32(os.Getpid())}))
	_, _, _, err = b.KeyOpen(aKey, int32(os.Getpid()))
	require.NoError(t, err)
	assert.Equal(t, madeIPC|madeEvents|madeImportEvent|madeImportNotify|madeImportIPC, b.made)
	n, err := a.KeyImports(aKey)
	require.NoError(t, err)
	require.Equal(t, 1, n)

	b.Close()
	_, _, _, err = a.KeyOpen(bKey, int32(os.Getpid()))
	assert.Error(t, err, "b's key is destroyed")
	_, err = a.OpenEvent(bEv)
	assert.Error(t, err, "b's event is destroyed")
	n, err = a.KeyImports(aKey)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "b's import of a's key is closed")
	assert.Equal(t, uint32(0), aEvEntry.ImportCount, "b's import of a's event is closed")
	assert.Equal(t, uint32(0), aNtEntry.ImportCount, "b's import of a's notify is closed")
	assert.Equal(t, uint32(NodeEntryLive), aEvEntry.State, "a's event stays")
	assert.Equal(t, uint32(NodeEntryLive), aNtEntry.State, "a's notify stays")
}

// TestNodeDirRefusals: a corrupt, truncated, foreign-version or
// differently configured node is refused with a message, never replaced.
func TestNodeDirRefusals(t *testing.T) {
	cfg, dir := nodeTestConfig(t)
	a, err := openTestDir(t, cfg)
	require.NoError(t, err)
	a.Close()
	file := filepath.Join(dir, "node")
	orig, err := os.ReadFile(file)
	require.NoError(t, err)
	restore := func() { require.NoError(t, os.WriteFile(file, orig, 0o600)) }

	for _, tc := range []struct {
		name  string
		edit  func(b []byte) []byte
		cfg   func(c *Config)
		code  abi.Code
		inMsg string
	}{
		{"checksum", func(b []byte) []byte { b[40] ^= 0xff; return b }, nil, abi.ACL_ERROR_RT_DEV_SETUP_ERROR, "checksum"},
		{"version", func(b []byte) []byte { b[8] = 9; return b }, nil, abi.ACL_ERROR_RT_DEV_SETUP_ERROR, "version 9"},
		{"magic", func(b []byte) []byte { b[0] = 0; return b }, nil, abi.ACL_ERROR_RT_DEV_SETUP_ERROR, "not an npuemu node"},
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }, nil, abi.ACL_ERROR_RT_DEV_SETUP_ERROR, "truncated"},
		{"short", func(b []byte) []byte { return b[:100] }, nil, abi.ACL_ERROR_RT_DEV_SETUP_ERROR, "truncated"},
		{"device record", func(b []byte) []byte { b[4096+8] ^= 1; return b }, nil, abi.ACL_ERROR_RT_DEV_SETUP_ERROR, "device 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			restore()
			c := cfg
			if tc.edit != nil {
				b := append([]byte(nil), orig...)
				require.NoError(t, os.WriteFile(file, tc.edit(b), 0o600))
			}
			if tc.cfg != nil {
				tc.cfg(&c)
			}
			_, err := openTestDir(t, c)
			require.Error(t, err)
			assert.Equal(t, tc.code, abi.CodeOf(err))
			assert.Contains(t, err.Error(), tc.inMsg)
			assert.Contains(t, err.Error(), dir)
		})
	}
	restore()
	d, err := openTestDir(t, cfg)
	require.NoError(t, err, "the original file still opens")
	d.Close()
}

// TestNodeDirPermission: a directory this process may not enter is an
// error naming it, never a private node.
func TestNodeDirPermission(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root ignores permissions")
	}
	cfg, dir := nodeTestConfig(t)
	require.NoError(t, os.Mkdir(dir, 0o000))
	_, err := openTestDir(t, cfg)
	assert.Equal(t, abi.ACL_ERROR_RT_NO_PERMISSION, abi.CodeOf(err))
}

// TestNodeDirOtherConfig: a node of another configuration is refused while
// a process uses it, and replaced once nobody does.
func TestNodeDirOtherConfig(t *testing.T) {
	cfg, dir := nodeTestConfig(t)
	a, err := openTestDir(t, cfg)
	require.NoError(t, err)
	other := cfg
	other.Devices = 3
	_, err = openTestDir(t, other)
	require.Error(t, err)
	assert.Equal(t, abi.ACL_ERROR_RT_DEV_SETUP_ERROR, abi.CodeOf(err))
	assert.Contains(t, err.Error(), "configured for 3")
	assert.Contains(t, err.Error(), dir)
	a.Close()

	b, err := openTestDir(t, other)
	require.NoError(t, err, "an unused node is replaced")
	defer b.Close()
	assert.Equal(t, uint32(3), b.Header().DeviceCount)
}

// TestNodeVNPU: templates the SoC accepts are carved from the device until
// it runs out; others are refused with the accepted list; a binding counts
// the process.
func TestNodeVNPU(t *testing.T) {
	cfg, _ := nodeTestConfig(t)
	cfg.HBMBytes = 0 // the SoC's memory: room for the templates
	soc, _ := LookupSoC(cfg.SoC)
	d, err := OpenNodeDir(cfg.NodeDir, cfg, soc, soc.UsableHBMBytes)
	require.NoError(t, err)
	defer d.Close()

	_, err = d.CreateVNPU(0, "vir12_3c_32g")
	require.Error(t, err, "a 910B1/B2 template on an Ascend910B3")
	assert.Contains(t, err.Error(), "vir10_3c_32g")
	id, err := d.CreateVNPU(1, "vir10_3c_32g")
	require.NoError(t, err)
	assert.Equal(t, uint32(100+16*1), id)
	id2, err := d.CreateVNPU(1, "vir05_1c_16g")
	require.NoError(t, err)
	assert.Equal(t, uint32(100+16*1+1), id2)
	rec := d.Device(1)
	assert.Equal(t, uint32(2), rec.VNPUCount)
	assert.Equal(t, uint32(soc.AICores-15), rec.AICoreFree)
	_, err = d.CreateVNPU(1, "vir10_3c_32g")
	assert.Equal(t, abi.ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, abi.CodeOf(err), "the device's AI Cores are used up")

	v, err := d.bindVNPU(1, id)
	require.NoError(t, err)
	require.NotNil(t, v)
	assert.Equal(t, uint32(1), v.ProcessCount)
	other, err := d.bindVNPU(0, id)
	require.NoError(t, err)
	assert.Nil(t, other, "the vNPU lives on device 1")
	_, err = d.bindVNPU(0, 999)
	assert.Equal(t, abi.ACL_ERROR_RT_INVALID_DEVICEID, abi.CodeOf(err))
	s := vnpuSoC(soc, v)
	assert.Equal(t, 10, s.AICores)
	assert.Equal(t, 3, s.AICPUs)
	assert.Equal(t, uint64(30720)<<20, s.UsableHBMBytes)
}

// TestProcStartTime: the start time read without os (readProc) is the
// kernel's, the same for every read of a live process, and 0 for a pid
// that does not exist; the slot records it with the process's name.
func TestProcStartTime(t *testing.T) {
	st := procStartTime(os.Getpid())
	assert.NotZero(t, st)
	assert.Equal(t, st, procStartTime(os.Getpid()))
	assert.Equal(t, uint64(0), procStartTime(1<<30))
	b, err := readProc("/proc/self/stat")
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(b, []byte(strconv.Itoa(os.Getpid())+" (")), "%q", b)

	cfg, _ := nodeTestConfig(t)
	d, err := openTestDir(t, cfg)
	require.NoError(t, err)
	defer d.Close()
	p := d.Proc(d.Slot())
	assert.Equal(t, st, p.StartTime)
	comm, err := os.ReadFile("/proc/self/comm")
	require.NoError(t, err)
	assert.Equal(t, string(bytes.TrimSpace(comm)), string(bytes.TrimRight(p.Comm[:], "\x00")))
}
