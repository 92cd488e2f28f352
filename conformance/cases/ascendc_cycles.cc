/* ascendc_cycles: the cycle model of docs/ascendc.md ("Time"), on the
 * default SoC (Atlas A2): a 16 KiB GM -> UB DataCopy costs the issue
 * overhead plus 16384 / 64 MTE2 cycles; pipes overlap as the queues allow,
 * so double buffering finishes a copy-in / compute / copy-out pipeline in
 * fewer modelled cycles than single buffering (where each copy-in waits
 * for the compute of the tile before), and no faster than its busiest
 * pipe. Modelled cycles, not wall time: the numbers are exact.
 *
 * needs: emulator
 */
#include "ascendc_build.h"

static int64_t cycles(aclrtBinHandle bin, const char *k, aclrtStream s, void *x, void *o) {
    void *args[2] = {x, o};
    CHECK_OK(asc_run(asc_fn(bin, k), 1, s, args, sizeof args));
    int64_t c = 0;
    CHECK_OK(aclrtMemcpy(&c, sizeof c, o, sizeof c, ACL_MEMCPY_DEVICE_TO_HOST));
    printf("%s: %lld cycles\n", k, (long long)c);
    return c;
}

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    if (soc == NULL || strncmp(soc, "Ascend910B", 10) != 0) SKIP("the cost table checked here is the Atlas A2 one, not %s", soc ? soc : "?");
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(__FILE__, "cycles.cpp");
    void *x = asc_dev(2 * 8 * 2048 * 4), *o = asc_dev(64);

    CHECK_EQ(cycles(bin, "one_copy", s, x, o), 14 + 16384 / 64);

    int64_t single = cycles(bin, "single_buffer", s, x, o);
    int64_t dbl = cycles(bin, "double_buffer", s, x, o);
    /* per tile: MTE2 14 + 128, V 14 + 32, MTE3 14 + 128 */
    int64_t mte2 = 8 * (14 + 8192 / 64);
    if (!(dbl < single)) FAIL("double buffering (%lld) should beat single buffering (%lld)", (long long)dbl, (long long)single);
    if (dbl < mte2) FAIL("the pipeline (%lld) cannot beat its busiest pipe (%lld)", (long long)dbl, (long long)mte2);
    /* one input buffer: the next copy-in waits until the compute freed it */
    if (single < 8 * (14 + 128 + 14 + 32)) FAIL("single buffering (%lld) serialises copy-in and compute", (long long)single);
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
