/* capture_build: the explicit build flow of a model run instance (semantics.md
 * §18): BuildBegin → BindStream (persistent stream) → tasks → EndTask →
 * BuildEnd → Execute / ExecuteAsync → UnbindStream → Destroy, and the
 * introspection and update calls. */
#include "rt_util.h"

#define N 8192

static int destroyed;
static void on_destroy(void *user) { destroyed += *(int *)user; }

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream ps = NULL, run = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStream(&run));
    void *d = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, N));
    CHECK_OK(aclrtMemset(d, N, 0, N));

    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&ri, 0));
    CHECK(ri != NULL);
    /* doc: the stream must be persistent and not NULL. */
    CHECK_FAILS(aclmdlRIBindStream(ri, run, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_FAILS(aclmdlRIBindStream(ri, NULL, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_OK(aclmdlRIBindStream(ri, ps, ACL_MODEL_STREAM_FLAG_HEAD));
    /* doc: one model run instance per stream. */
    aclmdlRI ri2 = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&ri2, 0));
    CHECK_FAILS(aclmdlRIBindStream(ri2, ps, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_OK(aclmdlRIDestroy(ri2));

    CHECK_OK(aclrtMemsetAsync(d, N, 0x31, N / 2, ps));
    CHECK_OK(aclrtMemsetAsync((char *)d + N / 2, N / 2, 0x32, N / 2, ps));
    CHECK_OK(aclrtMemcpyAsync(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, ps));
    CHECK_OK(aclmdlRIEndTask(ri, ps));
    CHECK_OK(aclmdlRIBuildEnd(ri, NULL));
    /* doc: persistent streams' tasks are recorded, not executed; their
     * synchronisation returns at once. */
    CHECK_OK(aclrtSynchronizeStream(ps));
    memset(h, 0, N);
    CHECK_OK(aclrtMemcpy(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(rt_all_bytes(h, N, 0));
    /* doc: no task submission to a bound stream after BuildEnd. */
    CHECK_FAILS(aclrtMemsetAsync(d, N, 0x99, N, ps));

    memset(h, 0, N);
    CHECK_OK(aclmdlRIExecute(ri, -1));
    CHECK(rt_all_bytes(h, N / 2, 0x31));
    CHECK(rt_all_bytes((char *)h + N / 2, N / 2, 0x32));

    /* Introspection: one stream, three tasks in order. */
    uint32_t ns = 0;
    CHECK_OK(aclmdlRIGetStreams(ri, NULL, &ns));
    CHECK_EQ(ns, 1);
    aclrtStream got = NULL;
    CHECK_OK(aclmdlRIGetStreams(ri, &got, &ns));
    CHECK(got == ps);
    uint32_t nt = 0;
    CHECK_OK(aclmdlRIGetTasksByStream(ps, NULL, &nt));
    CHECK(nt >= 3);
    aclmdlRITask tasks[16];
    CHECK(nt <= 16);
    CHECK_OK(aclmdlRIGetTasksByStream(ps, tasks, &nt));
    uint32_t prev = 0;
    for (uint32_t i = 0; i < nt; i++) {
        uint32_t seq = 0;
        CHECK_OK(aclmdlRITaskGetSeqId(tasks[i], &seq));
        if (i > 0) CHECK(seq > prev);
        prev = seq;
        aclmdlRITaskType type;
        CHECK_OK(aclmdlRITaskGetType(tasks[i], &type));
    }

    /* Disable the second memset and update: the second half stays. */
    aclmdlRITask second = NULL;
    int memsets = 0;
    for (uint32_t i = 0; i < nt && second == NULL; i++) {
        aclmdlRITaskType type;
        CHECK_OK(aclmdlRITaskGetType(tasks[i], &type));
        if (type == ACL_MODEL_RI_TASK_DEFAULT && ++memsets == 2) second = tasks[i];
    }
    CHECK(second != NULL);
    CHECK_OK(aclmdlRITaskDisable(second));
    CHECK_OK(aclmdlRIUpdate(ri));
    CHECK_OK(aclrtMemset(d, N, 0, N));
    CHECK_OK(aclmdlRIExecuteAsync(ri, run));
    CHECK_OK(aclrtSynchronizeStream(run));
    CHECK(rt_all_bytes(h, N / 2, 0x31));
    CHECK(rt_all_bytes((char *)h + N / 2, N / 2, 0));

    /* Name (empty until set, truncated to the buffer), id, callbacks. */
    char name[64];
    CHECK_OK(aclmdlRIGetName(ri, sizeof name, name));
    CHECK_EQ(strlen(name), 0);
    CHECK_OK(aclmdlRISetName(ri, "build-model"));
    CHECK_OK(aclmdlRIGetName(ri, sizeof name, name));
    CHECK(strcmp(name, "build-model") == 0);
    CHECK_OK(aclmdlRIGetName(ri, 6, name));
    CHECK(strcmp(name, "build") == 0);
    uint32_t id = 0, id2 = 0;
    CHECK_OK(aclmdlRIGetId(ri, &id));
    CHECK_OK(aclmdlRIGetId(ri, &id2));
    CHECK_EQ(id, id2);
    static int one = 1;
    CHECK_OK(aclmdlRIDestroyRegisterCallback(ri, on_destroy, &one));

    CHECK_OK(aclmdlRIUnbindStream(ri, ps));
    CHECK_EQ(destroyed, 0);
    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_EQ(destroyed, 1);

    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(ps));
    CHECK_OK(aclrtDestroyStream(run));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
