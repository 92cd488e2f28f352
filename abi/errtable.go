package abi

import (
	"errors"
	"fmt"
	"sync"
)

// internalErrorCode is what CodeOf reports for an error that carries no
// code: a bug inside npuemu, reported to C as an internal error.
const internalErrorCode = ACL_ERROR_INTERNAL_ERROR

// Name returns the C name of an aclError value (ACL_SUCCESS for 0, which
// also goes by ACL_ERROR_NONE and ACL_RT_SUCCESS).
func (c Code) Name() string {
	if n, ok := codeNames()[c]; ok {
		return n
	}
	return fmt.Sprintf("aclError(%d)", int32(c))
}

// Message returns a short English description of an aclError value.
func (c Code) Message() string {
	if m, ok := codeMessages()[c]; ok {
		return m
	}
	return "unknown error code"
}

// Known reports whether c is an aclError value of our headers.
func (c Code) Known() bool {
	_, ok := codeNames()[c]
	return ok
}

// DrvCode is a drvError_t value (an int-sized enum in C); dsmi_* functions
// return the same numbering as int.
type DrvCode int32

// Name returns the C name of a drvError_t value.
func (d DrvCode) Name() string {
	if n, ok := drvCodeNames()[d]; ok {
		return n
	}
	return fmt.Sprintf("drvError_t(%d)", int32(d))
}

// Message returns a short English description of a drvError_t value.
func (d DrvCode) Message() string {
	if m, ok := drvCodeMessages()[d]; ok {
		return m
	}
	return "unknown driver error code"
}

// Known reports whether d is a drvError_t enumerator of our headers.
func (d DrvCode) Known() bool {
	_, ok := drvCodeNames()[d]
	return ok
}

// ACL converts a driver error to the aclError the ACL runtime returns for
// it: the runtime's one conversion table (rt-types.md §8.4, generated in
// zrterr.go; the rt* layer returns the same codes); codes the table does
// not list become ACL_ERROR_RT_DRV_INTERNAL_ERROR.
func (d DrvCode) ACL() Code { return RTCodeOfDrv(d) }

// aclToDrv is the way back for DrvCodeOf: an aclError met on a driver path
// becomes the driver code that says the same thing. It is chosen rather
// than inverted from the driver → ACL table (zrterr.go) because several driver codes share one ACL
// code there.
var aclToDrv = sync.OnceValue(func() map[Code]DrvCode {
	return map[Code]DrvCode{
		ACL_SUCCESS:                        DRV_ERROR_NONE,
		ACL_ERROR_INVALID_PARAM:            DRV_ERROR_PARA_ERROR,
		ACL_ERROR_RT_PARAM_INVALID:         DRV_ERROR_INVALID_VALUE,
		ACL_ERROR_INVALID_DEVICE:           DRV_ERROR_INVALID_DEVICE,
		ACL_ERROR_RT_INVALID_DEVICEID:      DRV_ERROR_INVALID_DEVICE,
		ACL_ERROR_RT_NO_DEVICE:             DRV_ERROR_NO_DEVICE,
		ACL_ERROR_BAD_ALLOC:                DRV_ERROR_OUT_OF_MEMORY,
		ACL_ERROR_RT_MEMORY_ALLOCATION:     DRV_ERROR_OUT_OF_MEMORY,
		ACL_ERROR_RT_DEVICE_OOM:            DRV_ERROR_OUT_OF_MEMORY,
		ACL_ERROR_RT_RESOURCE_ALLOC_FAIL:   DRV_ERROR_NO_RESOURCES,
		ACL_ERROR_INVALID_RESOURCE_HANDLE:  DRV_ERROR_INVALID_HANDLE,
		ACL_ERROR_RT_INVALID_HANDLE:        DRV_ERROR_INVALID_HANDLE,
		ACL_ERROR_RT_INVALID_MALLOC_TYPE:   DRV_ERROR_INVALID_MALLOC_TYPE,
		ACL_ERROR_MEMORY_ADDRESS_UNALIGNED: DRV_ERROR_INVALID_VALUE,
		ACL_ERROR_RT_ADDR_UNALIGNED:        DRV_ERROR_INVALID_VALUE,
		ACL_ERROR_API_NOT_SUPPORT:          DRV_ERROR_NOT_SUPPORT,
		ACL_ERROR_FEATURE_UNSUPPORTED:      DRV_ERROR_NOT_SUPPORT,
		ACL_ERROR_RT_FEATURE_NOT_SUPPORT:   DRV_ERROR_NOT_SUPPORT,
		ACL_ERROR_RT_NO_PERMISSION:         DRV_ERROR_OPER_NOT_PERMITTED,
		ACL_ERROR_RT_OVER_LIMIT:            DRV_ERROR_OVER_LIMIT,
		ACL_ERROR_RT_WAIT_TIMEOUT:          DRV_ERROR_WAIT_TIMEOUT,
		ACL_ERROR_RT_REPORT_TIMEOUT:        DRV_ERROR_WAIT_TIMEOUT,
		ACL_ERROR_RT_TIMEOUT:               DRV_ERROR_WAIT_TIMEOUT,
		ACL_ERROR_UNINITIALIZE:             DRV_ERROR_UNINIT,
		ACL_ERROR_REPEAT_INITIALIZE:        DRV_ERROR_REPEATED_INIT,
		ACL_ERROR_RT_REPEATED_INIT:         DRV_ERROR_REPEATED_INIT,
		ACL_ERROR_RT_QUEUE_EMPTY:           DRV_ERROR_QUEUE_EMPTY,
		ACL_ERROR_RT_QUEUE_FULL:            DRV_ERROR_QUEUE_FULL,
		ACL_ERROR_RT_COPY_DATA:             DRV_ERROR_COPY_USER_FAIL,
		ACL_ERROR_RT_NO_EVENT_RESOURCE:     DRV_ERROR_NO_EVENT_RESOURCES,
		ACL_ERROR_RT_NO_STREAM_RESOURCE:    DRV_ERROR_NO_STREAM_RESOURCES,
		ACL_ERROR_RT_NO_NOTIFY_RESOURCE:    DRV_ERROR_NO_NOTIFY_RESOURCES,
		ACL_ERROR_RT_NO_MODEL_RESOURCE:     DRV_ERROR_NO_MODEL_RESOURCES,
		ACL_ERROR_RT_NO_CDQ_RESOURCE:       DRV_ERROR_NO_CDQ_RESOURCES,
		ACL_ERROR_RT_SOCKET_CLOSE:          DRV_ERROR_SOCKET_CLOSE,
		ACL_ERROR_RT_SEND_MSG:              DRV_ERROR_SEND_MESG,
		ACL_ERROR_RT_LOST_HEARTBEAT:        DRV_ERROR_BUS_DOWN,
	}
})

// DrvError is the error type of the HAL surface: a drvError_t plus a
// message naming the function and argument at fault. Compare with
// errors.Is against DrvErr(code) or read the code with DrvCodeOf.
type DrvError struct {
	Code DrvCode
	Msg  string
}

func (e *DrvError) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("%s (%d): %s", e.Code.Name(), int32(e.Code), e.Code.Message())
	}
	return fmt.Sprintf("%s (%d): %s", e.Code.Name(), int32(e.Code), e.Msg)
}

// Is reports whether target is a *DrvError with the same code.
func (e *DrvError) Is(target error) bool {
	var t *DrvError
	return errors.As(target, &t) && t.Code == e.Code
}

// DrvErr returns an error with code and the table's default message.
func DrvErr(code DrvCode) error { return &DrvError{Code: code} }

// DrvErrorf returns an error with code and a formatted message.
func DrvErrorf(code DrvCode, format string, args ...any) error {
	return &DrvError{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// DrvCodeOf returns the drvError_t of err: DRV_ERROR_NONE for nil, the code
// of the outermost wrapped *DrvError, a device-model DevError converted by
// its kind (deverr.go; an *Error wrapping one has the kind's ACL code), an
// *Error mapped to the driver code that means the same
// (DRV_ERROR_INNER_ERR when none does), and
// DRV_ERROR_INNER_ERR for anything else.
func DrvCodeOf(err error) DrvCode {
	if err == nil {
		return DRV_ERROR_NONE
	}
	var d *DrvError
	var e *Error
	var v *DevError
	switch {
	case errors.As(err, &d):
		return d.Code
	case errors.As(err, &v):
		return v.Kind.Drv()
	case errors.As(err, &e):
		if c, ok := aclToDrv()[e.Code]; ok {
			return c
		}
	}
	return DRV_ERROR_INNER_ERR
}

// codeMessages says in a few words what each aclError means.
var codeMessages = sync.OnceValue(func() map[Code]string {
	return map[Code]string{
		ACL_SUCCESS:                                    "success",
		ACL_ERROR_INVALID_PARAM:                        "invalid parameter",
		ACL_ERROR_UNINITIALIZE:                         "ACL is not initialized (call aclInit first)",
		ACL_ERROR_REPEAT_INITIALIZE:                    "ACL is already initialized",
		ACL_ERROR_INVALID_FILE:                         "invalid file",
		ACL_ERROR_WRITE_FILE:                           "failed to write the file",
		ACL_ERROR_INVALID_FILE_SIZE:                    "invalid file size",
		ACL_ERROR_PARSE_FILE:                           "failed to parse the file",
		ACL_ERROR_FILE_MISSING_ATTR:                    "the file lacks a required attribute",
		ACL_ERROR_FILE_ATTR_INVALID:                    "a file attribute is invalid",
		ACL_ERROR_INVALID_DUMP_CONFIG:                  "invalid dump configuration",
		ACL_ERROR_INVALID_PROFILING_CONFIG:             "invalid profiling configuration",
		ACL_ERROR_INVALID_MODEL_ID:                     "invalid model id",
		ACL_ERROR_DESERIALIZE_MODEL:                    "failed to deserialize the model",
		ACL_ERROR_PARSE_MODEL:                          "failed to parse the model",
		ACL_ERROR_READ_MODEL_FAILURE:                   "failed to read the model",
		ACL_ERROR_MODEL_SIZE_INVALID:                   "invalid model size",
		ACL_ERROR_MODEL_MISSING_ATTR:                   "the model lacks a required attribute",
		ACL_ERROR_MODEL_INPUT_NOT_MATCH:                "model input does not match",
		ACL_ERROR_MODEL_OUTPUT_NOT_MATCH:               "model output does not match",
		ACL_ERROR_MODEL_NOT_DYNAMIC:                    "the model is not dynamic",
		ACL_ERROR_OP_TYPE_NOT_MATCH:                    "operator type does not match",
		ACL_ERROR_OP_INPUT_NOT_MATCH:                   "operator input does not match",
		ACL_ERROR_OP_OUTPUT_NOT_MATCH:                  "operator output does not match",
		ACL_ERROR_OP_ATTR_NOT_MATCH:                    "operator attribute does not match",
		ACL_ERROR_OP_NOT_FOUND:                         "operator not found",
		ACL_ERROR_OP_LOAD_FAILED:                       "failed to load the operator",
		ACL_ERROR_UNSUPPORTED_DATA_TYPE:                "unsupported data type",
		ACL_ERROR_FORMAT_NOT_MATCH:                     "format does not match",
		ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED:          "binary selector not registered",
		ACL_ERROR_KERNEL_NOT_FOUND:                     "kernel not found",
		ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED:      "binary selector already registered",
		ACL_ERROR_KERNEL_ALREADY_REGISTERED:            "kernel already registered",
		ACL_ERROR_INVALID_QUEUE_ID:                     "invalid queue id",
		ACL_ERROR_REPEAT_SUBSCRIBE:                     "already subscribed",
		ACL_ERROR_STREAM_NOT_SUBSCRIBE:                 "the stream is not subscribed to a report thread",
		ACL_ERROR_THREAD_NOT_SUBSCRIBE:                 "the thread is not subscribed to a stream",
		ACL_ERROR_WAIT_CALLBACK_TIMEOUT:                "timed out waiting for a callback",
		ACL_ERROR_REPEAT_FINALIZE:                      "ACL is already finalized",
		ACL_ERROR_NOT_STATIC_AIPP:                      "AIPP configuration is not static",
		ACL_ERROR_COMPILING_STUB_MODE:                  "the stub library cannot run programs",
		ACL_ERROR_GROUP_NOT_SET:                        "group not set",
		ACL_ERROR_GROUP_NOT_CREATE:                     "group not created",
		ACL_ERROR_PROF_ALREADY_RUN:                     "profiling is already running",
		ACL_ERROR_PROF_NOT_RUN:                         "profiling is not running",
		ACL_ERROR_DUMP_ALREADY_RUN:                     "dump is already running",
		ACL_ERROR_DUMP_NOT_RUN:                         "dump is not running",
		ACL_ERROR_PROF_REPEAT_SUBSCRIBE:                "profiling already subscribed",
		ACL_ERROR_PROF_API_CONFLICT:                    "conflicting profiling interfaces used together",
		ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG:       "invalid operator cache size configuration",
		ACL_ERROR_INVALID_OPP_PATH:                     "invalid operator package path",
		ACL_ERROR_OP_UNSUPPORTED_DYNAMIC:               "operator does not support dynamic shapes",
		ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED:        "related resources are not released yet",
		ACL_ERROR_UNSUPPORTED_JPEG:                     "unsupported JPEG image",
		ACL_ERROR_INVALID_BUNDLE_MODEL_ID:              "invalid bundle model id",
		ACL_ERROR_BAD_ALLOC:                            "memory allocation failed",
		ACL_ERROR_API_NOT_SUPPORT:                      "API not supported",
		ACL_ERROR_INVALID_DEVICE:                       "invalid device",
		ACL_ERROR_MEMORY_ADDRESS_UNALIGNED:             "memory address is not aligned",
		ACL_ERROR_RESOURCE_NOT_MATCH:                   "resources do not match",
		ACL_ERROR_INVALID_RESOURCE_HANDLE:              "invalid resource handle",
		ACL_ERROR_FEATURE_UNSUPPORTED:                  "feature not supported",
		ACL_ERROR_PROF_MODULES_UNSUPPORTED:             "profiling module not supported",
		ACL_ERROR_STORAGE_OVER_LIMIT:                   "storage limit exceeded",
		ACL_ERROR_INTERNAL_ERROR:                       "internal error",
		ACL_ERROR_FAILURE:                              "failure",
		ACL_ERROR_GE_FAILURE:                           "graph engine: graph engine failure",
		ACL_ERROR_RT_FAILURE:                           "runtime failure",
		ACL_ERROR_DRV_FAILURE:                          "driver failure",
		ACL_ERROR_PROFILING_FAILURE:                    "profiling failure",
		ACL_ERROR_GE_PARAM_INVALID:                     "graph engine: parameter invalid",
		ACL_ERROR_GE_EXEC_NOT_INIT:                     "graph engine: executor not initialized",
		ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID:           "graph engine: executor: model path invalid",
		ACL_ERROR_GE_EXEC_MODEL_ID_INVALID:             "graph engine: executor: model id invalid",
		ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID:      "graph engine: executor: model data size invalid",
		ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID:           "graph engine: executor: model address invalid",
		ACL_ERROR_GE_EXEC_MODEL_QUEUE_ID_INVALID:       "graph engine: executor: model queue id invalid",
		ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED:          "graph engine: executor: load model repeated",
		ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID:        "graph engine: dynamic input address invalid",
		ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID:      "graph engine: dynamic input length invalid",
		ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID:        "graph engine: dynamic batch size invalid",
		ACL_ERROR_GE_AIPP_BATCH_EMPTY:                  "graph engine: aipp batch empty",
		ACL_ERROR_GE_AIPP_NOT_EXIST:                    "graph engine: aipp not exist",
		ACL_ERROR_GE_AIPP_MODE_INVALID:                 "graph engine: aipp mode invalid",
		ACL_ERROR_GE_OP_TASK_TYPE_INVALID:              "graph engine: op task type invalid",
		ACL_ERROR_GE_OP_KERNEL_TYPE_INVALID:            "graph engine: op kernel type invalid",
		ACL_ERROR_GE_PLGMGR_PATH_INVALID:               "graph engine: plgmgr path invalid",
		ACL_ERROR_GE_FORMAT_INVALID:                    "graph engine: format invalid",
		ACL_ERROR_GE_SHAPE_INVALID:                     "graph engine: shape invalid",
		ACL_ERROR_GE_DATATYPE_INVALID:                  "graph engine: datatype invalid",
		ACL_ERROR_GE_MEMORY_ALLOCATION:                 "graph engine: memory allocation",
		ACL_ERROR_GE_MEMORY_OPERATE_FAILED:             "graph engine: memory operate failed",
		ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED:      "graph engine: device memory operate failed",
		ACL_ERROR_GE_SUBHEALTHY:                        "graph engine: subhealthy",
		ACL_ERROR_GE_USER_RAISE_EXCEPTION:              "graph engine: user raise exception",
		ACL_ERROR_GE_DATA_NOT_ALIGNED:                  "graph engine: data not aligned",
		ACL_ERROR_GE_INTERNAL_ERROR:                    "graph engine: internal error",
		ACL_ERROR_GE_LOAD_MODEL:                        "graph engine: load model",
		ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED:  "graph engine: executor: load model partition failed",
		ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED: "graph engine: executor: load weight partition failed",
		ACL_ERROR_GE_EXEC_LOAD_TASK_PARTITION_FAILED:   "graph engine: executor: load task partition failed",
		ACL_ERROR_GE_EXEC_LOAD_KERNEL_PARTITION_FAILED: "graph engine: executor: load kernel partition failed",
		ACL_ERROR_GE_EXEC_RELEASE_MODEL_DATA:           "graph engine: executor: release model data",
		ACL_ERROR_GE_COMMAND_HANDLE:                    "graph engine: command handle",
		ACL_ERROR_GE_GET_TENSOR_INFO:                   "graph engine: get tensor info",
		ACL_ERROR_GE_UNLOAD_MODEL:                      "graph engine: unload model",
		ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT:             "graph engine: model execute timeout",
		ACL_ERROR_GE_REDEPLOYING:                       "graph engine: redeploying",
		ACL_ERROR_RT_PARAM_INVALID:                     "invalid parameter",
		ACL_ERROR_RT_INVALID_DEVICEID:                  "invalid device id",
		ACL_ERROR_RT_CONTEXT_NULL:                      "no current context",
		ACL_ERROR_RT_STREAM_CONTEXT:                    "the stream does not belong to the current context",
		ACL_ERROR_RT_MODEL_CONTEXT:                     "the model does not belong to the current context",
		ACL_ERROR_RT_STREAM_MODEL:                      "the stream is not bound to the model, or bound wrongly",
		ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID:           "the event carries no valid timestamp",
		ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL:          "the end event was recorded before the start event",
		ACL_ERROR_RT_ADDR_UNALIGNED:                    "address is not aligned",
		ACL_ERROR_RT_FILE_OPEN:                         "failed to open the file",
		ACL_ERROR_RT_FILE_WRITE:                        "failed to write the file",
		ACL_ERROR_RT_STREAM_SUBSCRIBE:                  "the stream is already subscribed or not subscribed",
		ACL_ERROR_RT_THREAD_SUBSCRIBE:                  "the thread is already subscribed or not subscribed",
		ACL_ERROR_RT_GROUP_NOT_SET:                     "group not set",
		ACL_ERROR_RT_GROUP_NOT_CREATE:                  "group not created",
		ACL_ERROR_RT_STREAM_NO_CB_REG:                  "no callback registered on the stream",
		ACL_ERROR_RT_INVALID_MEMORY_TYPE:               "invalid memory type",
		ACL_ERROR_RT_INVALID_HANDLE:                    "invalid handle",
		ACL_ERROR_RT_INVALID_MALLOC_TYPE:               "invalid allocation type",
		ACL_ERROR_RT_WAIT_TIMEOUT:                      "wait timed out",
		ACL_ERROR_RT_TASK_TIMEOUT:                      "task execution timed out",
		ACL_ERROR_RT_SYSPARAMOPT_NOT_SET:               "the system parameter was never set",
		ACL_ERROR_RT_DEVICE_TASK_ABORT:                 "device tasks were aborted",
		ACL_ERROR_RT_STREAM_ABORT:                      "the stream was aborted",
		ACL_ERROR_RT_CAPTURE_DEPENDENCY:                "a capture dependency is not allowed",
		ACL_ERROR_RT_STREAM_UNJOINED:                   "a forked stream was not joined back into the capture",
		ACL_ERROR_RT_MODEL_CAPTURED:                    "the model is being captured",
		ACL_ERROR_RT_STREAM_CAPTURED:                   "the stream is being captured",
		ACL_ERROR_RT_EVENT_CAPTURED:                    "the event is being captured",
		ACL_ERROR_RT_STREAM_NOT_CAPTURED:               "the stream is not being captured",
		ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT:          "operation not allowed in the current capture mode",
		ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT:           "implicit use of the default stream during capture",
		ACL_ERROR_STREAM_CAPTURE_CONFLICT:              "capture conflicts with another capture",
		ACL_ERROR_STREAM_TASK_GROUP_STATUS:             "wrong task group state",
		ACL_ERROR_STREAM_TASK_GROUP_INTR:               "task group was interrupted",
		ACL_ERROR_RT_TASK_ABORT_STOP:                   "stopped by task abort",
		ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED:          "capture begin/end do not match",
		ACL_ERROR_RT_MODEL_RUNNING:                     "the model is running",
		ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD:       "capture ended from another thread",
		ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY:          "the input array is too small",
		ACL_ERROR_RT_MODEL_UPDATE_FAILED:               "failed to update the model",
		ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC:          "asynchronous call blocked by the capture mode",
		ACL_ERROR_RT_SYMBOL_NOT_FOUND:                  "symbol not found",
		ACL_ERROR_RT_INVALID_SYMBOL:                    "invalid symbol",
		ACL_ERROR_RT_INVALID_DEVICE_FUNCTION:           "invalid device function",
		ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING:         "a sub-graph is still being captured",
		ACL_ERROR_RT_FEATURE_NOT_SUPPORT:               "feature not supported",
		ACL_ERROR_RT_MEMORY_ALLOCATION:                 "out of memory",
		ACL_ERROR_RT_MEMORY_FREE:                       "failed to free memory",
		ACL_ERROR_RT_AICORE_OVER_FLOW:                  "AI Core arithmetic overflow",
		ACL_ERROR_RT_NO_DEVICE:                         "no device available",
		ACL_ERROR_RT_RESOURCE_ALLOC_FAIL:               "resource allocation failed",
		ACL_ERROR_RT_NO_PERMISSION:                     "no permission",
		ACL_ERROR_RT_NO_EVENT_RESOURCE:                 "no event resources left",
		ACL_ERROR_RT_NO_STREAM_RESOURCE:                "no stream resources left",
		ACL_ERROR_RT_NO_NOTIFY_RESOURCE:                "no notify resources left",
		ACL_ERROR_RT_NO_MODEL_RESOURCE:                 "no model resources left",
		ACL_ERROR_RT_NO_CDQ_RESOURCE:                   "no CDQ resources left",
		ACL_ERROR_RT_OVER_LIMIT:                        "limit exceeded",
		ACL_ERROR_RT_QUEUE_EMPTY:                       "queue is empty",
		ACL_ERROR_RT_QUEUE_FULL:                        "queue is full",
		ACL_ERROR_RT_REPEATED_INIT:                     "already initialized",
		ACL_ERROR_RT_AIVEC_OVER_FLOW:                   "vector core arithmetic overflow",
		ACL_ERROR_RT_OVER_FLOW:                         "arithmetic overflow",
		ACL_ERROR_RT_DEVICE_OOM:                        "device out of memory",
		ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP:     "operator update not supported",
		ACL_ERROR_RT_TIMEOUT:                           "timed out",
		ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED:           "link type not supported",
		ACL_ERROR_RT_INTERNAL_ERROR:                    "runtime internal error",
		ACL_ERROR_RT_TS_ERROR:                          "task scheduler error",
		ACL_ERROR_RT_STREAM_TASK_FULL:                  "the stream task queue is full",
		ACL_ERROR_RT_STREAM_TASK_EMPTY:                 "the stream has no task",
		ACL_ERROR_RT_STREAM_NOT_COMPLETE:               "the stream has unfinished tasks",
		ACL_ERROR_RT_END_OF_SEQUENCE:                   "end of sequence",
		ACL_ERROR_RT_EVENT_NOT_COMPLETE:                "the event has not completed",
		ACL_ERROR_RT_CONTEXT_RELEASE_ERROR:             "failed to release the context",
		ACL_ERROR_RT_SOC_VERSION:                       "failed to get the SoC version",
		ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT:             "task type not supported",
		ACL_ERROR_RT_LOST_HEARTBEAT:                    "lost the device heartbeat",
		ACL_ERROR_RT_MODEL_EXECUTE:                     "model execution failed",
		ACL_ERROR_RT_REPORT_TIMEOUT:                    "timed out waiting for a report",
		ACL_ERROR_RT_SYS_DMA:                           "system DMA error",
		ACL_ERROR_RT_AICORE_TIMEOUT:                    "AI Core execution timed out",
		ACL_ERROR_RT_AICORE_EXCEPTION:                  "AI Core exception",
		ACL_ERROR_RT_AICORE_TRAP_EXCEPTION:             "AI Core trap exception",
		ACL_ERROR_RT_AICPU_TIMEOUT:                     "AI CPU execution timed out",
		ACL_ERROR_RT_AICPU_EXCEPTION:                   "AI CPU exception",
		ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR:            "AI CPU data-dump response error",
		ACL_ERROR_RT_AICPU_MODEL_RSP_ERR:               "AI CPU model response error",
		ACL_ERROR_RT_PROFILING_ERROR:                   "profiling error",
		ACL_ERROR_RT_IPC_ERROR:                         "IPC error",
		ACL_ERROR_RT_MODEL_ABORT_NORMAL:                "model aborted",
		ACL_ERROR_RT_KERNEL_UNREGISTERING:              "kernel is being unregistered",
		ACL_ERROR_RT_RINGBUFFER_NOT_INIT:               "ring buffer not initialized",
		ACL_ERROR_RT_RINGBUFFER_NO_DATA:                "ring buffer has no data",
		ACL_ERROR_RT_KERNEL_LOOKUP:                     "kernel lookup failed",
		ACL_ERROR_RT_KERNEL_DUPLICATE:                  "kernel registered twice",
		ACL_ERROR_RT_DEBUG_REGISTER_FAIL:               "debug registration failed",
		ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL:             "debug unregistration failed",
		ACL_ERROR_RT_LABEL_CONTEXT:                     "the label does not belong to the current context",
		ACL_ERROR_RT_PROGRAM_USE_OUT:                   "program registrations exhausted",
		ACL_ERROR_RT_DEV_SETUP_ERROR:                   "device setup failed",
		ACL_ERROR_RT_VECTOR_CORE_TIMEOUT:               "vector core execution timed out",
		ACL_ERROR_RT_VECTOR_CORE_EXCEPTION:             "vector core exception",
		ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION:        "vector core trap exception",
		ACL_ERROR_RT_CDQ_BATCH_ABNORMAL:                "CDQ batch abnormal",
		ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR:             "cannot change the die mode",
		ACL_ERROR_RT_DIE_SET_ERROR:                     "cannot set the die",
		ACL_ERROR_RT_INVALID_DIEID:                     "invalid die id",
		ACL_ERROR_RT_DIE_MODE_NOT_SET:                  "die mode not set",
		ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW:         "AI Core trap: read out of bounds",
		ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW:        "AI Core trap: write out of bounds",
		ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW:    "vector core trap: read out of bounds",
		ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW:   "vector core trap: write out of bounds",
		ACL_ERROR_RT_STREAM_SYNC_TIMEOUT:               "stream synchronization timed out",
		ACL_ERROR_RT_EVENT_SYNC_TIMEOUT:                "event synchronization timed out",
		ACL_ERROR_RT_FFTS_PLUS_TIMEOUT:                 "FFTS+ task timed out",
		ACL_ERROR_RT_FFTS_PLUS_EXCEPTION:               "FFTS+ task exception",
		ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION:          "FFTS+ trap exception",
		ACL_ERROR_RT_SEND_MSG:                          "failed to send a message",
		ACL_ERROR_RT_COPY_DATA:                         "failed to copy data",
		ACL_ERROR_RT_DEVICE_MEM_ERROR:                  "device memory error",
		ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR:           "HBM multi-bit ECC error",
		ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR:          "suspected device memory error",
		ACL_ERROR_RT_LINK_ERROR:                        "link error",
		ACL_ERROR_RT_SUSPECT_REMOTE_ERROR:              "suspected remote error",
		ACL_ERROR_RT_DRV_INTERNAL_ERROR:                "driver internal error",
		ACL_ERROR_RT_AICPU_INTERNAL_ERROR:              "AI CPU internal error",
		ACL_ERROR_RT_SOCKET_CLOSE:                      "socket closed",
		ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR:           "AI CPU info-load response error",
		ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED:        "the capture was invalidated",
		ACL_ERROR_RT_COMM_OP_RETRY_FAIL:                "communication operator retry failed",
		ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT:                "snapshot lock timeout",
		ACL_ERROR_SNAPSHOT_LOCK_FAILED:                 "snapshot lock failed",
		ACL_ERROR_SNAPSHOT_UNLOCK_FAILED:               "snapshot unlock failed",
		ACL_ERROR_SNAPSHOT_BACKUP_FAILED:               "snapshot backup failed",
		ACL_ERROR_SNAPSHOT_RESTORE_FAILED:              "snapshot restore failed",
		ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED:       "host memory is already registered",
		ACL_ERROR_HOST_MEMORY_NOT_REGISTERED:           "host memory is not registered",
		ACL_ERROR_SNAPSHOT_CALLBACK_FAILED:             "snapshot callback failed",
		ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED:    "snapshot register callback failed",
		ACL_ERROR_RT_L3_PORT_ERROR:                     "L3 port error",
		ACL_ERROR_RT_CCU_TIMEOUT:                       "CCU timed out",
		ACL_ERROR_RT_CCU_EXCEPTION:                     "CCU exception",
	}
})

// drvCodeMessages says in a few words what each drvError_t means.
var drvCodeMessages = sync.OnceValue(func() map[DrvCode]string {
	return map[DrvCode]string{
		DRV_ERROR_NONE:                       "success",
		DRV_ERROR_NO_DEVICE:                  "no device",
		DRV_ERROR_INVALID_DEVICE:             "invalid device",
		DRV_ERROR_INVALID_VALUE:              "invalid value",
		DRV_ERROR_INVALID_HANDLE:             "invalid handle",
		DRV_ERROR_INVALID_MALLOC_TYPE:        "invalid allocation type",
		DRV_ERROR_OUT_OF_MEMORY:              "out of memory",
		DRV_ERROR_INNER_ERR:                  "driver internal error",
		DRV_ERROR_PARA_ERROR:                 "invalid parameter",
		DRV_ERROR_UNINIT:                     "not initialized",
		DRV_ERROR_REPEATED_INIT:              "already initialized",
		DRV_ERROR_NOT_EXIST:                  "does not exist",
		DRV_ERROR_REPEATED_USERD:             "already in use",
		DRV_ERROR_BUSY:                       "busy",
		DRV_ERROR_NO_RESOURCES:               "no resources left",
		DRV_ERROR_OUT_OF_CMD_SLOT:            "no command slot left",
		DRV_ERROR_WAIT_TIMEOUT:               "wait timed out",
		DRV_ERROR_IOCRL_FAIL:                 "ioctl failed",
		DRV_ERROR_SOCKET_CREATE:              "socket create failed",
		DRV_ERROR_SOCKET_CONNECT:             "socket connect failed",
		DRV_ERROR_SOCKET_BIND:                "socket bind failed",
		DRV_ERROR_SOCKET_LISTEN:              "socket listen failed",
		DRV_ERROR_SOCKET_ACCEPT:              "socket accept failed",
		DRV_ERROR_CLIENT_BUSY:                "client busy",
		DRV_ERROR_SOCKET_SET:                 "socket set failed",
		DRV_ERROR_SOCKET_CLOSE:               "socket closed",
		DRV_ERROR_RECV_MESG:                  "failed to receive a message",
		DRV_ERROR_SEND_MESG:                  "failed to send a message",
		DRV_ERROR_SERVER_BUSY:                "server busy",
		DRV_ERROR_CONFIG_READ_FAIL:           "failed to read the configuration",
		DRV_ERROR_STATUS_FAIL:                "bad status",
		DRV_ERROR_SERVER_CREATE_FAIL:         "failed to create the server",
		DRV_ERROR_WAIT_INTERRUPT:             "wait interrupted",
		DRV_ERROR_BUS_DOWN:                   "bus down",
		DRV_ERROR_DEVICE_NOT_READY:           "device not ready",
		DRV_ERROR_REMOTE_NOT_LISTEN:          "remote side is not listening",
		DRV_ERROR_NON_BLOCK:                  "would block",
		DRV_ERROR_OVER_LIMIT:                 "limit exceeded",
		DRV_ERROR_FILE_OPS:                   "file operation failed",
		DRV_ERROR_MBIND_FAIL:                 "memory binding failed",
		DRV_ERROR_MALLOC_FAIL:                "host allocation failed",
		DRV_ERROR_REPEATED_SUBSCRIBED:        "already subscribed",
		DRV_ERROR_PROCESS_EXIT:               "process exited",
		DRV_ERROR_DEV_PROCESS_HANG:           "device process hangs",
		DRV_ERROR_REMOTE_NO_SESSION:          "no remote session",
		DRV_ERROR_HOT_RESET_IN_PROGRESS:      "hot reset in progress",
		DRV_ERROR_OPER_NOT_PERMITTED:         "operation not permitted",
		DRV_ERROR_NO_EVENT_RESOURCES:         "no event resources left",
		DRV_ERROR_NO_STREAM_RESOURCES:        "no stream resources left",
		DRV_ERROR_NO_NOTIFY_RESOURCES:        "no notify resources left",
		DRV_ERROR_NO_MODEL_RESOURCES:         "no model resources left",
		DRV_ERROR_TRY_AGAIN:                  "try again",
		DRV_ERROR_DST_PATH_ILLEGAL:           "illegal destination path",
		DRV_ERROR_OPEN_FAILED:                "open failed",
		DRV_ERROR_NO_FREE_SPACE:              "no free space",
		DRV_ERROR_LOCAL_ABNORMAL_FILE:        "abnormal local file",
		DRV_ERROR_DST_PERMISSION_DENIED:      "destination permission denied",
		DRV_ERROR_DST_NO_SUCH_FILE:           "destination file does not exist",
		DRV_ERROR_MEMORY_OPT_FAIL:            "memory operation failed",
		DRV_ERROR_RUNTIME_ON_OTHER_PLAT:      "runtime runs on another platform",
		DRV_ERROR_SQID_FULL:                  "no submission queue id left",
		DRV_ERROR_SERVER_HAS_BEEN_CREATED:    "server already created",
		DRV_ERROR_NO_PROCESS:                 "no such process",
		DRV_ERROR_NO_SUBSCRIBE_THREAD:        "no subscribed thread",
		DRV_ERROR_NON_SCHED_GRP_MUL_THREAD:   "several threads in a non-scheduling group",
		DRV_ERROR_NO_GROUP:                   "no such group",
		DRV_ERROR_GROUP_EXIST:                "group already exists",
		DRV_ERROR_THREAD_EXCEEDS_SPEC:        "too many threads",
		DRV_ERROR_THREAD_NOT_RUNNIG:          "thread not running",
		DRV_ERROR_PROCESS_NOT_MATCH:          "process does not match",
		DRV_ERROR_EVENT_NOT_MATCH:            "event does not match",
		DRV_ERROR_PROCESS_REPEAT_ADD:         "process added twice",
		DRV_ERROR_GROUP_NON_SCHED:            "group is not a scheduling group",
		DRV_ERROR_NO_EVENT:                   "no event",
		DRV_ERROR_COPY_USER_FAIL:             "copy from/to user memory failed",
		DRV_ERROR_QUEUE_EMPTY:                "queue is empty",
		DRV_ERROR_QUEUE_FULL:                 "queue is full",
		DRV_ERROR_RUN_IN_ILLEGAL_CPU:         "running on an illegal CPU",
		DRV_ERROR_SUBSCRIBE_THREAD_TIMEOUT:   "subscribed thread timed out",
		DRV_ERROR_BAD_ADDRESS:                "bad address",
		DRV_ERROR_DST_FILE_IS_BEING_WRITTEN:  "destination file is being written",
		DRV_ERROR_EPOLL_CLOSE:                "epoll closed",
		DRV_ERROR_CDQ_ABNORMAL:               "CDQ abnormal",
		DRV_ERROR_CDQ_NOT_EXIST:              "CDQ does not exist",
		DRV_ERROR_NO_CDQ_RESOURCES:           "no CDQ resources left",
		DRV_ERROR_CDQ_QUIT:                   "CDQ quit",
		DRV_ERROR_PARTITION_NOT_RIGHT:        "wrong partition",
		DRV_ERROR_RESOURCE_OCCUPIED:          "resource occupied",
		DRV_ERROR_PERMISSION:                 "permission denied",
		DRV_ERROR_RESUME:                     "resume failed",
		DEV_ERROR_UNAUTHORIZED_ACCESS_DEVICE: "unauthorized device access",
		DEV_ERROR_BIST_HW_ERR:                "built-in self test: hardware error",
		DEV_ERROR_BIST_SW_ERR:                "built-in self test: software error",
		DEV_ERROR_DUP_CONFIG:                 "duplicate configuration",
		DRV_ERROR_POWER_OP_FAIL:              "power operation failed",
		DRV_ERROR_NET_UNREACH:                "network unreachable",
		DRV_ERROR_TRANS_LINK_ABNORMAL:        "transport link abnormal",
		DRV_ERROR_TRANS_LINK_ACK_TIMEOUT_ERR: "transport link acknowledgement timed out",
		DRV_ERROR_CALL_NO_RETRY:              "call failed, do not retry",
		DRV_ERROR_CONNECT:                    "connection failed",
		DRV_ERROR_NOT_SUPPORT:                "not supported",
		DRV_ERROR_RESERVED:                   "reserved",
	}
})
