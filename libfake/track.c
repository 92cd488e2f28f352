/* track.c: the page footprint of a plain kernel launch (track.h).
 *
 * State: the spans of the launch (page ranges), one state byte per page of
 * them, and the copies of the pages the launch wrote to. The state bytes
 * and copies live in reservations made once (MAP_NORESERVE: they cost
 * what is touched), so the handler never allocates and a late handler
 * never reads freed memory.
 *
 * Phases: idle → armed (npu_track_arm) → disarming → parked
 * (npu_track_disarm) → armed again (the same spans: only the units opened
 * since are closed) or idle (other spans, npu_track_release: the closed
 * units are opened). Parked, a fault on a closed unit opens it for
 * whoever made it; a state byte is then 0 for closed, non-zero for open. A handler counts itself in busy while it works on a
 * page; the disarm waits for busy to drain before it opens the spans, so
 * no handler narrows a page after the disarm opened it. A handler that
 * finds the tracker disarming waits for it to end and lets the instruction
 * run again; one that finds it idle although the fault was on a page of
 * the last spans (the disarm ran between the fault and the handler) lets
 * it run again once per page, and the second fault goes on down the chain.
 *
 * A page's byte is locked (PG_LOCK) while a handler changes the page:
 * two blocks faulting on one page take turns, and the second finds it
 * open already (it applies the protection the state says again, which
 * also repairs a page a concurrent arm closed after it was opened).
 */
#define _GNU_SOURCE
#include "track.h"
#include "sigchain.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* kernel_host.c: the launch state of the calling thread's guarded block
 * (0: the thread runs none). */
uintptr_t npu_kguard_owner(void);

#define PAGE ((uintptr_t)NPU_TRACK_PAGE)
#define MAX_SPANS 256u
#define MAX_PAGES (1u << 22)         /* tracked units per launch */
#define MAX_SNAPS (1u << 16)         /* copies per launch */
#define SNAP_BYTES ((size_t)1 << 30) /* their bytes; past them a written unit is spoiled */
#define DIFF_GAP 32          /* unchanged runs shorter than this inside a page count as written */

enum { PG_R = 1, PG_W = 2, PG_SPOIL = 4, PG_LOCK = 0x80 };
enum { PH_IDLE, PH_ARMED, PH_DISARMING, PH_PARKED };

/* A span is tracked in units of 1 << shift bytes (a page or more): the
 * last unit may be shorter. */
typedef struct {
    uintptr_t lo, hi;
    size_t first; /* index of its first unit in pg */
    unsigned shift;
} trk_span;

static trk_span spans[MAX_SPANS];
static uint32_t nspans;
static size_t npg; /* units tracked */
static uint8_t *pg; /* MAX_PAGES state bytes */
typedef struct {
    uint32_t unit;
    uint32_t len;
    size_t off; /* in snap */
} trk_snap;
static trk_snap *snaps;     /* MAX_SNAPS copies' records */
static unsigned char *snap; /* SNAP_BYTES of copies */
static uint32_t nsnap;
static size_t snap_used;
static uintptr_t owner;
static int phase, busy, ovf;
static pthread_mutex_t reserve_mu = PTHREAD_MUTEX_INITIALIZER;
/* park_mu serialises arm, disarm and release (never the handler). */
static pthread_mutex_t park_mu = PTHREAD_MUTEX_INITIALIZER;

static __thread uintptr_t retry_page __attribute__((tls_model("initial-exec")));

static int reserve(void) {
    pthread_mutex_lock(&reserve_mu);
    int rc = 0;
    if (pg == NULL) {
        int fl = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
        void *a = mmap(NULL, MAX_PAGES, PROT_READ | PROT_WRITE, fl, -1, 0);
        void *b = mmap(NULL, MAX_SNAPS * sizeof(trk_snap), PROT_READ | PROT_WRITE, fl, -1, 0);
        void *c = mmap(NULL, SNAP_BYTES, PROT_READ | PROT_WRITE, fl, -1, 0);
        if (a == MAP_FAILED || b == MAP_FAILED || c == MAP_FAILED) {
            rc = errno ? errno : ENOMEM;
            if (a != MAP_FAILED) munmap(a, MAX_PAGES);
            if (b != MAP_FAILED) munmap(b, MAX_SNAPS * sizeof(trk_snap));
            if (c != MAP_FAILED) munmap(c, SNAP_BYTES);
        } else {
            snaps = b;
            snap = c;
            __atomic_store_n(&pg, (uint8_t *)a, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&reserve_mu);
    return rc;
}

/* find returns the unit index of a in the spans, or -1, and the unit. */
static long find(uintptr_t a, uintptr_t *lo, size_t *len) {
    uint32_t n = __atomic_load_n(&nspans, __ATOMIC_ACQUIRE);
    for (uint32_t k = 0; k < n && k < MAX_SPANS; k++) {
        trk_span *s = &spans[k];
        if (a >= s->lo && a < s->hi) {
            size_t j = (a - s->lo) >> s->shift;
            *lo = s->lo + (j << s->shift);
            *len = s->hi - *lo < ((size_t)1 << s->shift) ? s->hi - *lo : (size_t)1 << s->shift;
            return (long)(s->first + j);
        }
    }
    return -1;
}

static size_t units(const trk_span *s) { return (s->hi - s->lo + ((size_t)1 << s->shift) - 1) >> s->shift; }

static void wait_idle_handlers(void) {
    while (__atomic_load_n(&busy, __ATOMIC_SEQ_CST) != 0) sched_yield();
}

/* open_all makes every span read-write (one mprotect per span, which also
 * merges the per-page mappings back). */
static int open_all(uint32_t n) {
    int rc = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (mprotect((void *)spans[k].lo, spans[k].hi - spans[k].lo, PROT_READ | PROT_WRITE) != 0) rc = errno;
    }
    return rc;
}

/* protect_runs applies prot to the runs of units of every span whose
 * state is closed (want_open 0) or open (want_open 1). */
static int protect_runs(int want_open, int prot) {
    int rc = 0;
    for (uint32_t k = 0; k < nspans; k++) {
        trk_span *s = &spans[k];
        size_t nu = units(s), j = 0;
        while (j < nu) {
            if ((pg[s->first + j] != 0) != want_open) {
                j++;
                continue;
            }
            size_t e = j;
            while (e < nu && (pg[s->first + e] != 0) == want_open) e++;
            uintptr_t a = s->lo + (j << s->shift), b = s->lo + (e << s->shift);
            if (b > s->hi) b = s->hi;
            if (mprotect((void *)a, b - a, prot) != 0) rc = errno;
            j = e;
        }
    }
    return rc;
}

/* protect_eq applies prot to the runs of units whose state is want. */
static int protect_eq(uint8_t want, int prot) {
    int rc = 0;
    for (uint32_t k = 0; k < nspans; k++) {
        trk_span *s = &spans[k];
        size_t nu = units(s), j = 0;
        while (j < nu) {
            if (pg[s->first + j] != want) {
                j++;
                continue;
            }
            size_t e = j;
            while (e < nu && pg[s->first + e] == want) e++;
            uintptr_t a = s->lo + (j << s->shift), b = s->lo + (e << s->shift);
            if (b > s->hi) b = s->hi;
            if (mprotect((void *)a, b - a, prot) != 0) rc = errno;
            j = e;
        }
    }
    return rc;
}

/* unpark opens the units a parked tracker left closed and makes it idle.
 * Precondition: park_mu held, the tracker parked. */
static void unpark(void) {
    __atomic_store_n(&phase, PH_DISARMING, __ATOMIC_SEQ_CST);
    wait_idle_handlers();
    protect_runs(0, PROT_READ | PROT_WRITE);
    memset(pg, 0, npg);
    __atomic_store_n(&phase, PH_IDLE, __ATOMIC_SEQ_CST);
}

/* same_spans reports whether the parked spans are exactly these. */
static int same_spans(const uintptr_t *lo, const uintptr_t *hi, const uint32_t *shift, uint32_t n) {
    if (n != nspans) return 0;
    for (uint32_t k = 0; k < n; k++) {
        if (spans[k].lo != lo[k] || spans[k].hi != hi[k] || spans[k].shift != shift[k]) return 0;
    }
    return 1;
}

static int arm_locked(uintptr_t own, const uintptr_t *lo, const uintptr_t *hi, const uint32_t *shift, uint32_t n);

int npu_track_arm(uintptr_t own, const uintptr_t *lo, const uintptr_t *hi, const uint32_t *shift, uint32_t n) {
    pthread_mutex_lock(&park_mu);
    int rc;
    if (__atomic_load_n(&phase, __ATOMIC_SEQ_CST) == PH_PARKED && same_spans(lo, hi, shift, n)) {
        /* The last launch's pages: only the units it (or anyone since)
         * opened need closing again. */
        __atomic_store_n(&phase, PH_DISARMING, __ATOMIC_SEQ_CST);
        wait_idle_handlers();
        rc = protect_runs(1, PROT_NONE);
        if (rc != 0) {
            open_all(nspans);
            memset(pg, 0, npg);
            __atomic_store_n(&phase, PH_IDLE, __ATOMIC_SEQ_CST);
        } else {
            memset(pg, 0, npg);
            owner = own;
            ovf = 0;
            __atomic_store_n(&nsnap, 0, __ATOMIC_RELAXED);
            __atomic_store_n(&snap_used, 0, __ATOMIC_RELAXED);
            __atomic_store_n(&phase, PH_ARMED, __ATOMIC_SEQ_CST);
        }
        pthread_mutex_unlock(&park_mu);
        return rc;
    }
    if (__atomic_load_n(&phase, __ATOMIC_SEQ_CST) == PH_PARKED) unpark();
    rc = arm_locked(own, lo, hi, shift, n);
    pthread_mutex_unlock(&park_mu);
    return rc;
}

void npu_track_release(uintptr_t lo, uintptr_t hi) {
    pthread_mutex_lock(&park_mu);
    if (__atomic_load_n(&phase, __ATOMIC_SEQ_CST) == PH_PARKED) {
        for (uint32_t k = 0; k < nspans; k++) {
            if (spans[k].lo < hi && lo < spans[k].hi) {
                unpark();
                break;
            }
        }
    }
    pthread_mutex_unlock(&park_mu);
}

static int arm_locked(uintptr_t own, const uintptr_t *lo, const uintptr_t *hi, const uint32_t *shift, uint32_t n) {
    if (__atomic_load_n(&phase, __ATOMIC_SEQ_CST) != PH_IDLE) return EBUSY;
    if (n == 0 || n > MAX_SPANS) return E2BIG;
    int rc = reserve();
    if (rc != 0) return rc;
    if ((rc = npu_sig_install()) != 0) return rc;
    size_t total = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (lo[k] % PAGE || hi[k] % PAGE || hi[k] <= lo[k] || shift[k] < 12 || shift[k] > 30) return EINVAL;
        total += (hi[k] - lo[k] + ((size_t)1 << shift[k]) - 1) >> shift[k];
        if (total > MAX_PAGES) return E2BIG;
    }
    __atomic_store_n(&nspans, 0, __ATOMIC_RELEASE);
    size_t first = 0;
    for (uint32_t k = 0; k < n; k++) {
        spans[k] = (trk_span){lo[k], hi[k], first, shift[k]};
        first += units(&spans[k]);
    }
    npg = total;
    owner = own;
    ovf = 0;
    __atomic_store_n(&nsnap, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&snap_used, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&nspans, n, __ATOMIC_RELEASE);
    /* Armed before the pages close: a fault on a closed page always finds
     * the tracker armed. */
    __atomic_store_n(&phase, PH_ARMED, __ATOMIC_SEQ_CST);
    for (uint32_t k = 0; k < n; k++) {
        if (mprotect((void *)lo[k], hi[k] - lo[k], PROT_NONE) != 0) {
            rc = errno;
            __atomic_store_n(&phase, PH_DISARMING, __ATOMIC_SEQ_CST);
            wait_idle_handlers();
            open_all(k);
            memset(pg, 0, npg);
            owner = 0;
            __atomic_store_n(&phase, PH_IDLE, __ATOMIC_SEQ_CST);
            return rc;
        }
    }
    return 0;
}

/* resolve handles a fault on unit i, [page, page+len). It returns 1 when
 * the instruction may resume. Precondition: the tracker is armed, the
 * handler counted in busy. */
static int resolve(size_t i, uintptr_t page, size_t len, int write, int own) {
    uint8_t *p = &pg[i];
    while (__atomic_fetch_or(p, PG_LOCK, __ATOMIC_ACQUIRE) & PG_LOCK) {
#if defined(__x86_64__)
        __builtin_ia32_pause();
#endif
    }
    uint8_t st = __atomic_load_n(p, __ATOMIC_RELAXED) & (uint8_t)~PG_LOCK;
    int prot = PROT_READ | PROT_WRITE;
    if (!own) {
        st |= PG_SPOIL;
    } else if (!write) {
        if (!(st & (PG_W | PG_SPOIL))) {
            st |= PG_R;
            prot = PROT_READ;
        }
    } else if (!(st & (PG_W | PG_SPOIL))) {
        uint32_t k = __atomic_fetch_add(&nsnap, 1, __ATOMIC_RELAXED);
        size_t off = __atomic_fetch_add(&snap_used, len, __ATOMIC_RELAXED);
        if (k < MAX_SNAPS && off + len <= SNAP_BYTES && ((st & PG_R) || mprotect((void *)page, len, PROT_READ) == 0)) {
            memcpy(snap + off, (void *)page, len);
            snaps[k] = (trk_snap){(uint32_t)i, (uint32_t)len, off};
            st |= PG_W;
        } else {
            if (k < MAX_SNAPS) snaps[k] = (trk_snap){(uint32_t)i, 0, 0};
            st |= PG_SPOIL;
        }
    }
    int ok = mprotect((void *)page, len, prot) == 0;
    if (!ok) {
        /* Out of mappings (each page opened apart may take one): open
         * everything, which merges them, and give up on this launch. */
        __atomic_store_n(&ovf, 1, __ATOMIC_RELAXED);
        ok = open_all(__atomic_load_n(&nspans, __ATOMIC_ACQUIRE)) == 0;
    }
    __atomic_store_n(p, st, __ATOMIC_RELEASE); /* and unlocked */
    return ok;
}

int npu_track_claim(int sig, siginfo_t *si, void *uc) {
    if (sig != SIGSEGV || si == NULL || __atomic_load_n(&pg, __ATOMIC_ACQUIRE) == NULL) return 0;
    /* A protection-key fault (pkey.h: a thread without device memory's
     * key) is not a tracked page's: opening the page would not let the
     * instruction through, and it would fault here for ever. */
    if (si->si_code == 4 /* SEGV_PKUERR */) return 0;
    uintptr_t a = (uintptr_t)si->si_addr;
    int saved = errno;
    __atomic_add_fetch(&busy, 1, __ATOMIC_SEQ_CST);
    int ph = __atomic_load_n(&phase, __ATOMIC_SEQ_CST);
    uintptr_t unit = 0;
    size_t len = 0;
    long i = find(a, &unit, &len);
    int rc = 0;
    if (i < 0) {
        __atomic_sub_fetch(&busy, 1, __ATOMIC_SEQ_CST);
    } else if (ph == PH_ARMED) {
        rc = resolve((size_t)i, unit, len, npu_fault_is_write(uc), owner != 0 && npu_kguard_owner() == owner);
        __atomic_sub_fetch(&busy, 1, __ATOMIC_SEQ_CST);
        retry_page = 0;
    } else if (ph == PH_PARKED) {
        rc = resolve((size_t)i, unit, len, 1, 0); /* opened for whoever touches it */
        __atomic_sub_fetch(&busy, 1, __ATOMIC_SEQ_CST);
        retry_page = 0;
    } else {
        __atomic_sub_fetch(&busy, 1, __ATOMIC_SEQ_CST);
        if (ph == PH_DISARMING) {
            while (__atomic_load_n(&phase, __ATOMIC_SEQ_CST) == PH_DISARMING) sched_yield();
            rc = 1;
        } else if (retry_page != (a & ~(PAGE - 1))) {
            retry_page = a & ~(PAGE - 1);
            rc = 1;
        } else {
            retry_page = 0;
        }
    }
    errno = saved;
    return rc;
}

/* out is a growing list of ranges. */
typedef struct {
    npu_track_range *r;
    uint32_t n, cap;
    int oom;
} out_list;

static void emit(out_list *o, uintptr_t lo, uintptr_t hi, uint32_t kind) {
    if (o->n > 0 && kind != NPU_TRACK_RPAGES) { /* units read stay apart: initcheck looks at each */
        npu_track_range *last = &o->r[o->n - 1];
        if (last->kind == kind && last->hi == lo) {
            last->hi = hi;
            return;
        }
    }
    if (o->n == o->cap) {
        uint32_t cap = o->cap ? 2 * o->cap : 64;
        npu_track_range *r = realloc(o->r, cap * sizeof *r);
        if (r == NULL) {
            o->oom = 1;
            return;
        }
        o->r = r;
        o->cap = cap;
    }
    o->r[o->n++] = (npu_track_range){lo, hi, kind, 0};
}

/* unit_addr is the address of unit i. */
static uintptr_t unit_addr(size_t i) {
    for (uint32_t k = 0; k < nspans; k++) {
        if (i >= spans[k].first && i < spans[k].first + units(&spans[k])) return spans[k].lo + ((i - spans[k].first) << spans[k].shift);
    }
    return 0;
}

/* diff_page emits the bytes of the page at a that differ from its copy
 * c; unchanged runs shorter than DIFF_GAP between changed bytes count as
 * changed (a kernel storing a vector writes them all). */
static void diff_page(out_list *o, uintptr_t a, const unsigned char *c) {
    const unsigned char *m = (const unsigned char *)a;
    long lo = -1, last = -1;
    for (long b = 0; b < (long)PAGE; b++) {
        if (m[b] == c[b]) continue;
        if (lo >= 0 && b - last > DIFF_GAP) {
            emit(o, a + (uintptr_t)lo, a + (uintptr_t)last + 1, NPU_TRACK_WRITTEN);
            lo = -1;
        }
        if (lo < 0) lo = b;
        last = b;
    }
    if (lo >= 0) emit(o, a + (uintptr_t)lo, a + (uintptr_t)last + 1, NPU_TRACK_WRITTEN);
}

/* diff emits the changed bytes of the n bytes at a (whole pages) against
 * their copy c. */
static void diff(out_list *o, uintptr_t a, const unsigned char *c, size_t n) {
    for (size_t p = 0; p + PAGE <= n; p += PAGE) {
        if (memcmp((const void *)(a + p), c + p, PAGE) != 0) diff_page(o, a + p, c + p);
    }
}

npu_track_range *npu_track_disarm(uint32_t *n, int *overflow) {
    *n = 0;
    *overflow = 0;
    pthread_mutex_lock(&park_mu);
    if (__atomic_load_n(&phase, __ATOMIC_SEQ_CST) != PH_ARMED) {
        pthread_mutex_unlock(&park_mu);
        return NULL;
    }
    __atomic_store_n(&phase, PH_DISARMING, __ATOMIC_SEQ_CST);
    wait_idle_handlers();
    out_list o = {0};
    for (uint32_t k = 0; k < nspans; k++) {
        trk_span *s = &spans[k];
        size_t nu = units(s);
        for (size_t j = 0; j < nu; j++) {
            uint8_t st = pg[s->first + j];
            uintptr_t a = s->lo + (j << s->shift);
            uintptr_t b = s->hi - a < ((uintptr_t)1 << s->shift) ? s->hi : a + ((uintptr_t)1 << s->shift);
            if (st & PG_SPOIL) {
                emit(&o, a, b, NPU_TRACK_SPOILED);
            } else if (st & PG_W) {
                emit(&o, a, b, NPU_TRACK_WPAGES);
            } else if (st & PG_R) {
                emit(&o, a, b, NPU_TRACK_RPAGES);
            }
        }
    }
    uint32_t ns = __atomic_load_n(&nsnap, __ATOMIC_RELAXED);
    if (ns > MAX_SNAPS) ns = MAX_SNAPS;
    for (uint32_t k = 0; k < ns; k++) {
        trk_snap *c = &snaps[k];
        if (c->len == 0 || (pg[c->unit] & PG_SPOIL)) continue;
        uintptr_t a = unit_addr(c->unit);
        if (a != 0) diff(&o, a, snap + c->off, c->len);
    }
    size_t used = __atomic_load_n(&snap_used, __ATOMIC_RELAXED);
    if (used > SNAP_BYTES) used = SNAP_BYTES;
    /* The copies' memory is kept for the next launch (faulting it in
     * again costs more than the copies), unless it grew large. */
    if (used > ((size_t)256 << 20)) madvise(snap, used, MADV_DONTNEED);
    *overflow = o.oom || __atomic_load_n(&ovf, __ATOMIC_RELAXED);
    owner = 0;
    if (!*overflow) {
        /* Units it only read are read-only: open them fully (parked, an
         * open unit is read-write, a closed one inaccessible). */
        for (size_t i = 0; i < npg; i++) {
            uint8_t st = pg[i];
            pg[i] = (st & (PG_W | PG_SPOIL)) ? PG_SPOIL : (st & PG_R) ? PG_R : 0;
        }
        *overflow = protect_eq(PG_R, PROT_READ | PROT_WRITE) != 0;
    }
    if (!*overflow) {
        /* Parked: the units the launch did not open stay closed, so that
         * the next launch over the same allocations closes only what was
         * opened (a launch loop pays no system call); whoever touches one
         * meanwhile opens it (the handler), and npu_track_release or the
         * next launch over other allocations opens the rest. */
        for (size_t i = 0; i < npg; i++) pg[i] = pg[i] ? PG_SPOIL : 0;
        __atomic_store_n(&phase, PH_PARKED, __ATOMIC_SEQ_CST);
    } else {
        *overflow = open_all(nspans) != 0 || *overflow;
        memset(pg, 0, npg);
        __atomic_store_n(&phase, PH_IDLE, __ATOMIC_SEQ_CST);
    }
    pthread_mutex_unlock(&park_mu);
    *n = o.n;
    return o.r;
}
