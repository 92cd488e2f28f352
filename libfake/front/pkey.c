/* pkey.c: the protection key of device memory (docs/hardening.md,
 * "Protection keys"). Where the CPU has them (x86-64 pku), the front
 * allocates a key just before it loads the core: pkey_alloc gives the
 * loading thread access to it, so every thread of the Go runtime, created
 * while the core loads and after by those threads, inherits access. The
 * core gives its device memory the key (emu: pkey_mprotect). The loading
 * thread then gives its access up, and from then on a host thread has
 * access only for the duration of a call into the core (front.h's
 * NPU_FRONT_* windows): host code that dereferences a device pointer
 * faults, as on hardware: the core's fault handler says why
 * (libfake/sigchain.c) and passes the fault to the program's own SIGSEGV
 * action from before the core loaded (the default: death by SIGSEGV).
 * Opt-in for now: NPUEMU_PKEYS=1 turns it on (with protection on, that
 * is NPUEMU_PROTECT not 0); docs/hardening.md says what ran on a CPU with
 * keys and what did not. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "front.h"
#include "pkru.h"

uint32_t npu_front_pk;
static int key = -1;
static struct sigaction orig_segv; /* the program's SIGSEGV action before the core (and Go) took it */

/* is reports whether environment variable name is v (spaces around it
 * aside), as the Go side reads it (strings.TrimSpace). */
static int is(const char *name, char v) {
    const char *e = getenv(name);
    while (e != NULL && *e == ' ') e++;
    if (e == NULL || e[0] != v) return 0;
    for (e++; *e == ' '; e++) {
    }
    return *e == '\0';
}

int npu_front_pk_begin(void) {
#if defined(__x86_64__) && defined(SYS_pkey_alloc)
    if (is("NPUEMU_PROTECT", '0') || !is("NPUEMU_PKEYS", '1')) return -1;
    long k = syscall(SYS_pkey_alloc, 0, 0); /* this thread: read and write */
    if (k < 0) return -1;                   /* no pku (EINVAL/ENOSYS) or no key left (ENOSPC) */
    if (npu_pk_bits((int)k) == 0) {
        syscall(SYS_pkey_free, k);
        return -1;
    }
    key = (int)k;
    sigaction(SIGSEGV, NULL, &orig_segv);
#endif
    return key;
}

void npu_front_pk_end(void (*set)(int, const struct sigaction *)) {
#if defined(__x86_64__) && defined(SYS_pkey_alloc)
    if (key < 0) return;
    if (set == NULL) { /* no core, or one without the key's setter */
        syscall(SYS_pkey_free, key);
        key = -1;
        return;
    }
    set(key, &orig_segv);
    uint32_t bits = npu_pk_bits(key);
    __atomic_store_n(&npu_front_pk, bits, __ATOMIC_RELEASE);
    npu_wrpkru(npu_rdpkru() | bits); /* the loading thread is a host thread again */
#else
    (void)set;
#endif
}
