//go:build ignore

/* prof_subscribe.c: receive one record per operator through a pipe while
 * a model runs (aclprofModelSubscribe), and decode the records on a
 * reader thread with the aclprofGetOp* functions.
 *
 *   cc -O2 -I emu/include examples/prof_subscribe.c -L emu/lib -lascendcl -lmsprofiler -lpthread -o prof_subscribe
 *   LD_LIBRARY_PATH=emu/lib ./prof_subscribe [vadd.so]
 *
 * The model is a model run instance captured from a stream (npuemu has no
 * offline models; docs/profiling.md). aclprofModelUnSubscribe closes the
 * pipe's write end, which ends the reader.
 *
 * link: -lmsprofiler -lpthread
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "kernels/build_kernel.h"

#define CHECK(call)                                                                     \
    do {                                                                                \
        aclError e_ = (call);                                                           \
        if (e_ != ACL_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s = %d (%s)\n", __FILE__, __LINE__, #call, (int)e_, \
                    aclGetRecentErrMsg());                                              \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

static int records;

/* reader decodes whole records as they arrive. */
static void *reader(void *arg) {
    int fd = *(int *)arg;
    size_t size = 0;
    if (aclprofGetOpDescSize(&size) != ACL_SUCCESS) return NULL;
    char buf[32 * 80];
    size_t have = 0;
    for (;;) {
        ssize_t n = read(fd, buf + have, sizeof buf - have);
        if (n <= 0) break;
        have += (size_t)n;
        size_t whole = have - have % size;
        uint32_t num = 0;
        if (whole == 0 || aclprofGetOpNum(buf, whole, &num) != ACL_SUCCESS) continue;
        for (uint32_t i = 0; i < num; i++) {
            size_t len = 0;
            char name[256] = "?";
            if (aclprofGetOpNameLen(buf, whole, i, &len) == ACL_SUCCESS && len <= sizeof name)
                aclprofGetOpName(buf, whole, i, name, len);
            printf("model %zu op %-10s start %llu ns duration %llu ns\n", aclprofGetModelId(buf, whole, i), name,
                   (unsigned long long)aclprofGetOpStart(buf, whole, i),
                   (unsigned long long)aclprofGetOpDuration(buf, whole, i));
            records++;
        }
        memmove(buf, buf + whole, have - whole);
        have -= whole;
    }
    return NULL;
}

int main(int argc, char **argv) {
    uint64_t n = 1u << 16;
    const size_t bytes = n * sizeof(float);
    char so[4096];
    if (argc > 1) {
        snprintf(so, sizeof so, "%s", argv[1]);
    } else {
        char repo[4096];
        npuemu_repo_of(__FILE__, 1, repo, sizeof repo);
        if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) return 1;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream;
    CHECK(aclrtCreateStream(&stream));
    aclrtBinHandle bin;
    aclrtFuncHandle fn;
    CHECK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "vadd_f32", &fn));
    if (argc <= 1) npuemu_remove_kernel(so);
    void *d[3];
    for (int i = 0; i < 3; i++) CHECK(aclrtMalloc(&d[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtArgsHandle args;
    aclrtParamHandle param;
    CHECK(aclrtKernelArgsInit(fn, &args));
    for (int i = 0; i < 3; i++) CHECK(aclrtKernelArgsAppend(args, &d[i], sizeof d[i], &param));
    CHECK(aclrtKernelArgsAppend(args, &n, sizeof n, &param));
    CHECK(aclrtKernelArgsFinalize(args));

    /* The model: two kernels captured from the stream. */
    aclmdlRI model;
    CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK(aclrtLaunchKernelWithConfig(fn, 8, stream, NULL, args, NULL));
    CHECK(aclrtLaunchKernelWithConfig(fn, 32, stream, NULL, args, NULL));
    CHECK(aclmdlRICaptureEnd(stream, &model));
    uint32_t modelId;
    CHECK(aclmdlRIGetId(model, &modelId));

    int fds[2];
    if (pipe(fds) != 0) return 1;
    aclprofSubscribeConfig *config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    if (config == NULL) return 1;
    CHECK(aclprofModelSubscribe(modelId, config));
    pthread_t th;
    pthread_create(&th, NULL, reader, &fds[0]);

    for (int run = 0; run < 3; run++) CHECK(aclmdlRIExecuteAsync(model, stream));
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclprofModelUnSubscribe(modelId)); /* closes fds[1] and sets it to -1 */
    pthread_join(th, NULL);
    close(fds[0]);
    CHECK(aclprofDestroySubscribeConfig(config));

    CHECK(aclmdlRIDestroy(model));
    for (int i = 0; i < 3; i++) CHECK(aclrtFree(d[i]));
    CHECK(aclrtBinaryUnLoad(bin));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("%d op records\n", records);
    return records == 6 ? 0 : 1;
}
