/* forkcheck.c: what fork(2) does to a process whose Go core is loaded
 * (docs/node.md, "fork").
 *
 * The core is loaded by the front library (libfake/front) at the process's
 * first call, so a child forked before that has no core: its own first call
 * loads one and it works normally. This file handles the other children.
 * The Go runtime does not survive fork: the child has only the forking
 * thread, while the runtime's scheduler still lists the parent's other
 * threads as idle and hands them work that nobody runs. A child forked while
 * the runtime was still starting hung in its first call; one forked later
 * hung as soon as a call needed a second thread (the first stream
 * synchronisation, say). One Go runtime per process cannot be restarted,
 * so such a child gets, for every call, ACL_ERROR_RT_DEV_SETUP_ERROR (HAL
 * calls: DRV_ERROR_NO_DEVICE) and a message naming fork, without entering
 * Go: it never hangs. The parent is unaffected. NPU work in those children
 * needs exec (posix_spawn, Python multiprocessing's "spawn") or a fork
 * before the parent's first call. Passthrough mode is left alone. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "acl/acl.h"
#include "ascend_hal.h"
#include "passthrough.h"

static pid_t fork_parent;

static void fork_prepare(void) { fork_parent = getpid(); }

static void fork_child(void) {
    char why[512];
    snprintf(why, sizeof why,
             "npuemu: this process was forked (without exec) from process %d after that process had called the "
             "runtime; the runtime cannot run in such a child, so every call fails: start NPU children with exec "
             "(posix_spawn, Python multiprocessing 'spawn') or fork them before the parent's first call",
             (int)fork_parent);
    npu_pt_fail_all(ACL_ERROR_RT_DEV_SETUP_ERROR, DRV_ERROR_NO_DEVICE, why);
}

__attribute__((constructor)) static void npu_fork_init(void) {
    pthread_atfork(fork_prepare, NULL, fork_child);
}
