/* capture_label_loop: a loop inside a built model run instance made of labels
 * and aclrtSwitchLabelByIndex (semantics.md §7: the index is a uint32 read
 * from device memory when the task runs; an index beyond maxValue or the
 * list chooses the last label; execution continues at the chosen label).
 * The stream reloads a counter from `n`, then the body adds a vector into
 * an accumulator, counts down the counter and switches on it with the list
 * {exit, body}: index 0 leaves, anything else (> maxValue 1) goes back.
 * Changing `n` between two executions changes the number of iterations;
 * the virtual time between two events recorded around the loop is the
 * same at every replay of the same n. */
#include "rt_util.h"

#include <string.h>

#define V 256

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    if (strncmp(soc, "Ascend910B", 10) != 0 && strncmp(soc, "Ascend910_93", 12) != 0) {
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        SKIP("the loop body uses aclrtReduceAsync, documented for A3/A2 only (%s)", soc);
    }
    aclrtStream s = NULL, run = NULL, plain = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStream(&run));
    CHECK_OK(aclrtCreateStream(&plain));
    int32_t *consts = NULL, *counter = NULL, *n = NULL, *vec = NULL, *acc = NULL;
    CHECK_OK(aclrtMalloc((void **)&consts, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&counter, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&n, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&vec, V * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&acc, V * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    int32_t hc[2] = {-1, 0}, hv[V], ha[V];
    for (int i = 0; i < V; i++)
        hv[i] = 3 * i - 100;
    CHECK_OK(aclrtMemcpy(consts, 8, hc, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(vec, V * 4, hv, V * 4, ACL_MEMCPY_HOST_TO_DEVICE));

    aclrtLabel body = NULL, exit_ = NULL;
    CHECK_OK(aclrtCreateLabel(&body));
    CHECK_OK(aclrtCreateLabel(&exit_));
    aclrtLabel labels[2] = {exit_, body};
    aclrtLabelList list = NULL;
    CHECK_OK(aclrtCreateLabelList(labels, 2, &list));
    aclrtEvent e0 = NULL, e1 = NULL;
    CHECK_OK(aclrtCreateEvent(&e0));
    CHECK_OK(aclrtCreateEvent(&e1));

    /* doc: semantics.md §7 — labels only on streams bound to a model RI. */
    CHECK_ERR(aclrtSetLabel(body, plain), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_ERR(aclrtSwitchLabelByIndex(counter, 1, list, plain), ACL_ERROR_RT_STREAM_MODEL);

    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&ri, 0));
    CHECK_OK(aclmdlRIBindStream(ri, s, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_OK(aclrtMemcpyAsync(counter, 4, n, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    CHECK_OK(aclrtMemsetAsync(acc, V * 4, 0, V * 4, s));
    CHECK_OK(aclrtRecordEvent(e0, s));
    CHECK_OK(aclrtSetLabel(body, s));
    CHECK_OK(aclrtReduceAsync(acc, vec, V * 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s, NULL));
    CHECK_OK(aclrtReduceAsync(counter, consts, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, s, NULL));
    CHECK_OK(aclrtSwitchLabelByIndex(counter, 1, list, s));
    CHECK_OK(aclrtSetLabel(exit_, s));
    CHECK_OK(aclrtRecordEvent(e1, s));
    CHECK_OK(aclmdlRIEndTask(ri, s));
    CHECK_OK(aclmdlRIBuildEnd(ri, NULL));
    /* The list was read when the switch was recorded. */
    CHECK_OK(aclrtDestroyLabelList(list));

    int32_t rounds[4] = {4, 1, 9, 4};
    float first[4];
    for (int r = 0; r < 4; r++) {
        CHECK_OK(aclrtMemcpy(n, 4, &rounds[r], 4, ACL_MEMCPY_HOST_TO_DEVICE));
        for (int rep = 0; rep < 2; rep++) {
            if (rep == 0)
                CHECK_OK(aclmdlRIExecute(ri, -1));
            else {
                CHECK_OK(aclmdlRIExecuteAsync(ri, run));
                CHECK_OK(aclrtSynchronizeStream(run));
            }
            memset(ha, 0x7f, sizeof ha);
            CHECK_OK(aclrtMemcpy(ha, V * 4, acc, V * 4, ACL_MEMCPY_DEVICE_TO_HOST));
            for (int i = 0; i < V; i++)
                CHECK_EQ(ha[i], rounds[r] * hv[i]);
            int32_t c = -5;
            CHECK_OK(aclrtMemcpy(&c, 4, counter, 4, ACL_MEMCPY_DEVICE_TO_HOST));
            CHECK_EQ(c, 0);
            float ms = -1;
            CHECK_OK(aclrtEventElapsedTime(&ms, e0, e1));
            CHECK(ms > 0);
            if (rep == 0)
                first[r] = ms;
            else
                CHECK(ms == first[r]); /* virtual clock: identical replays */
        }
    }
    /* More iterations take more virtual time. */
    CHECK(first[2] > first[0] && first[0] > first[1]);
    CHECK(first[3] == first[0]);

    CHECK_OK(aclmdlRIDestroy(ri));
    CHECK_OK(aclrtDestroyEvent(e0));
    CHECK_OK(aclrtDestroyEvent(e1));
    CHECK_OK(aclrtDestroyLabel(body));
    CHECK_OK(aclrtDestroyLabel(exit_));
    CHECK_OK(aclrtFree(consts));
    CHECK_OK(aclrtFree(counter));
    CHECK_OK(aclrtFree(n));
    CHECK_OK(aclrtFree(vec));
    CHECK_OK(aclrtFree(acc));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtDestroyStream(run));
    CHECK_OK(aclrtDestroyStream(plain));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
