/* stack_rt_model: the runtime's rts* model calls called directly
 * (rt-functions.tsv area "model", rt.h): rtsModelCreate, rtsModelBindStream,
 * rtsEndGraph and rtsModelLoadComplete build a model (rtModel_t ==
 * aclmdlRI) from a persistent stream, rtsModelExecute runs it and waits,
 * names and ids agree with aclmdlRI*, rtsModelUnbindStream / rtModelDestroy
 * release it; bad input gets the runtime's codes (ACL_ERROR_RT_*).
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

static uint32_t word(void *dev)
{
    uint32_t got = 0;
    CHECK_OK(aclrtMemcpy(&got, 4, dev, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    return got;
}

int main(void)
{
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    aclrtStream ps = NULL;
    rtStream_t plain = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
    CHECK_RT(rtStreamCreate(&plain, 0), ACL_RT_SUCCESS);
    void *a = NULL;
    CHECK_OK(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(a, 64, 0, 64));

    CHECK_EQ(RT_MODEL_STREAM_FLAG_DEFAULT, ACL_MODEL_STREAM_FLAG_DEFAULT);
    rtModel_t mdl = NULL;
    CHECK_RT(rtsModelCreate(NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelCreate(&mdl, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(mdl == NULL);
    CHECK_RT(rtsModelCreate(&mdl, 0), ACL_RT_SUCCESS);
    CHECK(mdl != NULL);

    CHECK_RT(rtsModelBindStream(NULL, ps, RT_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelBindStream(mdl, ps, 5), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelBindStream(mdl, plain, RT_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelBindStream(mdl, ps, RT_MODEL_STREAM_FLAG_HEAD), ACL_RT_SUCCESS);
    CHECK_OK(aclrtMemsetAsync(a, 64, 0x5a, 64, ps));
    CHECK_RT(rtsEndGraph(mdl, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsEndGraph(mdl, ps), ACL_RT_SUCCESS);
    int x = 0;
    CHECK_RT(rtsModelLoadComplete(mdl, &x), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelLoadComplete(mdl, NULL), ACL_RT_SUCCESS);
    /* Building ran nothing. */
    CHECK_EQ(word(a), 0);

    CHECK_RT(rtsModelExecute(NULL, -1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelExecute(mdl, -2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelExecute(mdl, -1), ACL_RT_SUCCESS);
    CHECK_EQ(word(a), 0x5a5a5a5au);
    CHECK_OK(aclrtMemset(a, 64, 0, 64));
    CHECK_RT(rtModelExecute(mdl, plain, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(plain), ACL_RT_SUCCESS);
    CHECK_EQ(word(a), 0x5a5a5a5au);

    /* Names and ids, as aclmdlRI*. */
    char name[16];
    CHECK_RT(rtsModelSetName(mdl, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelSetName(NULL, "m"), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelSetName(mdl, "rt-model"), ACL_RT_SUCCESS);
    CHECK_RT(rtsModelGetName(mdl, 0, name), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelGetName(mdl, sizeof name, NULL), ACL_ERROR_RT_PARAM_INVALID);
    memset(name, 'x', sizeof name);
    CHECK_RT(rtsModelGetName(mdl, sizeof name, name), ACL_RT_SUCCESS);
    CHECK(strcmp(name, "rt-model") == 0);
    CHECK_RT(rtsModelGetName(mdl, 3, name), ACL_RT_SUCCESS);
    CHECK(strcmp(name, "rt") == 0);
    CHECK_OK(aclmdlRIGetName(mdl, sizeof name, name));
    CHECK(strcmp(name, "rt-model") == 0);
    uint32_t id = 0xffffffffu, aclId = 0;
    CHECK_RT(rtModelGetId(mdl, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelGetId(mdl, &id), ACL_RT_SUCCESS);
    CHECK_OK(aclmdlRIGetId(mdl, &aclId));
    CHECK_EQ(id, aclId);

    CHECK_RT(rtsModelAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelAbort(mdl), ACL_RT_SUCCESS);

    CHECK_RT(rtsModelUnbindStream(mdl, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsModelUnbindStream(mdl, ps), ACL_RT_SUCCESS);
    CHECK_RT(rtModelDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtModelDestroy(mdl), ACL_RT_SUCCESS);
    CHECK_RT(rtModelDestroy(mdl), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtModelGetId(mdl, &id), ACL_ERROR_RT_INVALID_HANDLE);

    CHECK_OK(aclrtFree(a));
    CHECK_OK(aclrtDestroyStream(ps));
    CHECK_RT(rtStreamDestroy(plain), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
