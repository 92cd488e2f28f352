/* kernel_host.c: npuemu kernel binaries on the host.
 *
 * Loading: dlopen with RTLD_LOCAL, so that kernels of different binaries
 * may share names; the exported npuemu_kernel_table marks a kernel binary.
 * From memory: the bytes go to a memfd and /proc/self/fd/N is opened.
 *
 * Fault guard: each block runs after sigsetjmp on a thread-local guard.
 * The process's one fault handler (sigchain.c) calls npu_kfault, which
 * jumps back to the guard when the fault happens inside a guarded block;
 * any other fault goes on to the handler that was installed before (the
 * Go runtime's, which turns faults of Go code into panics or crash
 * reports). A kernel touching device memory no allocation covers faults
 * there too (emu/hbm_protect.go keeps it PROT_NONE). npuemu_trap jumps to
 * the same guard. sigsetjmp does not save the signal mask (a syscall per
 * block); after a signal the mask at the fault, from the handler's
 * ucontext, is put back by hand.
 *
 * A kernel that faults may leave locks it held (malloc's, stdio's) taken:
 * the same is true of a crashed device kernel, and the runtime only
 * reports the exception.
 *
 * Ascend C services (npuemu/ascendc_rt.h): a block may end with a fault
 * message (rule violations), report its per-pipe cycles into the launch's
 * shared state (npu_kshared, created on first use and freed by
 * npu_kflush), use the launch's zeroed scratch for SyncAll and cross-core
 * flags, and run sub-blocks (the AIC and AIVs of a MIX block) on pooled
 * worker threads, each under its own guard. The first failure of a launch
 * is its cause: blocks that only gave up waiting report it instead.
 */
#define _GNU_SOURCE
#include "kernel_host.h"
#include "pkey.h"
#include "sigchain.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

typedef struct npu_guard {
    sigjmp_buf jb;
    int sig;
    int code;
    void *addr;
    sigset_t mask; /* the thread's mask when the fault hit */
    npu_kstate *st;
    uint32_t block;
    uint32_t order; /* failures of the launch are numbered: the first is the cause */
    int propagated; /* the failure is a sub-block's, already numbered */
    char msg[1024]; /* NPU_KRUN_FAULT: the message */
} npu_guard;

/* The shared state of a launch of an Ascend C kernel (npuemu_kernel_rt
 * .shared/.report): the scratch whose first word is the abort word, and
 * the cycle record. */
typedef struct npu_kshared {
    uint32_t scratch[NPUEMU_LAUNCH_SHARED_SIZE / 4];
    pthread_mutex_t mu;
    uint64_t busy[NPU_KPIPES];
    uint64_t cycles;
    uint32_t reports;
    uint32_t failures;
    /* The first failure of the launch, written before the abort word is
     * set: blocks that only gave up because of it report it instead. */
    int cause_r;
    int cause_sig, cause_code;
    uint32_t cause_block;
    void *cause_addr;
    char cause[1024];
    /* The GM footprint (sanitizer only): ranges reported by the cores,
     * how many cores reported, and whether one overflowed. */
    npuemu_gm_range *fp;
    uint32_t fp_n, fp_cap, fp_reports;
    int fp_over;
} npu_kshared;

/* Set once by the Go side when the library loads: the sanitizer wants
 * Ascend C footprints (libfake/kernel_gm.go). */
int npu_ksanitize;

/* Ranges one launch keeps; past them it counts as touching the whole of
 * its arguments' allocations. */
#define NPU_KFOOTPRINT_MAX 65536u

/* The Go side: the allocation holding addr (libfake/kernel_gm.go). */
extern int npuGMFind(uint64_t addr, uint64_t *base, uint64_t *size);

/* initial-exec: the handler must not call __tls_get_addr (it may
 * allocate). Go's own c-shared runtime needs static TLS as well. */
static __thread npu_guard *cur_guard __attribute__((tls_model("initial-exec")));

/* npu_kguarded reports whether the calling thread runs a guarded block
 * (svmfault.c: a kernel's fault on a managed page is a device access). */
int npu_kguarded(void) { return cur_guard != NULL; }

/* npu_kguard_owner returns the launch state of the guarded block the
 * calling thread runs, 0 when none (track.c: a tracked launch's own
 * faults). */
uintptr_t npu_kguard_owner(void) { return cur_guard ? (uintptr_t)cur_guard->st : 0; }

/* npu_kcopy copies n bytes from src to dst under a guard (kernel_host.h):
 * 0, or -1 when reading src faults. */
int npu_kcopy(void *dst, const void *src, size_t n) {
    npu_guard g;
    npu_guard *outer = cur_guard;
    uint32_t pk = npu_core_pk ? npu_rdpkru() : 0;
    if (sigsetjmp(g.jb, 0) == 0) {
        cur_guard = &g;
        /* Barriers: the compiler knows memcpy touches nothing else, and
         * would drop the store above as dead. */
        __asm__ volatile("" ::: "memory");
        memcpy(dst, src, n);
        __asm__ volatile("" ::: "memory");
        cur_guard = outer;
        return 0;
    }
    pthread_sigmask(SIG_SETMASK, &g.mask, NULL); /* the handler's mask, left by the jump */
    if (npu_core_pk) npu_wrpkru(pk);             /* and the handler's key rights */
    cur_guard = outer;
    return -1;
}

/* npu_kfault is sigchain.c's third step: a fault on a thread that runs a
 * guarded block jumps back to its guard; otherwise it returns. */
void npu_kfault(int sig, siginfo_t *si, void *uc) {
    npu_guard *g = cur_guard;
    if (g == NULL) return;
    cur_guard = NULL;
    g->sig = sig;
    g->addr = si ? si->si_addr : NULL;
    g->mask = ((ucontext_t *)uc)->uc_sigmask;
    siglongjmp(g->jb, NPU_KRUN_SIGNAL);
}

static void *finish_open(void *lib, const npuemu_kernel_table_t **table, char *err, size_t errlen) {
    if (lib == NULL) {
        const char *e = dlerror();
        snprintf(err, errlen, "%s", e ? e : "dlopen failed");
        return NULL;
    }
    dlerror();
    void *sym = dlsym(lib, "npuemu_kernel_table");
    if (sym == NULL) {
        snprintf(err, errlen, "the shared object exports no npuemu_kernel_table symbol");
        dlclose(lib);
        return NULL;
    }
    *table = (const npuemu_kernel_table_t *)sym;
    npu_sig_install();
    return lib;
}

void *npu_kopen(const char *path, const npuemu_kernel_table_t **table, char *err, size_t errlen) {
    return finish_open(dlopen(path, RTLD_NOW | RTLD_LOCAL), table, err, errlen);
}

/* A library loaded from memory keeps its memfd open until it is unloaded.
 * glibc's dlopen matches loaded objects by name: were the fd closed, the
 * next load would get the same number, hence the same /proc/self/fd/N
 * name, and dlopen would hand back the earlier library instead of the new
 * bytes (two kernel sources of one program, each with its own device
 * object). */
static pthread_mutex_t memfd_mu = PTHREAD_MUTEX_INITIALIZER;
static struct memfd_lib {
    void *lib;
    int fd;
} *memfd_libs;
static size_t memfd_count, memfd_cap;

static int memfd_keep(void *lib, int fd) {
    int ok = 1;
    pthread_mutex_lock(&memfd_mu);
    if (memfd_count == memfd_cap) {
        size_t cap = memfd_cap ? 2 * memfd_cap : 16;
        struct memfd_lib *n = realloc(memfd_libs, cap * sizeof *n);
        if (n == NULL) {
            ok = 0;
        } else {
            memfd_libs = n;
            memfd_cap = cap;
        }
    }
    if (ok) memfd_libs[memfd_count++] = (struct memfd_lib){lib, fd};
    pthread_mutex_unlock(&memfd_mu);
    return ok;
}

static void memfd_release(void *lib) {
    pthread_mutex_lock(&memfd_mu);
    for (size_t i = 0; i < memfd_count; i++) {
        if (memfd_libs[i].lib == lib) {
            close(memfd_libs[i].fd);
            memfd_libs[i] = memfd_libs[--memfd_count];
            break;
        }
    }
    pthread_mutex_unlock(&memfd_mu);
}

void *npu_kopen_data(const void *data, size_t n, const npuemu_kernel_table_t **table, char *err, size_t errlen) {
    int fd = memfd_create("npuemu-kernel", MFD_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "memfd_create: %s", strerror(errno));
        return NULL;
    }
    const char *p = data;
    size_t left = n;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            snprintf(err, errlen, "writing the binary to a memfd: %s", strerror(errno));
            close(fd);
            return NULL;
        }
        p += w;
        left -= (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    void *lib = finish_open(dlopen(path, RTLD_NOW | RTLD_LOCAL), table, err, errlen);
    if (lib == NULL || !memfd_keep(lib, fd)) close(fd);
    return lib;
}

void npu_kclose(void *lib) {
    if (lib == NULL) return;
    dlclose(lib);
    memfd_release(lib);
}

uintptr_t npu_kbase(uintptr_t addr) {
    Dl_info info;
    if (dladdr((void *)addr, &info) == 0) return 0;
    return (uintptr_t)info.dli_fbase;
}

uintptr_t npu_kglobal(void *lib, const char *name, uint64_t *size, char *err, size_t errlen) {
    dlerror();
    void *p = dlsym(lib, name);
    if (p == NULL) {
        const char *e = dlerror();
        snprintf(err, errlen, "%s", e ? e : "the symbol's address is NULL");
        return 0;
    }
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (dladdr1(p, &info, (void **)&sym, RTLD_DL_SYMENT) == 0 || sym == NULL) {
        snprintf(err, errlen, "no symbol table entry for %s", name);
        return 0;
    }
    switch (ELF64_ST_TYPE(sym->st_info)) {
    case STT_OBJECT:
    case STT_COMMON:
    case STT_NOTYPE:
        break;
    default:
        snprintf(err, errlen, "%s is not a variable (ELF symbol type %d)", name, (int)ELF64_ST_TYPE(sym->st_info));
        return 0;
    }
    *size = sym->st_size;
    return (uintptr_t)p;
}

/* Kernel output of one launch: records appended by the blocks, written in
 * (block, order of printing) order by npu_kflush. */
typedef struct npu_krec {
    uint32_t block;
    uint32_t seq;
    size_t len;
    char *text;
} npu_krec;

typedef struct npu_kprint {
    pthread_mutex_t mu;
    npu_krec *recs;
    size_t n, cap;
    uint32_t seq;
} npu_kprint;

static void rt_trap(const npuemu_kernel_ctx *ctx, int code) {
    npu_guard *g = ctx->priv;
    cur_guard = NULL;
    g->code = code;
    siglongjmp(g->jb, NPU_KRUN_TRAP);
}

static void rt_fault(const npuemu_kernel_ctx *ctx, const char *msg) {
    npu_guard *g = ctx->priv;
    cur_guard = NULL;
    snprintf(g->msg, sizeof g->msg, "%s", msg ? msg : "(no message)");
    siglongjmp(g->jb, NPU_KRUN_FAULT);
}

static npu_kshared *kshared(npu_kstate *st) {
    npu_kshared *p = (npu_kshared *)__atomic_load_n(&st->shared, __ATOMIC_ACQUIRE);
    if (p != NULL) return p;
    npu_kshared *np = calloc(1, sizeof *np);
    if (np == NULL) return NULL;
    pthread_mutex_init(&np->mu, NULL);
    uintptr_t expect = 0;
    if (__atomic_compare_exchange_n(&st->shared, &expect, (uintptr_t)np, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return np;
    pthread_mutex_destroy(&np->mu);
    free(np);
    return (npu_kshared *)expect;
}

static void *rt_shared(const npuemu_kernel_ctx *ctx) {
    npu_guard *g = ctx->priv;
    npu_kshared *p = kshared(g->st);
    return p ? (void *)p->scratch : NULL;
}

/* abort_launch marks the launch failed so that blocks waiting for each
 * other (SyncAll, cross-core flags) give up. */
static uint32_t abort_launch(npu_guard *g, int r) {
    npu_kshared *p = kshared(g->st);
    if (p == NULL) return 0;
    uint32_t order = __atomic_add_fetch(&p->failures, 1, __ATOMIC_ACQ_REL);
    if (order == 1) {
        p->cause_r = r;
        p->cause_sig = g->sig;
        p->cause_code = g->code;
        p->cause_addr = g->addr;
        p->cause_block = g->block;
        memcpy(p->cause, g->msg, sizeof p->cause);
    }
    __atomic_store_n(&p->scratch[0], 1u, __ATOMIC_RELEASE);
    return order;
}

/* root_cause replaces g's failure by the launch's first one when g's came
 * later (a block that gave up waiting because another failed). */
static int root_cause(npu_guard *g, int r) {
    npu_kshared *p = (npu_kshared *)g->st->shared;
    if (p == NULL || g->order <= 1 || p->failures == 0) return r;
    g->sig = p->cause_sig;
    g->code = p->cause_code;
    g->addr = p->cause_addr;
    if (p->cause_r == NPU_KRUN_FAULT) {
        snprintf(g->msg, sizeof g->msg, "block %u failed first: %s", p->cause_block, p->cause);
    }
    return p->cause_r;
}

static void rt_report(const npuemu_kernel_ctx *ctx, const uint64_t *busy, uint32_t npipes, uint64_t cycles) {
    npu_guard *g = ctx->priv;
    npu_kshared *p = kshared(g->st);
    if (p == NULL) return;
    pthread_mutex_lock(&p->mu);
    for (uint32_t i = 0; i < npipes && i < NPU_KPIPES; i++) p->busy[i] += busy[i];
    if (cycles > p->cycles) p->cycles = cycles;
    p->reports++;
    pthread_mutex_unlock(&p->mu);
}

static int rt_sanitizing(const npuemu_kernel_ctx *ctx) {
    (void)ctx;
    return npu_ksanitize;
}

static void rt_footprint(const npuemu_kernel_ctx *ctx, const npuemu_gm_range *r, uint32_t n, int overflow) {
    npu_guard *g = ctx->priv;
    npu_kshared *p = kshared(g->st);
    if (p == NULL) return;
    pthread_mutex_lock(&p->mu);
    p->fp_reports++;
    if (overflow) p->fp_over = 1;
    if (!p->fp_over && p->fp_n + n > p->fp_cap) {
        uint32_t cap = p->fp_cap ? p->fp_cap : 64;
        while (cap < p->fp_n + n && cap < NPU_KFOOTPRINT_MAX) cap *= 2;
        npuemu_gm_range *nr = cap >= p->fp_n + n ? realloc(p->fp, cap * sizeof *nr) : NULL;
        if (nr == NULL) {
            p->fp_over = 1;
        } else {
            p->fp = nr;
            p->fp_cap = cap;
        }
    }
    if (!p->fp_over) {
        memcpy(p->fp + p->fp_n, r, n * sizeof *r);
        p->fp_n += n;
    }
    pthread_mutex_unlock(&p->mu);
}

int npu_kfootprint(npu_kstate *st, const npuemu_gm_range **r, uint32_t *n) {
    npu_kshared *p = (npu_kshared *)st->shared;
    if (p == NULL || p->fp_reports == 0) return -1;
    if (p->fp_over) return 0;
    *r = p->fp;
    *n = p->fp_n;
    return 1;
}

uint32_t npu_kcycles(npu_kstate *st, uint64_t *busy, uint64_t *cycles) {
    npu_kshared *p = (npu_kshared *)st->shared;
    if (p == NULL || p->reports == 0) return 0;
    memcpy(busy, p->busy, sizeof p->busy);
    *cycles = p->cycles;
    return p->reports;
}

static int rt_gm_find(const npuemu_kernel_ctx *ctx, uint64_t addr, uint64_t *base, uint64_t *size) {
    (void)ctx;
    return npuGMFind(addr, base, size);
}

extern char *npuKernelSoC(void);

static const char *rt_soc(const npuemu_kernel_ctx *ctx) {
    npu_guard *g = ctx->priv;
    if (g->st->soc) return (const char *)g->st->soc;
    return npuKernelSoC();
}

static void rt_run_sub(const npuemu_kernel_ctx *ctx, uint32_t n, void (*fn)(const npuemu_kernel_ctx *, void *, uint32_t), void *arg);

static npu_kprint *kprint(npu_kstate *st) {
    npu_kprint *p = (npu_kprint *)__atomic_load_n(&st->print, __ATOMIC_ACQUIRE);
    if (p != NULL) return p;
    npu_kprint *np = calloc(1, sizeof *np);
    if (np == NULL) return NULL;
    pthread_mutex_init(&np->mu, NULL);
    uintptr_t expect = 0;
    if (__atomic_compare_exchange_n(&st->print, &expect, (uintptr_t)np, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return np;
    pthread_mutex_destroy(&np->mu);
    free(np);
    return (npu_kprint *)expect;
}

static int rt_vprintf(const npuemu_kernel_ctx *ctx, const char *fmt, va_list ap) {
    npu_guard *g = ctx->priv;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return n;
    char *text = malloc((size_t)n + 1);
    if (text == NULL) return -1;
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    npu_kprint *p = kprint(g->st);
    if (p == NULL) {
        free(text);
        return -1;
    }
    pthread_mutex_lock(&p->mu);
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        npu_krec *r = realloc(p->recs, cap * sizeof *r);
        if (r == NULL) {
            pthread_mutex_unlock(&p->mu);
            free(text);
            return -1;
        }
        p->recs = r;
        p->cap = cap;
    }
    p->recs[p->n++] = (npu_krec){g->block, p->seq++, (size_t)n, text};
    pthread_mutex_unlock(&p->mu);
    return n;
}

static int rt_sanitizing(const npuemu_kernel_ctx *ctx);
static void rt_footprint(const npuemu_kernel_ctx *ctx, const npuemu_gm_range *r, uint32_t n, int overflow);

static const npuemu_kernel_rt rt = {rt_trap,   rt_vprintf, rt_fault,       rt_report,   rt_gm_find,
                                    rt_shared, rt_run_sub, rt_soc, rt_sanitizing, rt_footprint};

/* guarded runs fn(ctx) (or sub(ctx, arg, i)) under guard g, which becomes
 * the thread's guard for the call and the outer one is put back after.
 * It returns NPU_KRUN_*. */
static int guarded(npu_guard *g, npuemu_kernel_ctx *ctx, npuemu_kernel_fn fn, void (*sub)(const npuemu_kernel_ctx *, void *, uint32_t), void *arg,
                   uint32_t i) {
    npu_guard *outer = cur_guard;
    g->sig = 0;
    g->code = 0;
    g->addr = NULL;
    g->msg[0] = 0;
    g->propagated = 0;
    ctx->priv = g;
    /* The thread's key rights (pkey.h): a signal handler runs with the
     * kernel's default rights, which the jump out of it leaves in place. */
    uint32_t pk = npu_core_pk ? npu_rdpkru() : 0;
    int r = sigsetjmp(g->jb, 0);
    if (r == 0) {
        cur_guard = g;
        if (fn) {
            fn(ctx);
        } else {
            sub(ctx, arg, i);
        }
        cur_guard = outer;
        return NPU_KRUN_OK;
    }
    if (r == NPU_KRUN_SIGNAL) {
        /* The handler was left by a jump: the thread still has the
         * handler's mask (the signal itself, and the sa_mask we copied from
         * Go's handler: every signal). Put back the mask of the fault. */
        pthread_sigmask(SIG_SETMASK, &g->mask, NULL);
        if (npu_core_pk) npu_wrpkru(pk);
    }
    cur_guard = outer;
    if (!g->propagated) g->order = abort_launch(g, r);
    return r;
}

int64_t npu_krun(uintptr_t fn, uintptr_t args, uint64_t size, uint32_t block, uint32_t blocks, npu_kstate *st, char **msg) {
    npu_guard g;
    npuemu_kernel_ctx ctx = {block, blocks, (const void *)args, size, &rt, &g};
    g.st = st;
    g.block = block;
    int r = guarded(&g, &ctx, (npuemu_kernel_fn)fn, NULL, NULL, 0);
    if (r != NPU_KRUN_OK) r = root_cause(&g, r);
    switch (r) {
    case NPU_KRUN_OK:
        return NPU_KRUN_OK;
    case NPU_KRUN_SIGNAL:
        st->fault_addr = (uintptr_t)g.addr;
        return (int64_t)NPU_KRUN_SIGNAL << 32 | (uint32_t)g.sig;
    case NPU_KRUN_FAULT:
        *msg = strdup(g.msg);
        return (int64_t)NPU_KRUN_FAULT << 32;
    default:
        return (int64_t)NPU_KRUN_TRAP << 32 | (uint32_t)g.code;
    }
}

npu_krun_n_ret npu_krun_n(const npu_kjob *jobs, int n) {
    npu_krun_n_ret o = {0, NPU_KRUN_OK, NULL, 0};
    while (o.n < n) {
        const npu_kjob *j = &jobs[o.n++];
        npu_kstate *st = (npu_kstate *)j->st;
        o.r = npu_krun(j->fn, j->args, j->size, 0, 1, st, &o.msg);
        if (o.r != NPU_KRUN_OK) {
            o.fault_addr = st->fault_addr;
            break;
        }
    }
    return o;
}

/* AI CPU kernels (rtAicpuKernelLaunch*): uint32_t kernel(void *args), run
 * under a guard of their own, so that a kernel that faults fails its task
 * instead of taking the process down. */
typedef struct npu_aicpu_job {
    uintptr_t fn, args;
    uint32_t ret;
} npu_aicpu_job;

static void aicpu_sub(const npuemu_kernel_ctx *ctx, void *arg, uint32_t i) {
    (void)ctx;
    (void)i;
    npu_aicpu_job *j = arg;
    j->ret = ((uint32_t (*)(void *))j->fn)((void *)j->args);
}

int npu_kcall_aicpu(uintptr_t fn, uintptr_t args, uint32_t *ret, int *sig, uintptr_t *addr) {
    npu_guard g;
    npu_kstate st;
    memset(&st, 0, sizeof st);
    npuemu_kernel_ctx ctx = {0, 1, (const void *)args, 0, &rt, &g};
    g.st = &st;
    g.block = 0;
    npu_aicpu_job j = {fn, args, 0};
    int r = guarded(&g, &ctx, NULL, aicpu_sub, &j, 0);
    npu_kflush(&st); /* the shared state a failure made */
    *ret = j.ret;
    *sig = g.sig;
    *addr = (uintptr_t)g.addr;
    return r;
}

/* Sub-blocks (the AIC and AIVs of a MIX block): threads of their own, each
 * under its own guard; the first failure (by sub-block index) becomes the
 * block's. */
typedef struct npu_sub {
    npu_guard g;
    npuemu_kernel_ctx ctx;
    void (*fn)(const npuemu_kernel_ctx *, void *, uint32_t);
    void *arg;
    uint32_t i;
    int r;
} npu_sub;

/* Sub-blocks run on pooled worker threads: a MIX launch would otherwise
 * start two threads per block (hundreds of µs); a worker keeps its
 * thread-local state (the core's local memories) between jobs. */
typedef struct npu_worker {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    npu_sub *job; /* set by the submitter, cleared by the worker */
    int done;
    struct npu_worker *next;
} npu_worker;

static npu_worker *idle_workers;
static pthread_mutex_t workers_mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker_main(void *p) {
    npu_worker *w = p;
    /* Go's threads block every signal in sa_mask of the handler; a fresh
     * thread inherits the creator's mask: make sure faults are delivered. */
    sigset_t set;
    sigemptyset(&set);
    for (size_t k = 0; k < sizeof npu_sig_owned / sizeof npu_sig_owned[0]; k++) sigaddset(&set, npu_sig_owned[k]);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->job == NULL) pthread_cond_wait(&w->cv, &w->mu);
        npu_sub *s = w->job;
        pthread_mutex_unlock(&w->mu);
        s->r = guarded(&s->g, &s->ctx, NULL, s->fn, s->arg, s->i);
        pthread_mutex_lock(&w->mu);
        w->job = NULL;
        w->done = 1;
        pthread_cond_broadcast(&w->cv);
    }
    return NULL;
}

/* worker_start hands s to an idle worker (or a new one); NULL when no
 * thread can be started. */
static npu_worker *worker_start(npu_sub *s) {
    pthread_mutex_lock(&workers_mu);
    npu_worker *w = idle_workers;
    if (w != NULL) idle_workers = w->next;
    pthread_mutex_unlock(&workers_mu);
    if (w == NULL) {
        w = calloc(1, sizeof *w);
        if (w == NULL) return NULL;
        pthread_mutex_init(&w->mu, NULL);
        pthread_cond_init(&w->cv, NULL);
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_t th;
        int e = pthread_create(&th, &attr, worker_main, w);
        pthread_attr_destroy(&attr);
        if (e != 0) {
            pthread_cond_destroy(&w->cv);
            pthread_mutex_destroy(&w->mu);
            free(w);
            return NULL;
        }
    }
    pthread_mutex_lock(&w->mu);
    w->done = 0;
    w->job = s;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return w;
}

/* worker_wait waits for w's job and puts w back in the pool. */
static void worker_wait(npu_worker *w) {
    pthread_mutex_lock(&w->mu);
    while (!w->done) pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
    pthread_mutex_lock(&workers_mu);
    w->next = idle_workers;
    idle_workers = w;
    pthread_mutex_unlock(&workers_mu);
}

static void rt_run_sub(const npuemu_kernel_ctx *ctx, uint32_t n, void (*fn)(const npuemu_kernel_ctx *, void *, uint32_t), void *arg) {
    npu_guard *outer = ctx->priv;
    npu_sub subs[8];
    npu_worker *workers[8] = {NULL};
    if (n > 8) n = 8;
    for (uint32_t i = 0; i < n; i++) {
        npu_sub *s = &subs[i];
        s->g.st = outer->st;
        s->g.block = outer->block;
        s->ctx = *ctx;
        s->fn = fn;
        s->arg = arg;
        s->i = i;
        s->r = NPU_KRUN_OK;
    }
    for (uint32_t i = 1; i < n; i++) {
        workers[i] = worker_start(&subs[i]);
        if (workers[i] == NULL) {
            snprintf(subs[i].g.msg, sizeof subs[i].g.msg, "cannot start a thread for sub-block %u", i);
            subs[i].r = NPU_KRUN_FAULT;
            /* the others must not wait for it */
            subs[i].g.order = abort_launch(&subs[i].g, NPU_KRUN_FAULT);
        }
    }
    subs[0].r = guarded(&subs[0].g, &subs[0].ctx, NULL, fn, arg, 0);
    for (uint32_t i = 1; i < n; i++)
        if (workers[i] != NULL) worker_wait(workers[i]);
    npu_sub *first = NULL;
    for (uint32_t i = 0; i < n; i++) {
        npu_sub *s = &subs[i];
        if (s->r != NPU_KRUN_OK && (first == NULL || s->g.order < first->g.order)) first = s;
    }
    if (first != NULL) {
        npu_sub *s = first;
        /* Pass the failure that came first (the others may only have given
         * up because of it) on to the block's own guard. */
        cur_guard = NULL;
        outer->sig = s->g.sig;
        outer->code = s->g.code;
        outer->addr = s->g.addr;
        memcpy(outer->msg, s->g.msg, sizeof outer->msg);
        outer->order = s->g.order;
        outer->propagated = 1;
        if (s->r == NPU_KRUN_SIGNAL) sigprocmask(SIG_SETMASK, NULL, &outer->mask);
        siglongjmp(outer->jb, s->r);
    }
}

static int rec_cmp(const void *a, const void *b) {
    const npu_krec *x = a, *y = b;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void npu_kflush(npu_kstate *st) {
    npu_kprint *p = (npu_kprint *)st->print;
    npu_kshared *sh = (npu_kshared *)st->shared;
    st->print = 0;
    st->fault_addr = 0;
    st->shared = 0;
    if (sh != NULL) {
        free(sh->fp);
        pthread_mutex_destroy(&sh->mu);
        free(sh);
    }
    if (p == NULL) return;
    qsort(p->recs, p->n, sizeof *p->recs, rec_cmp);
    for (size_t i = 0; i < p->n; i++) {
        fwrite(p->recs[i].text, 1, p->recs[i].len, stdout);
        free(p->recs[i].text);
    }
    fflush(stdout);
    free(p->recs);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
