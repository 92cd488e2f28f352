/* front.h: the front library (not installed; internal).
 * docs/internals.md "The C boundary", docs/node.md "fork".
 *
 * emu/lib/libnpuemu.so (every vendor soname links to it) is this plain-C
 * library: it defines every exported name and nothing of Go. The first call
 * of any of them loads the Go core, emu/lib/libnpuemu_core.so from the same
 * directory, with RTLD_LOCAL (its names stay out of the global scope); the
 * first call of each name resolves it in the core into npu_front_fns, and
 * from then on that front function costs one load and one indirect call.
 * So a process that loads npuemu but calls nothing starts no Go runtime,
 * and a child forked before the first call loads its own core.
 */
#ifndef NPUEMU_LIBFAKE_FRONT_H
#define NPUEMU_LIBFAKE_FRONT_H

#include <stdint.h>

#include "pkru.h"

/* The library of a symbol, which picks its failure code when the core
 * cannot be loaded: ACL_ERROR_RT_DEV_SETUP_ERROR for ACL and rt,
 * DRV_ERROR_NO_DEVICE for HAL. */
enum { NPU_FRONT_ACL = 0, NPU_FRONT_HAL = 1, NPU_FRONT_RT = 2 };

typedef struct npu_front_sym {
    uint32_t name; /* offset in npu_front_names; 0: not defined by the front */
    int lib;
} npu_front_sym;

/* Generated (zfront.c): every symbol of abi.Symbols by index, its name in
 * npu_front_names (offsets, not pointers: nothing for the loader to
 * relocate at start), and the core's function of each (NULL until its
 * first call). */
extern const char npu_front_names[];
extern const npu_front_sym npu_front_syms[];
extern const int npu_front_nsyms;
extern void *npu_front_fns[];

/* npu_front_load loads the core once (any thread; a fork waits for a load
 * in progress) and returns the core's function of symbol idx, resolved on
 * the symbol's first call; NULL when the core or the symbol is missing. */
void *npu_front_load(int idx) __attribute__((noinline, cold));

/* npu_front_slot is the core's function of symbol idx once loaded, else
 * NULL (then the caller goes through npu_front_load). */
static inline void *npu_front_slot(int idx) { return __atomic_load_n(&npu_front_fns[idx], __ATOMIC_ACQUIRE); }

/* NPU_FRONT_COLD marks the first-call paths: out of line, out of the hot
 * code. */
#define NPU_FRONT_COLD __attribute__((noinline, cold))

/* npu_front_fail records why symbol idx cannot be called (for
 * aclGetRecentErrMsg and, once, stderr) and returns its failure code. */
int32_t npu_front_fail(int idx);

/* npu_front_errmsg is aclGetRecentErrMsg without a core: the reason. */
const char *npu_front_errmsg(int idx);

/* npu_front_extra is the core's function behind a hand-written name of
 * front.c (NPU_FRONT_X_*), loading the core on the first call; NULL when
 * the core or the name is missing. */
enum {
    NPU_FRONT_X_LQ_BATCHABLE = 4,
    NPU_FRONT_X_LQ_TID = 5,
    NPU_FRONT_X_LQ_RUN = 6,
    NPU_FRONT_X_LQ_ROOM = 7,
    NPU_FRONT_X_LQ_COPY = 8
};
void *npu_front_extra(int i);

/* The protection key of device memory (pkey.c, pkru.h): npu_front_pk is
 * its two bits in PKRU, 0 without one. npu_front_pk_begin allocates it on
 * the thread about to load the core (-1: none); npu_front_pk_end hands it
 * to the loaded core's setter (NULL: none, the key is freed) and takes the
 * loading thread's access away. Every call into the core runs in a window:
 * NPU_FRONT_RETURN(T, call), NPU_FRONT_AFTER(call) (an aclError that
 * npu_lq_after passes on) and NPU_FRONT_DO(stmt) (also a void function's
 * last call) give the calling thread access to device memory for the call
 * (npu_pk_open; a thread that has it keeps it) and take it back after;
 * without a key they cost one load, and a call that ends its function
 * stays a tail call. */
extern uint32_t npu_front_pk;
struct sigaction;
int npu_front_pk_begin(void);
void npu_front_pk_end(void (*set)(int, const struct sigaction *));

#define NPU_FRONT_PK() __atomic_load_n(&npu_front_pk, __ATOMIC_RELAXED)
#define NPU_FRONT_DO(stmt)                                                      \
    do {                                                                        \
        uint32_t pkb_ = NPU_FRONT_PK();                                         \
        if (__builtin_expect(pkb_ == 0, 1)) {                                   \
            stmt;                                                               \
        } else {                                                                \
            uint64_t pks_ = npu_pk_open(pkb_);                                  \
            stmt;                                                               \
            npu_pk_close(pks_);                                                 \
        }                                                                       \
    } while (0)
#define NPU_FRONT_RETURN(T, call)                                               \
    do {                                                                        \
        uint32_t pkb_ = NPU_FRONT_PK();                                         \
        if (__builtin_expect(pkb_ == 0, 1)) return call;                        \
        uint64_t pks_ = npu_pk_open(pkb_);                                      \
        T r_ = call;                                                            \
        npu_pk_close(pks_);                                                     \
        return r_;                                                              \
    } while (0)
#define NPU_FRONT_AFTER(call)                                                   \
    do {                                                                        \
        uint32_t pkb_ = NPU_FRONT_PK();                                         \
        if (__builtin_expect(pkb_ == 0, 1)) return npu_lq_after(call);          \
        uint64_t pks_ = npu_pk_open(pkb_);                                      \
        int32_t r_ = call;                                                      \
        npu_pk_close(pks_);                                                     \
        return npu_lq_after(r_);                                                \
    } while (0)

/* NPU_EXPORT: every exported name is in the dynamic table whatever
 * -fvisibility the front is built with. */
#define NPU_EXPORT __attribute__((visibility("default")))

#endif
