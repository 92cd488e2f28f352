/* ascendc_sync: SyncAll really holds every block of a cooperative launch
 * until all arrive (each block reads a value its neighbour wrote before
 * the barrier); IBWait holds a block until another's IBSet; a MIX block runs one AIC and two AIVs at once whose
 * cross-core flags order them (AIC -> both AIVs -> AIC); on an AIV of a
 * MIX launch GetBlockIdx is blockIdx * 2 + GetSubBlockIdx. A block that
 * skips SyncAll, a wait nobody answers and a cross-core flag outside a MIX
 * kernel are AI Core exceptions (507015), not hangs. A cooperative launch
 * with more blocks than cores is refused.
 *
 * needs: emulator
 */
#include "ascendc_build.h"

static void expect_exception(aclrtFuncHandle f, uint32_t blocks, aclrtStream s, void *x, const char *what) {
    void *args[1] = {x};
    aclError e = asc_run(f, blocks, s, args, sizeof args);
    if (e != ACL_ERROR_RT_AICORE_EXCEPTION) FAIL("%s: got %d, want 507015", what, (int)e);
    const char *m = aclGetRecentErrMsg();
    if (m == NULL || strstr(m, what) == NULL) FAIL("the message should say \"%s\": %s", what, m ? m : "(none)");
    printf("%s\n", m);
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(__FILE__, "sync.cpp");
    int32_t *x = (int32_t *)asc_dev(4096 * 4);
    int32_t h[1024];

    /* SyncAll over 8 blocks, several times. */
    for (int round = 0; round < 3; round++) {
        CHECK_OK(aclrtMemset(x, 4096 * 4, 0, 4096 * 4));
        void *args[1] = {x};
        CHECK_OK(asc_run(asc_fn(bin, "syncall_ring"), 8, s, args, sizeof args));
        CHECK_OK(aclrtMemcpy(h, sizeof h, x, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int b = 0; b < 8; b++) {
            CHECK_EQ(h[b * 8], b + 1);
            CHECK_EQ(h[(8 + b) * 8], (b + 1) % 8 + 1);
        }
    }

    /* IBSet/IBWait: a chain through 6 blocks, each waiting for the one
     * before (whatever order the host runs them in). */
    CHECK_OK(aclrtMemset(x, 4096 * 4, 0, 4096 * 4));
    {
        void *args[1] = {x};
        CHECK_OK(asc_run(asc_fn(bin, "ib_chain"), 6, s, args, sizeof args));
        CHECK_OK(aclrtMemcpy(h, sizeof h, x, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int b = 0; b < 6; b++) CHECK_EQ(h[b * 8], b + 1);
    }

    /* MIX: 3 blocks of AIC + 2 AIV. */
    CHECK_OK(aclrtMemset(x, 4096 * 4, 0, 4096 * 4));
    {
        void *args[1] = {x};
        CHECK_OK(asc_run(asc_fn(bin, "mix_flags"), 3, s, args, sizeof args));
    }
    CHECK_OK(aclrtMemcpy(h, sizeof h, x, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int b = 0; b < 3; b++) {
        int32_t *r = h + b * 16;
        CHECK_EQ(r[0], 100 + b);
        CHECK_EQ(r[1], 100 + b + 1);
        CHECK_EQ(r[2], 100 + b + 2);
        CHECK_EQ(r[3], 2 * (100 + b) + 3);
        CHECK_EQ(r[4], 2 * b);
        CHECK_EQ(r[5], 2 * b + 1);
        CHECK_EQ(r[6], 0);
        CHECK_EQ(r[7], 1);
        CHECK_EQ(r[8], 3);
    }

    expect_exception(asc_fn(bin, "syncall_missing"), 4, s, x, "SyncAll reached by every core");
    expect_exception(asc_fn(bin, "mix_deadlock"), 2, s, x, "rule: wait without a matching set");
    expect_exception(asc_fn(bin, "xcore_not_mix"), 1, s, x, "cross-core flag outside a MIX kernel");

    /* More blocks than the device has cores: refused at launch. */
    {
        void *args[1] = {x};
        aclError e = aclrtLaunchKernelWithHostArgs(asc_fn(bin, "syncall_ring"), 4096, s, NULL, args, sizeof args, NULL, 0);
        if (e != ACL_ERROR_RT_PARAM_INVALID) FAIL("cooperative launch of 4096 blocks: got %d, want %d", (int)e, ACL_ERROR_RT_PARAM_INVALID);
        printf("%s\n", aclGetRecentErrMsg());
    }
    /* The stream still works. */
    {
        void *args[1] = {x};
        CHECK_OK(asc_run(asc_fn(bin, "syncall_ring"), 2, s, args, sizeof args));
    }
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
