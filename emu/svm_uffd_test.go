package emu

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/svm"
)

func TestSVMUffdFallback(t *testing.T) {
	t.Setenv(EnvSVMHostFaults, svm.ModeUserfaultfdWP)
	saved := uffdMode
	t.Cleanup(func() { uffdMode = saved })
	uffdMode = func() string { return svm.ModeMprotect } // the kernel said no
	got, err := SVMMode()
	require.NoError(t, err)
	assert.Equal(t, uffdFallback(ProcessPlatform().HostFaults), got, "refused userfaultfd-wp falls back")
	assert.NotEqual(t, svm.ModeUserfaultfdWP, got)
}

func TestSVMUffdHostWrite(t *testing.T) {
	t.Setenv(EnvSVMHostFaults, svm.ModeUserfaultfdWP)
	n, err := NewNode(Config{SoC: DefaultSoC, Devices: 1, HBMBytes: 4 * svm.HugePage}, Platform{})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	g, err := n.SVM()
	require.NoError(t, err)
	if g.Mode() != svm.ModeUserfaultfdWP {
		t.Skipf("userfaultfd write-protect refused here; mode in use: %s", g.Mode())
	}
	p, err := g.Alloc(svm.HugePage, "test")
	require.NoError(t, err)
	b, err := g.Space().Bytes(p, svm.HugePage)
	require.NoError(t, err)
	b[0] = 1
	_, err = g.Access(0, p, 1, true)
	require.NoError(t, err)
	before, err := g.Stats(svm.Host)
	require.NoError(t, err)

	// The write blocks in the kernel until the event loop serves it; the
	// collector stays off meanwhile (a stop-the-world would wait for it),
	// and the event loop needs a P besides the writer's (GOMAXPROCS=1).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	done := make(chan struct{})
	go func() { b[1] = 2; close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("host write to a device-resident page was not served")
	}
	after, err := g.Stats(svm.Host)
	require.NoError(t, err)
	assert.Equal(t, before.Faults+1, after.Faults)
	pi, err := g.Page(p)
	require.NoError(t, err)
	assert.Equal(t, svm.Host, pi.Location)
	require.NoError(t, g.Free(p))
}
