/* launchq.c: the core's side of the front's batched launches
 * (front/launchq.h, docs/kernels.md "Batched launches"). */
#include <stdint.h>

#include "front/launchq.h"
#include "kernel_host.h"
#include "npu.h"
#include "passthrough.h"
#include "stack.h"
#include "_cgo_export.h" /* npulq_run (launchq.go) */

NPU_EXPORT int npu_lq_batchable(void) {
    if (npu_hooks != 0) return 0; /* traced or passthrough: every call goes through its shim */
    for (int i = 0; i < npu_route_n; i++)
        if (npu_route_fns[i] != NULL) return 0; /* split layout: launches are routed */
    return 1;
}

NPU_EXPORT uint64_t npu_lq_tid(void) { return npu_self()->id; }

NPU_EXPORT int32_t npu_lq_run(uint64_t tid, const npu_lq_rec *v, int n, void *stream, int32_t *sync,
                              void (*launched)(void *), int32_t *handing, uint64_t *over) {
    return npulq_run(npu_self(), tid, (npu_lq_rec *)v, n, stream, sync, (uintptr_t)launched, handing, over);
}

NPU_EXPORT void npu_lq_room(void *stream, uint64_t wait) { npulq_room(npu_self(), stream, wait); }

/* npu_lq_copy: the front copies the bytes of a host-argument launch it
 * defers at the call; a bad pointer must give the launch's error, as made
 * at once, not a crash. The fault handler is installed by then (a
 * deferred launch needs a loaded kernel). */
NPU_EXPORT int npu_lq_copy(void *dst, const void *src, size_t n) { return npu_kcopy(dst, src, n); }

/* npu_lq_call calls the front's launched callback (launchq.go); integers,
 * so that cgo does not check them as pointers. */
void npu_lq_call(uintptr_t fn, uintptr_t arg) { ((void (*)(void *))fn)((void *)arg); }
