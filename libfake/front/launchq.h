/* launchq.h: launches deferred in the front, handed to the core in batches
 * (not installed; internal). docs/kernels.md "Batched launches".
 *
 * Shared by the front (launchq.c here) and the core (libfake/launchq.c):
 * the record of one deferred launch and the core's
 * entry points the front resolves by name.
 */
#ifndef NPUEMU_LIBFAKE_FRONT_LAUNCHQ_H
#define NPUEMU_LIBFAKE_FRONT_LAUNCHQ_H

#include <stddef.h>
#include <stdint.h>

/* The launches the front defers (kind of npu_lq_rec). */
enum {
    NPU_LQ_CONFIG = 0, /* aclrtLaunchKernelWithConfig(f, blocks, s, NULL, args, NULL) */
    NPU_LQ_HOST = 1,   /* aclrtLaunchKernelWithHostArgs(f, blocks, s, NULL, bytes, size, NULL, 0) */
    NPU_LQ_DEVICE = 2, /* aclrtLaunchKernel(f, blocks, args, size, s) */
};

/* npu_lq_rec is one launch the front deferred; wait is the core's answer
 * (npu_lq_run). args is the args handle of an NPU_LQ_CONFIG launch, the
 * front's copy of the size argument bytes of an NPU_LQ_HOST one (made at
 * the call: the program may reuse its buffer as soon as it returns), and
 * the device address of the size argument bytes of an NPU_LQ_DEVICE one
 * (read when the kernel runs, as at once). */
typedef struct npu_lq_rec {
    void *f;
    void *s;
    void *args;
    uint32_t blocks;
    uint32_t kind;
    uint64_t size;
    uint64_t wait;
} npu_lq_rec;

/* The core's entry points (libfake/launchq.c):
 *
 * int npu_lq_batchable(void): 1 when launches may be deferred in this
 *   process (no trace, no passthrough, no split layout), else 0. C only.
 * uint64_t npu_lq_tid(void): the calling thread's id in the core's thread
 *   registry (0 before its first call). C only.
 * int32_t npu_lq_run(uint64_t tid, const npu_lq_rec *v, int n, void *stream,
 *   int32_t *sync, void (*launched)(void *), int32_t *handing, uint64_t *over):
 *   one crossing: launches v[0..n) in order on behalf of thread tid (0 or
 *   unknown: the caller), never waiting for ring space (a full ring grows
 *   past its depth); sets bit i of *over (n <= 64) and v[i].wait when v[i]
 *   is the last of a run of launches into one stream that went past its
 *   depth and its slot is not free yet: the launching thread owes
 *   npu_lq_room(v[i].s, v[i].wait) (none for the stream synchronised
 *   next: that waits anyway); then, when sync is not NULL,
 *   releases the front's queue: stores 0 (atomically) in *handing (1 or
 *   2 before; *over and v[i].wait are set before it, v is not read after
 *   it) and, when it held 2 (a front thread waits for the release), calls
 *   launched(handing) (handing NULL: nothing to release), and then calls
 *   aclrtSynchronizeStream(stream) on the caller, whose result goes to
 *   *sync. Returns the first launch's failure code (the launches after a
 *   failed one are still made), else ACL_SUCCESS.
 * void npu_lq_room(void *stream, uint64_t wait): waits until the stream
 *   has completed wait tasks (returns at once for a destroyed stream): the
 *   slot the launch made past the depth would have waited for, made one by
 *   one.
 * int npu_lq_copy(void *dst, const void *src, size_t n): copies n bytes,
 *   returning 0, or -1 when reading src faults (the process's fault
 *   handler jumps back): the front copies a host-argument launch's bytes
 *   with it, so a bad pointer gets the launch's error, not a crash. */
typedef int (*npu_lq_batchable_fn)(void);
typedef uint64_t (*npu_lq_tid_fn)(void);
typedef int32_t (*npu_lq_run_fn)(uint64_t tid, const npu_lq_rec *v, int n, void *stream, int32_t *sync,
                                 void (*launched)(void *), int32_t *handing, uint64_t *over);
typedef void (*npu_lq_room_fn)(void *stream, uint64_t wait);
typedef int (*npu_lq_copy_fn)(void *dst, const void *src, size_t n);

/* Front side (launchq.c). npu_lq_active is nonzero once some thread of the
 * process deferred a launch; the generated front functions (zfront.c) then
 * call npu_lq_before first, which hands every deferred launch of every
 * thread to the core (so any other call sees them queued, in order), and
 * forgets the calling thread's validated launches unless keep is set (the
 * synchronisations: they change no handle). npu_lq_after returns r, or, when
 * r is success, the first failure of a deferred launch of this thread not
 * reported yet (the synchronisations report them, as the runtime reports
 * asynchronous launch errors). */
extern int npu_lq_active;
void npu_lq_before(int keep) __attribute__((noinline));
int32_t npu_lq_after(int32_t r);
/* npu_lq_fork_child resets the queue state in a forked child. */
void npu_lq_fork_child(void);

#define NPU_LQ_BEFORE(keep)                                                  \
    do {                                                                     \
        if (__builtin_expect(__atomic_load_n(&npu_lq_active, __ATOMIC_RELAXED) != 0, 0)) \
            npu_lq_before(keep);                                             \
    } while (0)

#endif
