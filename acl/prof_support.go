package acl

// Support entries of the profiling interfaces (acl/acl_prof.h, mstx;
// docs/profiling.md), added to the ACL support table's rules when they are
// made.

func profAreaRules(areas map[string]rule) {
	areas["prof"] = supported("profiling API over the device timeline (docs/profiling.md)")
	areas["mstx"] = supported("recorded on the device timeline and, while a collection with ACL_PROF_MSPROFTX runs, into msprof_tx (docs/profiling.md)")
}

func profSymbolRules(symbols map[string]rule) {
	for name, r := range map[string]rule{
		"aclprofSetConfig":         partial("values are checked and kept; only ACL_PROF_PATH changes what is collected (npuemu collects no system data)"),
		"aclprofCreateConfig":      partial("aicoreMetrics is kept; only ACL_AICORE_PIPE_UTILIZATION has columns, filled from the pipe cycles Ascend C kernels report"),
		"aclprofStop":              partial("writes mindstudio_profiler_output directly (op_summary, op_statistic, task_time, msprof json, msprof_tx) with device-clock times in µs; no raw data, no msprof --export step"),
		"aclprofModelSubscribe":    partial("models are aclmdlRI ids; every kernel completing on the model's device is reported under the subscribed id"),
		"aclprofGetStepTimestamp":  partial("the step boundary is an instant on the stream's device timeline"),
		"aclprofRangePushEx":       partial("the tensor range is recorded as a push/pop tx event named after its op id; tensor shapes are not exported"),
		"aclprofRangePop":          partial("see aclprofRangePushEx"),
		"mstxGetToolId":            supported("MSTX_TOOL_MSPROF_ID: npuemu intercepts mstx as msprof does"),
		"mstxMemHeapRegister":      partial("as under msprof: nothing is recorded and the heap handle is NULL"),
		"mstxMemHeapUnregister":    partial("as under msprof: nothing is recorded"),
		"mstxMemRegionsRegister":   partial("as under msprof: nothing is recorded; the region handles written are NULL"),
		"mstxMemRegionsUnregister": partial("as under msprof: nothing is recorded"),
		"mstxMemPermissionsAssign": partial("as under msprof: nothing is recorded"),
	} {
		symbols[name] = r
	}
}
