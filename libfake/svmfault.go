package main

/*
#include <sys/mman.h>
#include "acl/acl.h"
#include "npu.h"
#include "svmfault.h"
#include "npuemu/svm.h"
*/
import "C"

import (
	"math/bits"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/emu"
	"github.com/npuemu/npuemu/rt/core"
	"github.com/npuemu/npuemu/svm"
)

// The host side of mprotect-mode managed memory (svmfault.c): libfake is
// the only C, so it provides emu.HostFaults, and the C entry points of
// npuemu/svm.h.

// hostFaults implements emu.HostFaults over svmfault.c.
type hostFaults struct{}

func (hostFaults) Install(base uintptr, size, pageSize uint64) error {
	if rc := C.npu_svm_install(C.uintptr_t(base), C.uint64_t(size), C.unsigned(bits.TrailingZeros64(pageSize))); rc != 0 {
		return syscall.Errno(rc)
	}
	return nil
}

func (hostFaults) Protector() svm.Protector { return faultProtector{} }

func (hostFaults) Pending() bool {
	return atomic.LoadInt64((*int64)(unsafe.Pointer(&C.npu_svm_pending))) > 0
}

func (hostFaults) Drain(fn func(addr uintptr, write, kernel bool, prot int)) {
	var buf [64]C.npu_svm_fault
	for {
		n := int(C.npu_svm_drain(&buf[0], C.size_t(len(buf))))
		for _, f := range buf[:n] {
			fn(uintptr(f.addr), f.write != 0, f.kernel != 0, int(f.prot))
		}
		if n < len(buf) {
			return
		}
	}
}

func (hostFaults) Disarm(addr uintptr, size uint64) {
	C.npu_svm_disarm(C.uintptr_t(addr), C.uint64_t(size))
}

// faultProtector is svm's mprotect Protector whose protected pages are
// armed for the handler.
type faultProtector struct{}

func (faultProtector) Mode() string { return svm.ModeMprotect }

func (faultProtector) Protect(addr uintptr, size uint64, readOnly bool) error {
	prot := C.int(C.PROT_NONE)
	if readOnly {
		prot = C.PROT_READ
	}
	if rc := C.npu_svm_protect(C.uintptr_t(addr), C.uint64_t(size), prot); rc != 0 {
		return syscall.Errno(rc)
	}
	return nil
}

func (faultProtector) Unprotect(addr uintptr, size uint64) error {
	if rc := C.npu_svm_protect(C.uintptr_t(addr), C.uint64_t(size), C.PROT_READ|C.PROT_WRITE); rc != 0 {
		return syscall.Errno(rc)
	}
	return nil
}

// npusvmStats is npuemuSvmGetStats (svmfault.c passes the thread slot).
//
//export npusvmStats
func npusvmStats(t *C.npu_thread, dev C.int32_t, out *C.struct_npuemu_svm_stats) C.aclError {
	th := thread(t)
	if out == nil {
		return ret(th, abi.Errorf(abi.ACL_ERROR_INVALID_PARAM, "npuemuSvmGetStats: out must not be NULL"))
	}
	st, err := core.ManagedStats(int32(dev))
	if err != nil {
		return ret(th, err)
	}
	*out = C.struct_npuemu_svm_stats{
		faults: C.uint64_t(st.Faults), thrash: C.uint64_t(st.Thrash), evictions: C.uint64_t(st.Evictions),
		invalidations: C.uint64_t(st.Invalidations), remote_accesses: C.uint64_t(st.RemoteAccesses),
		bytes_htod: C.uint64_t(st.BytesHtoD), bytes_dtoh: C.uint64_t(st.BytesDtoH),
		prefetched_bytes: C.uint64_t(st.PrefetchedBytes), resident_bytes: C.uint64_t(st.ResidentBytes),
		host_signals: C.uint64_t(C.npu_svm_faults()),
	}
	return 0
}

// npusvmMode is npuemuSvmHostFaultMode's answer (svmfault.c maps it to a
// string): 0 explicit, 1 mprotect, 2 userfaultfd-wp, -1 an invalid
// NPUEMU_SVM_HOST_FAULTS. It is the mode in use: userfaultfd-wp refused by
// the kernel reads as its fallback.
//
//export npusvmMode
func npusvmMode() C.int {
	switch m, err := emu.SVMMode(); {
	case err != nil:
		return -1
	case m == svm.ModeMprotect:
		return 1
	case m == svm.ModeUserfaultfdWP:
		return 2
	}
	return 0
}
