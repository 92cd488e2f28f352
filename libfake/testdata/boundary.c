/* boundary.c: checks the error APIs libfake implements itself, through the
 * built library. Run by boundary_test.go; exits non-zero on the first
 * failure after printing it. Mode "bench N" times N trivial calls instead. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "ascend_hal.h"

#define FAIL(...)                                                    \
    do {                                                             \
        fprintf(stderr, "boundary.c:%d: ", __LINE__);                \
        fprintf(stderr, __VA_ARGS__);                                \
        fprintf(stderr, "\n");                                       \
        exit(1);                                                     \
    } while (0)

#define EXPECT_EQ(a, b)                                                         \
    do {                                                                        \
        long long a_ = (long long)(a), b_ = (long long)(b);                     \
        if (a_ != b_) FAIL("%s == %s: got %lld, want %lld", #a, #b, a_, b_);    \
    } while (0)

/* expect_msg checks that the thread's recent message contains want, and
 * that reading it cleared it. */
static void expect_msg(const char *want) {
    const char *m = aclGetRecentErrMsg();
    if (m == NULL) FAIL("aclGetRecentErrMsg: NULL, want a message containing \"%s\"", want);
    if (strstr(m, want) == NULL) FAIL("aclGetRecentErrMsg: \"%s\", want it to contain \"%s\"", m, want);
    if (aclGetRecentErrMsg() != NULL) FAIL("aclGetRecentErrMsg: not cleared by reading");
}

static void *other_thread(void *arg) {
    (void)arg;
    if (aclGetRecentErrMsg() != NULL) FAIL("new thread: inherited a message");
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    EXPECT_EQ(aclrtProcessHostFunc(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    expect_msg("aclrtProcessHostFunc is not supported by npuemu: ");
    return NULL;
}

static int bench(long n) {
    struct timespec t0, t1;
    aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL); /* registers the thread */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < n; i++) {
        if (aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) != ACL_SUCCESS) FAIL("bench: unexpected error");
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%.2f ns/op\n", n > 0 ? ns / (double)n : 0.0);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "bench") == 0) return bench(atol(argv[2]));

    /* A fresh thread has neither an error nor a message. */
    if (aclGetRecentErrMsg() != NULL) FAIL("aclGetRecentErrMsg: want NULL before any failure");
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);

    /* An unsupported ACL call: the table's code, the message, the last error. */
    EXPECT_EQ(aclrtUnSubscribeHostFunc(0, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    expect_msg("aclrtUnSubscribeHostFunc is not supported by npuemu: ");
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);

    /* Only ACL_RT_THREAD_LEVEL exists. */
    EXPECT_EQ(aclrtGetLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM);
    expect_msg("ACL_RT_THREAD_LEVEL");
    EXPECT_EQ(aclrtPeekAtLastError((aclrtLastErrLevel)7), ACL_ERROR_INVALID_PARAM);
    expect_msg("ACL_RT_THREAD_LEVEL");
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);

    /* A function returning a pointer fails with NULL and a message (unless
     * it is implemented by now). */
    if (aclrtGetSocName() == NULL) expect_msg("aclrtGetSocName");

    /* Errors are per thread. */
    EXPECT_EQ(aclrtSubscribeHostFunc(0, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    pthread_t th;
    if (pthread_create(&th, NULL, other_thread, NULL) != 0) FAIL("pthread_create");
    pthread_join(th, NULL);
    expect_msg("aclrtSubscribeHostFunc is not supported by npuemu: ");

    /* HAL: the drvError_t code of the HAL table; the message is recorded too. */
    EXPECT_EQ(HAL_CALL, DRV_ERROR_NOT_SUPPORT);
    expect_msg(HAL_NAME " is not supported by npuemu: ");

    /* aclAppLog: stderr, with level, function, file and line; truncated. */
    aclAppLog(ACL_WARNING, "myfunc", "app.c", 42, "short %d", 7);
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ACL_APP_LOG(ACL_ERROR, "%s", big);
    aclAppLog(ACL_INFO, NULL, NULL, 0, NULL);

    printf("ok\n");
    return 0;
}
