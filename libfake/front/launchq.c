/* launchq.c: batched launches (launchq.h; docs/kernels.md "Batched
 * launches").
 *
 * A call into the Go core costs a C→Go crossing (~0.15–0.2 µs here), a
 * large share of an empty kernel's launch. So aclrtLaunchKernelWithConfig
 * with no configuration and an explicit stream, whose function, stream,
 * args handle and block count the core accepted in an earlier launch of
 * this thread (an armed launch), is not handed to the core at once: it is
 * appended to the thread's queue here and returns ACL_SUCCESS. So is
 * aclrtLaunchKernelWithHostArgs with no configuration and no placeholders
 * (the launch Ascend C's <<<>>> makes), armed by function, stream, block
 * count and argument size (up to NPU_LQ_ARGMAX bytes): its argument bytes
 * are copied into the queue's arena at the call; and aclrtLaunchKernel
 * into an explicit stream, armed by all its arguments (the kernel reads
 * its device arguments when it runs either way). The core gets the queue
 * in one crossing (npu_lq_run) when:
 *
 *  - the queue holds NPU_LQ_BATCH launches;
 *  - this or any other thread makes any other call (NPU_LQ_BEFORE in every
 *    generated front function): whatever a call can observe or order
 *    against, the stream or another thread, is queued first;
 *    aclrtSynchronizeStream hands the queue and the synchronisation over in
 *    one crossing;
 *  - another thread launches into a stream whose bucket this queue owns
 *    (below): its launch goes after these;
 *  - the flush timer finds the queue unchanged for a tick (200 µs to 6.4 ms),
 *    so a program that launches and then waits for the device without a call
 *    (polling host memory the kernel writes) still sees its kernel run, and
 *    so does a thread that exits with launches queued.
 *
 * Order: within a thread, the core gets its launches in call order before
 * its next call. Across threads, a launch A made before (in host order) a
 * launch B made into the same stream must reach the stream first: each queue
 * owns the buckets (stream address hash) of the streams it holds launches
 * for, and a thread that finds a stream's bucket owned by another queue hands
 * that queue to the core and launches at once. Every other call hands over
 * every queue first.
 *
 * Full streams: a hand-over never waits for ring space, since it may run on
 * a thread the stream's head waits for (another thread's call that goes on
 * to record the event the head waits for, a host function of that stream
 * that calls the runtime): the core fills the ring past its depth
 * (tsfw/overfill.go) and says, per stream it filled past its depth, how
 * many of the stream's tasks must complete before the last of these
 * launches would have found its slot (npu_lq_run's over and v[i].wait).
 * The queue's owner, and only it, then owes that wait (pay): in the launch
 * whose hand-over found the stream full, else at its next call, holding no
 * lock: the wait the same launches made one by one would have made. No
 * other thread ever waits for it.
 *
 * Errors: an armed launch can still fail in the core (a handle destroyed by
 * another thread meanwhile, a resource error). The core records the message
 * on the launching thread (aclGetRecentErrMsg) and the first such code is
 * returned by the thread's next aclrtSynchronizeStream / ...WithTimeout,
 * aclrtSynchronizeDevice / ...WithTimeout or aclrtSynchronizeEvent /
 * ...WithTimeout that itself succeeds, as the runtime reports a launch's
 * asynchronous errors.
 *
 * On unless NPUEMU_LAUNCH_BATCH=0 (every launch then goes to the core at
 * once), and never when the core is traced, in passthrough mode or in the
 * split stack layout (npu_lq_batchable).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "front.h"
#include "launchq.h"

enum {
    NPU_LQ_BATCH = 64,        /* launches per crossing */
    NPU_LQ_ARMED = 4,         /* validated launches remembered per thread */
    NPU_LQ_BUCKETS = 1024,    /* stream ownership buckets */
    NPU_LQ_IDLE_TICKS = 16,   /* ticks without a deferral before the timer parks */
    NPU_LQ_OWE = 8,           /* streams a queue's owner may owe a wait for room in */
    NPU_LQ_ARGMAX = 1024,     /* the largest host argument blob deferred */
    NPU_LQ_ARENA = 16384,     /* a queue's copies of host argument blobs */
};
_Static_assert(NPU_LQ_BATCH <= 64, "npu_lq_run's over has a bit per record");
#define NPU_LQ_TICK_NS 200000L      /* the flush timer's first period: 200 µs */
#define NPU_LQ_TICK_MAX_NS 6400000L /* its longest: 6.4 ms */

/* lq_lock is a queue's lock: a spin lock whose unlock is a plain
 * (release) store. The queue's owner takes it on every deferred launch
 * and twice in a combined launch + synchronize; other threads take it only
 * to flush the queue (drain, the flush timer, a launch into a bucket the
 * queue owns), rarely. A futex lock's unlock must be a locked exchange, to
 * see a parked waiter: an atomic read-modify-write (~20 cycles, a store
 * buffer drain) more per pair on the owner's path, for the sake of a rare
 * contender. So a contender polls instead: pauses, then yields, then
 * sleeps 50 µs between tries (the lock may be held while the core makes a
 * flushed batch, tens of µs). Inlined: ~5 instructions a pair, against ~55
 * for pthread's mutex. */
typedef struct {
    _Atomic int w; /* 0 free, 1 held */
} lq_lock;

static NPU_FRONT_COLD void lq_lock_slow(lq_lock *m) {
    for (unsigned i = 0;; i++) {
        int c = 0;
        if (atomic_load_explicit(&m->w, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_weak_explicit(&m->w, &c, 1, memory_order_acquire, memory_order_relaxed))
            return;
        if (i < 128) {
#if defined(__x86_64__)
            __builtin_ia32_pause();
#endif
        } else if (i < 256) {
            sched_yield();
        } else {
            nanosleep(&(struct timespec){0, 50000}, NULL);
        }
    }
}

static inline void lq_acquire(lq_lock *m) {
    int c = 0;
    if (__builtin_expect(
            !atomic_compare_exchange_strong_explicit(&m->w, &c, 1, memory_order_acquire, memory_order_relaxed), 0))
        lq_lock_slow(m);
}

static inline void lq_release(lq_lock *m) { atomic_store_explicit(&m->w, 0, memory_order_release); }

typedef struct npu_lq {
    lq_lock mu; /* guards n, v, claim, err, unbooked; held while the core runs a flushed batch */
    int n;
    /* The combined launch + synchronize (aclrtSynchronizeStream) hands the
     * queue over without holding mu: handing is 1 from then until the core
     * has made the launches (it stores 0 there itself: no Go→C call), 2 once
     * another thread waits for that (settle: the core then calls
     * wake_handed); unbooked is set until the hand-over's bookkeeping
     * (finish_handover) is done, by the owner or by whichever thread settles
     * the queue first. */
    _Atomic int handing;
    int unbooked;
    npu_lq_rec v[NPU_LQ_BATCH];
    size_t used;          /* bytes of arena the records of v hold */
    unsigned char *arena; /* NPU_LQ_HOST records' argument bytes (NPU_LQ_ARENA; made on first use, kept) */
    int nclaim;
    uint16_t claim[NPU_LQ_BATCH]; /* the buckets this queue owns */
    int32_t err;                  /* first failure of a deferred launch not reported yet */
    uint64_t tid;                 /* the owner's id in the core's thread registry */
    uint64_t over;                /* the last hand-over's npu_lq_run over */
    int nowe;
    struct {
        void *s;
        uint64_t wait;
    } owe[NPU_LQ_OWE];     /* the owner must wait for room in s (pay) */
    _Atomic int owing;     /* nowe != 0, read by the owner without mu */
    /* The owner's only: */
    int narmed;
    npu_lq_rec armed[NPU_LQ_ARMED];
    _Atomic unsigned long deferred; /* launches deferred so far (the timer's staleness test) */
    unsigned long seen;             /* the timer's: deferred at its last tick */
    _Atomic int dead;               /* the owner exited: a new thread may take the queue */
    struct npu_lq *_Atomic next;
} npu_lq;

int npu_lq_active;
static _Atomic int npending;                     /* queues holding launches */
static npu_lq *_Atomic owner[NPU_LQ_BUCKETS];    /* bucket → the queue holding launches for it */
static npu_lq *_Atomic all;                      /* every queue, newest first; never freed */
static pthread_mutex_t all_mu = PTHREAD_MUTEX_INITIALIZER;
/* initial-exec: read on every launch and synchronisation, they must not
 * cost a __tls_get_addr call each (the core this library dlopens needs
 * static TLS already: Go's c-shared runtime, kernel_host.c). */
static __thread npu_lq *me __attribute__((tls_model("initial-exec")));
static __thread int in_core __attribute__((tls_model("initial-exec"))); /* this thread is handing launches to the core */
static pthread_key_t exit_key;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int enabled; /* set by init: batching allowed in this process */

static npu_lq_tid_fn core_tid;
static npu_lq_run_fn core_run;
static npu_lq_room_fn core_room;
static npu_lq_copy_fn core_copy;

/* The flush timer. */
static pthread_mutex_t tmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tcv = PTHREAD_COND_INITIALIZER;
static _Atomic int parked;
static int timer_started; /* under tmu */

extern const int npu_front_idx_aclrtLaunchKernelWithConfig;
extern const int npu_front_idx_aclrtLaunchKernelWithHostArgs;
extern const int npu_front_idx_aclrtLaunchKernel;
extern const int npu_front_idx_aclrtSynchronizeStream;

static unsigned bucket(const void *s) {
    uintptr_t x = (uintptr_t)s;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (unsigned)(x >> 40) & (NPU_LQ_BUCKETS - 1);
}

/* note_over records the waits for room the last hand-over left (q->over,
 * v[i].wait) as owed by q's owner. Precondition: q->mu held, q->v intact. */
static void note_over(npu_lq *q) {
    for (int i = 0; q->over != 0 && i < q->n; i++) {
        if (!(q->over >> i & 1)) continue;
        int k = 0;
        while (k < q->nowe && q->owe[k].s != q->v[i].s) k++;
        if (k < q->nowe) {
            if (q->v[i].wait > q->owe[k].wait) q->owe[k].wait = q->v[i].wait;
        } else if (q->nowe < NPU_LQ_OWE) {
            q->owe[q->nowe].s = q->v[i].s;
            q->owe[q->nowe++].wait = q->v[i].wait;
        } /* (a full list drops the wait: back-pressure, not order, is lost) */
    }
    if (q->over != 0) atomic_store(&q->owing, 1);
    q->over = 0;
}

/* finish_handover ends a hand-over of q's launches to the core once it has
 * made them: the waits it left, the buckets, the pending count.
 * Precondition: q->mu held, q->v intact. */
static void finish_handover(npu_lq *q) {
    note_over(q);
    q->n = 0;
    q->used = 0;
    for (int i = 0; i < q->nclaim; i++) atomic_store_explicit(&owner[q->claim[i]], NULL, memory_order_release);
    q->nclaim = 0;
    q->unbooked = 0;
    atomic_fetch_sub(&npending, 1);
}

/* settle waits until the core has made the launches of a combined
 * hand-over of q in flight (handing), parked on the futex word, and books
 * it if its owner has not yet. Precondition: q->mu held. */
static void settle(npu_lq *q) {
    for (int h; (h = atomic_load(&q->handing)) != 0;) {
        if (h == 1 && !atomic_compare_exchange_strong(&q->handing, &h, 2)) continue;
        syscall(SYS_futex, (int *)&q->handing, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
    }
    if (q->unbooked) finish_handover(q);
}

/* wake_handed is the core's call when it cleared handing and a waiter had
 * parked (npu_lq_run's launched). */
static void wake_handed(void *word) { syscall(SYS_futex, (int *)word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0); }

/* flush_locked hands q's launches to the core. Precondition: q->mu held. */
static void flush_locked(npu_lq *q) {
    settle(q);
    if (q->n == 0) return;
    in_core++;
    int32_t r;
    NPU_FRONT_DO(r = core_run(q->tid, q->v, q->n, NULL, NULL, NULL, NULL, &q->over));
    in_core--;
    if (r != 0 && q->err == 0) q->err = r;
    note_over(q);
    q->n = 0;
    q->used = 0;
    for (int i = 0; i < q->nclaim; i++) atomic_store_explicit(&owner[q->claim[i]], NULL, memory_order_release);
    q->nclaim = 0;
    atomic_fetch_sub(&npending, 1);
}

static void flush(npu_lq *q) {
    lq_acquire(&q->mu);
    flush_locked(q);
    lq_release(&q->mu);
}

/* pay is the owner's wait for room in the streams its hand-overs left over
 * their depth (note_over), made with no lock held: only this thread waits,
 * where its launches made one by one would have. */
static NPU_FRONT_COLD void pay(npu_lq *q) {
    __typeof__(q->owe) owe;
    lq_acquire(&q->mu);
    int n = q->nowe;
    memcpy(owe, q->owe, sizeof owe);
    q->nowe = 0;
    atomic_store(&q->owing, 0);
    lq_release(&q->mu);
    in_core++;
    for (int i = 0; i < n; i++) NPU_FRONT_DO(core_room(owe[i].s, owe[i].wait));
    in_core--;
}

static inline void pay_if_owing(npu_lq *q) {
    if (q != NULL && __builtin_expect(atomic_load_explicit(&q->owing, memory_order_relaxed), 0) && !in_core) pay(q);
}

/* drain hands every queue's launches to the core. */
static void drain(void) {
    for (npu_lq *q = atomic_load(&all); q != NULL && atomic_load(&npending) != 0; q = atomic_load(&q->next))
        if (__atomic_load_n(&q->n, __ATOMIC_RELAXED) != 0) flush(q);
}

void npu_lq_before(int keep) {
    if (in_core) return; /* a call the core makes while it runs a batch */
    npu_lq *q = me;
    if (q != NULL && !keep) q->narmed = 0;
    if (atomic_load(&npending) != 0) drain();
    pay_if_owing(q);
}

int32_t npu_lq_after(int32_t r) {
    if (!__atomic_load_n(&npu_lq_active, __ATOMIC_RELAXED)) return r;
    npu_lq *q = me;
    if (r != 0 || q == NULL || __atomic_load_n(&q->err, __ATOMIC_RELAXED) == 0) return r;
    lq_acquire(&q->mu);
    r = q->err;
    q->err = 0;
    lq_release(&q->mu);
    return r;
}

static void wake_timer(void) {
    pthread_mutex_lock(&tmu);
    atomic_store(&parked, 0);
    pthread_cond_signal(&tcv);
    pthread_mutex_unlock(&tmu);
}

/* timer_main is the flush timer: every tick it hands over the queues
 * nobody touched since the last tick. A tick that finds none doubles the
 * next one, up to NPU_LQ_TICK_MAX_NS (a launch + synchronize loop defers
 * a launch per iteration and never leaves one behind: waking every 200 µs
 * for it cost ~0.08 µs of CPU per iteration on a loaded 2-CPU host); one that
 * hands a queue over goes back to NPU_LQ_TICK_NS. After NPU_LQ_IDLE_TICKS
 * ticks without any deferral it parks until the next one. */
static void *timer_main(void *arg) {
    (void)arg;
    unsigned long last = 0;
    int idle = 0;
    long tick = NPU_LQ_TICK_NS;
    for (;;) {
        struct timespec d = {tick / 1000000000L, tick % 1000000000L};
        nanosleep(&d, NULL);
        unsigned long total = 0;
        int flushed = 0;
        for (npu_lq *q = atomic_load(&all); q != NULL; q = atomic_load(&q->next)) {
            unsigned long n = atomic_load(&q->deferred);
            total += n;
            if (n == q->seen && __atomic_load_n(&q->n, __ATOMIC_RELAXED) != 0) {
                flush(q);
                flushed = 1;
            }
            q->seen = n;
        }
        tick = flushed ? NPU_LQ_TICK_NS : (tick * 2 > NPU_LQ_TICK_MAX_NS ? NPU_LQ_TICK_MAX_NS : tick * 2);
        idle = total == last ? idle + 1 : 0;
        last = total;
        if (idle < NPU_LQ_IDLE_TICKS) continue;
        pthread_mutex_lock(&tmu);
        atomic_store(&parked, 1);
        while (atomic_load(&parked) && atomic_load(&npending) == 0) pthread_cond_wait(&tcv, &tmu);
        atomic_store(&parked, 0);
        pthread_mutex_unlock(&tmu);
        idle = 0;
        tick = NPU_LQ_TICK_NS;
    }
    return NULL;
}

static void on_exit_thread(void *p) { atomic_store(&((npu_lq *)p)->dead, 1); }

static void init(void) {
    /* On unless NPUEMU_LAUNCH_BATCH=0 (docs/kernels.md "Batched launches"). */
    const char *e = getenv("NPUEMU_LAUNCH_BATCH");
    if (e != NULL && strcmp(e, "0") == 0) return;
    npu_lq_batchable_fn ok = (npu_lq_batchable_fn)npu_front_extra(NPU_FRONT_X_LQ_BATCHABLE);
    core_tid = (npu_lq_tid_fn)npu_front_extra(NPU_FRONT_X_LQ_TID);
    core_run = (npu_lq_run_fn)npu_front_extra(NPU_FRONT_X_LQ_RUN);
    core_room = (npu_lq_room_fn)npu_front_extra(NPU_FRONT_X_LQ_ROOM);
    core_copy = (npu_lq_copy_fn)npu_front_extra(NPU_FRONT_X_LQ_COPY);
    /* A core without npu_lq_room would wait for ring space in a hand-over:
     * no batching with it. */
    if (ok == NULL || core_tid == NULL || core_run == NULL || core_room == NULL || !ok()) return;
    if (pthread_key_create(&exit_key, on_exit_thread) != 0) return;
    enabled = 1;
}

/* self returns the calling thread's queue, made (or taken from an exited
 * thread) on first use; NULL when memory is exhausted. */
static npu_lq *self(void) {
    if (me != NULL) return me;
    npu_lq *q = NULL;
    for (npu_lq *p = atomic_load(&all); p != NULL && q == NULL; p = atomic_load(&p->next)) {
        int one = 1;
        if (atomic_load(&p->dead) && atomic_compare_exchange_strong(&p->dead, &one, 0)) q = p;
    }
    if (q == NULL) {
        q = calloc(1, sizeof *q);
        if (q == NULL) return NULL;
        pthread_mutex_lock(&all_mu);
        atomic_store(&q->next, atomic_load(&all));
        atomic_store(&all, q);
        pthread_mutex_unlock(&all_mu);
    }
    lq_acquire(&q->mu);
    flush_locked(q); /* an exited thread's leftovers, on its own behalf */
    q->err = 0;
    q->nowe = 0; /* the exited thread's waits: nobody owes them */
    atomic_store(&q->owing, 0);
    lq_release(&q->mu);
    q->narmed = 0;
    pthread_setspecific(exit_key, q);
    me = q;
    return q;
}

static int is_armed(const npu_lq *q, const npu_lq_rec *r) {
    for (int i = q->narmed - 1; i >= 0; i--) {
        const npu_lq_rec *a = &q->armed[i];
        if (a->f == r->f && a->s == r->s && a->args == r->args && a->blocks == r->blocks && a->kind == r->kind &&
            a->size == r->size)
            return 1;
    }
    return 0;
}

/* arm remembers a launch the core accepted. */
static void arm(const npu_lq_rec *r) {
    npu_lq *q = self();
    if (q == NULL) return;
    NPU_FRONT_DO(q->tid = core_tid());
    if (q->tid == 0) return;
    if (is_armed(q, r)) return;
    if (q->narmed == NPU_LQ_ARMED) memmove(&q->armed[0], &q->armed[1], (NPU_LQ_ARMED - 1) * sizeof *r);
    else q->narmed++;
    q->armed[q->narmed - 1] = *r;
    pthread_mutex_lock(&tmu);
    int start = !timer_started;
    timer_started = 1;
    pthread_mutex_unlock(&tmu);
    if (start) {
        pthread_t t;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&a, 256 << 10);
        if (pthread_create(&t, &a, timer_main, NULL) != 0) {
            q->narmed = 0; /* no timer: no deferral */
            pthread_mutex_lock(&tmu);
            timer_started = 0;
            pthread_mutex_unlock(&tmu);
        }
        pthread_attr_destroy(&a);
    }
    __atomic_store_n(&npu_lq_active, 1, __ATOMIC_RELAXED);
}

/* defer_launch queues r on q, with a copy of r->size bytes at bytes for an
 * NPU_LQ_HOST launch (NULL otherwise); 0 when the stream's bucket belongs to
 * another queue (handed to the core first: the caller then launches at
 * once, as when its arena cannot be allocated). Inlined in each launch:
 * bytes is a constant NULL in two of them. */
static inline __attribute__((always_inline)) int defer_launch(npu_lq *q, const npu_lq_rec *r, const void *bytes) {
    unsigned b = bucket(r->s);
    lq_acquire(&q->mu);
    if (bytes != NULL) {
        if (q->arena == NULL && (q->arena = malloc(NPU_LQ_ARENA)) == NULL) {
            lq_release(&q->mu);
            return 0;
        }
        if (q->used + r->size > NPU_LQ_ARENA) flush_locked(q); /* (before the bucket: a flush frees it) */
        /* Guarded (the core's fault handler jumps back): bytes that do not
         * read are launched at once by the caller, and fail there as they
         * would have, without a crash. Kept only if the launch is queued. */
        if (core_copy == NULL || core_copy(q->arena + q->used, bytes, r->size) != 0) {
            lq_release(&q->mu);
            return 0;
        }
    }
    npu_lq *cur = atomic_load(&owner[b]);
    if (cur != q) {
        if (cur != NULL || !atomic_compare_exchange_strong(&owner[b], &cur, q)) {
            lq_release(&q->mu);
            if (cur != NULL) flush(cur);
            return 0;
        }
        q->claim[q->nclaim++] = (uint16_t)b;
    }
    q->v[q->n] = *r;
    if (bytes != NULL) {
        q->v[q->n].args = q->arena + q->used;
        q->used += (r->size + 7) & ~(size_t)7;
    }
    q->n++;
    if (q->n == 1) atomic_fetch_add(&npending, 1);
    atomic_store_explicit(&q->deferred, atomic_load_explicit(&q->deferred, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    if (q->n == NPU_LQ_BATCH) flush_locked(q);
    lq_release(&q->mu);
    if (__builtin_expect(atomic_load(&parked), 0)) wake_timer();
    pay_if_owing(q); /* this launch found a stream full: it waits, as made at once */
    return 1;
}

/* core_fn returns the core's function of front symbol idx, loading the
 * core on first use; NULL when it cannot be loaded. A launch made at once
 * goes through it, after the thread's queued launches (NPU_LQ_BEFORE). */
static void *core_fn(int idx) {
    void *fn = npu_front_slot(idx);
    if (fn == NULL) fn = npu_front_load(idx);
    if (fn != NULL) NPU_LQ_BEFORE(1);
    return fn;
}

/* made arms the launch rec the core just accepted, if batching is on. */
static void made(const npu_lq_rec *rec) {
    pthread_once(&init_once, init);
    if (enabled) arm(rec);
}

static NPU_FRONT_COLD aclError launch_now(aclrtFuncHandle f, uint32_t blocks, aclrtStream s, aclrtLaunchKernelCfg *cfg,
                                          aclrtArgsHandle args, void *reserve) {
    int idx = npu_front_idx_aclrtLaunchKernelWithConfig;
    void *fn = core_fn(idx);
    if (fn == NULL) return (aclError)npu_front_fail(idx);
    aclError r;
    NPU_FRONT_DO(r = ((__typeof__(&aclrtLaunchKernelWithConfig))fn)(f, blocks, s, cfg, args, reserve));
    if (r == ACL_SUCCESS && cfg == NULL && reserve == NULL && s != NULL)
        made(&(npu_lq_rec){f, s, args, blocks, NPU_LQ_CONFIG, 0, 0});
    return r;
}

NPU_EXPORT aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle f, uint32_t blocks, aclrtStream s,
                                                aclrtLaunchKernelCfg *cfg, aclrtArgsHandle args, void *reserve) {
    /* npu_lq_active is 0 until some launch was armed (never with batching
     * off): the common path reads no thread-local. */
    npu_lq *q = __atomic_load_n(&npu_lq_active, __ATOMIC_RELAXED) ? me : NULL;
    if (q != NULL && q->narmed != 0 && cfg == NULL && reserve == NULL) {
        npu_lq_rec r = {f, s, args, blocks, NPU_LQ_CONFIG, 0, 0};
        pay_if_owing(q); /* an earlier hand-over found a stream full */
        if (is_armed(q, &r) && defer_launch(q, &r, NULL)) return ACL_SUCCESS;
    }
    return launch_now(f, blocks, s, cfg, args, reserve);
}

/* host_deferrable: the aclrtLaunchKernelWithHostArgs calls the front may
 * defer (once armed). */
static inline int host_deferrable(aclrtStream s, aclrtLaunchKernelCfg *cfg, const void *bytes, size_t size,
                                  size_t nph) {
    return s != NULL && cfg == NULL && nph == 0 && bytes != NULL && size != 0 && size <= NPU_LQ_ARGMAX;
}

static NPU_FRONT_COLD aclError launch_host_now(aclrtFuncHandle f, uint32_t blocks, aclrtStream s,
                                               aclrtLaunchKernelCfg *cfg, void *bytes, size_t size,
                                               aclrtPlaceHolderInfo *ph, size_t nph) {
    int idx = npu_front_idx_aclrtLaunchKernelWithHostArgs;
    void *fn = core_fn(idx);
    if (fn == NULL) return (aclError)npu_front_fail(idx);
    aclError r;
    NPU_FRONT_DO(r = ((__typeof__(&aclrtLaunchKernelWithHostArgs))fn)(f, blocks, s, cfg, bytes, size, ph, nph));
    if (r == ACL_SUCCESS && host_deferrable(s, cfg, bytes, size, nph))
        made(&(npu_lq_rec){f, s, NULL, blocks, NPU_LQ_HOST, size, 0});
    return r;
}

NPU_EXPORT aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle f, uint32_t blocks, aclrtStream s,
                                                  aclrtLaunchKernelCfg *cfg, void *bytes, size_t size,
                                                  aclrtPlaceHolderInfo *ph, size_t nph) {
    npu_lq *q = __atomic_load_n(&npu_lq_active, __ATOMIC_RELAXED) ? me : NULL;
    if (q != NULL && q->narmed != 0 && host_deferrable(s, cfg, bytes, size, nph)) {
        npu_lq_rec r = {f, s, NULL, blocks, NPU_LQ_HOST, size, 0};
        pay_if_owing(q);
        if (is_armed(q, &r) && defer_launch(q, &r, bytes)) return ACL_SUCCESS;
    }
    return launch_host_now(f, blocks, s, cfg, bytes, size, ph, nph);
}

static NPU_FRONT_COLD aclError launch_device_now(aclrtFuncHandle f, uint32_t blocks, const void *args, size_t size,
                                                 aclrtStream s) {
    int idx = npu_front_idx_aclrtLaunchKernel;
    void *fn = core_fn(idx);
    if (fn == NULL) return (aclError)npu_front_fail(idx);
    aclError r;
    NPU_FRONT_DO(r = ((__typeof__(&aclrtLaunchKernel))fn)(f, blocks, args, size, s));
    if (r == ACL_SUCCESS && s != NULL) made(&(npu_lq_rec){f, s, (void *)args, blocks, NPU_LQ_DEVICE, size, 0});
    return r;
}

NPU_EXPORT aclError aclrtLaunchKernel(aclrtFuncHandle f, uint32_t blocks, const void *args, size_t size, aclrtStream s) {
    npu_lq *q = __atomic_load_n(&npu_lq_active, __ATOMIC_RELAXED) ? me : NULL;
    if (q != NULL && q->narmed != 0 && s != NULL) {
        npu_lq_rec r = {f, s, (void *)args, blocks, NPU_LQ_DEVICE, size, 0};
        pay_if_owing(q);
        if (is_armed(q, &r) && defer_launch(q, &r, NULL)) return ACL_SUCCESS;
    }
    return launch_device_now(f, blocks, args, size, s);
}

/* aclrtSynchronizeStream hands this thread's queued launches and the
 * synchronisation to the core in one crossing. It does not hold q->mu
 * across it: the synchronisation may wait for another thread's call, which
 * may need this queue (drain). Instead q->handing says the launches are
 * being made; the core clears it once they are, and wakes a thread that
 * settles q meanwhile only when one parked (handing 2), so the common case
 * makes no call back from the core. */
NPU_EXPORT aclError aclrtSynchronizeStream(aclrtStream s) {
    int idx = npu_front_idx_aclrtSynchronizeStream;
    void *fn = npu_front_slot(idx);
    if (__builtin_expect(fn == NULL, 0) && (fn = npu_front_load(idx)) == NULL) return (aclError)npu_front_fail(idx);
    npu_lq *q = __atomic_load_n(&npu_lq_active, __ATOMIC_RELAXED) ? me : NULL;
    if (q != NULL && __atomic_load_n(&q->n, __ATOMIC_RELAXED) != 0 && !in_core) {
        pay_if_owing(q);
        lq_acquire(&q->mu);
        if (q->n != 0 && atomic_load(&npending) == 1) {
            /* Only this queue holds launches: one crossing for both. */
            int32_t sr = 0;
            int n = q->n;
            atomic_store_explicit(&q->handing, 1, memory_order_relaxed); /* (published by the unlock) */
            q->unbooked = 1;
            lq_release(&q->mu);
            in_core++;
            int32_t lr;
            NPU_FRONT_DO(lr = core_run(q->tid, q->v, n, s, &sr, wake_handed, (int32_t *)&q->handing, &q->over));
            in_core--;
            lq_acquire(&q->mu); /* (handing is 0: the core cleared it) */
            if (q->unbooked) finish_handover(q);
            if (lr != 0 && q->err == 0) q->err = lr;
            lq_release(&q->mu);
            return npu_lq_after(sr);
        }
        lq_release(&q->mu);
    }
    NPU_LQ_BEFORE(1);
    NPU_FRONT_AFTER(((__typeof__(&aclrtSynchronizeStream))fn)(s));
}

void npu_lq_fork_child(void) {
    /* The parent's queues are its own and other threads' locks may be held:
     * the child starts with none, and with no timer (a core loaded before
     * the fork fails every call in the child, so nothing is armed there). */
    __atomic_store_n(&npu_lq_active, 0, __ATOMIC_RELAXED);
    atomic_store(&npending, 0);
    atomic_store(&all, NULL);
    for (int i = 0; i < NPU_LQ_BUCKETS; i++) atomic_store(&owner[i], NULL);
    me = NULL;
    pthread_mutex_init(&all_mu, NULL);
    pthread_mutex_init(&tmu, NULL);
    pthread_cond_init(&tcv, NULL);
    atomic_store(&parked, 0);
    timer_started = 0;
}
