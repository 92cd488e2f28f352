/* kernel_launch_batch: what a program sees of the launches the library
 * batches (docs/kernels.md "Batched launches"): repeated
 * aclrtLaunchKernelWithConfig calls run in call order, whatever batch they
 * went in; a launch is seen by another thread that synchronises the stream
 * after it (host order), and a launch by another thread into the same
 * stream goes after it; a kernel that writes host memory runs while the
 * program polls that memory without calling the library; an armed launch
 * that fails in the core (its args handle updated by another thread)
 * returns success and its error comes back from the next
 * aclrtSynchronizeStream, with the message; four threads launching into
 * streams of their own and one shared stream run every launch once.
 *
 * needs: emulator
 * env: NPUEMU_LAUNCH_BATCH=1
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "case_kernel.h"

/* dbl doubles the device word it is given, inc adds one: a sequence of both
 * tells the order they ran in. flag stores 1 into the (host) word. */
static const char *kernel_src =
    "#include \"%s/emu/include/npuemu/kernel.h\"\n"
    "static void dbl(const npuemu_kernel_ctx *ctx) { uint64_t *p = NPUEMU_ARG(ctx, uint64_t *, 0); *p = *p * 2 %% 1000000007u; }\n"
    "static void inc(const npuemu_kernel_ctx *ctx) { uint64_t *p = NPUEMU_ARG(ctx, uint64_t *, 0); *p = *p + 1; }\n"
    "static void flag(const npuemu_kernel_ctx *ctx) { volatile uint64_t *p = NPUEMU_ARG(ctx, uint64_t *, 0); *p = 1; }\n"
    "NPUEMU_KERNEL_TABLE(\n"
    "    NPUEMU_KERNEL(dbl, NPUEMU_VECTOR, .num_params = 1),\n"
    "    NPUEMU_KERNEL(inc, NPUEMU_VECTOR, .num_params = 1),\n"
    "    NPUEMU_KERNEL(flag, NPUEMU_VECTOR, .num_params = 1),\n"
    ")\n";

static aclrtContext ctx;
static aclrtStream s;
static aclrtFuncHandle fdbl, finc, fflag;
static aclrtArgsHandle adbl, ainc;
static void *dev;

static aclrtArgsHandle args_of(aclrtFuncHandle f, void *p) {
    aclrtArgsHandle a;
    aclrtParamHandle ph;
    CHECK_OK(aclrtKernelArgsInit(f, &a));
    CHECK_OK(aclrtKernelArgsAppend(a, &p, sizeof p, &ph));
    CHECK_OK(aclrtKernelArgsFinalize(a));
    return a;
}

static void put(uint64_t v) {
    CHECK_OK(aclrtMemcpy(dev, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
}

static uint64_t get(void) {
    uint64_t v = 0;
    CHECK_OK(aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
}

/* A thread that launches, hands over by a host condition variable, and
 * never calls the library again before the other thread looks. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int stage;

static void set_stage(int v) {
    pthread_mutex_lock(&mu);
    stage = v;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

static void wait_stage(int v) {
    pthread_mutex_lock(&mu);
    while (stage < v) pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
}

static void *producer(void *arg) {
    (void)arg;
    CHECK_OK(aclrtSetCurrentContext(ctx));
    /* Armed by the first launch; the next ones are deferred. */
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtLaunchKernelWithConfig(fdbl, 1, s, NULL, adbl, NULL));
    set_stage(1);  /* the main thread synchronises s and reads */
    wait_stage(2); /* the main thread armed inc on s */
    for (int i = 0; i < 2; i++) CHECK_OK(aclrtLaunchKernelWithConfig(fdbl, 1, s, NULL, adbl, NULL));
    set_stage(3); /* the main thread launches inc into s: after these */
    wait_stage(4);
    return NULL;
}

static aclrtParamHandle gone_param;

static void *update_args(void *a) {
    CHECK_OK(aclrtKernelArgsParaUpdate((aclrtArgsHandle)a, gone_param, &dev, sizeof dev));
    return NULL;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Several threads launching at once: each into a stream of its own (its
 * own word) and all into one shared stream (one word), with
 * synchronisations and copies between; every launch must run once. */
#define NT 4
#define PER 1500
static aclrtStream shared_s;
static void *sdev;

struct worker {
    aclrtStream s;
    aclrtArgsHandle own, shared;
};

static void *worker_main(void *p) {
    struct worker *w = p;
    CHECK_OK(aclrtSetCurrentContext(ctx));
    for (int i = 0; i < PER; i++) {
        CHECK_OK(aclrtLaunchKernelWithConfig(finc, 1, w->s, NULL, w->own, NULL));
        CHECK_OK(aclrtLaunchKernelWithConfig(finc, 1, shared_s, NULL, w->shared, NULL));
        if (i % 97 == 0) CHECK_OK(aclrtSynchronizeStream(w->s));
        if (i % 331 == 0) {
            uint64_t v;
            CHECK_OK(aclrtMemcpy(&v, 8, (char *)sdev + 8, 8, ACL_MEMCPY_DEVICE_TO_HOST));
        }
    }
    CHECK_OK(aclrtSynchronizeStream(w->s));
    return NULL;
}

static void threads_case(void) {
    CHECK_OK(aclrtMalloc(&sdev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(sdev, 4096, 0, 4096));
    CHECK_OK(aclrtCreateStream(&shared_s));
    struct worker w[NT];
    pthread_t th[NT];
    for (int i = 0; i < NT; i++) {
        CHECK_OK(aclrtCreateStream(&w[i].s));
        w[i].own = args_of(finc, (char *)sdev + 64 * (i + 1));
        w[i].shared = args_of(finc, sdev);
    }
    for (int i = 0; i < NT; i++) CHECK(pthread_create(&th[i], NULL, worker_main, &w[i]) == 0);
    for (int i = 0; i < NT; i++) CHECK(pthread_join(th[i], NULL) == 0);
    CHECK_OK(aclrtSynchronizeStream(shared_s));
    uint64_t got[1 + NT * 8];
    CHECK_OK(aclrtMemcpy(got, sizeof got, sdev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(got[0], (uint64_t)NT * PER);
    for (int i = 0; i < NT; i++) CHECK_EQ(got[8 * (i + 1)], (uint64_t)PER);
    for (int i = 0; i < NT; i++) CHECK_OK(aclrtDestroyStream(w[i].s));
    CHECK_OK(aclrtDestroyStream(shared_s));
    CHECK_OK(aclrtFree(sdev));
}

int main(void) {
    char so[4096];
    build_case_kernel(__FILE__, kernel_src, so, sizeof so);

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetCurrentContext(&ctx));
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK_OK(aclrtBinaryGetFunction(bin, "dbl", &fdbl));
    CHECK_OK(aclrtBinaryGetFunction(bin, "inc", &finc));
    CHECK_OK(aclrtBinaryGetFunction(bin, "flag", &fflag));
    CHECK_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    adbl = args_of(fdbl, dev);
    ainc = args_of(finc, dev);

    /* 1. Order: 1000 launches of two kernels in an order-sensitive
     * pattern (both armed after their first launch), more than one batch,
     * then one synchronisation. */
    put(1);
    uint64_t want = 1;
    for (int i = 0; i < 1000; i++) {
        int d = (i % 7) < 3;
        CHECK_OK(aclrtLaunchKernelWithConfig(d ? fdbl : finc, 1, s, NULL, d ? adbl : ainc, NULL));
        want = d ? want * 2 % 1000000007u : want + 1;
    }
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(get(), want);
    /* The same without a synchronisation: the copy (another call) comes
     * after the launches on the same stream. */
    for (int i = 0; i < 10; i++) {
        CHECK_OK(aclrtLaunchKernelWithConfig(finc, 1, s, NULL, ainc, NULL));
        want++;
    }
    uint64_t v = 0;
    CHECK_OK(aclrtMemcpyAsync(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(v, want);

    /* 2. Another thread's launches, handed over by host means only. */
    put(5);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, producer, NULL) == 0);
    wait_stage(1);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(get(), 40); /* 5 * 2^3 */
    CHECK_OK(aclrtLaunchKernelWithConfig(finc, 1, s, NULL, ainc, NULL)); /* arms inc here */
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(get(), 41);
    set_stage(2);
    wait_stage(3);
    /* The producer's two doublings are queued in its thread; this launch
     * (armed, so deferred too) must still run after them. */
    CHECK_OK(aclrtLaunchKernelWithConfig(finc, 1, s, NULL, ainc, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(get(), 41 * 4 + 1);
    set_stage(4);
    CHECK(pthread_join(th, NULL) == 0);

    aclrtArgsHandle gone;

    /* 3. A kernel writing host memory runs while the program polls that
     * memory and calls nothing (the flush timer). */
    uint64_t *host = NULL;
    CHECK(posix_memalign((void **)&host, 4096, 4096) == 0);
    memset(host, 0, 4096);
    void *dhost = NULL;
    CHECK_OK(aclrtHostRegister(host, 4096, ACL_HOST_REGISTER_MAPPED, &dhost));
    aclrtArgsHandle aflag = args_of(fflag, dhost);
    CHECK_OK(aclrtLaunchKernelWithConfig(fflag, 1, s, NULL, aflag, NULL)); /* arms */
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(*(volatile uint64_t *)host, 1);
    *(volatile uint64_t *)host = 0;
    CHECK_OK(aclrtLaunchKernelWithConfig(fflag, 1, s, NULL, aflag, NULL)); /* deferred */
    double t0 = now_s();
    while (*(volatile uint64_t *)host == 0) {
        if (now_s() - t0 > 10) FAIL("a deferred launch did not run within 10 s while the program polled");
    }
    CHECK_OK(aclrtSynchronizeStream(s));

    /* 4. An armed launch whose args handle another thread updated (so it
     * is no longer finalized) returns success; the next synchronisation
     * returns the failure an immediate launch gets, with the message. */
    aclrtParamHandle gp;
    gone = NULL;
    CHECK_OK(aclrtKernelArgsInit(finc, &gone));
    CHECK_OK(aclrtKernelArgsAppend(gone, &dev, sizeof dev, &gp));
    CHECK_OK(aclrtKernelArgsFinalize(gone));
    gone_param = gp;
    CHECK_OK(aclrtLaunchKernelWithConfig(finc, 1, s, NULL, gone, NULL)); /* arms */
    CHECK_OK(aclrtSynchronizeStream(s));
    pthread_t upd;
    CHECK(pthread_create(&upd, NULL, update_args, gone) == 0);
    CHECK(pthread_join(upd, NULL) == 0);
    CHECK_OK(aclrtLaunchKernelWithConfig(finc, 1, s, NULL, gone, NULL)); /* deferred: fails in the core */
    aclError late = aclrtSynchronizeStream(s);
    CHECK(late != ACL_SUCCESS);
    const char *msg = aclGetRecentErrMsg();
    CHECK(msg != NULL && strstr(msg, "not finalized") != NULL);
    CHECK_OK(aclrtSynchronizeStream(s)); /* reported once */
    /* The same launch made at once (this thread's other call forgot what
     * it had armed) fails with the same code. */
    CHECK_OK(aclrtMemset(dev, 8, 0, 8));
    CHECK_EQ(aclrtLaunchKernelWithConfig(finc, 1, s, NULL, gone, NULL), late);

    /* 5. Four threads at once, on streams of their own and a shared one. */
    threads_case();

    CHECK_OK(aclrtHostUnregister(host));
    free(host);
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(dev));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("PASS\n");
    return 0;
}
