/* stack_rt_capture: the runtime's capture family called directly
 * (rt-functions.tsv area "capture", rt.h): rtStreamBeginCapture /
 * rtStreamEndCapture record a stream into a model (rtModel_t == aclmdlRI)
 * that rtModelExecute replays; rtsStreamBeginTaskGrp/EndTaskGrp mark a
 * task group that rtsStreamBeginTaskUpdate/EndTaskUpdate re-issue with new
 * arguments; rtModelGetStreams, rtModelDebugJsonPrint, rtModelUpdate and
 * rtThreadExchangeCaptureMode agree with their aclmdlRI* counterparts; bad
 * input gets the runtime's codes (ACL_ERROR_RT_*).
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

static uint32_t word(void *dev)
{
    uint32_t got = 0;
    CHECK_OK(aclrtMemcpy(&got, 4, dev, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    return got;
}

static void modes(void)
{
    /* The numbering is the same (acl-to-rt.tsv), converted by name. */
    CHECK_EQ(RT_STREAM_CAPTURE_MODE_RELAXED, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    rtStreamCaptureMode m = RT_STREAM_CAPTURE_MODE_RELAXED;
    CHECK_RT(rtThreadExchangeCaptureMode(NULL), ACL_ERROR_RT_PARAM_INVALID);
    rtStreamCaptureMode bad = RT_STREAM_CAPTURE_MODE_MAX;
    CHECK_RT(rtThreadExchangeCaptureMode(&bad), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_EQ(bad, RT_STREAM_CAPTURE_MODE_MAX);
    CHECK_RT(rtThreadExchangeCaptureMode(&m), ACL_RT_SUCCESS);
    CHECK_EQ(m, RT_STREAM_CAPTURE_MODE_GLOBAL);
    /* The ACL call sees the mode the rt call set, and swaps it back. */
    aclmdlRICaptureMode am = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    CHECK_OK(aclmdlRICaptureThreadExchangeMode(&am));
    CHECK_EQ(am, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
}

int main(void)
{
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL, run = NULL, upd = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamCreate(&run, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamCreate(&upd, 0), ACL_RT_SUCCESS);
    void *a = NULL, *b = NULL;
    CHECK_OK(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&b, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(a, 64, 0, 64));
    CHECK_OK(aclrtMemset(b, 64, 0, 64));

    modes();

    /* Bad input. */
    rtModel_t mdl = NULL;
    CHECK_RT(rtStreamBeginCapture(s, RT_STREAM_CAPTURE_MODE_MAX), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamBeginCapture(s, (rtStreamCaptureMode)-1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamEndCapture(s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamEndCapture(s, &mdl), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    CHECK(mdl == NULL);
    CHECK_RT(rtsStreamBeginTaskGrp(s), ACL_ERROR_RT_STREAM_NOT_CAPTURED);

    /* Capture: a plain memset, then a task group of one memset. */
    CHECK_RT(rtStreamBeginCapture(s, RT_STREAM_CAPTURE_MODE_GLOBAL), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamBeginCapture(s, RT_STREAM_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);
    rtStreamCaptureStatus st = RT_STREAM_CAPTURE_STATUS_NONE;
    rtModel_t cur = NULL;
    CHECK_RT(rtStreamGetCaptureInfo(s, &st, &cur), ACL_RT_SUCCESS);
    CHECK_EQ(st, RT_STREAM_CAPTURE_STATUS_ACTIVE);
    CHECK(cur != NULL);
    CHECK_OK(aclrtMemsetAsync(a, 64, 0x11, 64, s));
    rtTaskGrp_t grp = NULL;
    CHECK_RT(rtsStreamEndTaskGrp(s, &grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    CHECK_RT(rtsStreamBeginTaskGrp(s), ACL_RT_SUCCESS);
    CHECK_RT(rtsStreamBeginTaskGrp(s), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    CHECK_OK(aclrtMemsetAsync(b, 64, 0x22, 64, s));
    CHECK_RT(rtsStreamEndTaskGrp(s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsStreamEndTaskGrp(s, &grp), ACL_RT_SUCCESS);
    CHECK(grp != NULL);
    CHECK_RT(rtStreamEndCapture(s, &mdl), ACL_RT_SUCCESS);
    CHECK(mdl == cur);
    CHECK_RT(rtStreamGetCaptureInfo(s, &st, &cur), ACL_RT_SUCCESS);
    CHECK_EQ(st, RT_STREAM_CAPTURE_STATUS_NONE);
    /* Nothing ran while capturing. */
    CHECK_EQ(word(a), 0);
    CHECK_EQ(word(b), 0);

    /* Streams of the model, as aclmdlRIGetStreams. */
    uint32_t n = 0, an = 0;
    CHECK_RT(rtModelGetStreams(mdl, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelGetStreams(NULL, NULL, &n), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelGetStreams(mdl, NULL, &n), ACL_RT_SUCCESS);
    CHECK_OK(aclmdlRIGetStreams(mdl, NULL, &an));
    CHECK_EQ(n, an);
    CHECK(n >= 1);
    rtStream_t got[8] = {0};
    uint32_t room = 0;
    CHECK_RT(rtModelGetStreams(mdl, got, &room), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
    room = 8;
    CHECK_RT(rtModelGetStreams(mdl, got, &room), ACL_RT_SUCCESS);
    CHECK_EQ(room, n);
    CHECK(got[0] != NULL);

    /* Replay. */
    CHECK_RT(rtModelExecute(mdl, run, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(run), ACL_RT_SUCCESS);
    CHECK_EQ(word(a), 0x11111111u);
    CHECK_EQ(word(b), 0x22222222u);

    /* Re-issue the group with a new value. */
    CHECK_RT(rtsStreamBeginTaskUpdate(upd, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsStreamBeginTaskUpdate(upd, grp), ACL_RT_SUCCESS);
    CHECK_RT(rtsStreamBeginTaskUpdate(upd, grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    CHECK_OK(aclrtMemsetAsync(b, 64, 0x33, 64, upd));
    CHECK_RT(rtsStreamEndTaskUpdate(upd), ACL_RT_SUCCESS);
    CHECK_RT(rtsStreamEndTaskUpdate(upd), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    CHECK_RT(rtStreamSynchronize(upd), ACL_RT_SUCCESS);
    CHECK_RT(rtModelUpdate(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelUpdate(mdl), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemset(a, 64, 0, 64));
    CHECK_RT(rtModelExecute(mdl, run, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(run), ACL_RT_SUCCESS);
    CHECK_EQ(word(a), 0x11111111u);
    CHECK_EQ(word(b), 0x33333333u);

    /* JSON dump into a fresh directory. */
    char dir[] = "/tmp/stack_rt_capture.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_RT(rtModelDebugJsonPrint(mdl, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelDebugJsonPrint(NULL, dir, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelDebugJsonPrint(mdl, dir, 7), ACL_ERROR_RT_PARAM_INVALID);
    char path[256];
    snprintf(path, sizeof path, "%s/rt.json", dir);
    CHECK_RT(rtModelDebugJsonPrint(mdl, path, 1), ACL_RT_SUCCESS);
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && sb.st_size > 2);
    CHECK(unlink(path) == 0);
    CHECK(rmdir(dir) == 0);

    CHECK_RT(rtModelDebugDotPrint(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelDebugDotPrint(mdl), ACL_RT_SUCCESS);

    CHECK_OK(aclmdlRIDestroy(mdl));
    CHECK_RT(rtModelDebugDotPrint(mdl), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtModelGetStreams(mdl, NULL, &n), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtsStreamBeginTaskUpdate(upd, grp), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtFree(b));
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(run), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(upd), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
