package emu

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/tsfw"
)

const ms = time.Millisecond

// kill closes d's descriptor without any clean-up, as at kill -9.
func kill(t *testing.T, d *NodeDir) {
	t.Helper()
	d.unmap()
	require.NoError(t, syscall.Close(d.fd))
}

// A process alone on a device waits for nothing and publishes its holding
// only when the published one lags by more than aloneLag; a process that
// opens the device later starts its clock after it.
func TestNodeCoresAlone(t *testing.T) {
	cfg, _ := nodeTestConfig(t)
	a, err := openTestDir(t, cfg)
	require.NoError(t, err)
	defer a.Close()
	ca, err := a.joinCores(0, 20, 40)
	require.NoError(t, err)
	rec := a.Device(0)
	assert.Equal(t, uint32(1), rec.CoreUsers)
	assert.Equal(t, 3*ms, ca.Claim(3*ms, 10*ms, 20, 0))
	until, cube, _ := unpackHold(rec.CoreHold[a.Slot()])
	assert.Equal(t, uint64(13*ms), until, "published: it lagged by 13 ms")
	assert.Equal(t, 20, cube)
	assert.Equal(t, 13*ms, ca.Claim(13*ms, ms/2, 1, 0))
	assert.Equal(t, 13*ms+ms/2, ca.Claim(13*ms+ms/2, ms/4, 1, 0))
	until, _, _ = unpackHold(rec.CoreHold[a.Slot()])
	assert.Equal(t, uint64(13*ms), until, "within aloneLag: not published")
	assert.Equal(t, 14*ms, ca.Claim(14*ms, ms/2, 1, 0))
	until, _, _ = unpackHold(rec.CoreHold[a.Slot()])
	assert.Equal(t, uint64(14*ms+ms/2), until, "over aloneLag: published")

	b, err := openTestDir(t, cfg)
	require.NoError(t, err)
	defer b.Close()
	cb, err := b.joinCores(0, 20, 40)
	require.NoError(t, err)
	assert.Equal(t, uint64(14*ms+ms/2), cb.base, "b's clock starts after a's published work")
}

// Two processes: the second's kernel waits until the first's holding
// leaves room for it, per core kind; a process's own kernels never wait
// for each other; a dead holder's cores are released by the reclaim.
func TestNodeCoresContention(t *testing.T) {
	cfg, _ := nodeTestConfig(t)
	a, err := openTestDir(t, cfg)
	require.NoError(t, err)
	defer a.Close()
	b, err := openTestDir(t, cfg)
	require.NoError(t, err)
	ca, err := a.joinCores(0, 20, 40)
	require.NoError(t, err)
	cb, err := b.joinCores(0, 20, 40)
	require.NoError(t, err)
	rec := a.Device(0)
	assert.Equal(t, uint32(2), rec.CoreUsers)
	assert.Equal(t, uint64(0), ca.base)
	assert.Equal(t, uint64(0), cb.base)

	// a takes all cube cores for 10 ms, then 10 of them until 15 ms.
	assert.Equal(t, time.Duration(0), ca.Claim(0, 10*ms, 20, 0))
	assert.Equal(t, time.Duration(0), ca.Claim(0, 10*ms, 20, 0), "a's own kernels do not wait for each other")
	until, cube, _ := unpackHold(rec.CoreHold[a.Slot()])
	assert.Equal(t, uint64(10*ms), until)
	assert.Equal(t, 20, cube, "overlapping kernels hold at most the pool")
	assert.Equal(t, 10*ms, ca.Claim(10*ms, 5*ms, 10, 0))
	until, cube, _ = unpackHold(rec.CoreHold[a.Slot()])
	assert.Equal(t, uint64(15*ms), until)
	assert.Equal(t, 20, cube, "back to back: the larger count stays until the end")

	// b: vector cores are free; cube cores wait until a releases them.
	assert.Equal(t, 1*ms, cb.Claim(1*ms, ms, 0, 40))
	assert.Equal(t, 15*ms, cb.Claim(1*ms, ms, 10, 0))
	// a, after a gap, holds 5 cores: 15 fit beside them.
	assert.Equal(t, 20*ms, ca.Claim(20*ms, 10*ms, 5, 0))
	assert.Equal(t, 21*ms, cb.Claim(21*ms, ms, 15, 0), "15 cores fit beside a's 5")
	assert.Equal(t, 30*ms, cb.Claim(22*ms, ms, 16, 0), "16 do not")
	// a now waits for b's holding (b holds 16 cube cores until 31 ms).
	assert.Equal(t, 31*ms, ca.Claim(30*ms, ms, 20, 0))

	// A third process starts its clock after every published holding.
	c, err := openTestDir(t, cfg)
	require.NoError(t, err)
	cc, err := c.joinCores(0, 20, 40)
	require.NoError(t, err)
	assert.Equal(t, uint64(32*ms), cc.base)
	assert.Equal(t, uint64(32*ms), c.Self().ClockBaseNS[0])
	c.Close()
	assert.Equal(t, uint32(2), rec.CoreUsers, "a closed process leaves")

	// b holds all cores for 100 ms and dies: a's kernels wait for it until
	// the reclaim releases it.
	assert.Equal(t, 40*ms, cb.Claim(40*ms, 100*ms, 20, 0))
	assert.Equal(t, 140*ms, ca.Claim(40*ms, ms, 1, 0))
	kill(t, b)
	a.Reclaim(true)
	assert.Equal(t, uint32(1), rec.CoreUsers)
	assert.Equal(t, uint64(0), rec.CoreHold[cb.slot], "b's holding is released")
	assert.Equal(t, uint64(140*ms), rec.CoreClockFloor, "its end stays the clock floor for newcomers")
	assert.Equal(t, 50*ms, ca.Claim(50*ms, ms, 20, 0), "a is alone again")
}

// Processes bound to different vNPUs have cores of their own; a process
// using the whole device competes with both.
func TestNodeCoresVNPUs(t *testing.T) {
	cfg, _ := nodeTestConfig(t)
	a, err := openTestDir(t, cfg)
	require.NoError(t, err)
	defer a.Close()
	b, err := openTestDir(t, cfg)
	require.NoError(t, err)
	defer b.Close()
	w, err := openTestDir(t, cfg)
	require.NoError(t, err)
	defer w.Close()
	a.proc.VNPU[0], b.proc.VNPU[0] = 100, 101
	ca, err := a.joinCores(0, 10, 20)
	require.NoError(t, err)
	cb, err := b.joinCores(0, 10, 20)
	require.NoError(t, err)
	cw, err := w.joinCores(0, 20, 40)
	require.NoError(t, err)
	assert.Equal(t, time.Duration(0), ca.Claim(0, 10*ms, 10, 0))
	assert.Equal(t, time.Duration(0), cb.Claim(0, 10*ms, 10, 0), "another vNPU")
	assert.Equal(t, 10*ms, cw.Claim(0, ms, 1, 0), "the whole device holds both vNPUs' cores")
}

// Through a node's scheduler: a kernel waits for another process's
// holding (here a second attachment of the node directory), and the
// utilization counters count the process's kernels.
func TestNodeCoresScheduler(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory holds the node window's address (the conformance case node_contend covers this path)")
	}
	cfg, _ := nodeTestConfig(t)
	n := newTestNode(t, cfg)
	dev, err := n.Device(0)
	require.NoError(t, err)
	other, err := openTestDir(t, cfg)
	require.NoError(t, err)
	defer other.Close()
	co, err := other.joinCores(0, dev.SoC.CubeCores, dev.SoC.VectorCores)
	require.NoError(t, err)
	base := time.Duration(n.Dir().Self().ClockBaseNS[0])
	require.Equal(t, time.Duration(0), co.Claim(0, 50*ms, dev.SoC.CubeCores, 0), "the other holds every cube core from its 0")

	q, err := dev.TS.NewQueue(0)
	require.NoError(t, err)
	defer q.Destroy(true)
	e, err := dev.TS.NewEvent(0)
	require.NoError(t, err)
	defer e.Destroy()
	blocks := uint32(dev.SoC.CubeCores)
	require.NoError(t, q.Submit(tsfw.KernelTask(nopKernel{}, tsfw.KernelSpec{Blocks: blocks, BlockCost: ms})))
	require.NoError(t, q.Submit(tsfw.RecordTask(e)))
	require.NoError(t, q.Synchronize(-1))
	ts, ok := e.Timestamp()
	require.True(t, ok)
	overhead := CostModel(dev.SoC.Family).TaskOverhead
	start := ts - overhead - (overhead + ms) // the record, then the kernel
	assert.Equal(t, time.Duration(co.base)+50*ms, start+base, "the kernel starts on the device clock when the other's holding ends")
	assert.Equal(t, uint64(ms)*uint64(blocks), n.Dir().Self().AICoreBusyNS[0])
}

type nopKernel struct{}

func (nopKernel) RunBlock(b, n uint32) error { return nil }
func (nopKernel) Done(err error) error       { return err }

// BenchmarkNodeCoresClaim: what a kernel's stamping pays for the core
// occupancy, alone on the device (one load) and shared with one other
// process (its holding read, one compare-and-swap).
func BenchmarkNodeCoresClaim(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Devices, cfg.HBMBytes, cfg.NodeDir = 1, 1<<30, b.TempDir()+"/node"
	soc, _ := LookupSoC(cfg.SoC)
	a, err := OpenNodeDir(cfg.NodeDir, cfg, soc, cfg.HBMBytes)
	require.NoError(b, err)
	defer a.Close()
	ca, err := a.joinCores(0, 20, 40)
	require.NoError(b, err)
	b.Run("alone", func(b *testing.B) {
		for i := range b.N {
			ca.Claim(time.Duration(i), 1, 1, 0)
		}
	})
	o, err := OpenNodeDir(cfg.NodeDir, cfg, soc, cfg.HBMBytes)
	require.NoError(b, err)
	defer o.Close()
	co, err := o.joinCores(0, 20, 40)
	require.NoError(b, err)
	co.Claim(0, 1, 1, 0)
	b.Run("shared", func(b *testing.B) {
		for i := range b.N {
			ca.Claim(time.Duration(i), 1, 1, 0)
		}
	})
}

// BenchmarkNodeCoresLaunch: a node device's launch path (empty one-block
// kernels into one stream) without the occupancy hook, with it alone on
// the device, and shared with another process (a second attachment).
// enqueue: 1000 launches then one synchronisation, per launch;
// roundtrip: one launch and its synchronisation.
func BenchmarkNodeCoresLaunch(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Devices, cfg.HBMBytes, cfg.NodeDir = 1, 1<<30, b.TempDir()+"/node"
	soc, _ := LookupSoC(cfg.SoC)
	dir, err := OpenNodeDir(cfg.NodeDir, cfg, soc, cfg.HBMBytes)
	require.NoError(b, err)
	defer dir.Close()
	cores, err := dir.joinCores(0, soc.CubeCores, soc.VectorCores)
	require.NoError(b, err)
	busy := dir.busyCounter(0)
	var other *NodeDir
	defer func() {
		if other != nil {
			other.Close()
		}
	}()
	spec := tsfw.KernelSpec{Blocks: 1, BlockCost: time.Microsecond}
	for _, mode := range []string{"nohook", "alone", "shared"} {
		var arb tsfw.CoreArbiter
		if mode != "nohook" {
			arb = cores
		}
		if mode == "shared" {
			other, err = OpenNodeDir(cfg.NodeDir, cfg, soc, cfg.HBMBytes)
			require.NoError(b, err)
			_, err = other.joinCores(0, soc.CubeCores, soc.VectorCores)
			require.NoError(b, err)
		}
		ts := newSchedulerNode("bench", soc, 0, busy, arb)
		q, err := ts.NewQueue(0)
		require.NoError(b, err)
		b.Run(mode+"/enqueue", func(b *testing.B) {
			for range b.N {
				require.NoError(b, q.Submit(tsfw.KernelTask(nopKernel{}, spec)))
			}
			require.NoError(b, q.Synchronize(-1))
		})
		b.Run(mode+"/roundtrip", func(b *testing.B) {
			for range b.N {
				require.NoError(b, q.Submit(tsfw.KernelTask(nopKernel{}, spec)))
				require.NoError(b, q.Synchronize(-1))
			}
		})
		ts.Close()
	}
}
