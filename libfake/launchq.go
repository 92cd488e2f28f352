package main

/*
#include "acl/acl.h"
#include "npu.h"
#include "front/launchq.h"
#include <stdint.h>
void npu_lq_call(uintptr_t fn, uintptr_t arg);
*/
import "C"

import (
	"runtime/debug"
	"sync/atomic"
	"unsafe"

	"github.com/npuemu/npuemu/acl"
	"github.com/npuemu/npuemu/rt/core"
)

// npulq_run makes n launches the front deferred (libfake/front/launchq.c,
// docs/kernels.md "Batched launches") in one crossing, on behalf of the
// thread whose id is tid (the caller when that thread is unknown), then
// synchronises stream on the caller when sync is not nil, after telling the
// front that the launches are made (released: it stores 0 in the word at
// handing, and calls launched(handing) only when that word said a thread
// of the front waits for it). The launches never
// wait for ring space (whoever hands them over may be a thread the stream
// waits for): bit i of *over marks the last launch v[i] of a run that went
// past its stream's depth, and v[i].wait the stream's completion count the
// launching thread then waits for (npulq_room). It returns the first launch failure's code;
// each failure is recorded on the launching thread as the same launch made
// at once would record it.
//
//export npulq_run
func npulq_run(t *C.npu_thread, tid C.uint64_t, v *C.npu_lq_rec, n C.int, stream unsafe.Pointer, sync *C.int32_t, launched C.uintptr_t, handing *C.int32_t, over *C.uint64_t) (r C.int32_t) {
	debug.SetPanicOnFault(true)
	defer func() {
		if p := recover(); p != nil {
			r = C.int32_t(caught(p, t, "aclrtLaunchKernelWithConfig"))
		}
	}()
	var claimed *core.Stream
	var th *core.Thread
	defer func() { // on a panic: the front's queue is released, the claim ends
		if handing != nil {
			released(launched, handing)
		}
		if claimed != nil {
			claimed.RunClaimed(th)
		}
	}()
	if tid != 0 && (sync == nil || tid != t.id) {
		th = core.ThreadByID(uint64(tid))
	}
	if th == nil {
		th = thread(t) // (a combined hand-over's queue is the caller's: one lookup serves both)
	}
	recs := unsafe.Slice(v, int(n))
	*over = 0
	if sync != nil && sameStream(recs, stream) {
		// The caller waits for these kernels next: it runs them itself
		// (tsfw/claim.go) rather than hand them to a lane.
		claimed = acl.ClaimForSync(th, handle(stream))
	}
	for i := 0; i < len(recs); {
		// A run of the same launch resolves its handles once.
		rec, j := &recs[i], i+1
		for j < len(recs) && sameLaunch(&recs[j], rec) {
			j++
		}
		var wait uint64
		var err error
		switch rec.kind {
		case C.NPU_LQ_HOST:
			run := recs[i:j]
			wait, err = acl.HandOverHostLaunches(th, handle(rec.f), uint32(rec.blocks), handle(rec.s), claimed, len(run), func(k int) []byte {
				return unsafe.Slice((*byte)(run[k].args), int(run[k].size))
			})
		case C.NPU_LQ_DEVICE:
			wait, err = acl.HandOverDeviceLaunches(th, handle(rec.f), uint32(rec.blocks), uintptr(rec.args), uint64(rec.size), handle(rec.s), claimed, j-i)
		default:
			wait, err = acl.HandOverLaunches(th, handle(rec.f), uint32(rec.blocks), handle(rec.s), claimed, argsHandle(C.aclrtArgsHandle(rec.args)), j-i)
		}
		if code := ret(th, err); code != 0 && r == 0 {
			r = C.int32_t(code)
		}
		if wait != 0 && !(sync != nil && rec.s == stream) && j-1 < 64 {
			// (none for the stream synchronised next: that waits anyway)
			recs[j-1].wait = C.uint64_t(wait)
			*over |= 1 << (j - 1)
		}
		i = j
	}
	if h := handing; h != nil {
		handing = nil
		released(launched, h)
	}
	if c := claimed; c != nil {
		claimed = nil
		c.RunClaimed(th)
		// The stream the claim resolved is carried to the
		// synchronisation: one resolution per crossing.
		caller := th
		if tid != t.id {
			caller = thread(t)
		}
		*sync = C.int32_t(ret(caller, acl.SynchronizeClaimed(caller, c)))
	} else if sync != nil {
		*sync = C.int32_t(npu_aclrtSynchronizeStream(t, C.aclrtStream(stream)))
	}
	return r
}

// released tells the front that the launches of a combined hand-over are
// made: it clears the front's word at handing (1: in flight, 2: in flight
// and a thread parked on it, front/launchq.c settle) and wakes the parked
// threads, through a call into C, only when there are any.
func released(launched C.uintptr_t, handing *C.int32_t) {
	w := (*int32)(unsafe.Pointer(handing))
	if atomic.SwapInt32(w, 0) == 2 {
		C.npu_lq_call(launched, C.uintptr_t(uintptr(unsafe.Pointer(handing))))
	}
}

// sameLaunch reports whether a and b are the same launch but for an
// NPU_LQ_HOST launch's argument bytes of the same size: a run the core
// resolves once.
func sameLaunch(a, b *C.npu_lq_rec) bool {
	if a.f != b.f || a.s != b.s || a.blocks != b.blocks || a.kind != b.kind {
		return false
	}
	if a.kind == C.NPU_LQ_HOST {
		return a.size == b.size
	}
	return a.args == b.args && a.size == b.size
}

// sameStream reports whether every launch of recs goes to stream.
func sameStream(recs []C.npu_lq_rec, stream unsafe.Pointer) bool {
	for _, rec := range recs {
		if rec.s != stream {
			return false
		}
	}
	return len(recs) > 0
}

// npulq_room waits until stream has completed wait tasks: the wait the
// launching thread owes for launches npulq_run made past the stream's
// depth (for the slot the last of them would have waited for, made one by
// one). The caller holds nothing of the front's.
//
//export npulq_room
func npulq_room(t *C.npu_thread, stream unsafe.Pointer, wait C.uint64_t) {
	defer func() {
		if p := recover(); p != nil {
			caught(p, t, "aclrtLaunchKernelWithConfig")
		}
	}()
	core.WaitStreamRoom(handle(stream), uint64(wait))
}
