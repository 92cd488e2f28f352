package acl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// fakeHost is a KernelHost whose "binaries" are files holding the word
// KERNELS and whose kernels are Go functions; host memory is Go memory
// found back by address.
type fakeHost struct {
	mu     sync.Mutex
	bufs   map[uintptr][]byte
	closed map[uintptr]int
	blobs  [][]byte        // the blob each block 0 saw, in run order
	fail   map[uint32]bool // blocks that fault
	gate   chan struct{}   // runs wait for it when set
	quiet  bool            // record nothing (benchmarks)
	addrs  []uintptr       // the blob address each block 0 saw
	opened uintptr
}

func newFakeHost(t *testing.T) *fakeHost {
	return &fakeHost{bufs: map[uintptr][]byte{}, closed: map[uintptr]int{}, fail: map[uint32]bool{}}
}

var fakeEntries = []core.KernelEntry{
	{Name: "echo", Fn: 1, Kind: abi.ACL_KERNEL_TYPE_VECTOR, NsPerBlock: 100},
	{Name: "mix", Fn: 2, Kind: abi.ACL_KERNEL_TYPE_MIX, MixCube: 1, MixVector: 2},
	{Name: "cube", Fn: 3, Kind: abi.ACL_KERNEL_TYPE_CUBE},
	{Name: "slow", Fn: 4, Kind: abi.ACL_KERNEL_TYPE_VECTOR, NsPerBlock: 1_000_000},
	{Name: "typed", Fn: 5, Kind: abi.ACL_KERNEL_TYPE_CUBE, NumParams: 3, ParamSizes: []uint32{4, 8, 2}, CodeSize: 64},
	{Name: "mixslow", Fn: 6, Kind: abi.ACL_KERNEL_TYPE_MIX, MixCube: 1, MixVector: 2, NsPerBlock: 1_000_000},
}

func (h *fakeHost) Open(path string) (uintptr, []core.KernelEntry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, nil, err
	}
	return h.Load(b)
}

func (h *fakeHost) Load(data []byte) (uintptr, []core.KernelEntry, error) {
	if string(data) != "KERNELS" {
		return 0, nil, errors.New("the shared object exports no npuemu_kernel_table symbol")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.opened++
	return 0x1000 + h.opened, fakeEntries, nil
}

func (h *fakeHost) Close(lib uintptr) {
	h.mu.Lock()
	h.closed[lib]++
	h.mu.Unlock()
}

// Global knows one variable, "counter", of 4 bytes.
func (h *fakeHost) Global(lib uintptr, name string) (uintptr, uint64, error) {
	if name != "counter" {
		return 0, 0, errors.New("undefined symbol: " + name)
	}
	return lib + 0x100, 4, nil
}

func (h *fakeHost) Alloc(n int) ([]byte, uintptr) {
	b := make([]byte, n)
	p := reflect.ValueOf(b[:cap(b)][:1]).Pointer()
	h.mu.Lock()
	h.bufs[p] = b
	h.mu.Unlock()
	return b, p
}

func (h *fakeHost) Free(b []byte) {
	h.mu.Lock()
	delete(h.bufs, reflect.ValueOf(b[:cap(b)][:1]).Pointer())
	h.mu.Unlock()
}

func (h *fakeHost) Run(fn, args uintptr, size uint64, block, blocks uint32, state []byte) error {
	if h.gate != nil {
		<-h.gate
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if block == 0 && !h.quiet {
		h.addrs = append(h.addrs, args)
		var blob []byte // nil for arguments read in place (device memory)
		if buf, ok := h.find(args - core.LaunchHeader); ok {
			blob = append([]byte(nil), buf[core.LaunchHeader:core.LaunchHeader+int(size)]...)
		}
		h.blobs = append(h.blobs, blob)
	}
	if h.fail[block] {
		return abi.Errorf(abi.ACL_ERROR_RT_AICORE_EXCEPTION, "AI Core exception: npuemu_trap with code 42")
	}
	return nil
}

func (h *fakeHost) Flush(state []byte) {}

// find returns the bytes from addr to the end of the buffer holding it: a
// launch's buffer may be a slot of a slab (getLaunch).
// Precondition: h.mu held.
func (h *fakeHost) find(addr uintptr) ([]byte, bool) {
	for base, b := range h.bufs {
		if addr >= base && addr < base+uintptr(len(b)) {
			return b[addr-base:], true
		}
	}
	return nil, false
}

// TestLaunchSlabs checks the launch objects a launch loop gets: each has
// its own buffer, large enough, at the address it reports, and an image
// larger than a slab slot gets a buffer of its own.
func TestLaunchSlabs(t *testing.T) {
	h := newFakeHost(t)
	type span struct{ lo, hi uintptr }
	var got []*core.Launch
	var spans []span
	for i := range 2*core.SlabLaunches + 3 {
		n := 8
		if i%50 == 7 {
			n = 4 * core.LaunchSlot // outgrows a slot
		}
		l := core.GetLaunch(nil, h, n)
		got = append(got, l)
		require.GreaterOrEqual(t, len(l.Buf), core.LaunchHeader+n)
		require.Equal(t, reflect.ValueOf(l.Buf).Pointer(), l.Addr, "launch %d", i)
		require.Equal(t, make([]byte, core.LaunchHeader), l.Buf[:core.LaunchHeader], "header of launch %d is cleared", i)
		spans = append(spans, span{l.Addr, l.Addr + uintptr(cap(l.Buf))})
	}
	for i, a := range spans {
		for j, b := range spans[:i] {
			require.False(t, a.lo < b.hi && b.lo < a.hi, "launches %d and %d share buffer bytes", i, j)
		}
	}
	for _, l := range got {
		core.PutLaunch(l)
	}
}

func (h *fakeHost) seen() [][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([][]byte(nil), h.blobs...)
}

func kernelFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "k.so")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// kernelSetup initialises the runtime on device 0 and loads the fake
// binary; cleanup checks that no kernel object is left.
func kernelSetup(t *testing.T) (*core.Thread, *fakeHost, core.Handle) {
	h := newFakeHost(t)
	th := setupPlatform(t, nil, emu.Platform{Kernels: h})
	require.NoError(t, SetDevice(th, 0))
	var bin core.Handle
	require.NoError(t, BinaryLoadFromFile(th, kernelFile(t, "KERNELS"), nil, &bin))
	t.Cleanup(func() {
		b, f, a := core.LiveKernelObjects()
		assert.Zero(t, b+f+a, "kernel objects left")
	})
	return th, h, bin
}

func function(t *testing.T, th *core.Thread, bin core.Handle, name string) core.Handle {
	t.Helper()
	var f core.Handle
	require.NoError(t, BinaryGetFunction(th, bin, name, &f))
	return f
}

func u64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

func TestArgsBlobLayout(t *testing.T) {
	th, h, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	var a, p, ph core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsAppend(th, a, u32(0xAABBCCDD), &p))   // 0..4
	require.NoError(t, KernelArgsAppend(th, a, u64(0x1122334455), &p)) // 8..16
	require.NoError(t, KernelArgsAppendPlaceHolder(th, a, &ph))        // 16..24
	require.NoError(t, KernelArgsAppend(th, a, []byte{7, 8, 9}, &p))   // 24..27
	var buf uintptr
	require.NoError(t, KernelArgsGetPlaceHolderBuffer(th, a, ph, 5, &buf))
	copy(h.bufs[buf], "hello")
	require.NoError(t, KernelArgsFinalize(th, a))
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 2, 0, nil, a))
	require.NoError(t, core.SynchronizeStream(th, 0, -1))

	seen := h.seen()
	require.Len(t, seen, 1)
	blob := seen[0]
	require.Len(t, blob, 40, "27 bytes of parameters rounded to 32, then 5 of data rounded to 8")
	assert.Equal(t, uint32(0xAABBCCDD), binary.LittleEndian.Uint32(blob[0:]))
	assert.Equal(t, []byte{0, 0, 0, 0}, blob[4:8], "padding is zero")
	assert.Equal(t, uint64(0x1122334455), binary.LittleEndian.Uint64(blob[8:]))
	assert.Equal(t, []byte{7, 8, 9}, blob[24:27])
	assert.Equal(t, "hello", string(blob[32:37]), "placeholder data after the parameters")
	h.mu.Lock()
	base := h.addrs[0]
	h.mu.Unlock()
	assert.Equal(t, uint64(base)+32, binary.LittleEndian.Uint64(blob[16:]), "the placeholder slot holds the address of the copied data")
	require.NoError(t, BinaryUnLoad(th, bin))
}

func TestLaunchCopiesArgs(t *testing.T) {
	th, h, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	var a, p core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsAppend(th, a, u64(1), &p))
	require.NoError(t, KernelArgsFinalize(th, a))
	h.gate = make(chan struct{})
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 1, 0, nil, a))
	require.NoError(t, KernelArgsParaUpdate(th, a, p, u64(2)))
	requireCode(t, core.LaunchKernelWithConfig(th, f, 1, 0, nil, a), abi.ACL_ERROR_RT_PARAM_INVALID) // not finalized again
	require.NoError(t, KernelArgsFinalize(th, a))
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 1, 0, nil, a))
	close(h.gate) // both kernels run only now, after the update
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	seen := h.seen()
	require.Len(t, seen, 2)
	assert.Equal(t, u64(1), seen[0], "the first launch keeps the value it was launched with")
	assert.Equal(t, u64(2), seen[1])
	require.NoError(t, BinaryUnLoad(th, bin))
}

// TestSharedArgsFromThreads: four threads launch with one args handle
// (launches read its finalized image without its lock) while a fifth
// updates and finalizes it again and again. Every launch either fails as
// not finalized or runs with one whole value the handle held, never a mix,
// and the race detector sees no unguarded access.
func TestSharedArgsFromThreads(t *testing.T) {
	th, h, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	var a, p core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsAppend(th, a, bytes.Repeat([]byte{1}, 64), &p))
	require.NoError(t, KernelArgsFinalize(th, a))
	const workers, launches = 4, 200
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // the updater
		defer wg.Done()
		for v := byte(2); ; v++ {
			select {
			case <-stop:
				return
			default:
			}
			assert.NoError(t, KernelArgsParaUpdate(th, a, p, bytes.Repeat([]byte{v}, 64)))
			assert.NoError(t, KernelArgsFinalize(th, a))
		}
	}()
	var launchers sync.WaitGroup
	ok := make([]int, workers)
	for w := range workers {
		launchers.Add(1)
		go func() {
			defer launchers.Done()
			wt := core.NewThread()
			assert.NoError(t, SetDevice(wt, 0))
			var s core.Handle
			assert.NoError(t, CreateStream(wt, &s))
			for range launches {
				err := core.LaunchKernelWithConfig(wt, f, 1, s, nil, a)
				if err == nil {
					ok[w]++
				} else if !assert.Equal(t, abi.ACL_ERROR_RT_PARAM_INVALID, abi.CodeOf(err), "%v", err) {
					return
				}
			}
			assert.NoError(t, core.SynchronizeStream(wt, s, -1))
			assert.NoError(t, DestroyStream(wt, s, false))
		}()
	}
	launchers.Wait()
	close(stop)
	wg.Wait()
	seen := h.seen()
	total := 0
	for _, n := range ok {
		total += n
	}
	require.Len(t, seen, total, "one kernel per successful launch")
	for i, b := range seen {
		require.Len(t, b, 64)
		require.Equal(t, bytes.Repeat(b[:1], 64), b, "launch %d ran with a torn image", i)
	}
	require.NoError(t, BinaryUnLoad(th, bin))
}

// TestFailedAppendKeepsFinalized: an append that fails changes nothing, so
// the handle stays finalized and launches as before.
func TestFailedAppendKeepsFinalized(t *testing.T) {
	th, h, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	var a, p core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	for i := range core.MaxKernelParams {
		require.NoError(t, KernelArgsAppend(th, a, u64(uint64(i)), &p))
	}
	require.NoError(t, KernelArgsFinalize(th, a))
	requireCode(t, KernelArgsAppend(th, a, u64(1), &p), abi.ACL_ERROR_INVALID_PARAM)
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 1, 0, nil, a))
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	seen := h.seen()
	require.Len(t, seen, 1)
	assert.Equal(t, u64(127), seen[0][8*127:])
	require.NoError(t, BinaryUnLoad(th, bin))
}

func TestArgsErrors(t *testing.T) {
	th, _, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	var a, p, ph core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsAppend(th, a, u64(1), &p))
	require.NoError(t, KernelArgsAppendPlaceHolder(th, a, &ph))
	var buf uintptr
	for _, tc := range []struct {
		name string
		err  error
		code abi.Code
	}{
		{"append NULL value", KernelArgsAppend(th, a, nil, &p), abi.ACL_ERROR_INVALID_PARAM},
		{"append NULL out", KernelArgsAppend(th, a, u64(1), nil), abi.ACL_ERROR_INVALID_PARAM},
		{"append to NULL args", KernelArgsAppend(th, 0, u64(1), &p), abi.ACL_ERROR_INVALID_PARAM},
		{"append to garbage args", KernelArgsAppend(th, core.Handle(0x1234), u64(1), &p), abi.ACL_ERROR_RT_INVALID_HANDLE},
		{"update size mismatch", KernelArgsParaUpdate(th, a, p, u32(1)), abi.ACL_ERROR_INVALID_PARAM},
		{"update placeholder", KernelArgsParaUpdate(th, a, ph, u64(1)), abi.ACL_ERROR_INVALID_PARAM},
		{"update unknown param", KernelArgsParaUpdate(th, a, core.ParamHandle(9), u64(1)), abi.ACL_ERROR_RT_INVALID_HANDLE},
		{"buffer of a plain param", KernelArgsGetPlaceHolderBuffer(th, a, p, 8, &buf), abi.ACL_ERROR_INVALID_PARAM},
		{"buffer of size 0", KernelArgsGetPlaceHolderBuffer(th, a, ph, 0, &buf), abi.ACL_ERROR_INVALID_PARAM},
		{"finalize without buffer", KernelArgsFinalize(th, a), abi.ACL_ERROR_INVALID_PARAM},
		{"mem size 0", KernelArgsGetMemSize(th, f, 0, new(uint64)), abi.ACL_ERROR_INVALID_PARAM},
	} {
		t.Run(tc.name, func(t *testing.T) { requireCode(t, tc.err, tc.code) })
	}

	// At most MaxKernelParams parameters.
	var many core.Handle
	require.NoError(t, KernelArgsInit(th, f, &many))
	for range core.MaxKernelParams {
		require.NoError(t, KernelArgsAppend(th, many, []byte{1}, &p))
	}
	requireCode(t, KernelArgsAppend(th, many, []byte{1}, &p), abi.ACL_ERROR_INVALID_PARAM)

	// User memory bounds the blob.
	user := make([]byte, 16)
	uh, err := KernelArgsInitByUserMem(th, f, user)
	require.NoError(t, err)
	require.NoError(t, KernelArgsAppend(th, uh, u64(5), &p))
	require.NoError(t, KernelArgsAppend(th, uh, u32(6), &p))
	assert.Equal(t, u64(5), user[:8], "parameters are written into the caller's memory")
	requireCode(t, KernelArgsAppend(th, uh, u32(7), &p), abi.ACL_ERROR_INVALID_PARAM)
	var sz uint64
	require.NoError(t, KernelArgsGetMemSize(th, f, 13, &sz))
	assert.Equal(t, uint64(16), sz)
	require.NoError(t, KernelArgsGetHandleMemSize(th, f, &sz))
	assert.Equal(t, uint64(core.ArgsHandleMemSize), sz)

	require.NoError(t, BinaryUnLoad(th, bin))
	requireCode(t, KernelArgsAppend(th, a, u64(1), &p), abi.ACL_ERROR_RT_INVALID_HANDLE)
}

func TestBinaryLoadErrors(t *testing.T) {
	th, _, bin := kernelSetup(t)
	var out core.Handle
	for _, tc := range []struct {
		name string
		err  error
		code abi.Code
	}{
		{"missing file", BinaryLoadFromFile(th, "/nonexistent/k.so", nil, &out), abi.ACL_ERROR_INVALID_FILE},
		{"not a kernel binary", BinaryLoadFromFile(th, kernelFile(t, "\x7fELF junk"), nil, &out), abi.ACL_ERROR_INVALID_FILE},
		{"directory", BinaryLoadFromFile(th, t.TempDir(), nil, &out), abi.ACL_ERROR_INVALID_FILE},
		{"empty path", BinaryLoadFromFile(th, "", nil, &out), abi.ACL_ERROR_INVALID_PARAM},
		{"NULL handle", BinaryLoadFromFile(th, kernelFile(t, "KERNELS"), nil, nil), abi.ACL_ERROR_INVALID_PARAM},
		{"garbage data", BinaryLoadFromData(th, []byte("garbage"), nil, &out), abi.ACL_ERROR_INVALID_FILE},
		{"empty data", BinaryLoadFromData(th, nil, nil, &out), abi.ACL_ERROR_INVALID_PARAM},
		{"cpu kernel mode", BinaryLoadFromData(th, []byte("KERNELS"), []core.BinaryLoadOption{{Type: abi.ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE, Value: 2}}, &out), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
		{"bad magic", BinaryLoadFromData(th, []byte("KERNELS"), []core.BinaryLoadOption{{Type: abi.ACL_RT_BINARY_LOAD_OPT_MAGIC, Value: 1}}, &out), abi.ACL_ERROR_INVALID_PARAM},
		{"unknown kernel", BinaryGetFunction(th, bin, "nope", &out), abi.ACL_ERROR_RT_KERNEL_LOOKUP},
		{"NULL binary", BinaryGetFunction(th, 0, "echo", &out), abi.ACL_ERROR_INVALID_PARAM},
		{"stale binary", BinaryUnLoad(th, core.Handle(0xB1<<56|5)), abi.ACL_ERROR_RT_INVALID_HANDLE},
	} {
		t.Run(tc.name, func(t *testing.T) { requireCode(t, tc.err, tc.code) })
	}
	err := BinaryLoadFromData(th, []byte("junk"), nil, &out)
	assert.Contains(t, abi.MessageOf(err), "npuemu_kernel_table", "the message says what the emulator expects")

	var data core.Handle
	require.NoError(t, BinaryLoadFromData(th, []byte("KERNELS"), []core.BinaryLoadOption{{Type: abi.ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, Value: 1}}, &data))
	require.NoError(t, BinaryUnLoad(th, data))
	require.NoError(t, BinaryUnLoad(th, bin))
}

func TestLaunchValidation(t *testing.T) {
	th, _, bin := kernelSetup(t)
	f, cube := function(t, th, bin, "echo"), function(t, th, bin, "cube")
	var a, other, p core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsAppend(th, a, u64(1), &p))
	require.NoError(t, KernelArgsFinalize(th, a))
	require.NoError(t, KernelArgsInit(th, cube, &other))
	require.NoError(t, KernelArgsFinalize(th, other))
	attr := func(id int32, v ...byte) core.LaunchAttr {
		la := core.LaunchAttr{ID: id}
		copy(la.Value[:], v)
		return la
	}
	for _, tc := range []struct {
		name   string
		fn     core.Handle
		blocks uint32
		attrs  []core.LaunchAttr
		args   core.Handle
		code   abi.Code
	}{
		{"zero blocks", f, 0, nil, a, abi.ACL_ERROR_INVALID_PARAM},
		{"too many blocks", f, 65536, nil, a, abi.ACL_ERROR_RT_PARAM_INVALID},
		{"NULL function", 0, 1, nil, a, abi.ACL_ERROR_INVALID_PARAM},
		{"garbage function", core.Handle(0xF1<<56 | 77), 1, nil, a, abi.ACL_ERROR_RT_INVALID_HANDLE},
		{"NULL args", f, 1, nil, 0, abi.ACL_ERROR_INVALID_PARAM},
		{"args of another kernel", f, 1, nil, other, abi.ACL_ERROR_RT_PARAM_INVALID},
		{"schem mode 2", f, 1, []core.LaunchAttr{attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, 2)}, a, abi.ACL_ERROR_INVALID_PARAM},
		{"both timeouts", f, 1, []core.LaunchAttr{attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, 1), attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, 1)}, a, abi.ACL_ERROR_INVALID_PARAM},
		{"unknown attribute", f, 1, []core.LaunchAttr{attr(77)}, a, abi.ACL_ERROR_INVALID_PARAM},
		{"engine type off 310P", f, 1, []core.LaunchAttr{attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, 1)}, a, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
		{"dynamic UB", f, 1, []core.LaunchAttr{attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, 0, 1)}, a, abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requireCode(t, core.LaunchKernelWithConfig(th, tc.fn, tc.blocks, 0, tc.attrs, tc.args), tc.code)
		})
	}
	ok := []core.LaunchAttr{attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, 1), attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, 10), attr(abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, 0)}
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 3, 0, ok, a))
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	requireCode(t, core.LaunchKernel(th, f, 1, 0, 8, 0), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, core.LaunchKernel(th, f, 1, 0x1000, 8, 0), abi.ACL_ERROR_INVALID_PARAM) // not device memory

	require.NoError(t, BinaryUnLoad(th, bin))
	requireCode(t, core.LaunchKernelWithConfig(th, f, 1, 0, nil, a), abi.ACL_ERROR_RT_INVALID_HANDLE)
}

func TestKernelFaultSurfacesAtSynchronize(t *testing.T) {
	th, h, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	h.fail[1] = true
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 4, 0, nil, a), "faults are asynchronous")
	err := core.SynchronizeStream(th, 0, -1)
	requireCode(t, err, abi.ACL_ERROR_RT_AICORE_EXCEPTION)
	assert.Contains(t, abi.MessageOf(err), "kernel echo, block 1 of 4")
	assert.NoError(t, core.SynchronizeStream(th, 0, -1), "reported once")
	require.NoError(t, BinaryUnLoad(th, bin))
}

func TestUnloadWaitsForQueuedLaunches(t *testing.T) {
	th, h, bin := kernelSetup(t)
	f := function(t, th, bin, "echo")
	var a core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsFinalize(th, a))
	h.gate = make(chan struct{})
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 2, 0, nil, a))
	b, err := core.Binaries.Get(bin)
	require.NoError(t, err)
	require.NoError(t, BinaryUnLoad(th, bin))
	h.mu.Lock()
	assert.Zero(t, h.closed[b.Lib], "not closed while a launch is queued")
	h.mu.Unlock()
	close(h.gate)
	require.NoError(t, core.SynchronizeStream(th, 0, -1))
	h.mu.Lock()
	assert.Equal(t, 1, h.closed[b.Lib], "closed once after the launch")
	h.mu.Unlock()
}

func TestFunctionQueries(t *testing.T) {
	th, _, bin := kernelSetup(t)
	for _, tc := range []struct {
		name     string
		kind     int64
		ratio    int64
		aic, aiv uintptr
	}{
		{"echo", abi.ACL_KERNEL_TYPE_VECTOR, 0<<16 | 1, 0, 1},
		{"mix", abi.ACL_KERNEL_TYPE_MIX, 1<<16 | 2, 2, 2},
		{"cube", abi.ACL_KERNEL_TYPE_CUBE, 1<<16 | 0, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := function(t, th, bin, tc.name)
			var v int64
			require.NoError(t, GetFunctionAttribute(th, f, abi.ACL_FUNC_ATTR_KERNEL_TYPE, &v))
			assert.Equal(t, tc.kind, v)
			require.NoError(t, GetFunctionAttribute(th, f, abi.ACL_FUNC_ATTR_KERNEL_RATIO, &v))
			assert.Equal(t, tc.ratio, v)
			requireCode(t, GetFunctionAttribute(th, f, 99, &v), abi.ACL_ERROR_INVALID_PARAM)
			var aic, aiv uintptr
			require.NoError(t, GetFunctionAddr(th, f, &aic, &aiv))
			assert.Equal(t, []uintptr{tc.aic, tc.aiv}, []uintptr{aic, aiv})
			name, err := FunctionName(th, f)
			require.NoError(t, err)
			assert.Equal(t, tc.name, name)
			var b core.Handle
			require.NoError(t, FunctionGetBinary(th, f, &b))
			assert.Equal(t, bin, b)
		})
	}
	require.NoError(t, BinaryUnLoad(th, bin))
}

func BenchmarkLaunchKernelWithConfig(b *testing.B) {
	resetRuntime()
	b.Setenv("NPUEMU_DEVICES", "1")
	b.Setenv("NPUEMU_SOC", "")
	b.Setenv("NPUEMU_CONFIG", "")
	h := &fakeHost{bufs: map[uintptr][]byte{}, closed: map[uintptr]int{}, fail: map[uint32]bool{}, quiet: true}
	usePlatform(b, emu.Platform{Kernels: h})
	th := core.NewThread()
	require.NoError(b, Init(th, ""))
	defer resetRuntime()
	require.NoError(b, SetDevice(th, 0))
	var bin, f, a, p core.Handle
	require.NoError(b, BinaryLoadFromData(th, []byte("KERNELS"), nil, &bin))
	require.NoError(b, BinaryGetFunction(th, bin, "cube", &f))
	require.NoError(b, KernelArgsInit(th, f, &a))
	for i := range 4 {
		require.NoError(b, KernelArgsAppend(th, a, u64(uint64(i)), &p))
	}
	require.NoError(b, KernelArgsFinalize(th, a))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := core.LaunchKernelWithConfig(th, f, 1, 0, nil, a); err != nil {
			b.Fatal(err)
		}
		if i++; i%256 == 0 {
			b.StopTimer()
			require.NoError(b, core.SynchronizeStream(th, 0, -1))
			b.StartTimer()
		}
	}
	require.NoError(b, core.SynchronizeStream(th, 0, -1))
	require.NoError(b, BinaryUnLoad(th, bin))
}
