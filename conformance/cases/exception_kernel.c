/* exception_kernel: an AI Core exception carries the failing kernel. Inside the
 * exception callbacks, aclrtGetArgsFromExceptionInfo reports the argument
 * block and size the kernel was launched with and
 * aclrtGetFuncHandleFromExceptionInfo its function handle (semantics.md
 * §15, §17); the binary's own callback (aclrtBinarySetExceptionCallback)
 * fires with its userData, for direct launches and for a replay of a
 * captured launch. Last call wins; NULL removes it.
 *
 * needs: emulator
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

struct seen {
    int calls;
    void *args;
    uint32_t len;
    aclrtFuncHandle func;
    uint32_t code;
    aclError args_ret, func_ret;
};

static struct seen global_seen, bin_seen, other_seen;

static void record(struct seen *s, aclrtExceptionInfo *info) {
    s->calls++;
    s->code = aclrtGetErrorCodeFromExceptionInfo(info);
    s->args_ret = aclrtGetArgsFromExceptionInfo(info, &s->args, &s->len);
    s->func_ret = aclrtGetFuncHandleFromExceptionInfo(info, &s->func);
}

static void on_exception(aclrtExceptionInfo *info) { record(&global_seen, info); }
static void on_binary(aclrtExceptionInfo *info, void *user) { record((struct seen *)user, info); }

static void expect(const struct seen *s, int calls, void *args, uint32_t len, aclrtFuncHandle f) {
    CHECK_EQ(s->calls, calls);
    CHECK_EQ(s->code, ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_EQ(s->args_ret, ACL_SUCCESS);
    CHECK_EQ(s->func_ret, ACL_SUCCESS);
    CHECK(s->args == args);
    CHECK_EQ(s->len, len);
    CHECK(s->func == f);
}

int main(void) {
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    if (npuemu_build_kernel(repo, "examples/kernels/trap.c", so, sizeof so) != 0) FAIL("cannot build trap.c");
    aclrtBinHandle bin;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryGetFunction(bin, "trap_block", &f));

    /* Argument block in device memory, read in place: {bad block, out}. */
    uint32_t *out;
    CHECK_OK(aclrtMalloc((void **)&out, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    struct { uint32_t bad, pad; uint32_t *out; } blob = {2, 0, out};
    void *dargs;
    CHECK_OK(aclrtMalloc(&dargs, sizeof blob, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(dargs, sizeof blob, &blob, sizeof blob, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_OK(aclrtExceptionInfoCallbackRegister(on_exception));
    CHECK_OK(aclrtBinarySetExceptionCallback(bin, on_binary, &other_seen));
    CHECK_OK(aclrtBinarySetExceptionCallback(bin, on_binary, &bin_seen)); /* last wins */

    CHECK_OK(aclrtLaunchKernel(f, 4, dargs, sizeof blob, s));
    CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    expect(&global_seen, 1, dargs, sizeof blob, f);
    expect(&bin_seen, 1, dargs, sizeof blob, f);
    CHECK_EQ(other_seen.calls, 0);

    /* A captured launch replayed by a model run instance. */
    aclmdlRI ri;
    CHECK_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_OK(aclrtLaunchKernel(f, 4, dargs, sizeof blob, s));
    CHECK_OK(aclmdlRICaptureEnd(s, &ri));
    CHECK_OK(aclmdlRIExecuteAsync(ri, s));
    CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    expect(&global_seen, 2, dargs, sizeof blob, f);
    expect(&bin_seen, 2, dargs, sizeof blob, f);
    CHECK_OK(aclmdlRIDestroy(ri));

    /* NULL removes the binary's callback; the process-wide one stays. */
    CHECK_OK(aclrtBinarySetExceptionCallback(bin, NULL, NULL));
    CHECK_OK(aclrtLaunchKernel(f, 4, dargs, sizeof blob, s));
    CHECK_ERR(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_EQ(global_seen.calls, 3);
    CHECK_EQ(bin_seen.calls, 2);
    CHECK_OK(aclrtExceptionInfoCallbackUnregister(on_exception));

    /* Bad input: NULL info or outputs, NULL binary. */
    void *p;
    uint32_t n;
    aclrtFuncHandle fh;
    CHECK_ERR(aclrtGetArgsFromExceptionInfo(NULL, &p, &n), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetFuncHandleFromExceptionInfo(NULL, &fh), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtBinarySetExceptionCallback(NULL, on_binary, NULL), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclrtBinaryUnLoad(bin));
    CHECK_OK(aclrtFree(dargs));
    CHECK_OK(aclrtFree(out));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
