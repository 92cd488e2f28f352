/* ascendc_rules: each rule of the Ascend C local memories and pipe flags
 * that real hardware punishes with a crash or a hang is an AI Core
 * exception of that launch here (docs/ascendc.md, "Rules"): the launch
 * is accepted, the next synchronisation returns
 * ACL_ERROR_RT_AICORE_EXCEPTION (507015) and aclGetRecentErrMsg names the
 * kernel, the block, the API and the rule; the process and the stream go
 * on (a correct kernel runs next).
 *
 * needs: emulator
 */
#include "ascendc_build.h"

struct rule {
    const char *kernel, *api, *rule;
};

static const struct rule rules[] = {
    {"init_beyond_capacity", "TPipe::InitBuffer", "InitBuffer beyond capacity"},
    {"copy_length", "DataCopy", "DataCopy length 32-byte aligned"},
    {"copy_ub_address", "DataCopy", "32-byte alignment"},
    {"copy_l0_address", "DataCopy", "512-byte alignment"},
    {"deque_empty", "TQue::DeQue", "DeQue of an empty queue"},
    {"alloc_beyond_depth", "TQue::AllocTensor", "AllocTensor beyond the queue depth"},
    {"wait_without_set", "WaitFlag", "WaitFlag without SetFlag"},
    {"gm_past_end", "DataCopy", "GM access outside every allocation"},
    {"gm_outside", "DataCopy", "GM access outside every allocation"},
    {"mask_range", "Add", "vector mask range"},
    {"select_mode", "Select", "Select mode"},
    {"list_desc_layout", "ListTensorDesc", "ListTensorDesc layout"},
};

int main(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = asc_load(__FILE__, "rules.cpp");
    float *x = (float *)asc_dev(4096);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const struct rule *r = &rules[i];
        void *args[1] = {x};
        aclError e = asc_run(asc_fn(bin, r->kernel), 2, s, args, sizeof args);
        if (e != ACL_ERROR_RT_AICORE_EXCEPTION) FAIL("%s: synchronise returned %d, want 507015", r->kernel, (int)e);
        const char *m = aclGetRecentErrMsg();
        if (m == NULL) FAIL("%s: no message", r->kernel);
        if (strstr(m, r->kernel) == NULL || strstr(m, "block") == NULL || strstr(m, r->api) == NULL || strstr(m, r->rule) == NULL) {
            FAIL("%s: the message should name the kernel, the block, %s and the rule \"%s\": %s", r->kernel, r->api, r->rule, m);
        }
        printf("%s: %s\n", r->kernel, m);
        /* The stream goes on: a correct kernel runs and writes. */
        CHECK_OK(asc_run(asc_fn(bin, "fine"), 1, s, args, sizeof args));
        float got[64];
        CHECK_OK(aclrtMemcpy(got, sizeof got, x, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int k = 0; k < 64; k++)
            if (got[k] != (float)k) FAIL("after %s: x[%d] = %g, want %d", r->kernel, k, got[k], k);
        CHECK_OK(aclrtMemset(x, 4096, 0, 4096));
    }
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("ok\n");
    return 0;
}
