package acl

import (
	"errors"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/tsfw"
)

// Device memory protection, the runtime's part (docs/hardening.md, "Device
// memory is protected"). emu keeps every page no allocation covers
// PROT_NONE (emu/hbm_protect.go), so a kernel touching it faults on its
// host thread and the fault becomes the AI Core exception of its launch
// (libfake/kernel_host.c). Copies and memsets do not fault: their device
// operands are checked against the allocation table before the engine
// moves a byte.
//
//   - An asynchronous copy or memset (aclrtMemcpyAsync, aclrtMemcpy2dAsync,
//     aclrtMemsetAsync, aclrtMemsetD32Async) whose device range leaves its
//     allocation is queued as a task that fails with the SDMA exception
//     ACL_ERROR_RT_SYS_DMA when its turn comes: the next synchronisation
//     returns the code, the exception callbacks and aclrtGetLastError see
//     it, nothing is written, the stream and the others go on.
//   - A synchronous one (aclrtMemcpy, aclrtMemcpy2d, aclrtMemset,
//     aclrtMemsetD32, aclrtMemcpyBatch) is refused by the call itself,
//     which is its own synchronisation point, with
//     ACL_ERROR_RT_PARAM_INVALID as before. An asynchronous batch refuses
//     an item that starts outside every allocation at the call (its
//     failIndex) and queues the SDMA exception for one that overruns.
//
// Every report names the address, the allocation it is nearest to (base,
// size, how far past its end or before its start, or the freed block it
// lies in) and, for a kernel, the kernel: DescribeDeviceAddr.

// queueOOB queues, for an asynchronous call refused by err because a device
// operand leaves its allocation, the task that fails with the SDMA
// exception at its turn; handled is false for any other err.
func queueOOB(s *core.Stream, t *core.Thread, err error) (handled bool, _ error) {
	var o *core.OobError
	if !errors.As(err, &o) {
		return false, err
	}
	fault := abi.Errorf(abi.ACL_ERROR_RT_SYS_DMA, "%s: SDMA exception on stream %d: %s %#x is out of bounds: %s",
		o.Fn, s.ID, o.What, o.Addr, o.Desc)
	return true, s.SubmitTask(t, o.Fn, tsfw.HostTask(func() error { return fault }))
}
