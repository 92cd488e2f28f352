/* capture_cond_errors: argument checks of the conditional-task family: flag
 * and size rules, NULL outputs, a stream that does not capture, capture
 * into an RI that is no sub-graph, destroying a sub-graph directly. */
#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL, other = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&other));
    aclmdlRICondHandle h = NULL;
    CHECK_ERR(aclmdlRICondHandleCreate(NULL, 0, (aclmdlRICondHandleFlag)0, &h), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    aclmdlRICaptureStatus st;
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureGetInfo(s, &st, &ri));
    CHECK_ERR(aclmdlRICondHandleCreate(ri, 0, (aclmdlRICondHandleFlag)2, &h), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclmdlRICondHandleCreate(ri, 0, (aclmdlRICondHandleFlag)0, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclmdlRICondHandleCreate(ri, 0, (aclmdlRICondHandleFlag)0, &h));
    CHECK_ERR(aclmdlRICondHandleGetCondPtr(h, NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §18 — size: IF 1–2, WHILE 1, SWITCH > 0. */
    aclmdlRI subs[4] = {0};
    struct { aclmdlRICondTaskType t; uint32_t n; } bad[] = {
        {ACL_MODEL_RI_COND_TYPE_IF, 0}, {ACL_MODEL_RI_COND_TYPE_IF, 3},
        {ACL_MODEL_RI_COND_TYPE_WHILE, 0}, {ACL_MODEL_RI_COND_TYPE_WHILE, 2},
        {ACL_MODEL_RI_COND_TYPE_SWITCH, 0}, {(aclmdlRICondTaskType)3, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        aclmdlRICondTaskParams p = {h, bad[i].t, bad[i].n, subs};
        CHECK_ERR(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_INVALID_PARAM);
    }
    aclmdlRICondTaskParams p = {h, ACL_MODEL_RI_COND_TYPE_IF, 1, NULL};
    CHECK_ERR(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_INVALID_PARAM);
    p.modelRIArray = subs;
    CHECK_ERR(aclmdlRIAddCondTask(p, s, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclmdlRIAddCondTask(p, other, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    CHECK_ERR(aclmdlRICaptureToModelRIBegin(other, ri, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_OK(aclmdlRIAddCondTask(p, s, 0));
    CHECK(subs[0] != NULL);
    CHECK_ERR(aclmdlRIDestroy(subs[0]), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_ERR(aclmdlRICaptureToModelRIBegin(s, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_STREAM_CAPTURED);

    aclmdlRI got = NULL;
    CHECK_OK(aclmdlRICaptureEnd(s, &got));
    /* The sub-graph was never captured: it is empty and the IF runs nothing. */
    CHECK_OK(aclmdlRIExecuteAsync(ri, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclmdlRIDestroy(ri));
    /* ...and the sub-graph died with it. */
    CHECK_FAILS(aclmdlRIDestroy(subs[0]));

    CHECK_OK(aclrtDestroyStream(other));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
