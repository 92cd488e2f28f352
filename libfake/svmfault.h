/* svmfault.h: the host side of mprotect-mode managed memory (internal to
 * libfake; docs/svm.md "Host-side faults").
 *
 * The svm Space keeps a device-owned page PROT_NONE (PROT_READ while devices
 * hold read-only copies) and marks it armed here. A SIGSEGV on an armed
 * page is an access the Space must hear of: the handler opens the page
 * itself (PROT_READ for a read, read-write for a write), notes the fault in
 * the page's state byte and returns, so the instruction resumes. It never
 * calls into Go — the faulting thread may be running Go code, holding Go
 * locks — and only uses atomics and mprotect(2). npu_svm_drain hands the
 * notes to Go, which replays them into the Space before its next operation.
 */
#ifndef NPUEMU_LIBFAKE_SVMFAULT_H
#define NPUEMU_LIBFAKE_SVMFAULT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* One resolved fault. */
typedef struct npu_svm_fault {
    uintptr_t addr;  /* start of the page */
    uint8_t write;   /* the access (or one of them) was a write */
    uint8_t kernel;  /* it came from a guarded kernel block */
    uint8_t pad[2];
    int32_t prot;    /* protection the handler applied */
} npu_svm_fault;

/* npu_svm_install arms the handler for the window [base, base+size) of
 * pages of 1 << shift bytes and installs the SIGSEGV handler (once).
 * 0 on success, else an errno value (EBUSY: another window is armed). */
int npu_svm_install(uintptr_t base, uint64_t size, unsigned shift);

/* npu_svm_protect applies prot (PROT_NONE, PROT_READ, PROT_READ|PROT_WRITE)
 * to [addr, addr+size): a protected range is armed before the change, an
 * opened one disarmed after it. 0 or an errno value. */
int npu_svm_protect(uintptr_t addr, uint64_t size, int prot);

/* npu_svm_disarm forgets [addr, addr+size) (freed memory): faults there go
 * to the previous handlers again. Pending notes of it are dropped. */
void npu_svm_disarm(uintptr_t addr, uint64_t size);

/* npu_svm_pending is the number of notes not drained yet (a hint: it may
 * lag a fault in progress). */
extern int64_t npu_svm_pending;

/* npu_svm_drain moves up to max notes into out and returns their number. */
size_t npu_svm_drain(npu_svm_fault *out, size_t max);

/* npu_svm_claim is the first step of the fault handler (sigchain.c): it
 * resolves the fault and returns 1 when si_addr is an armed page, else 0.
 * A fault on a thread in a guarded kernel block is noted as the kernel's. */
int npu_svm_claim(int sig, siginfo_t *si, void *uc);

/* npu_svm_faults counts every fault claimed (for benchmarks and tests). */
uint64_t npu_svm_faults(void);

#endif
