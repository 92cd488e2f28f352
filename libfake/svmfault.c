/* svmfault.c: the SIGSEGV path of mprotect-mode managed memory (see
 * svmfault.h for the contract).
 *
 * State: one byte per page of the managed window (1.5 MiB for 3 TB of
 * 2 MiB pages, a MAP_NORESERVE mapping that costs only what is touched):
 * ARMED once the Space has protected the page (cleared only when the
 * allocation is freed), and the pending notes of resolved faults. Armed
 * stays set when the Space opens a page again: a fault on an armed page is
 * always resolvable, so a handler that loses a race with the Space (it
 * read ARMED, the Space opened the page, the handler narrowed it to
 * PROT_READ) leaves a page that faults once more and is opened again,
 * never a page that kills the process.
 *
 * Pending notes are found without a queue that could overflow: the byte
 * carries them, npu_svm_pending counts pages with notes, and [plo, phi)
 * bounds their indices. The drain takes the bounds, scans them and clears
 * what it reports; a handler racing with it re-extends the bounds, so the
 * next drain finds the note.
 *
 * The process's one fault handler (sigchain.c) asks npu_svm_claim first;
 * faults it does not claim go on to the kernel guard, then to the handler
 * that was there before.
 */
#define _GNU_SOURCE
#include "svmfault.h"
#include "sigchain.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

enum {
    ST_ARMED = 1,
    ST_READ = 2,   /* a read fault was resolved */
    ST_WRITE = 4,  /* a write fault was resolved */
    ST_KERNEL = 8, /* ... by a guarded kernel block */
    ST_NOTES = ST_READ | ST_WRITE | ST_KERNEL,
};

static uint8_t *st;       /* one byte per page, NULL until installed */
static uintptr_t wbase;   /* the window */
static uint64_t wsize;
static unsigned wshift;
static size_t npages;
static pthread_mutex_t install_mu = PTHREAD_MUTEX_INITIALIZER;

int64_t npu_svm_pending;
static size_t plo = SIZE_MAX, phi; /* pages with notes lie in [plo, phi) */
static uint64_t nfaults;

/* Defined in kernel_host.c: whether the calling thread runs a guarded
 * kernel block. */
int npu_kguarded(void);


static void atomic_min(size_t *p, size_t v) {
    size_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
    }
}

static void atomic_max(size_t *p, size_t v) {
    size_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
    }
}

int npu_svm_claim(int sig, siginfo_t *si, void *uc) {
    uint8_t *s = __atomic_load_n(&st, __ATOMIC_ACQUIRE);
    if (sig != SIGSEGV || si == NULL || s == NULL) return 0;
    uintptr_t a = (uintptr_t)si->si_addr;
    if (a < wbase || a - wbase >= wsize) return 0;
    size_t i = (a - wbase) >> wshift;
    if (!(__atomic_load_n(&s[i], __ATOMIC_ACQUIRE) & ST_ARMED)) return 0;
    int write = npu_fault_is_write(uc);
    int prot = write ? PROT_READ | PROT_WRITE : PROT_READ;
    int saved = errno;
    int rc = mprotect((void *)(wbase + ((uintptr_t)i << wshift)), (size_t)1 << wshift, prot);
    errno = saved;
    if (rc != 0) return 0;
    uint8_t note = (uint8_t)((write ? ST_WRITE : ST_READ) | (npu_kguarded() ? ST_KERNEL : 0));
    uint8_t old = __atomic_fetch_or(&s[i], note, __ATOMIC_ACQ_REL);
    if (!(old & ST_NOTES)) {
        __atomic_add_fetch(&npu_svm_pending, 1, __ATOMIC_ACQ_REL);
    }
    atomic_min(&plo, i);
    atomic_max(&phi, i + 1);
    __atomic_add_fetch(&nfaults, 1, __ATOMIC_RELAXED);
    return 1;
}

int npu_svm_install(uintptr_t base, uint64_t size, unsigned shift) {
    pthread_mutex_lock(&install_mu);
    int rc = 0;
    if (st != NULL) {
        if (base != wbase || size != wsize || shift != wshift) rc = EBUSY;
        pthread_mutex_unlock(&install_mu);
        return rc;
    }
    size_t n = (size_t)(size >> shift);
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        rc = errno;
        pthread_mutex_unlock(&install_mu);
        return rc;
    }
    wbase = base;
    wsize = size;
    wshift = shift;
    npages = n;
    if ((rc = npu_sig_install()) != 0) {
        munmap(m, n);
        pthread_mutex_unlock(&install_mu);
        return rc;
    }
    __atomic_store_n(&st, (uint8_t *)m, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&install_mu);
    return 0;
}

int npu_svm_protect(uintptr_t addr, uint64_t size, int prot) {
    uint8_t *s = __atomic_load_n(&st, __ATOMIC_ACQUIRE);
    if (s == NULL || addr < wbase || addr - wbase >= wsize || size > wsize - (addr - wbase)) return EINVAL;
    if (prot != (PROT_READ | PROT_WRITE)) {
        size_t first = (addr - wbase) >> wshift, end = (addr - wbase + size + ((uint64_t)1 << wshift) - 1) >> wshift;
        for (size_t i = first; i < end; i++) __atomic_fetch_or(&s[i], ST_ARMED, __ATOMIC_ACQ_REL);
    }
    if (mprotect((void *)addr, size, prot) != 0) return errno;
    return 0;
}

void npu_svm_disarm(uintptr_t addr, uint64_t size) {
    uint8_t *s = __atomic_load_n(&st, __ATOMIC_ACQUIRE);
    if (s == NULL || addr < wbase || addr - wbase >= wsize) return;
    if (size > wsize - (addr - wbase)) size = wsize - (addr - wbase);
    size_t first = (addr - wbase) >> wshift, end = (addr - wbase + size + ((uint64_t)1 << wshift) - 1) >> wshift;
    for (size_t i = first; i < end; i++) {
        if (__atomic_exchange_n(&s[i], 0, __ATOMIC_ACQ_REL) & ST_NOTES) {
            __atomic_sub_fetch(&npu_svm_pending, 1, __ATOMIC_ACQ_REL);
        }
    }
}

size_t npu_svm_drain(npu_svm_fault *out, size_t max) {
    uint8_t *s = __atomic_load_n(&st, __ATOMIC_ACQUIRE);
    if (s == NULL || max == 0 || __atomic_load_n(&npu_svm_pending, __ATOMIC_ACQUIRE) <= 0) return 0;
    size_t lo = __atomic_exchange_n(&plo, SIZE_MAX, __ATOMIC_ACQ_REL);
    size_t hi = __atomic_exchange_n(&phi, 0, __ATOMIC_ACQ_REL);
    if (hi > npages) hi = npages;
    size_t n = 0;
    for (size_t i = lo; i < hi; i++) {
        if (n == max) { /* out is full: leave the rest for the next call */
            atomic_min(&plo, i);
            atomic_max(&phi, hi);
            break;
        }
        uint8_t old = __atomic_fetch_and(&s[i], (uint8_t)~ST_NOTES, __ATOMIC_ACQ_REL);
        if (!(old & ST_NOTES)) continue;
        __atomic_sub_fetch(&npu_svm_pending, 1, __ATOMIC_ACQ_REL);
        out[n].addr = wbase + ((uintptr_t)i << wshift);
        out[n].write = (old & ST_WRITE) != 0;
        out[n].kernel = (old & ST_KERNEL) != 0;
        out[n].prot = (old & ST_WRITE) ? PROT_READ | PROT_WRITE : PROT_READ;
        n++;
    }
    return n;
}

uint64_t npu_svm_faults(void) { return __atomic_load_n(&nfaults, __ATOMIC_RELAXED); }

/* The public entries of npuemu/svm.h: C, so that they take the thread's
 * slot (error messages) and keep their const-qualified types. */
#include "npu.h"
#include "npuemu/svm.h"

extern int npusvmMode(void);
extern int npusvmStats(npu_thread *t, int32_t dev, struct npuemu_svm_stats *out);

NPU_EXPORT int npuemuSvmGetStats(int32_t dev, struct npuemu_svm_stats *out) { return npusvmStats(npu_self(), dev, out); }

NPU_EXPORT const char *npuemuSvmHostFaultMode(void) {
    switch (npusvmMode()) {
    case 0:
        return "explicit";
    case 1:
        return "mprotect";
    case 2:
        return "userfaultfd-wp";
    }
    return NULL;
}
