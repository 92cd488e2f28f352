package rt

import (
	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// The rest of the capture family (round 9): conditional tasks and their
// sub-graphs, the destroy callbacks of a model, and the tasks of a
// captured model (rtTask_t == aclmdlRITask) with their introspection,
// parameters and re-issue. The work is in the acl entry points
// (acl/cond.go, acl/mdlri_info.go, acl/taskupdate.go).
//
// The vendor's ACL casts its structures to the runtime's (acl-to-rt.tsv:
// "casts to: rtTaskParams", "rtTaskUpdateCfg_t", "rtLaunchKernelAttrVal_t";
// rtCondTaskParams is filled from aclmdlRICondTaskParams' fields), so
// their layouts are the same (TaskParams and TaskUpdateCfg are generated
// from rt.h in zmirrors.go); the enum fields in them are converted here
// by name (taskTypeFromACL, ...), so that a numbering difference would
// show.

// socGate refuses fn on an emulated SoC that the documentation does not
// list for fn's ACL counterpart aclFn (the feature is the runtime's: it is
// absent there), with ACL_ERROR_RT_FEATURE_NOT_SUPPORT, as the ACL call
// is refused.
func socGate(fn, aclFn string) error {
	if err := core.CheckSoC(aclFn); err != nil {
		return wrap(fn, err)
	}
	return nil
}

// condHandleFlagToACL converts an rtCondHandleFlag_t. 0 (no flag) passes,
// as aclmdlRICondHandleCreate accepts it and hands it on unchanged.
func condHandleFlagToACL(fn string, f int32) (int32, error) {
	switch f {
	case 0:
		return 0, nil
	case abi.RT_COND_HANDLE_ASSIGN_DEFAULT:
		return abi.ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, nil
	}
	return 0, invalid(fn, "flag %d: want 0 or RT_COND_HANDLE_ASSIGN_DEFAULT (%d)", f, abi.RT_COND_HANDLE_ASSIGN_DEFAULT)
}

// condTaskTypeToACL converts an rtCondTaskType_t.
func condTaskTypeToACL(fn string, typ int32) (int32, error) {
	switch typ {
	case abi.RT_COND_TASK_TYPE_IF:
		return abi.ACL_MODEL_RI_COND_TYPE_IF, nil
	case abi.RT_COND_TASK_TYPE_WHILE:
		return abi.ACL_MODEL_RI_COND_TYPE_WHILE, nil
	case abi.RT_COND_TASK_TYPE_SWITCH:
		return abi.ACL_MODEL_RI_COND_TYPE_SWITCH, nil
	}
	return 0, invalid(fn, "type %d: want RT_COND_TASK_TYPE_IF, _WHILE or _SWITCH", typ)
}

// taskTypes pairs rtTaskType with aclmdlRITaskType.
var taskTypes = [...]struct{ rt, acl int32 }{
	{abi.RT_TASK_DEFAULT, abi.ACL_MODEL_RI_TASK_DEFAULT},
	{abi.RT_TASK_KERNEL, abi.ACL_MODEL_RI_TASK_KERNEL},
	{abi.RT_TASK_EVENT_RECORD, abi.ACL_MODEL_RI_TASK_EVENT_RECORD},
	{abi.RT_TASK_EVENT_WAIT, abi.ACL_MODEL_RI_TASK_EVENT_WAIT},
	{abi.RT_TASK_EVENT_RESET, abi.ACL_MODEL_RI_TASK_EVENT_RESET},
	{abi.RT_TASK_VALUE_WRITE, abi.ACL_MODEL_RI_TASK_VALUE_WRITE},
	{abi.RT_TASK_VALUE_WAIT, abi.ACL_MODEL_RI_TASK_VALUE_WAIT},
}

// taskTypeFromACL converts an aclmdlRITaskType to rtTaskType (a type
// without an rt name is RT_TASK_DEFAULT: a task the runtime does not
// classify).
func taskTypeFromACL(a int32) int32 {
	for _, p := range taskTypes {
		if p.acl == a {
			return p.rt
		}
	}
	return abi.RT_TASK_DEFAULT
}

// taskTypeToACL converts an rtTaskType to aclmdlRITaskType.
func taskTypeToACL(fn string, r int32) (int32, error) {
	for _, p := range taskTypes {
		if p.rt == r {
			return p.acl, nil
		}
	}
	return 0, invalid(fn, "task type %d is not an rtTaskType", r)
}

// kernelAttrToACL converts an rtLaunchKernelAttrId to
// aclrtLaunchKernelAttrId (LOCAL_MEM_SIZE is ACL's LOCAL_MEMORY_SIZE).
func kernelAttrToACL(fn string, id int32) (int32, error) {
	switch id {
	case abi.RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
		return abi.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, nil
	case abi.RT_LAUNCH_KERNEL_ATTR_LOCAL_MEM_SIZE: // == DYN_UBUF_SIZE
		return abi.ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE, nil
	case abi.RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
		return abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, nil
	case abi.RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
		return abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, nil
	case abi.RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
		return abi.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, nil
	case abi.RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
		return abi.ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, nil
	case abi.RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
		return abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, nil
	case abi.RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
		return abi.ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, nil
	case abi.RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
		return abi.ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, nil
	}
	return 0, invalid(fn, "attrId %d is not an rtLaunchKernelAttrId", id)
}

// updateAttrToACL converts an rtUpdateTaskAttrId: RT_UPDATE_DSA_TASK is
// ACL's ACL_RT_UPDATE_RANDOM_TASK (the DSA engine's random-number task).
func updateAttrToACL(fn string, id uint32) (uint32, error) {
	switch id {
	case abi.RT_UPDATE_DSA_TASK:
		return abi.ACL_RT_UPDATE_RANDOM_TASK, nil
	case abi.RT_UPDATE_AIC_AIV_TASK:
		return abi.ACL_RT_UPDATE_AIC_AIV_TASK, nil
	}
	return 0, invalid(fn, "cfg->id %d: want RT_UPDATE_DSA_TASK or RT_UPDATE_AIC_AIV_TASK", id)
}

// ModelCondHandleCreate implements rtModelCondHandleCreate: an 8-byte
// condition word on the device of mdl (a model being captured or built),
// holding defaultLaunchValue; RT_COND_HANDLE_ASSIGN_DEFAULT rewrites the
// default at the start of each execution.
func ModelCondHandleCreate(t *core.Thread, m core.Handle, def uint32, flag int32, out *core.Handle) error {
	const fn = "rtModelCondHandleCreate"
	if err := socGate(fn, "aclmdlRICondHandleCreate"); err != nil {
		return err
	}
	if m == 0 || out == nil {
		return invalid(fn, "mdl and handle must not be NULL")
	}
	f, err := condHandleFlagToACL(fn, flag)
	if err != nil {
		return err
	}
	return wrap(fn, acl.CondHandleCreate(t, m, def, f, out))
}

// ModelCondHandleGetCondPtr implements rtModelCondHandleGetCondPtr: the
// device address of the condition word.
func ModelCondHandleGetCondPtr(t *core.Thread, h core.Handle, devPtr *uintptr) error {
	const fn = "rtModelCondHandleGetCondPtr"
	if err := socGate(fn, "aclmdlRICondHandleGetCondPtr"); err != nil {
		return err
	}
	if h == 0 || devPtr == nil {
		return invalid(fn, "handle and devPtr must not be NULL")
	}
	return wrap(fn, acl.CondHandleGetCondPtr(t, h, devPtr))
}

// StreamAddCondTask implements rtStreamAddCondTask: a conditional task on
// the capturing or bound stream stm, choosing among the sub-graphs it
// writes into params.Subs (created here, captured with
// rtStreamBeginCaptureToModel). flags must be 0.
func StreamAddCondTask(t *core.Thread, p core.CondTaskParams, s core.Handle, flags uint32) error {
	const fn = "rtStreamAddCondTask"
	if err := socGate(fn, "aclmdlRIAddCondTask"); err != nil {
		return err
	}
	if p.Handle == 0 {
		return invalid(fn, "params.handle must not be NULL")
	}
	typ, err := condTaskTypeToACL(fn, p.Type)
	if err != nil {
		return err
	}
	p.Type = typ
	return wrap(fn, acl.AddCondTask(t, p, s, flags))
}

// StreamBeginCaptureToModel implements rtStreamBeginCaptureToModel: stm
// captures into mdl, a sub-graph of a conditional task;
// rtStreamEndCapture ends it.
func StreamBeginCaptureToModel(t *core.Thread, s, m core.Handle, mode int32) error {
	const fn = "rtStreamBeginCaptureToModel"
	if err := socGate(fn, "aclmdlRICaptureToModelRIBegin"); err != nil {
		return err
	}
	if m == 0 {
		return invalid(fn, "mdl must not be NULL")
	}
	am, err := captureModeToACL(fn, mode)
	if err != nil {
		return err
	}
	return wrap(fn, acl.CaptureToModelRIBegin(t, s, m, am))
}

// ModelDestroyRegisterCallback implements rtModelDestroyRegisterCallback:
// cb runs when mdl is destroyed; key (the function's address) names it for
// rtModelDestroyUnregisterCallback.
func ModelDestroyRegisterCallback(t *core.Thread, m core.Handle, key uintptr, cb func()) error {
	const fn = "rtModelDestroyRegisterCallback"
	if m == 0 || key == 0 {
		return invalid(fn, "mdl and fn must not be NULL")
	}
	return wrap(fn, acl.DestroyRegisterCallback(t, m, key, cb))
}

// ModelDestroyUnregisterCallback implements
// rtModelDestroyUnregisterCallback.
func ModelDestroyUnregisterCallback(t *core.Thread, m core.Handle, key uintptr) error {
	const fn = "rtModelDestroyUnregisterCallback"
	if m == 0 || key == 0 {
		return invalid(fn, "mdl and fn must not be NULL")
	}
	return wrap(fn, acl.DestroyUnregisterCallback(t, m, key))
}

// StreamGetTasks implements rtStreamGetTasks: the tasks of a stream of a
// ready captured model, in order. With tasks NULL only *num is set;
// otherwise tasks holds *num entries and must have room for all.
func StreamGetTasks(t *core.Thread, s core.Handle, tasks []core.Handle, num *uint32) error {
	const fn = "rtStreamGetTasks"
	if err := socGate(fn, "aclmdlRIGetTasksByStream"); err != nil {
		return err
	}
	if s == 0 || num == nil {
		return invalid(fn, "stm and numTasks must not be NULL")
	}
	return wrap(fn, acl.GetTasksByStream(t, s, tasks, num))
}

// TaskGetType implements rtTaskGetType: the task's rtTaskType.
func TaskGetType(t *core.Thread, task core.Handle, typ *int32) error {
	const fn = "rtTaskGetType"
	if err := socGate(fn, "aclmdlRITaskGetType"); err != nil {
		return err
	}
	if task == 0 || typ == nil {
		return invalid(fn, "task and type must not be NULL")
	}
	var a int32
	if err := acl.TaskGetType(t, task, &a); err != nil {
		return wrap(fn, err)
	}
	*typ = taskTypeFromACL(a)
	return nil
}

// TaskGetSeqID implements rtTaskGetSeqId: the task's 0-based position
// among the tasks of its stream.
func TaskGetSeqID(t *core.Thread, task core.Handle, id *uint32) error {
	const fn = "rtTaskGetSeqId"
	if err := socGate(fn, "aclmdlRITaskGetSeqId"); err != nil {
		return err
	}
	if task == 0 || id == nil {
		return invalid(fn, "task and id must not be NULL")
	}
	return wrap(fn, acl.TaskGetSeqID(t, task, id))
}

// taskParamsToACL is p in aclmdlRITaskParams' layout, the type converted.
func taskParamsToACL(fn string, p *TaskParams) (acl.RITaskParams, error) {
	typ, err := taskTypeToACL(fn, int32(p.Type))
	if err != nil {
		return acl.RITaskParams{}, err
	}
	return acl.RITaskParams{Type: uint32(typ), Rsv0: p.Rsv0, TaskGrp: p.TaskGrp, OpInfoPtr: p.OpInfoPtr, OpInfoSize: p.OpInfoSize, Rsv1: p.Rsv1, Rsv2: p.NpuUnlisted}, nil
}

// ModelTaskGetParams implements rtModelTaskGetParams: the rtTaskParams of
// a recorded task; the union after rsv1, which the spec does not list,
// is aclmdlRITaskParams' (the vendor's ACL casts one to the other). *p is
// written only on success.
func ModelTaskGetParams(t *core.Thread, task core.Handle, p *TaskParams) error {
	const fn = "rtModelTaskGetParams"
	if err := socGate(fn, "aclmdlRITaskGetParams"); err != nil {
		return err
	}
	if task == 0 || p == nil {
		return invalid(fn, "task and params must not be NULL")
	}
	var a acl.RITaskParams
	if err := acl.TaskGetParams(t, task, &a); err != nil {
		return wrap(fn, err)
	}
	*p = TaskParams{Type: uint32(taskTypeFromACL(int32(a.Type))), Rsv0: a.Rsv0, TaskGrp: a.TaskGrp, OpInfoPtr: a.OpInfoPtr, OpInfoSize: a.OpInfoSize, Rsv1: a.Rsv1, NpuUnlisted: a.Rsv2}
	return nil
}

// ModelTaskSetParams implements rtModelTaskSetParams: new parameters of a
// recorded kernel or value write/wait task, effective at rtModelUpdate.
// p.Type must be the task's rtTaskType.
func ModelTaskSetParams(t *core.Thread, task core.Handle, p *TaskParams) error {
	const fn = "rtModelTaskSetParams"
	if err := socGate(fn, "aclmdlRITaskSetParams"); err != nil {
		return err
	}
	if task == 0 || p == nil {
		return invalid(fn, "task and params must not be NULL")
	}
	a, err := taskParamsToACL(fn, p)
	if err != nil {
		return err
	}
	return wrap(fn, acl.TaskSetParams(t, task, &a))
}

// ModelKernelTaskGetAttribute implements rtModelKernelTaskGetAttribute:
// a launch attribute of a recorded kernel task, into the 16-byte
// rtLaunchKernelAttrVal_t (written only on success).
func ModelKernelTaskGetAttribute(t *core.Thread, task core.Handle, id int32, val *[16]byte) error {
	const fn = "rtModelKernelTaskGetAttribute"
	if err := socGate(fn, "aclmdlRIKernelTaskGetAttribute"); err != nil {
		return err
	}
	if task == 0 || val == nil {
		return invalid(fn, "task and attrValue must not be NULL")
	}
	aid, err := kernelAttrToACL(fn, id)
	if err != nil {
		return err
	}
	var v [16]byte
	if err := acl.KernelTaskGetAttribute(t, task, aid, &v); err != nil {
		return wrap(fn, err)
	}
	*val = v
	return nil
}

// ModelTaskDisable implements rtModelTaskDisable: from the next
// rtModelUpdate on the task no longer runs.
func ModelTaskDisable(t *core.Thread, task core.Handle) error {
	const fn = "rtModelTaskDisable"
	if err := socGate(fn, "aclmdlRITaskDisable"); err != nil {
		return err
	}
	if task == 0 {
		return invalid(fn, "task must not be NULL")
	}
	return wrap(fn, acl.TaskDisable(t, task))
}

// LaunchUpdateTask implements rtsLaunchUpdateTask: the task destTaskID of
// destStm (a stream bound to a model run instance) gets cfg's new
// parameters, in the order of stm. cfg is aclrtTaskUpdateInfo's layout
// with an rtUpdateTaskAttrId.
func LaunchUpdateTask(t *core.Thread, destStm core.Handle, destTaskID uint32, s core.Handle, cfg *TaskUpdateCfg) error {
	const fn = "rtsLaunchUpdateTask"
	if err := socGate(fn, "aclrtTaskUpdateAsync"); err != nil {
		return err
	}
	if destStm == 0 || cfg == nil {
		return invalid(fn, "destStm and cfg must not be NULL")
	}
	id, err := updateAttrToACL(fn, cfg.Id)
	if err != nil {
		return err
	}
	c := acl.TaskUpdateInfo{Id: id, Val: cfg.Val}
	return wrap(fn, acl.TaskUpdateAsync(t, destStm, destTaskID, &c, s))
}
