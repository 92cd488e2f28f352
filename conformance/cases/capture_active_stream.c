/* capture_active_stream: stream activation inside a built model run instance
 * (semantics.md §4). A stream bound with ACL_MODEL_STREAM_FLAG_DEFAULT
 * does not run at aclmdlRIExecute until a task of the instance activates
 * it; aclrtActiveStream(dep, main) on the main stream (bound HEAD) starts
 * it once its earlier tasks are done, and an activated stream may activate
 * another. A DEFAULT stream nobody activates never runs. The instance is
 * left alive: aclFinalize destroys it and calls its destroy callback. */
#include "rt_util.h"

#include <string.h>

#define N 8192

static int destroyed;
static void on_destroy(void *user) { destroyed += *(int *)user; }

static void expect(const uint8_t *d, const uint8_t *want, uint8_t fill)
{
    static uint8_t h[N];
    memset(h, 0xEE, N);
    CHECK_OK(aclrtMemcpy(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++)
        CHECK_EQ(h[i], want ? want[i] : fill);
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    if (strncmp(soc, "Ascend910_93", 12) == 0) {
        (void)aclrtResetDevice(0);
        (void)aclFinalize();
        SKIP("aclrtActiveStream is not documented for A3 (%s)", soc);
    }
    aclrtStream main_s = NULL, dep = NULL, dep2 = NULL, idle = NULL, plain = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&main_s, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStreamWithConfig(&dep, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStreamWithConfig(&dep2, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStreamWithConfig(&idle, 0, ACL_STREAM_PERSISTENT));
    CHECK_OK(aclrtCreateStream(&plain));
    uint8_t *in = NULL, *mid = NULL, *out = NULL, *out2 = NULL, *never = NULL;
    CHECK_OK(aclrtMalloc((void **)&in, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&mid, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&out, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&out2, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc((void **)&never, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(never, N, 0, N));

    /* doc: semantics.md §4 — only on streams bound to a model RI. */
    CHECK_ERR(aclrtActiveStream(dep, plain), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_FAILS(aclrtActiveStream(NULL, main_s));

    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&ri, 0));
    CHECK_OK(aclmdlRIBindStream(ri, main_s, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_OK(aclmdlRIBindStream(ri, dep, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_OK(aclmdlRIBindStream(ri, dep2, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_OK(aclmdlRIBindStream(ri, idle, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_FAILS(aclrtActiveStream(main_s, main_s));
    /* main: in → mid, then activate dep. */
    CHECK_OK(aclrtMemcpyAsync(mid, N, in, N, ACL_MEMCPY_DEVICE_TO_DEVICE, main_s));
    CHECK_OK(aclrtActiveStream(dep, main_s));
    /* dep (from its first task): mid → out, then activate dep2. */
    CHECK_OK(aclrtMemcpyAsync(out, N, mid, N, ACL_MEMCPY_DEVICE_TO_DEVICE, dep));
    CHECK_OK(aclrtActiveStream(dep2, dep));
    /* dep2: out → out2. */
    CHECK_OK(aclrtMemcpyAsync(out2, N, out, N, ACL_MEMCPY_DEVICE_TO_DEVICE, dep2));
    /* idle is never activated. */
    CHECK_OK(aclrtMemsetAsync(never, N, 0x55, N, idle));
    CHECK_OK(aclmdlRIEndTask(ri, main_s));
    CHECK_OK(aclmdlRIBuildEnd(ri, NULL));
    int one = 1;
    CHECK_OK(aclmdlRIDestroyRegisterCallback(ri, on_destroy, &one));

    static uint8_t h[N];
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < N; i++)
            h[i] = (uint8_t)(i * 7 + r * 13);
        CHECK_OK(aclrtMemcpy(in, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclrtMemset(out, N, 0, N));
        CHECK_OK(aclrtMemset(out2, N, 0, N));
        if (r == 1) {
            CHECK_OK(aclmdlRIExecuteAsync(ri, plain));
            CHECK_OK(aclrtSynchronizeStream(plain));
        } else {
            CHECK_OK(aclmdlRIExecute(ri, -1));
        }
        /* The execution ends after the streams it activated. */
        expect(out, h, 0);
        expect(out2, h, 0);
        expect(never, NULL, 0);
    }

    CHECK_OK(aclrtFree(in));
    CHECK_OK(aclrtFree(mid));
    CHECK_OK(aclrtFree(out));
    CHECK_OK(aclrtFree(out2));
    CHECK_OK(aclrtFree(never));
    CHECK_OK(aclrtDestroyStream(plain));
    CHECK_EQ(destroyed, 0);
    /* Left alive on purpose: aclFinalize destroys the instance. */
    CHECK_OK(aclFinalize());
    CHECK_EQ(destroyed, 1);
    return 0;
}
