/* sigchain.c: the one fault-signal handler of the process (sigchain.h). */
#define _GNU_SOURCE
#include "sigchain.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "pkey.h"
#include "svmfault.h"
#include "track.h"

#include <ucontext.h>

/* kernel_host.c: jumps back to the guard of the calling thread's kernel
 * block and does not return; returns when the thread runs none. */
void npu_kfault(int sig, siginfo_t *si, void *uc);

const int npu_sig_owned[4] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};

static struct sigaction prev[NSIG];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int install_err;

static void chain(int sig, siginfo_t *si, void *uc) {
    struct sigaction *p = &prev[sig];
    if (p->sa_flags & SA_SIGINFO) {
        if (p->sa_sigaction != NULL) {
            p->sa_sigaction(sig, si, uc);
            return;
        }
    } else if (p->sa_handler == SIG_IGN) {
        return;
    } else if (p->sa_handler != SIG_DFL) {
        p->sa_handler(sig);
        return;
    }
    /* Default action: restore it and return; the faulting instruction
     * runs again and the signal takes its default course. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
}

/* npu_fault_is_write reads the access kind from the signal context: the
 * page-fault error code on x86-64 (bit 1: write), the ESR's WnR bit on
 * arm64. Elsewhere every fault counts as a write. */
int npu_fault_is_write(void *uc) {
#if defined(__x86_64__)
    return (((ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#elif defined(__aarch64__)
    struct ctx_hdr {
        uint32_t magic, size;
    };
    unsigned char *p = (unsigned char *)((ucontext_t *)uc)->uc_mcontext.__reserved;
    unsigned char *end = p + sizeof(((ucontext_t *)uc)->uc_mcontext.__reserved);
    while (p + sizeof(struct ctx_hdr) <= end) {
        struct ctx_hdr *h = (struct ctx_hdr *)p;
        if (h->magic == 0 || h->size == 0) break;
        if (h->magic == 0x45535201) { /* ESR_MAGIC */
            uint64_t esr;
            memcpy(&esr, p + 8, sizeof esr);
            return (esr & (1u << 6)) != 0;
        }
        p += h->size;
    }
    return 1;
#else
    (void)uc;
    return 1;
#endif
}

/* put appends s to b (of size n, used *k), for pk_fault. */
static void put(char *b, size_t n, size_t *k, const char *s) {
    while (*s != 0 && *k + 1 < n) b[(*k)++] = *s++;
}

static void put_hex(char *b, size_t n, size_t *k, uintptr_t v) {
    char d[2 + 2 * sizeof v + 1];
    int i = sizeof d - 1;
    d[i] = 0;
    do {
        d[--i] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v != 0);
    d[--i] = 'x';
    d[--i] = '0';
    put(b, n, k, d + i);
}

/* pk_fault handles a host thread's fault on device memory (pkey.h): the
 * access fault of the key (SEGV_PKUERR) outside a call into the core. It
 * says why, then hands the fault to the program's own SIGSEGV action from
 * before the core loaded, not to Go's (which would print a Go crash of C
 * code): by default the process dies of SIGSEGV, as a host dereference of
 * a device pointer does on hardware. It returns 0 for any other fault. */
static int pk_fault(int sig, siginfo_t *si, void *uc) {
    if (sig != SIGSEGV || si == NULL || npu_core_pk == 0 || si->si_code != 4 /* SEGV_PKUERR */) return 0;
#ifdef si_pkey
    if ((int)si->si_pkey != npu_core_pk_key) return 0;
#endif
    char b[512];
    size_t k = 0;
    put(b, sizeof b, &k, "npuemu: host code ");
    put(b, sizeof b, &k, npu_fault_is_write(uc) ? "wrote" : "read");
    put(b, sizeof b, &k, " device memory at ");
    put_hex(b, sizeof b, &k, (uintptr_t)si->si_addr);
#if defined(__x86_64__)
    put(b, sizeof b, &k, " (pc ");
    put_hex(b, sizeof b, &k, (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP]);
    put(b, sizeof b, &k, ")");
#endif
    put(b, sizeof b, &k, ": device memory is not accessible to host code, as on the device; copy it with aclrtMemcpy "
                         "(docs/hardening.md, \"Protection keys\"; without NPUEMU_PKEYS=1 host code is let through)\n");
    ssize_t w = write(2, b, k);
    (void)w;
    struct sigaction *o = &npu_pk_orig_segv;
    if (o->sa_flags & SA_SIGINFO) {
        if (o->sa_sigaction != NULL) {
            o->sa_sigaction(sig, si, uc);
            return 1;
        }
    } else if (o->sa_handler != SIG_DFL && o->sa_handler != SIG_IGN) {
        o->sa_handler(sig);
        return 1;
    }
    /* Default (an ignored fault would only run again): restore it and
     * return; the instruction faults again and the process dies of it. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    return 1;
}

static void on_fault(int sig, siginfo_t *si, void *uc) {
    /* A handler runs with the kernel's default key rights, without device
     * memory (pkey.h); track.c copies device pages. The return from the
     * handler puts the thread's own rights back, and so does the guard a
     * kernel's fault jumps to. */
    uint64_t pk = npu_pk_open(npu_core_pk);
    if (npu_svm_claim(sig, si, uc)) return;   /* a managed page: resolved, resume */
    if (npu_track_claim(sig, si, uc)) return; /* a page of a tracked launch (sanitizer): noted, resume */
    npu_kfault(sig, si, uc);                  /* a kernel block's: does not return */
    npu_pk_close(pk);
    if (pk_fault(sig, si, uc)) return; /* host code on device memory */
    chain(sig, si, uc);
}

static void install(void) {
    for (size_t i = 0; i < sizeof npu_sig_owned / sizeof npu_sig_owned[0]; i++) {
        int sig = npu_sig_owned[i];
        struct sigaction sa;
        if (sigaction(sig, NULL, &prev[sig]) != 0) {
            if (install_err == 0) install_err = errno;
            continue;
        }
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fault;
        sa.sa_mask = prev[sig].sa_mask;
        /* SA_ONSTACK: Go threads handle signals on their gsignal stack, and
         * the chained Go handler expects to run there. */
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        if (sigaction(sig, &sa, NULL) != 0 && install_err == 0) install_err = errno;
    }
}

int npu_sig_install(void) {
    pthread_once(&once, install);
    return install_err;
}
