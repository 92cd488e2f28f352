/* capture_errors: the documented capture errors (semantics.md §18,
 * §21 item 13; acl-error-map.tsv 107024..107041, 507903). */
#include "rt_util.h"

#include <pthread.h>

static aclrtContext ctx;
static aclrtStream cap_stream;
static aclError end_result;
static aclmdlRI end_ri;

static void *end_elsewhere(void *arg)
{
    (void)arg;
    if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) {
        end_result = -1;
        return NULL;
    }
    end_result = aclmdlRICaptureEnd(cap_stream, &end_ri);
    return NULL;
}

/* end_on_other_thread calls aclmdlRICaptureEnd(s) on a new thread. */
static aclError end_on_other_thread(aclrtStream s)
{
    pthread_t th;
    cap_stream = s;
    CHECK_EQ(pthread_create(&th, NULL, end_elsewhere, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    return end_result;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    CHECK_OK(aclrtGetCurrentContext(&ctx));
    aclrtStream s = NULL, other = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&other));
    void *d = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, 4096));
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    aclmdlRI ri = NULL;

    /* 107031: the default (NULL) stream cannot be captured. */
    CHECK_ERR(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);

    /* 107029: End on a stream that is not capturing. */
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_NOT_CAPTURED);

    /* 107027: Begin on a stream that already captures. */
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ERR(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);

    /* 107038: End from another thread than Begin (mode not RELAXED). */
    CHECK_EQ(end_on_other_thread(s), ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
    CHECK_OK(aclmdlRICaptureEnd(s, &ri));
    CHECK_OK(aclmdlRIDestroy(ri));

    /* RELAXED: End may come from another thread. */
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_OK(aclrtMemsetAsync(d, 4096, 1, 4096, s));
    CHECK_EQ(end_on_other_thread(s), ACL_SUCCESS);
    CHECK(end_ri != NULL);
    CHECK_OK(aclmdlRIDestroy(end_ri));

    /* 107036: End on a stream that joined a capture begun elsewhere. */
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_OK(aclrtRecordEvent(e, s));
    CHECK_OK(aclrtStreamWaitEvent(other, e));
    CHECK_ERR(aclmdlRICaptureEnd(other, &ri), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
    /* 107025: the joined stream's work was not joined back. */
    CHECK_OK(aclrtMemsetAsync(d, 4096, 2, 4096, other));
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_UNJOINED);

    /* 107041: synchronising or querying the capturing stream; an error
     * during capture invalidates it, and End then fails with 507903. */
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    CHECK_OK(aclmdlRICaptureGetInfo(s, &st, NULL));
    CHECK_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    aclrtStreamStatus ss;
    CHECK_ERR(aclrtStreamQuery(s, &ss), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ERR(aclrtSynchronizeDevice(), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_OK(aclrtRecordEvent(e, s));
    CHECK_ERR(aclrtSynchronizeEvent(e), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    /* 107041: unsafe calls (aclrtMemcpy, aclrtMemset) in GLOBAL mode. */
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ERR(aclrtMemcpy(d, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    CHECK_ERR(aclrtMemset(d, 4096, 0, 4096), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    /* RELAXED allows them; so does a thread switched to RELAXED with
     * aclmdlRICaptureThreadExchangeMode, which returns the previous mode. */
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_OK(aclrtMemset(d, 4096, 0, 4096));
    CHECK_OK(aclmdlRICaptureEnd(s, &ri));
    CHECK_OK(aclmdlRIDestroy(ri));
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    CHECK_OK(aclmdlRICaptureThreadExchangeMode(&mode));
    CHECK_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_OK(aclrtMemcpy(d, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclmdlRICaptureEnd(s, &ri));
    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclmdlRICaptureThreadExchangeMode(&mode));
    CHECK_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);

    /* 107041: an asynchronous copy with pageable host memory on a capturing
     * stream. */
    static unsigned char pageable[4096];
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ERR(aclrtMemcpyAsync(d, 4096, pageable, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    /* 107024: a wait for an event with no record in the capture. */
    CHECK_OK(aclrtRecordEvent(e, other));
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ERR(aclrtStreamWaitEvent(s, e), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
    CHECK_ERR(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);

    /* Outside any capture the same calls work again. */
    CHECK_OK(aclrtSynchronizeStream(other));
    CHECK_OK(aclrtSynchronizeDevice());
    CHECK_OK(aclrtMemset(d, 4096, 0, 4096));

    CHECK_OK(aclrtDestroyEvent(e));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(other));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
