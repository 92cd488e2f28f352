package acl

import (
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
)

// runHost is fakeHost recording every block it runs.
type runHost struct {
	*fakeHost
	rmu  sync.Mutex
	runs []blockRun
}

type blockRun struct {
	fn            uintptr
	block, blocks uint32
}

func (h *runHost) Run(fn, args uintptr, size uint64, block, blocks uint32, state []byte) error {
	h.rmu.Lock()
	h.runs = append(h.runs, blockRun{fn, block, blocks})
	h.rmu.Unlock()
	return h.fakeHost.Run(fn, args, size, block, blocks, state)
}

// take returns the runs since the last call, sorted by block.
func (h *runHost) take() []blockRun {
	h.rmu.Lock()
	defer h.rmu.Unlock()
	r := h.runs
	h.runs = nil
	slices.SortFunc(r, func(a, b blockRun) int { return int(a.block) - int(b.block) })
	return r
}

func blocksOf(fn uintptr, n uint32) []blockRun {
	var r []blockRun
	for b := range n {
		r = append(r, blockRun{fn, b, n})
	}
	return r
}

// updateSetup loads the fake kernels and builds an RI on a persistent
// stream: kernel echo with 2 blocks and DATA_DUMP set, then a memset.
// It returns the ids aclrtGetThreadLastTaskId reported for both.
func updateSetup(t *testing.T, env map[string]string) (th *core.Thread, h *runHost, bin, ri, ps core.Handle, kid, mid uint32, dev uintptr) {
	h = &runHost{fakeHost: &fakeHost{bufs: map[uintptr][]byte{}, closed: map[uintptr]int{}, fail: map[uint32]bool{}, quiet: true}}
	th = setupPlatform(t, env, emu.Platform{Kernels: h})
	require.NoError(t, SetDevice(th, 0))
	require.NoError(t, BinaryLoadFromFile(th, kernelFile(t, "KERNELS"), nil, &bin))
	t.Cleanup(func() {
		assert.Zero(t, core.ModelRIs.Len(), "model run instances left")
		b, f, a := core.LiveKernelObjects()
		assert.Zero(t, b+f+a, "kernel objects left")
	})
	f := function(t, th, bin, "echo")
	var a, p core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsAppend(th, a, u64(7), &p))
	require.NoError(t, KernelArgsFinalize(th, a))
	require.NoError(t, core.CreateStreamWithConfig(th, &ps, 0, abi.ACL_STREAM_PERSISTENT))
	dev = devAlloc(t, th, 64)
	require.NoError(t, BuildBegin(th, &ri, 0))
	require.NoError(t, BindStream(th, ri, ps, core.ModelStreamFlagHead))
	dump := []core.LaunchAttr{{ID: abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, Value: [16]byte{1}}}
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 2, ps, dump, a))
	require.NoError(t, GetThreadLastTaskID(th, &kid))
	require.NoError(t, core.MemsetAsync(th, dev+32, 8, 1, 8, ps))
	require.NoError(t, GetThreadLastTaskID(th, &mid))
	require.NoError(t, EndTask(th, ri, ps))
	require.NoError(t, BuildEnd(th, ri, 0))
	t.Cleanup(func() {
		assert.NoError(t, UnbindStream(th, ri, ps))
		assert.NoError(t, Destroy(th, ri))
		assert.NoError(t, core.DestroyStream(th, ps, false))
		assert.NoError(t, BinaryUnLoad(th, bin))
	})
	return
}

func aicAivInfo(bin core.Handle, entryAt, blocksAt uintptr) *TaskUpdateInfo {
	info := &TaskUpdateInfo{Id: abi.ACL_RT_UPDATE_AIC_AIV_TASK}
	le.PutUint64(info.Val[tuBinHandle:], uint64(bin))
	le.PutUint64(info.Val[tuFuncEntry:], uint64(entryAt))
	le.PutUint64(info.Val[tuBlockDimAt:], uint64(blocksAt))
	return info
}

func TestTaskUpdateInfoLayout(t *testing.T) {
	ty := reflect.TypeOf(TaskUpdateInfo{})
	assert.Equal(t, uintptr(48), ty.Size(), "sizeof(aclrtTaskUpdateInfo)")
	assert.Equal(t, uintptr(8), ty.Field(2).Offset, "offsetof(val)")
}

func TestTaskUpdateAsyncRewritesKernel(t *testing.T) {
	th, h, bin, ri, ps, kid, mid, dev := updateSetup(t, nil)
	assert.Equal(t, kid+1, mid, "recorded tasks are numbered in stream order")
	tasks := userTasks(t, th, ps)
	require.Len(t, tasks, 2)
	var seq uint32
	require.NoError(t, TaskGetSeqID(th, tasks[0], &seq))
	assert.Equal(t, seq, kid, "the task id is the sequence id")

	exec := newStream(t, th)
	require.NoError(t, core.ExecuteAsync(th, ri, exec))
	require.NoError(t, core.SynchronizeStream(th, exec, -1))
	assert.Equal(t, blocksOf(1, 2), h.take(), "recorded: echo on 2 blocks")

	// A kernel would compute these words; the update reads them when it runs.
	var cube, aic, aiv uintptr
	cube = uintptr(function(t, th, bin, "cube"))
	require.NoError(t, GetFunctionAddr(th, core.Handle(cube), &aic, &aiv))
	toDev(t, th, dev, append(u64(uint64(aic)), u32(5)...))
	require.NoError(t, TaskUpdateAsync(th, ps, kid, aicAivInfo(bin, dev, dev+8), exec))
	var upd uint32
	require.NoError(t, GetThreadLastTaskID(th, &upd))
	require.NoError(t, core.ExecuteAsync(th, ri, exec)) // stream order: after the update
	require.NoError(t, core.SynchronizeStream(th, exec, -1))
	assert.Equal(t, blocksOf(aic, 5), h.take(), "the update reached the execution queued behind it")

	require.NoError(t, Execute(th, ri, -1))
	assert.Equal(t, blocksOf(aic, 5), h.take(), "and every later one")
	var params RITaskParams
	require.NoError(t, TaskGetParams(th, tasks[0], &params))
	assert.Equal(t, uint64(cube), le.Uint64(params.Rsv2[kpFunc:]))
	assert.Equal(t, uint32(5), le.Uint32(params.Rsv2[kpNumBlocks:]))

	// Only numBlocks, after aclmdlRIUpdate rebuilt the plan.
	require.NoError(t, Update(th, ri))
	toDev(t, th, dev+8, u32(3))
	require.NoError(t, TaskUpdateAsync(th, ps, kid, aicAivInfo(bin, 0, dev+8), exec))
	require.NoError(t, core.ExecuteAsync(th, ri, exec))
	require.NoError(t, core.SynchronizeStream(th, exec, -1))
	assert.Equal(t, blocksOf(aic, 3), h.take())

	// Errors found when the update runs fail its stream.
	toDev(t, th, dev, u64(0xDEAD))
	require.NoError(t, TaskUpdateAsync(th, ps, kid, aicAivInfo(bin, dev, 0), exec))
	requireCode(t, core.SynchronizeStream(th, exec, -1), abi.ACL_ERROR_RT_PARAM_INVALID)
}

func TestTaskUpdateAsyncErrors(t *testing.T) {
	th, _, bin, _, ps, kid, mid, dev := updateSetup(t, nil)
	exec := newStream(t, th)
	ok := aicAivInfo(bin, 0, dev+8)
	random := aicAivInfo(bin, 0, dev+8)
	random.Id = abi.ACL_RT_UPDATE_RANDOM_TASK
	unknown := aicAivInfo(bin, 0, dev+8)
	unknown.Id = 9
	host := make([]byte, 8)
	base, size, found := th.Ctx.Dev.Emu.HBM.Find(dev)
	require.True(t, found)
	last := base + uintptr(size) - 4 // a 4-byte word fits, an 8-byte one does not
	for _, tc := range []struct {
		name string
		ts   core.Handle
		id   uint32
		info *TaskUpdateInfo
		es   core.Handle
		code abi.Code
	}{
		{"nil info", ps, kid, nil, exec, abi.ACL_ERROR_INVALID_PARAM},
		{"NULL taskStream", 0, kid, ok, exec, abi.ACL_ERROR_INVALID_PARAM},
		{"unknown task id", ps, mid + 10, ok, exec, abi.ACL_ERROR_RT_PARAM_INVALID},
		{"not a kernel", ps, mid, ok, exec, abi.ACL_ERROR_RT_PARAM_INVALID},
		{"unbound taskStream", exec, kid, ok, exec, abi.ACL_ERROR_RT_STREAM_MODEL},
		{"model stream as execStream", ps, kid, ok, ps, abi.ACL_ERROR_RT_STREAM_MODEL},
		{"random task", ps, kid, random, exec, abi.ACL_ERROR_INVALID_PARAM},
		{"unknown attr id", ps, kid, unknown, exec, abi.ACL_ERROR_INVALID_PARAM},
		{"nothing to update", ps, kid, aicAivInfo(bin, 0, 0), exec, abi.ACL_ERROR_INVALID_PARAM},
		{"NULL binHandle", ps, kid, aicAivInfo(0, 0, dev+8), exec, abi.ACL_ERROR_INVALID_PARAM},
		{"host address", ps, kid, aicAivInfo(bin, 0, reflect.ValueOf(host).Pointer()), exec, abi.ACL_ERROR_INVALID_PARAM},
		{"word past the allocation", ps, kid, aicAivInfo(bin, last, 0), exec, abi.ACL_ERROR_INVALID_PARAM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requireCode(t, TaskUpdateAsync(th, tc.ts, tc.id, tc.info, tc.es), tc.code)
		})
	}
	require.NoError(t, core.SynchronizeStream(th, exec, -1), "nothing was queued")
}

func TestTaskUpdateAsyncSoCSupport(t *testing.T) {
	updateSetup(t, map[string]string{"NPUEMU_SOC": "Ascend310B1"})
	requireCode(t, core.CheckSoC("aclrtTaskUpdateAsync"), abi.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
}

func TestKernelTaskAttributesAsLaunched(t *testing.T) {
	th, _, bin, ri, ps, _, _, _ := updateSetup(t, nil)
	_ = ri
	tasks := userTasks(t, th, ps)
	// A second RI whose kernel sets every queryable attribute.
	f := function(t, th, bin, "echo")
	var a, p core.Handle
	require.NoError(t, KernelArgsInit(th, f, &a))
	require.NoError(t, KernelArgsAppend(th, a, u64(1), &p))
	require.NoError(t, KernelArgsFinalize(th, a))
	s := newStream(t, th)
	require.NoError(t, CaptureBegin(th, s, abi.ACL_MODEL_RI_CAPTURE_MODE_RELAXED))
	attrs := []core.LaunchAttr{
		{ID: abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, Value: [16]byte{1}},
		{ID: abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, Value: [16]byte{1}},
		{ID: abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, Value: [16]byte{3}},
	}
	require.NoError(t, core.LaunchKernelWithConfig(th, f, 1, s, attrs, a))
	var id uint32
	require.NoError(t, GetThreadLastTaskID(th, &id))
	var cri core.Handle
	require.NoError(t, CaptureEnd(th, s, &cri))
	defer destroyRI(t, th, cri)
	var streams [1]core.Handle
	n := uint32(1)
	require.NoError(t, GetStreams(th, cri, streams[:], &n))
	captured := userTasks(t, th, streams[0])
	require.Len(t, captured, 1)
	var seq uint32
	require.NoError(t, TaskGetSeqID(th, captured[0], &seq))
	assert.Equal(t, seq, id, "a captured task's id is its sequence id too")

	val := func(b ...byte) [16]byte { var v [16]byte; copy(v[:], b); return v }
	for _, tc := range []struct {
		name string
		task core.Handle
		id   int32
		want [16]byte
	}{
		{"built: data dump given", tasks[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, val(1)},
		{"built: profiling default", tasks[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, val(0)},
		{"built: schem mode default", tasks[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, val(0)},
		{"captured: profiling given", captured[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, val(1)},
		{"captured: data dump default", captured[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, val(0)},
		{"captured: batch", captured[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, val(1)},
		{"captured: timeout", captured[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, val(3)},
		{"captured: timeout in µs", captured[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, val(0xC0, 0xC6, 0x2D)},
		{"captured: dyn UB", captured[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, val()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v [16]byte
			require.NoError(t, KernelTaskGetAttribute(th, tc.task, tc.id, &v))
			assert.Equal(t, tc.want, v)
		})
	}
	var v [16]byte
	requireCode(t, KernelTaskGetAttribute(th, tasks[1], abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, &v), abi.ACL_ERROR_INVALID_PARAM)
	requireCode(t, KernelTaskGetAttribute(th, tasks[0], abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, &v), abi.ACL_ERROR_INVALID_PARAM)
}
