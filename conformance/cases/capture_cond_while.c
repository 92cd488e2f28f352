/* capture_cond_while: a WHILE node runs its body while the condition word is
 * non-zero, re-reading it after each run; the body counts the word down
 * with an int32 reduction (+ -1) and counts its runs. The handle's default
 * value is assigned at the start of every execution. */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL, sub = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&sub));
    int32_t *consts = NULL, *iters = NULL;
    CHECK_OK(aclrtMalloc((void **)&consts, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&iters, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    int32_t hc[2] = {-1, 1};
    CHECK_OK(aclrtMemcpy(consts, 8, hc, 8, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    aclmdlRICaptureStatus st;
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureGetInfo(s, &st, &ri));
    aclmdlRICondHandle h = NULL;
    /* doc: semantics.md §18 — ASSIGN_DEFAULT: the word starts at 6. */
    CHECK_OK(aclmdlRICondHandleCreate(ri, 6, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
    uint64_t *word = NULL;
    CHECK_OK(aclmdlRICondHandleGetCondPtr(h, &word));
    CHECK_OK(aclrtMemsetAsync(iters, 8, 0, 8, s));
    aclmdlRI body = NULL;
    aclmdlRICondTaskParams p = {h, ACL_MODEL_RI_COND_TYPE_WHILE, 1, &body};
    CHECK_OK(aclmdlRIAddCondTask(p, s, 0));
    CHECK(body != NULL);
    CHECK_OK(aclmdlRICaptureToModelRIBegin(sub, body, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_OK(aclrtReduceAsync(word, consts, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, sub, NULL));
    CHECK_OK(aclrtReduceAsync(iters, consts + 1, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, sub, NULL));
    aclmdlRI got = NULL;
    CHECK_OK(aclmdlRICaptureEnd(sub, &got));
    CHECK(got == body);
    CHECK_OK(aclmdlRICaptureEnd(s, &got));
    CHECK(got == ri);

    for (int round = 0; round < 2; round++) {
        CHECK_OK(aclmdlRIExecuteAsync(ri, s));
        CHECK_OK(aclrtSynchronizeStream(s));
        int32_t n[2] = {-7, -7};
        uint64_t w = 99;
        CHECK_OK(aclrtMemcpy(n, 8, iters, 8, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK_OK(aclrtMemcpy(&w, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK_EQ(n[0], 6);
        CHECK_EQ(w, 0);
    }

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtFree(consts));
    CHECK_OK(aclrtFree(iters));
    CHECK_OK(aclrtDestroyStream(sub));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
