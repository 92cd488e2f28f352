/* stack_rt_exception_callback: the runtime's report callbacks, host
 * functions and float overflow status called directly (rt-functions.tsv,
 * rt.h), with their own codes (ACL_ERROR_RT_*): callbacks run on the
 * subscribed thread inside rtProcessReport, host functions in stream
 * order, the overflow status word is the ACL one, the last error is the
 * thread's last failure as an rt code, and bad input is refused
 * with ACL_ERROR_RT_PARAM_INVALID.
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

struct hit {
    int count;
    pthread_t thread;
};

static void on_report(void *p)
{
    struct hit *h = p;
    h->count++;
    h->thread = pthread_self();
}

static void callbacks(rtStream_t s)
{
    uint64_t me = (uint64_t)pthread_self();
    struct hit h = {0};

    CHECK_RT(rtCallbackLaunch(on_report, &h, s, false), ACL_ERROR_RT_STREAM_NO_CB_REG);
    CHECK_RT(rtCallbackLaunch(NULL, &h, s, false), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtSubscribeReport(me, s), ACL_RT_SUCCESS);
    CHECK_RT(rtSubscribeReport(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    CHECK_RT(rtProcessReport(0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtProcessReport(-2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtProcessReport(10), ACL_ERROR_RT_REPORT_TIMEOUT);

    CHECK_RT(rtCallbackLaunch(on_report, &h, s, false), ACL_RT_SUCCESS);
    CHECK_RT(rtProcessReport(10000), ACL_RT_SUCCESS);
    CHECK_EQ(h.count, 1);
    CHECK(pthread_equal(h.thread, pthread_self()));
    CHECK_RT(rtCallbackLaunch(on_report, &h, s, true), ACL_RT_SUCCESS);
    CHECK_RT(rtProcessReport(10000), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(h.count, 2);

    CHECK_RT(rtUnSubscribeReport(me + 1, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    CHECK_RT(rtUnSubscribeReport(me, s), ACL_RT_SUCCESS);
    CHECK_RT(rtUnSubscribeReport(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    CHECK_RT(rtCallbackLaunch(on_report, &h, s, false), ACL_ERROR_RT_STREAM_NO_CB_REG);

    /* Host functions run in stream order, on no subscribed thread. */
    struct hit f = {0};
    CHECK_RT(rtsLaunchHostFunc(s, NULL, &f), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsLaunchHostFunc(s, on_report, &f), ACL_RT_SUCCESS);
    CHECK_RT(rtsLaunchHostFunc(s, on_report, &f), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_EQ(f.count, 2);

    /* The host-function subscription is supported by no product. */
    CHECK_RT(rtSubscribeHostFunc(me, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtProcessHostFunc(10), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtUnSubscribeHostFunc(me, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

static void overflow(rtStream_t s)
{
    uint32_t flags = 7, aclFlags = 7;
    CHECK_RT(rtSetStreamOverflowSwitch(s, 2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetStreamOverflowSwitch(s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetStreamOverflowSwitch(s, &flags), ACL_RT_SUCCESS);
    CHECK_EQ(flags, 0);
    CHECK_RT(rtSetStreamOverflowSwitch(s, 1), ACL_RT_SUCCESS);
    CHECK_RT(rtGetStreamOverflowSwitch(s, &flags), ACL_RT_SUCCESS);
    CHECK_EQ(flags, 1);
    CHECK_OK(aclrtGetStreamOverflowSwitch(s, &aclFlags));
    CHECK_EQ(aclFlags, 1);
    CHECK_RT(rtSetStreamOverflowSwitch(s, 0), ACL_RT_SUCCESS);

    void *word = NULL, *aclWord = NULL;
    CHECK_RT(rtsCtxGetFloatOverflowAddr(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsCtxGetFloatOverflowAddr(&word), ACL_RT_SUCCESS);
    CHECK_OK(aclrtCtxGetFloatOverflowAddr(&aclWord));
    CHECK(word != NULL);
    CHECK(word == aclWord);

    /* An overflow the application reports itself is seen, then cleared. */
    uint64_t set = 5;
    CHECK_OK(aclrtMemcpy(word, sizeof set, &set, sizeof set, ACL_MEMCPY_HOST_TO_DEVICE));
    void *out = NULL;
    CHECK_OK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(out, 64, 0xff, 64));
    CHECK_RT(rtGetDeviceSatStatus(NULL, 64, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetDeviceSatStatus(out, 4, s), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetDeviceSatStatus(out, 64, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    uint64_t got[8];
    memset(got, 0xee, sizeof got);
    CHECK_OK(aclrtMemcpy(got, sizeof got, out, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(got[0], 5);
    for (int i = 1; i < 8; i++)
        CHECK_EQ(got[i], 0);

    CHECK_RT(rtCleanDeviceSatStatus(s), ACL_RT_SUCCESS);
    CHECK_RT(rtGetDeviceSatStatus(out, 8, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemcpy(got, 8, out, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(got[0], 0);
    CHECK_OK(aclrtFree(out));
}

/* The thread's last failure, as an rt code: ACL failures are converted
 * (ACL_ERROR_INVALID_PARAM is ACL_ERROR_RT_PARAM_INVALID). */
static void last_error(rtStream_t s)
{
    uint32_t flags = 0;
    (void)rtGetLastError(RT_THREAD_LEVEL); /* drop what earlier checks left */
    CHECK_RT(rtGetLastError(RT_THREAD_LEVEL), ACL_RT_SUCCESS);
    CHECK_RT(rtGetStreamOverflowSwitch(s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetStreamOverflowSwitch(s, &flags), ACL_RT_SUCCESS);
    CHECK_RT(rtPeekAtLastError(RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtPeekAtLastError(RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetLastError(RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetLastError(RT_THREAD_LEVEL), ACL_RT_SUCCESS);
    CHECK_RT(rtPeekAtLastError(RT_THREAD_LEVEL), ACL_RT_SUCCESS);

    CHECK_ERR(aclrtGetStreamOverflowSwitch(s, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_RT(rtGetLastError(RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);

    CHECK_RT(rtSubscribeHostFunc(0, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtPeekAtLastError(RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtGetLastError(RT_CONTEXT_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetLastError(RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetLastError(RT_THREAD_LEVEL), ACL_RT_SUCCESS);
}

int main(void)
{
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    rtStream_t s = NULL;
    CHECK_RT(rtStreamCreate(&s, 0), ACL_RT_SUCCESS);
    callbacks(s);
    overflow(s);
    last_error(s);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
