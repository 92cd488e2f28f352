/* capture_switch_stream: if/else inside a built model run instance with
 * aclrtSwitchStream (semantics.md §4: compares two device values when the
 * task runs and activates trueStream when the condition holds;
 * falseStream is reserved and must be NULL). The main stream (bound HEAD)
 * switches on `flag == 1` to the "then" stream and on `flag != 1` to the
 * "else" stream, both bound DEFAULT so that they run only when activated;
 * a third switch compares two int64 values with GREATER. Exactly one
 * branch runs, chosen by device memory at execution time: changing the
 * memory between two executions selects the other branch. */
#include "rt_util.h"

#include <string.h>

#define N 4096

static void expect(const uint8_t *d, uint8_t v)
{
    uint8_t h[N];
    memset(h, 0xEE, N);
    CHECK_OK(aclrtMemcpy(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++)
        CHECK_EQ(h[i], v);
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    if (strncmp(soc, "Ascend910_93", 12) == 0) {
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        SKIP("aclrtSwitchStream is not documented for A3 (%s)", soc);
    }
    aclrtStream main_s = NULL, then_s = NULL, else_s = NULL, gt_s = NULL, run = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&main_s, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStreamWithConfig(&then_s, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStreamWithConfig(&else_s, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStreamWithConfig(&gt_s, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStream(&run));
    int32_t *flag = NULL, *one = NULL;
    int64_t *big = NULL, *thr = NULL;
    uint8_t *in = NULL, *out_then = NULL, *out_else = NULL, *out_gt = NULL;
    CHECK_OK(aclrtMalloc((void **)&flag, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&one, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&big, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&thr, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&in, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&out_then, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&out_else, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&out_gt, N, ACL_MEM_MALLOC_HUGE_FIRST));
    int32_t h1 = 1;
    int64_t hthr = (int64_t)1 << 40;
    CHECK_OK(aclrtMemcpy(one, 4, &h1, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(thr, 8, &hthr, 8, ACL_MEMCPY_HOST_TO_DEVICE));

    /* doc: semantics.md §4 — only on streams bound to a model RI;
     * falseStream must be NULL. */
    CHECK_ERR(aclrtSwitchStream(flag, ACL_RT_EQUAL, one, ACL_RT_SWITCH_INT32, then_s, NULL, run), ACL_ERROR_RT_STREAM_MODEL);

    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&ri, 0));
    CHECK_OK(aclmdlRIBindStream(ri, main_s, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_OK(aclmdlRIBindStream(ri, then_s, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_OK(aclmdlRIBindStream(ri, else_s, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_OK(aclmdlRIBindStream(ri, gt_s, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_FAILS(aclrtSwitchStream(flag, ACL_RT_EQUAL, one, ACL_RT_SWITCH_INT32, then_s, else_s, main_s));
    CHECK_FAILS(aclrtSwitchStream(flag, 6, one, ACL_RT_SWITCH_INT32, then_s, NULL, main_s));
    CHECK_OK(aclrtMemsetAsync(out_then, N, 0, N, main_s));
    CHECK_OK(aclrtMemsetAsync(out_else, N, 0, N, main_s));
    CHECK_OK(aclrtMemsetAsync(out_gt, N, 0, N, main_s));
    CHECK_OK(aclrtSwitchStream(flag, ACL_RT_EQUAL, one, ACL_RT_SWITCH_INT32, then_s, NULL, main_s));
    CHECK_OK(aclrtSwitchStream(flag, ACL_RT_NOT_EQUAL, one, ACL_RT_SWITCH_INT32, else_s, NULL, main_s));
    CHECK_OK(aclrtSwitchStream(big, ACL_RT_GREATER, thr, ACL_RT_SWITCH_INT64, gt_s, NULL, main_s));
    /* then: copies the input; else: fills 0x22; gt: fills 0x33. */
    CHECK_OK(aclrtMemcpyAsync(out_then, N, in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, then_s));
    CHECK_OK(aclrtMemsetAsync(out_else, N, 0x22, N, else_s));
    CHECK_OK(aclrtMemsetAsync(out_gt, N, 0x33, N, gt_s));
    CHECK_OK(aclmdlRIEndTask(ri, main_s));
    CHECK_OK(aclmdlRIBuildEnd(ri, NULL));

    struct {
        int32_t flag;
        int64_t big;
    } rounds[5] = {{1, 0}, {0, ((int64_t)1 << 40) + 1}, {-3, -((int64_t)1 << 41)}, {1, (int64_t)1 << 40}, {1, (int64_t)1 << 50}};
    for (int r = 0; r < 5; r++) {
        uint8_t fill = (uint8_t)(0x40 + r);
        CHECK_OK(aclrtMemset(in, N, fill, N));
        CHECK_OK(aclrtMemcpy(flag, 4, &rounds[r].flag, 4, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclrtMemcpy(big, 8, &rounds[r].big, 8, ACL_MEMCPY_HOST_TO_DEVICE));
        if (r % 2 == 0)
            CHECK_OK(aclmdlRIExecute(ri, -1));
        else {
            CHECK_OK(aclmdlRIExecuteAsync(ri, run));
            CHECK_OK(aclrtSynchronizeStream(run));
        }
        int then_ran = rounds[r].flag == 1;
        expect(out_then, then_ran ? fill : 0);
        expect(out_else, then_ran ? 0 : 0x22);
        expect(out_gt, rounds[r].big > ((int64_t)1 << 40) ? 0x33 : 0);
    }

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtFree(flag));
    CHECK_OK(aclrtFree(one));
    CHECK_OK(aclrtFree(big));
    CHECK_OK(aclrtFree(thr));
    CHECK_OK(aclrtFree(in));
    CHECK_OK(aclrtFree(out_then));
    CHECK_OK(aclrtFree(out_else));
    CHECK_OK(aclrtFree(out_gt));
    CHECK_OK(aclrtDestroyStream(main_s));
    CHECK_OK(aclrtDestroyStream(then_s));
    CHECK_OK(aclrtDestroyStream(else_s));
    CHECK_OK(aclrtDestroyStream(gt_s));
    CHECK_OK(aclrtDestroyStream(run));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
