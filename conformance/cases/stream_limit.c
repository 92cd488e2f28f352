/* stream_limit: aclrtGetStreamAvailableNum and the per-device stream
 * quota of an Atlas A2 part (1984, default streams included). */
/* needs: emulator */
/* env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=1 */
#include "rt_util.h"

#define LIMIT 1984

static aclrtStream streams[LIMIT];

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    /* doc: semantics.md §4 — creatable = 1984 − existing, default streams
     * included; the default context owns one default stream (§2). */
    uint32_t avail = 0;
    CHECK_OK(aclrtGetStreamAvailableNum(&avail));
    CHECK_EQ(avail, LIMIT - 1);
    CHECK_ERR(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM);

    /* Each explicit stream takes one. */
    aclrtStream one = NULL;
    CHECK_OK(aclrtCreateStream(&one));
    CHECK_OK(aclrtGetStreamAvailableNum(&avail));
    CHECK_EQ(avail, LIMIT - 2);

    /* doc: semantics.md §3 — an explicit context brings its own default
     * stream, which counts too. */
    aclrtContext def = NULL, ctx = NULL;
    CHECK_OK(aclrtGetCurrentContext(&def));
    CHECK_OK(aclrtCreateContext(&ctx, 0));
    CHECK_OK(aclrtGetStreamAvailableNum(&avail));
    CHECK_EQ(avail, LIMIT - 3);
    CHECK_OK(aclrtSetCurrentContext(def));
    CHECK_OK(aclrtDestroyContext(ctx));
    CHECK_OK(aclrtGetStreamAvailableNum(&avail));
    CHECK_EQ(avail, LIMIT - 2);

    /* Fill the quota exactly; the next creation fails (no code given). */
    uint32_t made = 0;
    while (made < avail) {
        CHECK_OK(aclrtCreateStream(&streams[made]));
        made++;
    }
    uint32_t left = 99;
    CHECK_OK(aclrtGetStreamAvailableNum(&left));
    CHECK_EQ(left, 0);
    aclrtStream extra = NULL;
    CHECK_FAILS(aclrtCreateStream(&extra));
    CHECK_FAILS(aclrtCreateStreamWithConfig(&extra, 0, 0));

    /* Destroying one frees one slot. */
    CHECK_OK(aclrtDestroyStream(streams[made - 1]));
    made--;
    CHECK_OK(aclrtGetStreamAvailableNum(&left));
    CHECK_EQ(left, 1);
    CHECK_OK(aclrtCreateStream(&streams[made]));
    made++;

    for (uint32_t i = 0; i < made; i++) CHECK_OK(aclrtDestroyStream(streams[i]));
    CHECK_OK(aclrtDestroyStream(one));
    CHECK_OK(aclrtGetStreamAvailableNum(&avail));
    CHECK_EQ(avail, LIMIT - 1);

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
