/* npu.h: the C side of the libfake boundary (not installed; internal).
 *
 * Every exported symbol is a C shim (zshims.c, generated) that passes the
 * calling thread's slot to a Go export npu_<symbol>. The slot holds the
 * thread's id in the Go thread registry (acl.ThreadByID); 0 means the thread
 * has not called into npuemu yet. Keeping the id in C thread-local storage
 * makes the per-call lookup a slice index instead of a map or goroutine
 * lookup.
 */
#ifndef NPUEMU_LIBFAKE_NPU_H
#define NPUEMU_LIBFAKE_NPU_H

#include <stddef.h>
#include <stdint.h>

typedef struct npu_thread {
    uint64_t id;
} npu_thread;

/* npu_self returns the calling thread's slot (a static __thread object). */
npu_thread *npu_self(void);

/* npu_msgbuf returns a per-thread buffer of at least n bytes that stays
 * valid until the thread's next call; NULL when memory is exhausted. It
 * holds the string aclGetRecentErrMsg hands out. */
char *npu_msgbuf(size_t n);

/* NPU_EXPORT gives a shim default visibility whatever -fvisibility the
 * library is built with: every spec symbol must be in the dynamic table. */
#define NPU_EXPORT __attribute__((visibility("default")))

#endif
