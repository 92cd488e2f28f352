/* launchq_release.c: the front's batched-launch queue (front/launchq.c)
 * against a fake core, for the release word of a combined launch +
 * synchronize (launchq_release_test.go).
 *
 * The main thread arms a launch into stream S1, defers three more and
 * synchronises S1: the combined hand-over. The fake core holds that
 * hand-over (its launches made, the queue not yet released) until another
 * thread, whose call must see those launches queued first, has parked on
 * the queue's release word (2); it then releases the word as the Go core
 * does (swap to 0, wake only when it held 2). The other thread's call must
 * proceed, after the three launches and without handing them over again;
 * the next hand-over must carry only the launches deferred after it. A
 * hand-over nobody waits for must make no wake call.
 *
 * Then the queue's lock under contention: another thread hands the main
 * thread's queue over again and again (every call does) while the main
 * thread defers launches into it, and the core is slow to take each
 * batch. The lock (a spin lock whose contender polls, front/launchq.c)
 * must keep the hand-overs of the queue apart and lose or repeat no
 * launch.
 *
 * Built with front/launchq.c and run by the test; exits 0 when all holds.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "acl/acl.h"
#include "front.h"
#include "launchq.h"

#define CHECK(c)                                                     \
    do {                                                             \
        if (!(c)) {                                                  \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); \
            exit(1);                                                 \
        }                                                            \
    } while (0)

/* The fake front: two symbols, the core's functions always loaded (the
 * other launches the front defers are not made here: no function). */
const int npu_front_idx_aclrtLaunchKernelWithConfig = 0;
const int npu_front_idx_aclrtSynchronizeStream = 1;
const int npu_front_idx_aclrtLaunchKernelWithHostArgs = 2;
const int npu_front_idx_aclrtLaunchKernel = 3;
void *npu_front_fns[4];
uint32_t npu_front_pk; /* no protection key (front.h): the windows are one load */
void *npu_front_load(int idx) { return npu_front_fns[idx]; }
int32_t npu_front_fail(int idx) { (void)idx; return 1; }

static _Atomic int made;      /* launches the core made (direct and handed over) */
static _Atomic int handovers; /* npu_lq_run calls */
static _Atomic int flushes;   /* npu_lq_run calls without a synchronisation */
static _Atomic int wakes;     /* launched(handing) calls */
static _Atomic int hold;      /* the next combined hand-over waits for a parked thread */
static pthread_t other_th;    /* started by the held hand-over */
static _Atomic int seen_by_other = -1; /* made, when the other thread's synchronisation ran */
static _Atomic int last_n;             /* n of the last hand-over */
static _Atomic int inside;             /* hand-overs in the core now */
static _Atomic int slow;               /* the core takes ~5 µs per hand-over */
static _Atomic int stop_drain;         /* the drainer stops */
static _Atomic int drains;             /* the drainer's calls */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static aclError core_launch(aclrtFuncHandle f, uint32_t blocks, aclrtStream s, aclrtLaunchKernelCfg *cfg,
                            aclrtArgsHandle args, void *reserve) {
    (void)f, (void)blocks, (void)s, (void)cfg, (void)args, (void)reserve;
    atomic_fetch_add(&made, 1);
    return ACL_SUCCESS;
}

static aclError core_sync(aclrtStream s) {
    if (s == (aclrtStream)0x2000) atomic_store(&seen_by_other, atomic_load(&made));
    return ACL_SUCCESS;
}

static int core_batchable(void) { return 1; }
static uint64_t core_tid(void) { return 7; }
static void core_room(void *s, uint64_t wait) { (void)s, (void)wait; }

static void *other(void *arg);

static void *drainer(void *arg) {
    (void)arg;
    while (!atomic_load(&stop_drain)) {
        CHECK(aclrtSynchronizeStream((aclrtStream)0x3000) == ACL_SUCCESS); /* hands the queue over first */
        atomic_fetch_add(&drains, 1);
    }
    return NULL;
}

static int32_t core_run(uint64_t tid, const npu_lq_rec *v, int n, void *stream, int32_t *sync,
                        void (*launched)(void *), int32_t *handing, uint64_t *over) {
    (void)tid, (void)v;
    CHECK(atomic_fetch_add(&inside, 1) == 0); /* one queue: one hand-over at a time */
    if (atomic_load(&slow)) {
        double end = now() + 5e-6;
        while (now() < end) {
        }
    }
    atomic_fetch_sub(&inside, 1);
    atomic_fetch_add(&handovers, 1);
    atomic_store(&last_n, n);
    *over = 0;
    atomic_fetch_add(&made, n);
    if (sync == NULL) {
        atomic_fetch_add(&flushes, 1);
        return 0;
    }
    CHECK(handing != NULL && atomic_load((_Atomic int32_t *)handing) == 1);
    if (atomic_exchange(&hold, 0)) {
        CHECK(pthread_create(&other_th, NULL, other, NULL) == 0);
        double end = now() + 30; /* bounded: a thread that never parks fails */
        while (atomic_load((_Atomic int32_t *)handing) != 2) {
            CHECK(now() < end);
            sched_yield();
        }
    }
    if (atomic_exchange((_Atomic int32_t *)handing, 0) == 2) { /* as libfake/launchq.go released */
        atomic_fetch_add(&wakes, 1);
        launched(handing);
    }
    *sync = core_sync(stream);
    return 0;
}

void *npu_front_extra(int i) {
    switch (i) {
    case NPU_FRONT_X_LQ_BATCHABLE: return (void *)core_batchable;
    case NPU_FRONT_X_LQ_TID: return (void *)core_tid;
    case NPU_FRONT_X_LQ_RUN: return (void *)core_run;
    case NPU_FRONT_X_LQ_ROOM: return (void *)core_room;
    }
    return NULL;
}

static void *other(void *arg) {
    (void)arg;
    /* Any call hands every queue over first: this one finds the main
     * thread's in flight and parks until the core released it. */
    CHECK(aclrtSynchronizeStream((aclrtStream)0x2000) == ACL_SUCCESS);
    return NULL;
}

int main(void) {
    npu_front_fns[0] = (void *)core_launch;
    npu_front_fns[1] = (void *)core_sync;
    aclrtFuncHandle f = (aclrtFuncHandle)0x10;
    aclrtArgsHandle a = (aclrtArgsHandle)0x20;
    aclrtStream s1 = (aclrtStream)0x1000;

    CHECK(aclrtLaunchKernelWithConfig(f, 1, s1, NULL, a, NULL) == ACL_SUCCESS); /* made at once, armed */
    CHECK(atomic_load(&made) == 1 && atomic_load(&handovers) == 0);
    for (int i = 0; i < 3; i++) CHECK(aclrtLaunchKernelWithConfig(f, 1, s1, NULL, a, NULL) == ACL_SUCCESS);
    CHECK(atomic_load(&made) == 1); /* deferred */

    /* A combined hand-over nobody waits for: no wake call. (The front's
     * flush timer may hand a queue over before the synchronisation on a
     * loaded host: the counts below hold either way.) */
    CHECK(aclrtSynchronizeStream(s1) == ACL_SUCCESS);
    CHECK(atomic_load(&made) == 4 && atomic_load(&wakes) == 0);

    /* One another thread's call waits for; retried while the timer took the
     * launches first (the synchronisation then had nothing to hand over). */
    int held = 0, total = 4;
    for (int try = 0; try < 100 && !held; try++) {
        for (int i = 0; i < 3; i++) CHECK(aclrtLaunchKernelWithConfig(f, 1, s1, NULL, a, NULL) == ACL_SUCCESS);
        total += 3;
        atomic_store(&hold, 1);
        CHECK(aclrtSynchronizeStream(s1) == ACL_SUCCESS);
        held = !atomic_exchange(&hold, 0);
        CHECK(atomic_load(&made) == total); /* each launch made once */
    }
    CHECK(held);
    CHECK(pthread_join(other_th, NULL) == 0);
    CHECK(atomic_load(&wakes) == 1);
    CHECK(atomic_load(&seen_by_other) == total); /* after the three launches */
    CHECK(atomic_load(&made) == total);

    /* The queue was booked once: the next hand-over carries one launch. */
    CHECK(aclrtLaunchKernelWithConfig(f, 1, s1, NULL, a, NULL) == ACL_SUCCESS);
    CHECK(aclrtSynchronizeStream(s1) == ACL_SUCCESS);
    CHECK(atomic_load(&made) == total + 1 && atomic_load(&last_n) == 1);
    total++;

    /* The lock under contention. */
    atomic_store(&slow, 1);
    pthread_t dr;
    CHECK(pthread_create(&dr, NULL, drainer, NULL) == 0);
    /* At least 20000 launches, and on until the drainer made 100 calls
     * meanwhile (a loaded host may start it late; bounded). */
    double end = now() + 60;
    while (atomic_load(&drains) == 0) {
        CHECK(now() < end);
        sched_yield();
    }
    int d0 = atomic_load(&drains);
    for (int i = 0; i < 20000 || atomic_load(&drains) - d0 < 100; i++) {
        CHECK(now() < end);
        CHECK(aclrtLaunchKernelWithConfig(f, 1, s1, NULL, a, NULL) == ACL_SUCCESS);
        total++;
    }
    atomic_store(&stop_drain, 1);
    CHECK(pthread_join(dr, NULL) == 0);
    CHECK(aclrtSynchronizeStream(s1) == ACL_SUCCESS);
    CHECK(atomic_load(&made) == total); /* each launch made once */
    printf("ok\n");
    return 0;
}
