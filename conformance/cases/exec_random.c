/* exec_random: aclrtRandomNumAsync is reproducible (same seed and
 * counter, same numbers), moves its 16-byte device counter on, and draws
 * from the requested distribution (range, mean and spread checks). */
/* link: -lascendcl -lm */
#include "rt_util.h"

#include <math.h>

#define N 8192

static aclrtRandomParaInfo inline_u64(uint64_t v, uint8_t size)
{
    aclrtRandomParaInfo p;
    memset(&p, 0, sizeof p);
    p.isAddr = 0;
    memcpy(p.valueOrAddr, &v, 8);
    p.size = size;
    return p;
}

static aclrtRandomParaInfo inline_f32(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return inline_u64(b, 4);
}

static void run(aclrtRandomNumTaskInfo *info, aclrtStream s, void *ctr, int reset, float *out)
{
    if (reset) CHECK_OK(aclrtMemset(ctr, 16, 0, 16));
    CHECK_OK(aclrtRandomNumAsync(info, s, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(out, N * 4, info->randomResultAddr, N * 4, ACL_MEMCPY_DEVICE_TO_HOST));
}

static float first[N], second[N], again[N];

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    if (strncmp(soc, "Ascend910B", 10) != 0 && strncmp(soc, "Ascend910_93", 12) != 0) {
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        SKIP("aclrtRandomNumAsync is documented for Atlas A2/A3 only (%s)", soc);
    }
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    void *out = NULL, *ctr = NULL;
    CHECK_OK(aclrtMalloc(&out, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&ctr, 16, ACL_MEM_MALLOC_HUGE_FIRST));

    aclrtRandomNumTaskInfo info;
    memset(&info, 0, sizeof info);
    info.dataType = ACL_FLOAT;
    info.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
    info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = inline_f32(2.0f);
    info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = inline_f32(6.0f);
    info.randomResultAddr = out;
    info.randomCounterAddr = ctr;
    info.randomSeed = inline_u64(20240601, 8);
    info.randomNum = inline_u64(N, 8);

    run(&info, s, ctr, 1, first);
    run(&info, s, ctr, 0, second); /* the counter moved on */
    run(&info, s, ctr, 1, again);  /* counter reset: same numbers */
    CHECK_EQ(memcmp(first, again, sizeof first), 0);
    CHECK(memcmp(first, second, sizeof first) != 0);
    double sum = 0;
    for (int i = 0; i < N; i++) {
        if (!(first[i] >= 2.0f && first[i] < 6.0f)) FAIL("uniform sample %d = %f outside [2, 6)", i, first[i]);
        sum += first[i];
    }
    CHECK(fabs(sum / N - 4.0) < 0.1);

    /* Normal(mean 1, stddev 3): sample mean and standard deviation. */
    info.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS;
    info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean = inline_f32(1.0f);
    info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev = inline_f32(3.0f);
    run(&info, s, ctr, 1, first);
    double m = 0, v = 0;
    for (int i = 0; i < N; i++) m += first[i];
    m /= N;
    for (int i = 0; i < N; i++) v += (first[i] - m) * (first[i] - m);
    v = sqrt(v / (N - 1));
    CHECK(fabs(m - 1.0) < 0.2);
    CHECK(fabs(v - 3.0) < 0.2);

    /* Another seed gives other numbers. */
    info.randomSeed = inline_u64(7, 8);
    run(&info, s, ctr, 1, second);
    CHECK(memcmp(first, second, sizeof first) != 0);

    /* Argument checks. */
    CHECK_FAILS(aclrtRandomNumAsync(NULL, s, NULL));
    info.dataType = ACL_INT8;
    CHECK_FAILS(aclrtRandomNumAsync(&info, s, NULL));

    CHECK_OK(aclrtFree(out));
    CHECK_OK(aclrtFree(ctr));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
