/* stack_rt_stream_more: the runtime's configured stream creation and the
 * round-9 stream, misc and event functions called directly (rt.h):
 * rtsStreamCreate takes RT_STREAM_* flag bits (the ACL flags converted,
 * as aclrtCreateStreamWithConfig passes them) and a priority;
 * rtStreamCreateWithConfig takes aclrtCreateStreamV2's configuration
 * fields unchanged (ACL_STREAM_* flag numbering); rtStreamGetFlags
 * reports ACL_STREAM_DEVICE_USE_ONLY as RT_STREAM_CP_PROCESS_USE;
 * rtsPersistentTaskClean; rtGetFaultEvent finds no fault on an emulated
 * device; rtEventWorkModeSet, rtsGetHardwareSyncAddr and rtsProfTrace are
 * refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT (not modelled).
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

/* flags_of checks both views of a stream's flags. */
static void flags_of(rtStream_t s, uint32_t rt_want, uint32_t acl_want)
{
    uint32_t f = 0xFFFF;
    CHECK_RT(rtStreamGetFlags(s, &f), ACL_RT_SUCCESS);
    CHECK_EQ(f, rt_want);
    uint32_t af = 0xFFFF;
    CHECK_OK(aclrtStreamGetFlags(s, &af));
    CHECK_EQ(af, acl_want);
}

static uint32_t priority_of(rtStream_t s)
{
    uint32_t p = 99;
    CHECK_RT(rtStreamGetPriority(s, &p), ACL_RT_SUCCESS);
    return p;
}

static void streams_create(void)
{
    rtStream_t s = NULL;
    rtStreamCreateAttr_t attrs[3];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = RT_STREAM_CREATE_ATTR_FLAGS;
    attrs[0].value.flags = RT_STREAM_FAST_SYNC | RT_STREAM_HUGE;
    attrs[1].id = RT_STREAM_CREATE_ATTR_PRIORITY;
    attrs[1].value.priority = 3;
    rtStreamCreateConfig_t cfg = {attrs, 2};

    CHECK_RT(rtsStreamCreate(NULL, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    rtStreamCreateConfig_t nullattrs = {NULL, 1};
    CHECK_RT(rtsStreamCreate(&s, &nullattrs), ACL_ERROR_RT_PARAM_INVALID);
    attrs[2].id = RT_STREAM_CREATE_ATTR_MAX;
    rtStreamCreateConfig_t badid = {attrs, 3};
    CHECK_RT(rtsStreamCreate(&s, &badid), ACL_ERROR_RT_PARAM_INVALID);
    attrs[2].id = RT_STREAM_CREATE_ATTR_FLAGS;
    attrs[2].value.flags = RT_STREAM_FORCE_COPY;
    rtStreamCreateConfig_t unmodelled = {attrs, 3};
    CHECK_RT(rtsStreamCreate(&s, &unmodelled), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK(s == NULL);

    /* The RT_STREAM_* bits become the ACL flags; priority as given. */
    CHECK_RT(rtsStreamCreate(&s, &cfg), ACL_RT_SUCCESS);
    CHECK(s != NULL);
    flags_of(s, RT_STREAM_FAST_SYNC | RT_STREAM_HUGE, ACL_STREAM_FAST_SYNC | ACL_STREAM_HUGE);
    CHECK_EQ(priority_of(s), 3);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);

    /* A later attribute wins; a priority past the range is clamped. */
    attrs[2].value.flags = RT_STREAM_CP_PROCESS_USE;
    attrs[1].value.priority = 100;
    CHECK_RT(rtsStreamCreate(&s, &unmodelled), ACL_RT_SUCCESS);
    flags_of(s, RT_STREAM_CP_PROCESS_USE, ACL_STREAM_DEVICE_USE_ONLY);
    CHECK_EQ(priority_of(s), 7);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);

    /* No configuration: a default stream. */
    s = NULL;
    CHECK_RT(rtsStreamCreate(&s, NULL), ACL_RT_SUCCESS);
    flags_of(s, 0, 0);
    CHECK_EQ(priority_of(s), 0);
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);

    /* rtStreamGetFlags of an ACL DEVICE_USE_ONLY stream. */
    aclrtStream as = NULL;
    CHECK_OK(aclrtCreateStreamWithConfig(&as, 0, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_FAST_LAUNCH));
    flags_of(as, RT_STREAM_CP_PROCESS_USE | RT_STREAM_FAST_LAUNCH, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_FAST_LAUNCH);
    CHECK_RT(rtStreamGetFlags(as, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_OK(aclrtDestroyStream(as));
}

static void create_with_config(void)
{
    rtStream_t s = NULL;
    rtStreamConfigHandle h = {NULL, 0, ACL_STREAM_FAST_SYNC, 5};
    CHECK_RT(rtStreamCreateWithConfig(NULL, &h), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtStreamCreateWithConfig(&s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    rtStreamConfigHandle wide = {NULL, 0, (size_t)1 << 40, 0};
    CHECK_RT(rtStreamCreateWithConfig(&s, &wide), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(s == NULL);
    CHECK_RT(rtStreamCreateWithConfig(&s, &h), ACL_RT_SUCCESS);
    CHECK(s != NULL);
    flags_of(s, RT_STREAM_FAST_SYNC, ACL_STREAM_FAST_SYNC);
    CHECK_EQ(priority_of(s), 5);
    /* It runs work like any stream. */
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RT(rtMemsetAsync(d, 64, 0x5A, 64, s), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamSynchronize(s), ACL_RT_SUCCESS);
    unsigned char b[64];
    CHECK_OK(aclrtMemcpy(b, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(b[0], 0x5A);
    CHECK_EQ(b[63], 0x5A);
    CHECK_OK(aclrtFree(d));
    CHECK_RT(rtStreamDestroy(s), ACL_RT_SUCCESS);
}

static void persistent_clean(void)
{
    rtStream_t ps = NULL, plain = NULL;
    rtStreamCreateAttr_t a = {RT_STREAM_CREATE_ATTR_FLAGS, {RT_STREAM_PERSISTENT}};
    rtStreamCreateConfig_t cfg = {&a, 1};
    CHECK_RT(rtsStreamCreate(&ps, &cfg), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamCreate(&plain, 0), ACL_RT_SUCCESS);
    flags_of(ps, RT_STREAM_PERSISTENT, ACL_STREAM_PERSISTENT);
    CHECK_RT(rtsPersistentTaskClean(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsPersistentTaskClean(plain), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsPersistentTaskClean(ps), ACL_RT_SUCCESS);
    /* Bound to a model, its tasks are the model's: not removed. */
    rtModel_t mdl = NULL;
    CHECK_RT(rtsModelCreate(&mdl, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtsModelBindStream(mdl, ps, RT_MODEL_STREAM_FLAG_HEAD), ACL_RT_SUCCESS);
    CHECK_RT(rtsPersistentTaskClean(ps), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtsModelUnbindStream(mdl, ps), ACL_RT_SUCCESS);
    CHECK_RT(rtModelDestroy(mdl), ACL_RT_SUCCESS);
    CHECK_RT(rtStreamDestroy(ps), ACL_RT_SUCCESS);
    CHECK_RT(rtsPersistentTaskClean(ps), ACL_ERROR_RT_INVALID_HANDLE);
    CHECK_RT(rtStreamDestroy(plain), ACL_RT_SUCCESS);
}

static void fault_events(void)
{
    rtDmsEventFilter filter;
    memset(&filter, 0, sizeof filter);
    rtDmsFaultEvent ev[2];
    memset(ev, 0x77, sizeof ev);
    uint32_t n = 5;
    CHECK_RT(rtGetFaultEvent(0, NULL, ev, 2, &n), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetFaultEvent(0, &filter, NULL, 2, &n), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetFaultEvent(0, &filter, ev, 2, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetFaultEvent(0, &filter, ev, 0, &n), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtGetFaultEvent(-1, &filter, ev, 2, &n), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtGetFaultEvent(1 << 20, &filter, ev, 2, &n), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_EQ(n, 5);
    CHECK_RT(rtGetFaultEvent(0, &filter, ev, 2, &n), ACL_RT_SUCCESS);
    CHECK_EQ(n, 0);
    CHECK_EQ(ev[0].eventId, 0x77777777u); /* nothing written */
}

static void not_modelled(void)
{
    CHECK_RT(rtEventWorkModeSet(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    void *addr = NULL;
    CHECK_RT(rtsGetHardwareSyncAddr(&addr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK(addr == NULL);
    char data[8] = "trace";
    CHECK_RT(rtsProfTrace(data, 8, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    const char *m = aclGetRecentErrMsg();
    CHECK(m != NULL && strstr(m, "rtsProfTrace") != NULL);
}

int main(void)
{
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    streams_create();
    create_with_config();
    persistent_clean();
    fault_events();
    not_modelled();
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
