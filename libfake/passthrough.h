/* passthrough.h: the mode switch of the libfake shims (not installed;
 * internal).
 *
 * Every generated shim (zshims.c) begins with one test of npu_hooks. It is
 * zero in the emulator without tracing, so the shim calls its Go export and
 * nothing else changes. Otherwise the shim takes its hook_ path, which
 * forwards to the vendor library (NPUEMU_MODE=passthrough, npu_pt_on) or
 * calls the emulator, and writes a trace line (NPUEMU_TRACE, trace.h).
 *
 * The flags are set once, by the library's constructor (passthrough.c),
 * before any shim can run, and never change afterwards.
 */
#ifndef NPUEMU_LIBFAKE_PASSTHROUGH_H
#define NPUEMU_LIBFAKE_PASSTHROUGH_H

#include <stdint.h>

#include "acl/acl_base_rt.h"

/* npu_hooks is nonzero when npu_pt_on or tracing is on. */
extern int npu_hooks;
/* npu_pt_on is nonzero in passthrough mode (also when the vendor library
 * could not be loaded: every call then fails with the reason). */
extern int npu_pt_on;

/* The library a symbol belongs to, in npu_pt_syms. */
enum { NPU_LIB_ACL = 0, NPU_LIB_HAL = 1, NPU_LIB_OTHER = 2 };

typedef struct npu_pt_sym {
    uint32_t name; /* offset in npu_pt_names */
    int lib;
} npu_pt_sym;

/* Generated (zshims.c): every symbol of abi.Symbols by index, its name in
 * npu_pt_names (offsets: nothing for the loader to relocate at start), and
 * the vendor's function for each index (NULL: not loaded / not found). */
extern const char npu_pt_names[];
extern const npu_pt_sym npu_pt_syms[];
extern const int npu_pt_nsyms;
extern void *npu_pt_fns[];

/* The indices of aclGetRecentErrMsg and aclAppLog (-1: not in the spec). */
extern const int npu_pt_idx_recent, npu_pt_idx_applog;

/* npu_pt_name is the name of symbol idx, "?" out of range. */
static inline const char *npu_pt_name(int idx) {
    return idx >= 0 && idx < npu_pt_nsyms ? npu_pt_names + npu_pt_syms[idx].name : "?";
}

/* npu_pt_fail records why symbol idx cannot be forwarded (the vendor
 * library or the symbol is missing) for aclGetRecentErrMsg and stderr, and
 * returns the code of the failure: ACL_ERROR_API_NOT_SUPPORT for ACL
 * symbols, DRV_ERROR_NOT_SUPPORT for the others. */
int32_t npu_pt_fail(int idx);

/* npu_pt_fail_all makes every later call fail with acl (HAL calls: drv)
 * and the message why, without entering Go; nothing in passthrough mode. */
void npu_pt_fail_all(int32_t acl, int32_t drv, const char *why);

/* npu_applog_hook is called by aclAppLog (applog.c) with the formatted
 * message when npu_hooks is set: it traces the call and, in passthrough
 * mode, forwards it and returns 1; in the emulator it returns 0 and
 * aclAppLog goes on as usual. */
int npu_applog_hook(aclLogLevel level, const char *func, const char *file, uint32_t line,
                    const char *msg);

/* NPU_HOOK marks the slow paths: kept out of line and out of the hot code. */
#define NPU_HOOK __attribute__((noinline, cold))

#endif
