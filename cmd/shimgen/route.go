package main

import (
	"bytes"
	"fmt"
	"strings"
)

// route is an ACL function whose implementation is one call of an rt*
// function (acl-to-rt.tsv): in the split layout (NPUEMU_STACK=split,
// docs/stack.md) that call crosses from libascendcl.so into libruntime.so,
// so an interposed rt* definition must see it. Its shim then calls the
// interposed definition directly, in C, when libfake/stack.c found one
// (npu_route_fns); otherwise nothing changes. ACL functions that do work of
// their own before the rt* call (aclrtMalloc: padding, policy translation)
// are routed in Go instead (acl/stack.go, rt/stack).
type route struct {
	acl, rt string
	// args are the C arguments of the rt* call over the ACL parameters;
	// "" passes them unchanged.
	args string
	// guard is the C condition under which the ACL function reaches the
	// rt* call (its own argument checks pass); "" means always. When it is
	// false the emulator answers, with the ACL code.
	guard string
	// helper, when set, is a C function of stack.c that makes the call
	// (building an rt* argument record), given the rt* pointer first.
	helper string
	// noArgs: the rt* function takes none of the ACL parameters.
	noArgs bool
}

// routes, in no particular order; an entry's index is its slot in
// npu_route_fns.
var routes = []route{
	{acl: "aclrtSetDevice", rt: "rtSetDevice"},
	{acl: "aclrtResetDevice", rt: "rtDeviceReset"},
	{acl: "aclrtGetDevice", rt: "rtGetDevice", guard: "deviceId != NULL"},
	{acl: "aclrtSynchronizeDevice", rt: "rtDeviceSynchronize"},
	{acl: "aclrtCreateStream", rt: "rtStreamCreate", args: "stream, 0", guard: "stream != NULL"},
	{acl: "aclrtDestroyStream", rt: "rtStreamDestroy", guard: "stream != NULL"},
	{acl: "aclrtSynchronizeStream", rt: "rtStreamSynchronize"},
	{acl: "aclrtStreamWaitEvent", rt: "rtStreamWaitEvent", guard: "event != NULL"},
	{acl: "aclrtCreateEvent", rt: "rtEventCreate", guard: "event != NULL"},
	{acl: "aclrtDestroyEvent", rt: "rtEventDestroy", guard: "event != NULL"},
	{acl: "aclrtRecordEvent", rt: "rtEventRecord", guard: "event != NULL"},
	{acl: "aclrtResetEvent", rt: "rtEventReset", guard: "event != NULL"},
	{acl: "aclrtSynchronizeEvent", rt: "rtEventSynchronize", guard: "event != NULL"},
	{acl: "aclrtEventElapsedTime", rt: "rtEventElapsedTime", guard: "ms != NULL && startEvent != NULL && endEvent != NULL"},
	{acl: "aclrtQueryEventStatus", rt: "rtEventQueryStatus", args: "event, (rtEventStatus_t *)status", guard: "event != NULL && status != NULL"},
	{acl: "aclmdlRIExecuteAsync", rt: "rtModelExecute", args: "modelRI, stream, 0", guard: "modelRI != NULL"},
	{acl: "aclrtLaunchKernel", rt: "rtLaunchKernelByFuncHandleV3", helper: "npu_route_launch_v3", guard: "argsSize <= 0xFFFFFFFFu"},
	{acl: "aclrtLaunchKernelWithConfig", rt: "rtsLaunchKernelWithConfig", args: "funcHandle, numBlocks, stream, (rtKernelLaunchCfg_t *)cfg, argsHandle, reserve"},
	// The copy kinds 0..3 have the same numbers in ACL and rt; DEFAULT and
	// HOST_TO_BUF_TO_DEVICE are translated by ACL and stay unrouted, as do
	// count 0 (no rt call) and NULL pointers (ACL's own check).
	{acl: "aclrtMemcpy", rt: "rtMemcpy", args: "dst, destMax, src, count, (rtMemcpyKind_t)kind",
		guard: "dst != NULL && src != NULL && count != 0 && (unsigned)kind <= ACL_MEMCPY_DEVICE_TO_DEVICE"},
	{acl: "aclrtMemcpyAsync", rt: "rtMemcpyAsync", args: "dst, destMax, src, count, (rtMemcpyKind_t)kind, stream",
		guard: "dst != NULL && src != NULL && count != 0 && (unsigned)kind <= ACL_MEMCPY_DEVICE_TO_DEVICE"},
	// The rest of acl-to-rt.tsv's one-call rows whose rt* function npuemu
	// implements (docs/stack.md lists the rows that still bind inside).
	{acl: "aclrtCreateContext", rt: "rtCtxCreateEx", args: "context, 0 /* RT_CTX_NORMAL_MODE */, deviceId", guard: "context != NULL"},
	{acl: "aclrtDestroyContext", rt: "rtCtxDestroyEx", guard: "context != NULL"},
	{acl: "aclrtSetCurrentContext", rt: "rtCtxSetCurrent", guard: "context != NULL"},
	{acl: "aclrtGetCurrentContext", rt: "rtCtxGetCurrent", guard: "context != NULL"},
	{acl: "aclrtSynchronizeDeviceWithTimeout", rt: "rtDeviceSynchronizeWithTimeout", guard: "timeout >= -1"},
	{acl: "aclrtGetDeviceCount", rt: "rtGetDeviceCount", args: "(int32_t *)count", guard: "count != NULL"},
	{acl: "aclrtRecordEventWithFlag", rt: "rtEventRecord", args: "event, stream", guard: "event != NULL && flag == ACL_EVENT_RECORD_DEFAULT"},
	{acl: "aclrtQueryEvent", rt: "rtEventQuery", helper: "npu_route_query_event", guard: "event != NULL && status != NULL"},
	{acl: "aclrtQueryEventWaitStatus", rt: "rtEventQueryWaitStatus", args: "event, (rtEventWaitStatus_t *)status", guard: "event != NULL && status != NULL"},
	{acl: "aclrtMallocHost", rt: "rtMallocHost", args: "hostPtr, size, NPU_RT_MODULE_APP", guard: "hostPtr != NULL && size != 0"},
	{acl: "aclrtFreeHost", rt: "rtFreeHost", guard: "hostPtr != NULL"},
	// count 0 makes no rt call (acl-to-rt.tsv); the value is cast to uint32_t.
	{acl: "aclrtMemset", rt: "rtMemset", args: "devPtr, maxCount, (uint32_t)value, count", guard: "devPtr != NULL && count != 0"},
	{acl: "aclrtMemsetAsync", rt: "rtMemsetAsync", args: "devPtr, maxCount, (uint32_t)value, count, stream", guard: "devPtr != NULL && count != 0"},
	{acl: "aclrtFreePhysical", rt: "rtFreePhysical", args: "(rtDrvMemHandle)handle", guard: "handle != NULL"},
	{acl: "aclrtSynchronizeStreamWithTimeout", rt: "rtStreamSynchronizeWithTimeout", guard: "timeout == -1 || timeout > 0"},
	{acl: "aclrtStreamQuery", rt: "rtStreamQuery", helper: "npu_route_stream_query", guard: "status != NULL"},
	{acl: "aclrtSetGroup", rt: "rtSetGroup"},
	{acl: "aclrtGetGroupCount", rt: "rtGetGroupCount", guard: "count != NULL"},
	{acl: "aclrtAllocBuf", rt: "rtMbufAlloc", args: "(rtMbufPtr_t *)buf, size", guard: "buf != NULL && size != 0"},
	{acl: "aclrtFreeBuf", rt: "rtMbufFree", guard: "buf != NULL"},
	{acl: "aclrtSetBufDataLen", rt: "rtMbufSetDataLen", guard: "buf != NULL"},
	{acl: "aclrtGetBufDataLen", rt: "rtMbufGetDataLen", args: "buf, (uint64_t *)len", guard: "buf != NULL && len != NULL"},
	{acl: "aclrtCopyBufRef", rt: "rtMbufCopyBufRef", args: "buf, (rtMbufPtr_t *)newBuf", guard: "buf != NULL && newBuf != NULL"},
	{acl: "aclrtAppendBufChain", rt: "rtMbufChainAppend", guard: "headBuf != NULL && buf != NULL && headBuf != buf"},
	{acl: "aclrtGetBufChainNum", rt: "rtMbufChainGetMbufNum", guard: "headBuf != NULL && num != NULL"},
	{acl: "aclrtGetBufFromChain", rt: "rtMbufChainGetMbuf", args: "headBuf, index, (rtMbufPtr_t *)buf", guard: "headBuf != NULL && buf != NULL"},
	// The runtime's snapshot calls act on the calling process (no pid).
	{acl: "aclrtSnapShotProcessLock", rt: "rtSnapShotProcessLock", guard: "pid == getpid()", noArgs: true},
	{acl: "aclrtSnapShotProcessUnlock", rt: "rtSnapShotProcessUnlock", guard: "pid == getpid()", noArgs: true},
	{acl: "aclrtSnapShotProcessBackup", rt: "rtSnapShotProcessBackup", guard: "pid == getpid() && args != NULL", noArgs: true},
	{acl: "aclrtSnapShotProcessRestore", rt: "rtSnapShotProcessRestore", guard: "pid == getpid() && args != NULL", noArgs: true},
	{acl: "aclrtSnapShotCallbackRegister", rt: "rtSnapShotCallbackRegister", args: "(rtSnapShotStage)stage, (rtSnapShotCallBack)callback, args",
		guard: "(unsigned)stage <= ACL_RT_SNAPSHOT_UNLOCK_POST && callback != NULL"},
	{acl: "aclrtSnapShotCallbackUnregister", rt: "rtSnapShotCallbackUnregister", args: "(rtSnapShotStage)stage, (rtSnapShotCallBack)callback",
		guard: "(unsigned)stage <= ACL_RT_SNAPSHOT_UNLOCK_POST && callback != NULL"},
	// Either output may be NULL for the ACL call, not for rtStreamGetCaptureInfo's status.
	{acl: "aclmdlRICaptureGetInfo", rt: "rtStreamGetCaptureInfo", args: "stream, (rtStreamCaptureStatus *)status, (rtModel_t *)modelRI", guard: "status != NULL"},
}

// routeOf returns the route of an ACL symbol and its slot.
func routeOf(name string) (route, int, bool) {
	for i, r := range routes {
		if r.acl == name {
			return r, i, true
		}
	}
	return route{}, 0, false
}

// genRouteTable writes npu_route_names and npu_route_fns (stack.h).
func genRouteTable(b *bytes.Buffer) {
	b.WriteString("\n/* The rt* calls of ACL functions that cross into libruntime.so in the\n" +
		" * split layout (shimgen's routes); stack.c fills npu_route_fns with the\n" +
		" * interposed definitions it finds. */\n")
	b.WriteString("const char *const npu_route_names[] = {\n")
	for _, r := range routes {
		fmt.Fprintf(b, "    %q,\n", r.rt)
	}
	b.WriteString("};\n")
	fmt.Fprintf(b, "const int npu_route_n = %d;\n", len(routes))
	fmt.Fprintf(b, "void *npu_route_fns[%d];\n", len(routes))
}

// routeCheck is the first statement of the emu_ body of a routed symbol.
func routeCheck(r route, slot int, ps []param) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
	}
	args := r.args
	if args == "" && !r.noArgs {
		args = strings.Join(names, ", ")
	}
	cond := fmt.Sprintf("__builtin_expect(npu_route_fns[%d] != NULL, 0)", slot)
	if r.guard != "" {
		cond += " && (" + r.guard + ")"
	}
	call := fmt.Sprintf("((__typeof__(&%s))npu_route_fns[%d])(%s)", r.rt, slot, args)
	if r.helper != "" {
		call = fmt.Sprintf("%s(npu_route_fns[%d], %s)", r.helper, slot, args)
	}
	return fmt.Sprintf("    if (%s) /* split layout, %s interposed */\n        return (aclError)%s;\n", cond, r.rt, call)
}
