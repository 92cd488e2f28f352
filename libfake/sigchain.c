/* sigchain.c: the one fault-signal handler of the process (sigchain.h). */
#define _GNU_SOURCE
#include "sigchain.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

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

static void on_fault(int sig, siginfo_t *si, void *uc) {
    if (npu_svm_claim(sig, si, uc)) return; /* a managed page: resolved, resume */
    if (npu_track_claim(sig, si, uc)) return; /* a page of a tracked launch (sanitizer): noted, resume */
    npu_kfault(sig, si, uc);                  /* a kernel block's: does not return */
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
