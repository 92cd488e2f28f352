/* front.c: loading the Go core on the first call (front.h).
 *
 * The constructor only records where the core is (next to this library's
 * real file) and registers the fork handlers: plain C, no thread, no Go.
 * The first call of any exported name takes the load lock, dlopens the core
 * with RTLD_NOW | RTLD_LOCAL (its constructors run then: the passthrough
 * decision, the stack layout, the fork check, the Go runtime), resolves
 * every name once and publishes each function pointer with a release store;
 * the generated functions (zfront.c) read their slot with an acquire load.
 * The core is loaded once and never unloaded (it is NODELETE, as is this
 * library).
 *
 * fork: a child forked before the first call has no core: its own first
 * call loads one, with a Go runtime of its own. A child forked after it
 * inherits the parent's core, whose fork check (libfake/forkcheck.c) makes
 * every call fail with a message naming fork. A child forked while another
 * thread was loading the core (it cannot tell how far the load got) fails
 * every call the same way, from the front. The fork handler blocks nothing:
 * waiting in a prepare handler for a load that registers fork handlers
 * itself could deadlock on C libraries that hold their fork-handler lock
 * while running the handlers.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "ascend_hal.h"
#include "npuemu/svm.h"
#include "front.h"
#include "launchq.h"

#define CORE_NAME "libnpuemu_core.so"

static char core_path[PATH_MAX];
static pthread_mutex_t load_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int state;  /* 0: not loaded, 1: loaded, -1: failed; written under load_mu */
static pthread_t loader;   /* the thread loading, while state is 0 and it holds load_mu */
static _Atomic int loading;
static void *core; /* the core's handle, once loaded (set under load_mu, before state) */
static char why[PATH_MAX + 1024]; /* why the core is not there; written once under load_mu */
static _Atomic int told;          /* why went to stderr */

/* The core's functions behind the hand-written names, by index; read with
 * extra_fn. */
enum {
    X_APPLOG_V,
    X_UNSUPPORTED,
    X_SVM_STATS,
    X_SVM_MODE,
    X_LQ_BATCHABLE = NPU_FRONT_X_LQ_BATCHABLE,
    X_LQ_TID = NPU_FRONT_X_LQ_TID,
    X_LQ_RUN = NPU_FRONT_X_LQ_RUN,
    X_LQ_ROOM = NPU_FRONT_X_LQ_ROOM,
    X_LQ_COPY = NPU_FRONT_X_LQ_COPY,
    X_COUNT
};
_Static_assert(X_SVM_MODE + 1 == X_LQ_BATCHABLE && X_LQ_COPY + 1 == X_COUNT,
               "front.h's NPU_FRONT_X_* follow front.c's own names");
static const char *const extra_names[X_COUNT] = {"npu_applog_v",           "npu_unsupported", "npuemuSvmGetStats",
                                                 "npuemuSvmHostFaultMode", "npu_lq_batchable", "npu_lq_tid",
                                                 "npu_lq_run",             "npu_lq_room",      "npu_lq_copy"};
static void *extra[X_COUNT];

/* child runs in a forked child: the load lock may be held by a thread that
 * is not there. A load in progress at the fork is abandoned: the child
 * forgets what it had published and fails every call. */
static void child(void) {
    pthread_mutex_init(&load_mu, NULL);
    npu_lq_fork_child();
    if (!atomic_load(&loading)) return;
    atomic_store(&loading, 0);
    atomic_store(&told, 0);
    snprintf(why, sizeof why,
             "npuemu: this process was forked (without exec) from process %d while that process was loading the "
             "runtime core; the runtime cannot run in such a child, so every call fails: start NPU children with "
             "exec (posix_spawn, Python multiprocessing 'spawn') or fork them before the parent's first call",
             (int)getppid());
    for (int i = 0; i < npu_front_nsyms; i++) __atomic_store_n(&npu_front_fns[i], NULL, __ATOMIC_RELAXED);
    for (int i = 0; i < X_COUNT; i++) __atomic_store_n(&extra[i], NULL, __ATOMIC_RELAXED);
    atomic_store(&state, -1);
}

__attribute__((constructor)) static void front_init(void) {
    Dl_info self;
    char *real = NULL;
    if (dladdr((void *)front_init, &self) != 0 && self.dli_fname != NULL) real = realpath(self.dli_fname, NULL);
    if (real == NULL) {
        snprintf(why, sizeof why, "npuemu: cannot tell where this library (%s) is, so its runtime core %s cannot be found",
                 self.dli_fname ? self.dli_fname : "?", CORE_NAME);
    } else {
        char *slash = strrchr(real, '/');
        int n = snprintf(core_path, sizeof core_path, "%.*s/%s", slash ? (int)(slash - real) : 1, slash ? real : ".",
                         CORE_NAME);
        if (n < 0 || (size_t)n >= sizeof core_path) {
            core_path[0] = '\0';
            snprintf(why, sizeof why, "npuemu: the path of the runtime core beside %s is too long", real);
        }
        free(real);
    }
    pthread_atfork(NULL, NULL, child);
}

/* publish resolves the hand-written names in the core h; the generated
 * ones are resolved one by one on their first call (npu_front_load): all
 * 900 at once cost every start ~0.25 ms of symbol lookups for the few
 * names a program calls. Precondition: load_mu held. */
static void publish(void *h) {
    for (int i = 0; i < X_COUNT; i++) __atomic_store_n(&extra[i], dlsym(h, extra_names[i]), __ATOMIC_RELEASE);
    core = h;
}

/* load_core loads the core once. Precondition: load_mu held. */
static void load_core(void) {
    if (state != 0) return;
    if (core_path[0] == '\0') {
        state = -1;
        return;
    }
    loader = pthread_self();
    atomic_store(&loading, 1);
    /* The key first (pkey.c): the Go runtime's threads, started while the
     * core loads, inherit this thread's access to it. It is handed over
     * before any name is published, so that a thread that finds a name
     * also finds the key's windows on. */
    int key = npu_front_pk_begin();
    void *h = dlopen(core_path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "npuemu: cannot load the runtime core %s: %s", core_path, e ? e : "dlopen failed");
        npu_front_pk_end(NULL);
        state = -1;
    } else {
        npu_front_pk_end(key >= 0 ? (void (*)(int, const struct sigaction *))dlsym(h, "npu_pk_set") : NULL);
        publish(h);
        state = 1;
    }
    atomic_store(&loading, 0); /* after publishing: a fork sees all or nothing */
}

/* ensure loads the core unless this thread is loading it right now (a
 * constructor of the core calling back): that call fails instead of
 * waiting for itself. It returns 1 when the core is loaded. */
static int ensure(void) {
    if (atomic_load(&loading) && pthread_equal(loader, pthread_self())) return 0;
    pthread_mutex_lock(&load_mu);
    load_core();
    int ok = state == 1;
    pthread_mutex_unlock(&load_mu);
    return ok;
}

/* front_name is the name of symbol idx, NULL when it is not the front's
 * (DSMI) or idx is out of range. */
static const char *front_name(int idx) {
    if (idx < 0 || idx >= npu_front_nsyms || npu_front_syms[idx].name == 0) return NULL;
    return npu_front_names + npu_front_syms[idx].name;
}

void *npu_front_load(int idx) {
    if (!ensure() || idx < 0 || idx >= npu_front_nsyms) return NULL;
    void *f = __atomic_load_n(&npu_front_fns[idx], __ATOMIC_ACQUIRE);
    const char *name = front_name(idx);
    if (f == NULL && name != NULL && (f = dlsym(core, name)) != NULL)
        __atomic_store_n(&npu_front_fns[idx], f, __ATOMIC_RELEASE); /* (two threads store the same) */
    return f;
}

/* extra_fn is the core's function of hand-written name i, loading the core
 * on the first call; NULL (with the reason recorded) when it is missing. */
static void *extra_fn(int i);

static __thread const char *last; /* the reason of this thread's last failure */

/* reason is why symbol idx (-1: a hand-written name) cannot be called. */
static const char *reason(int idx, const char *name) {
    static char missing[PATH_MAX + 512]; /* a symbol missing from a loaded core: a build mismatch */
    if (atomic_load(&loading)) return "npuemu: called by its runtime core while the core is being loaded";
    if (atomic_load(&state) == -1 && why[0] != '\0') return why;
    if (name == NULL) name = front_name(idx);
    pthread_mutex_lock(&load_mu);
    snprintf(missing, sizeof missing, "npuemu: %s is not in the runtime core %s (rebuild emu/lib with `make lib`)",
             name ? name : "?", core_path);
    pthread_mutex_unlock(&load_mu);
    return missing;
}

static void tell(const char *msg) {
    last = msg;
    if (atomic_exchange(&told, 1) == 0) fprintf(stderr, "%s\n", msg);
}

int32_t npu_front_fail(int idx) {
    tell(reason(idx, NULL));
    int lib = (idx >= 0 && idx < npu_front_nsyms) ? npu_front_syms[idx].lib : NPU_FRONT_ACL;
    return lib == NPU_FRONT_HAL ? DRV_ERROR_NO_DEVICE : ACL_ERROR_RT_DEV_SETUP_ERROR;
}

const char *npu_front_errmsg(int idx) {
    (void)idx;
    return last ? last : reason(idx, NULL);
}

/* ---- names written by hand ---- */

static const char *level_name(aclLogLevel level) {
    switch (level) {
    case ACL_DEBUG: return "DEBUG";
    case ACL_INFO: return "INFO";
    case ACL_WARNING: return "WARNING";
    case ACL_ERROR: return "ERROR";
    }
    return "UNKNOWN";
}

static void *extra_fn(int i) {
    void *f = __atomic_load_n(&extra[i], __ATOMIC_ACQUIRE);
    if (__builtin_expect(f != NULL, 1)) return f;
    if (ensure() && (f = __atomic_load_n(&extra[i], __ATOMIC_ACQUIRE)) != NULL) return f;
    tell(reason(-1, extra_names[i]));
    return NULL;
}

void *npu_front_extra(int i) {
    if (i < 0 || i >= X_COUNT) return NULL;
    void *f = __atomic_load_n(&extra[i], __ATOMIC_ACQUIRE);
    if (f == NULL && ensure()) f = __atomic_load_n(&extra[i], __ATOMIC_ACQUIRE);
    return f; /* an older core without the name: the caller does without */
}

/* aclAppLog is variadic: it hands its va_list to the core's npu_applog_v
 * (libfake/applog.c). Without a core it still logs to stderr. */
NPU_EXPORT void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line, const char *fmt,
                          ...) {
    va_list ap;
    va_start(ap, fmt);
    void *f = extra_fn(X_APPLOG_V);
    if (__builtin_expect(f != NULL, 1)) {
        NPU_FRONT_DO(((void (*)(aclLogLevel, const char *, const char *, uint32_t, const char *, va_list))f)(
            logLevel, func, file, line, fmt, ap));
    } else {
        char msg[1024] = "";
        if (fmt != NULL) vsnprintf(msg, sizeof msg, fmt, ap);
        fprintf(stderr, "[%s] %s %s:%u: %s\n", level_name(logLevel), func ? func : "?", file ? file : "?",
                (unsigned)line, msg);
    }
    va_end(ap);
}

/* npu_unsupported is the core's answer for an unimplemented symbol; the
 * front exports the name as npuemu's mark (conformance/cases/zunsupported.c
 * looks for it). */
NPU_EXPORT int32_t npu_unsupported(void *thread, int idx) {
    void *f = extra_fn(X_UNSUPPORTED);
    if (f == NULL) return ACL_ERROR_RT_DEV_SETUP_ERROR;
    NPU_FRONT_RETURN(int32_t, ((int32_t (*)(void *, int))f)(thread, idx));
}

NPU_EXPORT int npuemuSvmGetStats(int32_t dev, struct npuemu_svm_stats *out) {
    void *f = extra_fn(X_SVM_STATS);
    if (f == NULL) return ACL_ERROR_RT_DEV_SETUP_ERROR;
    NPU_FRONT_RETURN(int, ((int (*)(int32_t, struct npuemu_svm_stats *))f)(dev, out));
}

NPU_EXPORT const char *npuemuSvmHostFaultMode(void) {
    void *f = extra_fn(X_SVM_MODE);
    if (f == NULL) return NULL;
    NPU_FRONT_RETURN(const char *, ((const char *(*)(void))f)());
}
