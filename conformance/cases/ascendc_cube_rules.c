/* ascendc_cube_rules: the cube path's rules are AI Core exceptions of the
 * launch (ACL_ERROR_RT_AICORE_EXCEPTION at the next synchronisation) with a
 * message naming the API and the rule: an L0A address off the 512-byte
 * grid, an Mmad operand larger than its buffer, an Mmad operand in the
 * wrong position, a Fixpipe conversion quantPre does not ask for, and a
 * Matmul tiling whose base block does not fit L0C. The stream keeps
 * working after each.
 *
 * needs: emulator
 */
#include <stdint.h>

#include "ascendc_cube_kernels/build.h"
#include "kernel_tiling/kernel_tiling.h"

int main(void) {
    char repo[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(repo, "cube_kernels.cpp");
    aclrtFuncHandle rules;
    CHECK_OK(aclrtBinaryGetFunction(bin, "cube_rules", &rules));
    void *da, *dc;
    CHECK_OK(aclrtMalloc(&da, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&dc, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(da, 8192, 0, 8192));

    static const struct {
        uint32_t which;
        const char *api, *rule;
    } want[] = {
        {1, "LoadData", "512-byte alignment"},
        {2, "Mmad", "local memory capacity"},
        {3, "Mmad", "operand position"},
        {4, "Fixpipe", "quantPre"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        uint32_t which = want[i].which;
        asc_param ps[] = {{&da, 8}, {&dc, 8}, {&which, 4}};
        asc_launch(rules, 1, s, ps, 3);
        asc_expect_fault(s, want[i].api, want[i].rule);
    }
    uint32_t none = 0; /* no violation: the stream still runs kernels */
    asc_param ok[] = {{&da, 8}, {&dc, 8}, {&none, 4}};
    asc_launch(rules, 1, s, ok, 3);
    CHECK_OK(aclrtSynchronizeStream(s));

    /* A Matmul tiling with baseM x baseN x 4 bytes = 256 KiB > L0C. */
    aclrtBinHandle mbin = asc_load(repo, "matmul_kernels.cpp");
    aclrtFuncHandle bad;
    CHECK_OK(aclrtBinaryGetFunction(mbin, "mm_bad_tiling", &bad));
    struct TCubeTiling t;
    memset(&t, 0, sizeof t);
    t.usedCoreNum = 1;
    t.M = t.N = t.Ka = t.Kb = 256;
    t.singleCoreM = t.singleCoreN = t.singleCoreK = 256;
    t.baseM = t.baseN = 256;
    t.baseK = 16;
    t.depthA1 = t.depthB1 = 1;
    t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
    void *dt;
    CHECK_OK(aclrtMalloc(&dt, sizeof t, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(dt, sizeof t, &t, sizeof t, ACL_MEMCPY_HOST_TO_DEVICE));
    asc_param pt[] = {{&dt, 8}};
    asc_launch(bad, 1, s, pt, 1);
    asc_expect_fault(s, "REGIST_MATMUL_OBJ", "L0C_size");

    CHECK_OK(aclrtFree(da));
    CHECK_OK(aclrtFree(dc));
    CHECK_OK(aclrtFree(dt));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtBinaryUnLoad(mbin));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
