/* trace.h: the call trace of NPUEMU_TRACE=FILE (not installed; internal).
 *
 * With tracing on, every shim writes one JSON line per call:
 *
 *   {"tid":4242,"sym":"aclrtMalloc","args":{"devPtr":"0x7ffc...","size":1024,
 *    "policy":0},"ret":0,"ns":812}
 *
 * Integers are numbers, pointers, handles and callbacks hex strings, input
 * strings (const char* parameters) JSON strings, floats numbers, structs
 * passed by value {"struct":"<bytes in hex>"}. The shim formats its line
 * into a thread-local buffer after the call and appends it to one
 * process-wide buffer under a mutex, flushed with write(2) when it fills,
 * at aclFinalize and at exit.
 *
 * The argument formatter is chosen by the C compiler from each argument's
 * type (__builtin_classify_type), so shimgen only has to tell input strings
 * apart from other pointers.
 */
#ifndef NPUEMU_LIBFAKE_TRACE_H
#define NPUEMU_LIBFAKE_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* npu_tr_on is nonzero when NPUEMU_TRACE names a file that could be opened. */
extern int npu_tr_on;

/* npu_call is the state of one hooked call: whether it is traced, and when
 * it started. */
typedef struct npu_call {
    int trace;
    int64_t t0;
} npu_call;

/* npu_tr is the line being formatted (one per thread). */
typedef struct npu_tr npu_tr;

int64_t npu_tr_now(void);

static inline void npu_call_begin(npu_call *c) {
    c->trace = npu_tr_on;
    if (c->trace) c->t0 = npu_tr_now();
}

/* npu_tr_start begins the line of symbol idx; args follow with npu_tr_val
 * and npu_tr_str, then optionally the result (npu_tr_ret_*), then
 * npu_tr_finish writes the line. npu_tr_start returns NULL when the thread's
 * line cannot be allocated; the other functions then do nothing. */
npu_tr *npu_tr_start(const npu_call *c, int idx);
void npu_tr_val(npu_tr *t, const char *name, const void *p, size_t n, int cls, int sgn);
void npu_tr_str(npu_tr *t, const char *name, const char *s);
void npu_tr_ptr(npu_tr *t, const char *name, const void *p);
void npu_tr_finish(npu_tr *t, const npu_call *c);

/* npu_tr_flush writes out the buffered lines (aclFinalize, exit). */
void npu_tr_flush(void);

/* npu_tl_rec is one API call on the host track of NPUEMU_TIMELINE. */
typedef struct npu_tl_rec {
    int64_t start; /* wall clock, ns since the epoch */
    int64_t dur;   /* ns */
    long long ret; /* the result when an integer, else 0 */
    int32_t tid;
    int32_t idx;   /* symbol index (npu_tl_name) */
} npu_tl_rec;

/* npu_tl_take hands over (malloc'd, the caller frees) the calls recorded
 * since the last take. */
size_t npu_tl_take(npu_tl_rec **out);
const char *npu_tl_name(int idx);

/* npu_tr_init opens the trace file; called once by the library constructor. */
void npu_tr_init(void);

#define NPU_TR_SIGNED(x) \
    _Generic((x), signed char: 1, short: 1, int: 1, long: 1, long long: 1, default: 0)

/* NPU_TR_ARG appends argument x (any type) under name; NPU_TR_RET appends the
 * result as "ret". */
#define NPU_TR_ARG(t, name, x) \
    npu_tr_val((t), (name), &(x), sizeof(x), __builtin_classify_type(x), NPU_TR_SIGNED(x))
#define NPU_TR_RET(t, x) NPU_TR_ARG(t, NULL, x)

#endif
