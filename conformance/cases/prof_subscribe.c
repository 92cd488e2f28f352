/* prof_subscribe: model subscription through a pipe (prof-api.md §5). A
 * reader thread reads 80-byte op records while a model run instance with
 * one kernel runs three times; unsubscribing closes the write end and
 * stores -1 into the caller's int, so the reader sees EOF. The records
 * decode with the aclprofGetOp* getters (each string once), carry the
 * model id, flag ACL_SUBSCRIBE_OP, ns times with end - start = duration,
 * and a bad buffer is refused. Models are aclmdlRI ids here (npuemu has no
 * aclmdlLoad), hence "needs: emulator".
 *
 * needs: emulator
 * link: -lmsprofiler -lpthread
 */
#include "rt_util.h"

#include <pthread.h>
#include <stdint.h>

#include "acl/acl_prof.h"
#include "../../examples/kernels/build_kernel.h"

#define N 1024
#define RUNS 3

static int rfd;
static char rbuf[64 * 80];
static size_t rlen;

static void *reader(void *arg) {
    (void)arg;
    for (;;) {
        ssize_t n = read(rfd, rbuf + rlen, sizeof rbuf - rlen);
        if (n <= 0) break;
        rlen += (size_t)n;
    }
    return NULL;
}

int main(void)
{
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));
    void *d[3];
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtMalloc(&d[i], N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtArgsHandle args;
    aclrtParamHandle p;
    uint64_t n = N;
    CHECK_OK(aclrtKernelArgsInit(f, &args));
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtKernelArgsAppend(args, &d[i], sizeof d[i], &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));

    /* A model: one captured kernel. */
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 4, s, NULL, args, NULL));
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureEnd(s, &ri));
    uint32_t model = 0;
    CHECK_OK(aclmdlRIGetId(ri, &model));

    /* doc §5: the config holds a pointer to the int with the write end. */
    int fds[2];
    CHECK(pipe(fds) == 0);
    CHECK(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds[1]) == NULL);
    CHECK(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, NULL) == NULL);
    aclprofSubscribeConfig *cfg = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    CHECK(cfg != NULL);
    CHECK_ERR(aclprofModelSubscribe(model + 1000, cfg), ACL_ERROR_INVALID_MODEL_ID);
    CHECK_ERR(aclprofModelSubscribe(model, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclprofModelSubscribe(model, cfg));
    CHECK_ERR(aclprofModelSubscribe(model, cfg), ACL_ERROR_PROF_REPEAT_SUBSCRIBE);
    CHECK_ERR(aclprofInit("/tmp", 4), ACL_ERROR_PROF_API_CONFLICT);

    rfd = fds[0];
    pthread_t th;
    CHECK(pthread_create(&th, NULL, reader, NULL) == 0);
    for (int i = 0; i < RUNS; i++) CHECK_OK(aclmdlRIExecuteAsync(ri, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_ERR(aclprofModelUnSubscribe(model + 1000), ACL_ERROR_INVALID_MODEL_ID);
    CHECK_OK(aclprofModelUnSubscribe(model));
    CHECK_EQ(fds[1], -1); /* closed by the library */
    CHECK(pthread_join(th, NULL) == 0);
    close(fds[0]);
    CHECK_OK(aclprofDestroySubscribeConfig(cfg));
    CHECK_ERR(aclprofDestroySubscribeConfig(NULL), ACL_ERROR_INVALID_PARAM);

    /* doc §5: the records. */
    size_t sz = 0;
    CHECK_OK(aclprofGetOpDescSize(&sz));
    CHECK_EQ(sz, 80);
    uint32_t num = 0;
    CHECK_OK(aclprofGetOpNum(rbuf, rlen, &num));
    CHECK_EQ(num, RUNS);
    uint64_t prevEnd = 0;
    for (uint32_t i = 0; i < num; i++) {
        size_t len = 0;
        CHECK_OK(aclprofGetOpNameLen(rbuf, rlen, i, &len));
        CHECK_EQ(len, strlen("vadd_f32") + 1);
        char name[64];
        CHECK_OK(aclprofGetOpName(rbuf, rlen, i, name, len));
        CHECK(strcmp(name, "vadd_f32") == 0);
        CHECK_ERR(aclprofGetOpName(rbuf, rlen, i, name, len), ACL_ERROR_INVALID_PARAM); /* once only */
        CHECK_OK(aclprofGetOpTypeLen(rbuf, rlen, i, &len));
        char type[64];
        CHECK_OK(aclprofGetOpType(rbuf, rlen, i, type, sizeof type));
        uint64_t start = aclprofGetOpStart(rbuf, rlen, i), end = aclprofGetOpEnd(rbuf, rlen, i);
        CHECK(start < end);
        CHECK(start >= prevEnd); /* one stream: the runs follow each other */
        prevEnd = end;
        CHECK_EQ(aclprofGetOpDuration(rbuf, rlen, i), end - start);
        CHECK_EQ(aclprofGetModelId(rbuf, rlen, i), model);
        CHECK_EQ(aclprofGetOpFlag(rbuf, rlen, i), ACL_SUBSCRIBE_OP);
        CHECK(aclprofGetOpAttriValue(rbuf, rlen, i, ACL_SUBSCRIBE_ATTRI_THREADID) == NULL);
    }
    CHECK_ERR(aclprofGetOpNum(rbuf, rlen - 1, &num), ACL_ERROR_INVALID_PARAM);
    CHECK_EQ(aclprofGetOpStart(rbuf, rlen, num), 0); /* index beyond the records */
    CHECK_EQ(aclprofGetOpFlag(NULL, 0, 0), ACL_SUBSCRIBE_NONE);
    rbuf[40] ^= 1; /* the signature no longer matches */
    CHECK_ERR(aclprofGetOpNum(rbuf, rlen, &num), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtFree(d[i]));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("%d op records checked\n", RUNS);
    return 0;
}
