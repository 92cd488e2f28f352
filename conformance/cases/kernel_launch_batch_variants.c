/* kernel_launch_batch_variants: the launches the library batches besides
 * aclrtLaunchKernelWithConfig (docs/kernels.md "Batched launches").
 * aclrtLaunchKernelWithHostArgs (the launch Ascend C's <<<>>> makes):
 * each deferred launch runs with the argument bytes it was
 * given, though the program overwrites its buffer as soon as the call
 * returns; they run in call order with aclrtLaunchKernelWithConfig launches
 * between them, over many batches and arena refills; a launch + synchronize
 * loop gives the result of the same launches made one by one; blobs too big
 * to defer and of odd sizes run right; bytes that cannot be read fail as
 * the same launch made at once does, without a crash; an armed launch whose function's
 * binary another thread unloaded returns success and its error comes back
 * from the next aclrtSynchronizeStream, with the code the same launch made
 * at once gets. aclrtLaunchKernel (arguments in device memory): deferred
 * launches of two argument blocks and of the other variants run in call
 * order, and in a launch + synchronize loop.
 *
 * needs: emulator
 * env: NPUEMU_LAUNCH_BATCH=1
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "case_kernel.h"

/* mix: *p = (*p * 31 + v) mod P with v at byte 8 of its arguments; far
 * reads v at byte 1016 (a 1 KiB blob), huge at byte 2040 (2 KiB: more than
 * the front defers); inc adds one. */
static const char *kernel_src =
    "#include \"%s/emu/include/npuemu/kernel.h\"\n"
    "static void upd(const npuemu_kernel_ctx *ctx, size_t at) {\n"
    "    uint64_t *p = NPUEMU_ARG(ctx, uint64_t *, 0);\n"
    "    *p = (*p * 31 + NPUEMU_ARG(ctx, uint64_t, at)) %% 1000000007u;\n"
    "}\n"
    "static void mix(const npuemu_kernel_ctx *ctx) { upd(ctx, 8); }\n"
    "static void far(const npuemu_kernel_ctx *ctx) { upd(ctx, 1016); }\n"
    "static void huge(const npuemu_kernel_ctx *ctx) { upd(ctx, 2040); }\n"
    "static void inc(const npuemu_kernel_ctx *ctx) { uint64_t *p = NPUEMU_ARG(ctx, uint64_t *, 0); *p = *p + 1; }\n"
    "NPUEMU_KERNEL_TABLE(\n"
    "    NPUEMU_KERNEL(mix, NPUEMU_VECTOR),\n"
    "    NPUEMU_KERNEL(far, NPUEMU_VECTOR),\n"
    "    NPUEMU_KERNEL(huge, NPUEMU_VECTOR),\n"
    "    NPUEMU_KERNEL(inc, NPUEMU_VECTOR, .num_params = 1),\n"
    ")\n";

static aclrtStream s;
static void *dev;

static uint64_t step(uint64_t x, uint64_t v) { return (x * 31 + v) % 1000000007u; }

static void put(uint64_t v) { CHECK_OK(aclrtMemcpy(dev, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE)); }

static uint64_t get(void) {
    uint64_t v = 0;
    CHECK_OK(aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
}

/* blob of n bytes: the device pointer at 0, v at byte at, the rest noise. */
static unsigned char blob[2048];
static void fill(size_t at, uint64_t v) {
    memset(blob, 0xA5, sizeof blob);
    memcpy(blob, &dev, sizeof dev);
    memcpy(blob + at, &v, sizeof v);
}

static aclrtBinHandle bin2;
static void *unload(void *arg) {
    (void)arg;
    CHECK_OK(aclrtBinaryUnLoad(bin2));
    return NULL;
}

int main(void) {
    char so[4096];
    build_case_kernel(__FILE__, kernel_src, so, sizeof so);

    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    aclrtFuncHandle fmix, ffar, fhuge, finc, fgone;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK_OK(aclrtBinaryGetFunction(bin, "mix", &fmix));
    CHECK_OK(aclrtBinaryGetFunction(bin, "far", &ffar));
    CHECK_OK(aclrtBinaryGetFunction(bin, "huge", &fhuge));
    CHECK_OK(aclrtBinaryGetFunction(bin, "inc", &finc));
    CHECK_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtArgsHandle ainc;
    aclrtParamHandle ph;
    CHECK_OK(aclrtKernelArgsInit(finc, &ainc));
    CHECK_OK(aclrtKernelArgsAppend(ainc, &dev, sizeof dev, &ph));
    CHECK_OK(aclrtKernelArgsFinalize(ainc));

    /* 1. Own bytes, call order, mixed with WithConfig launches: 1000
     * launches (many batches), the buffer overwritten after every call. */
    put(1);
    uint64_t want = 1;
    for (int i = 0; i < 1000; i++) {
        if (i % 5 == 4) {
            CHECK_OK(aclrtLaunchKernelWithConfig(finc, 1, s, NULL, ainc, NULL));
            want++;
            continue;
        }
        uint64_t v = (uint64_t)i * 7 + 3;
        fill(8, v);
        CHECK_OK(aclrtLaunchKernelWithHostArgs(fmix, 1, s, NULL, blob, 16, NULL, 0));
        fill(8, 999999); /* copied at the call */
        want = step(want, v);
    }
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(get(), want);

    /* 2. Launch + synchronize, 300 times (one crossing each once armed). */
    for (int i = 0; i < 300; i++) {
        fill(8, (uint64_t)i);
        CHECK_OK(aclrtLaunchKernelWithHostArgs(fmix, 1, s, NULL, blob, 16, NULL, 0));
        CHECK_OK(aclrtSynchronizeStream(s));
        want = step(want, (uint64_t)i);
    }
    CHECK_EQ(get(), want);

    /* 3. 1 KiB blobs (16 fill a queue's arena: it is handed over when
     * full), a 2 KiB blob (made at once) and an odd size (20 bytes). */
    for (int i = 0; i < 100; i++) {
        fill(1016, (uint64_t)i + 100);
        CHECK_OK(aclrtLaunchKernelWithHostArgs(ffar, 1, s, NULL, blob, 1024, NULL, 0));
        want = step(want, (uint64_t)i + 100);
    }
    for (int i = 0; i < 3; i++) {
        fill(2040, (uint64_t)i + 7);
        CHECK_OK(aclrtLaunchKernelWithHostArgs(fhuge, 1, s, NULL, blob, 2048, NULL, 0));
        want = step(want, (uint64_t)i + 7);
    }
    for (int i = 0; i < 40; i++) {
        fill(8, (uint64_t)i + 55);
        CHECK_OK(aclrtLaunchKernelWithHostArgs(fmix, 1, s, NULL, blob, 20, NULL, 0));
        want = step(want, (uint64_t)i + 55);
    }
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(get(), want);

    /* 3b. Bytes that cannot be read (an armed launch: the front copies
     * them at the call): the error of the same launch made at once, no
     * crash, and the next launch runs. */
    fill(8, 77);
    CHECK_OK(aclrtLaunchKernelWithHostArgs(fmix, 1, s, NULL, blob, 16, NULL, 0)); /* armed */
    want = step(want, 77);
    aclError bad = aclrtLaunchKernelWithHostArgs(fmix, 1, s, NULL, (void *)64, 16, NULL, 0);
    CHECK(bad != ACL_SUCCESS);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(get(), want); /* (a call: nothing armed any more) */
    CHECK_EQ(aclrtLaunchKernelWithHostArgs(fmix, 1, s, NULL, (void *)64, 16, NULL, 0), bad);
    fill(8, 78);
    CHECK_OK(aclrtLaunchKernelWithHostArgs(fmix, 1, s, NULL, blob, 16, NULL, 0));
    want = step(want, 78);
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(get(), want);

    /* 4. An armed launch whose binary another thread unloaded: success,
     * then the error from the next synchronisation, once. */
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin2));
    CHECK_OK(aclrtBinaryGetFunction(bin2, "mix", &fgone));
    fill(8, 1);
    CHECK_OK(aclrtLaunchKernelWithHostArgs(fgone, 1, s, NULL, blob, 16, NULL, 0)); /* arms */
    CHECK_OK(aclrtSynchronizeStream(s));
    pthread_t th;
    CHECK(pthread_create(&th, NULL, unload, NULL) == 0);
    CHECK(pthread_join(th, NULL) == 0);
    CHECK_OK(aclrtLaunchKernelWithHostArgs(fgone, 1, s, NULL, blob, 16, NULL, 0)); /* deferred */
    aclError late = aclrtSynchronizeStream(s);
    CHECK(late != ACL_SUCCESS);
    const char *msg = aclGetRecentErrMsg();
    CHECK(msg != NULL && strstr(msg, "aclrtLaunchKernelWithHostArgs") != NULL);
    CHECK_OK(aclrtSynchronizeStream(s)); /* reported once */
    CHECK_OK(aclrtMemset(dev, 8, 0, 8)); /* another call: nothing armed any more */
    CHECK_EQ(aclrtLaunchKernelWithHostArgs(fgone, 1, s, NULL, blob, 16, NULL, 0), late);

    /* 5. aclrtLaunchKernel with two argument blocks in device memory (each
     * an armed launch of its own), between host-argument and WithConfig
     * launches; then launch + synchronize. */
    void *da, *db;
    CHECK_OK(aclrtMalloc(&da, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&db, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    fill(8, 3);
    CHECK_OK(aclrtMemcpy(da, 16, blob, 16, ACL_MEMCPY_HOST_TO_DEVICE));
    fill(8, 5);
    CHECK_OK(aclrtMemcpy(db, 16, blob, 16, ACL_MEMCPY_HOST_TO_DEVICE));
    put(2);
    want = 2;
    for (int i = 0; i < 600; i++) {
        switch (i % 4) {
        case 0:
        case 1:
            CHECK_OK(aclrtLaunchKernel(fmix, 1, i % 4 ? db : da, 16, s));
            want = step(want, i % 4 ? 5 : 3);
            break;
        case 2:
            fill(8, (uint64_t)i);
            CHECK_OK(aclrtLaunchKernelWithHostArgs(fmix, 1, s, NULL, blob, 16, NULL, 0));
            want = step(want, (uint64_t)i);
            break;
        default:
            CHECK_OK(aclrtLaunchKernelWithConfig(finc, 1, s, NULL, ainc, NULL));
            want++;
        }
    }
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_EQ(get(), want);
    for (int i = 0; i < 300; i++) {
        CHECK_OK(aclrtLaunchKernel(fmix, 1, da, 16, s));
        CHECK_OK(aclrtSynchronizeStream(s));
        want = step(want, 3);
    }
    CHECK_EQ(get(), want);
    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(db));

    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtFree(dev));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("PASS\n");
    return 0;
}
