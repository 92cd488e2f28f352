/* sigchain.h: the one owner of the fault signals in the process (internal
 * to libfake).
 *
 * npuemu handles SIGSEGV, SIGBUS, SIGILL and SIGFPE through one handler,
 * installed once in front of whatever was there (the Go runtime's), that
 * dispatches each fault in this order:
 *   1. a SIGSEGV on an armed managed-memory page: svm resolves it and the
 *      instruction resumes (svmfault.c, npu_svm_claim);
 *   2. a SIGSEGV on a page of the plain kernel launch the sanitizer tracks:
 *      noted and opened, the instruction resumes (track.c, npu_track_claim);
 *   3. a fault on a thread running a guarded kernel block: it becomes the
 *      AI Core exception of that launch (kernel_host.c, npu_kfault; it does
 *      not return);
 *   4. anything else: the previous handler (honouring SA_SIGINFO), or the
 *      default action.
 * Nothing in the path allocates, locks or calls into Go.
 */
#ifndef NPUEMU_LIBFAKE_SIGCHAIN_H
#define NPUEMU_LIBFAKE_SIGCHAIN_H

#include <signal.h>

/* npu_sig_install installs the handler (once; later calls do nothing) and
 * returns 0, or the errno of the first sigaction that failed. */
int npu_sig_install(void);

/* npu_fault_is_write reports whether the fault whose signal context is uc
 * was a write (x86-64: the page-fault error code; arm64: the ESR; else
 * always 1, which is never wrong, only coarser). */
int npu_fault_is_write(void *uc);

/* The signals the handler owns. */
extern const int npu_sig_owned[4];

#endif
