/* capture_cond_if_switch: an IF and a SWITCH node read their condition word
 * when the replay reaches them; the word is written by an earlier task of
 * the same replay (a copy from pinned host memory), so each execution
 * takes the branch the host buffer names at run time. */
#include "rt_util.h"

/* capture captures on s: host word → condition word, then a node of type
 * typ with n sub-graphs; sub-graph i sets out[i] to i + 1. */
static aclmdlRI capture(aclrtStream s, aclrtStream sub, aclmdlRICondTaskType typ, uint32_t n,
                        void *hword, unsigned char *out)
{
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    aclmdlRICaptureStatus st;
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRICaptureGetInfo(s, &st, &ri));
    aclmdlRICondHandle h = NULL;
    CHECK_OK(aclmdlRICondHandleCreate(ri, 7, (aclmdlRICondHandleFlag)0, &h));
    uint64_t *word = NULL;
    CHECK_OK(aclmdlRICondHandleGetCondPtr(h, &word));
    CHECK(word != NULL);
    CHECK_OK(aclrtMemcpyAsync(word, 8, hword, 8, ACL_MEMCPY_HOST_TO_DEVICE, s));
    aclmdlRI subs[4] = {0};
    aclmdlRICondTaskParams p = {h, typ, n, subs};
    CHECK_OK(aclmdlRIAddCondTask(p, s, 0));
    for (uint32_t i = 0; i < n; i++) {
        CHECK(subs[i] != NULL);
        CHECK_OK(aclmdlRICaptureToModelRIBegin(sub, subs[i], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
        CHECK_OK(aclrtMemsetAsync(out + i, 1, (int32_t)(i + 1), 1, sub));
        aclmdlRI got = NULL;
        CHECK_OK(aclmdlRICaptureEnd(sub, &got));
        CHECK(got == subs[i]);
    }
    aclmdlRI done = NULL;
    CHECK_OK(aclmdlRICaptureEnd(s, &done));
    CHECK(done == ri);
    return ri;
}

static void run(aclmdlRI ri, aclrtStream s, uint64_t *hword, uint64_t v, unsigned char *out,
                unsigned char *hout, const unsigned char *want, int n)
{
    *hword = v;
    CHECK_OK(aclrtMemset(out, 8, 0, 8));
    CHECK_OK(aclmdlRIExecuteAsync(ri, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(hout, 8, out, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(hout, want, (size_t)n) == 0);
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL, sub = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&sub));
    uint64_t *hword = NULL;
    unsigned char *hout = NULL, *out = NULL;
    CHECK_OK(aclrtMallocHost((void **)&hword, 8));
    CHECK_OK(aclrtMallocHost((void **)&hout, 8));
    CHECK_OK(aclrtMalloc((void **)&out, 8, ACL_MEM_MALLOC_HUGE_FIRST));

    /* doc: semantics.md §18 — IF with two sub-graphs: then / else. */
    aclmdlRI ifri = capture(s, sub, ACL_MODEL_RI_COND_TYPE_IF, 2, hword, out);
    const unsigned char then_[2] = {1, 0}, else_[2] = {0, 2};
    run(ifri, s, hword, 1, out, hout, then_, 2);
    run(ifri, s, hword, 0, out, hout, else_, 2);
    run(ifri, s, hword, 0x100000000ull, out, hout, then_, 2);

    /* SWITCH: index < size runs that sub-graph, otherwise nothing. */
    aclmdlRI sw = capture(s, sub, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, hword, out);
    for (uint64_t i = 0; i < 5; i++) {
        unsigned char want[3] = {0, 0, 0};
        if (i < 3) want[i] = (unsigned char)(i + 1);
        run(sw, s, hword, i, out, hout, want, 3);
    }

    CHECK_OK(aclmdlRIDestroy(ifri));
    CHECK_OK(aclmdlRIDestroy(sw));
    CHECK_OK(aclrtFree(out));
    CHECK_OK(aclrtFreeHost(hword));
    CHECK_OK(aclrtFreeHost(hout));
    CHECK_OK(aclrtDestroyStream(sub));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
