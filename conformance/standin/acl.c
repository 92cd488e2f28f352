/* acl.c: the stand-in's libascendcl.so, a few dozen ACL functions that
 * record their arguments (standin.h) and return scripted results:
 *
 *   aclrtGetDeviceCount   3 (asked through libruntime.so and libascend_hal.so)
 *   aclrtSetDevice(id)    ACL_ERROR_RT_INVALID_DEVICEID for id >= 3, with a
 *                         message for aclGetRecentErrMsg
 *   aclrtMalloc           *devPtr = 0x5eed00000000 + size
 *   aclrtCreateStream     *stream = 0x57ae0000 + n
 *   aclrtLaunchCallback,  call fn(userData) before returning
 *   aclrtLaunchHostFunc
 *   aclFloatToFloat16     0x3c00 (1.0); aclFloat16ToFloat(v) = v / 4.0f
 *   aclrtGetSocName       "StandinSoC"
 *
 * aclInit also records where its libruntime.so and libascend_hal.so were
 * loaded from, which the test checks (namespace isolation).
 */
#include <stdarg.h>

#include "acl/acl.h"
#include "acl/acl_rt.h"
#include "standin.h"

int standin_rt_device_count(void);
const char *standin_rt_where(void);
const char *standin_hal_where(void);

static __thread char recent[256];

static aclError fail(aclError code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static aclError fail(aclError code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(recent, sizeof recent, fmt, ap);
    va_end(ap);
    return code;
}

aclError aclInit(const char *configPath) {
    standin_record("aclInit configPath=%s runtime=%s hal=%s", configPath ? configPath : "(null)", standin_rt_where(),
                   standin_hal_where());
    return ACL_SUCCESS;
}

aclError aclFinalize(void) {
    standin_record("aclFinalize");
    return ACL_SUCCESS;
}

const char *aclGetRecentErrMsg(void) {
    standin_record("aclGetRecentErrMsg");
    return recent[0] ? recent : NULL;
}

const char *aclrtGetSocName(void) {
    standin_record("aclrtGetSocName");
    return "StandinSoC";
}

aclError aclrtGetDeviceCount(uint32_t *count) {
    standin_record("aclrtGetDeviceCount count=%p", (void *)count);
    if (count == NULL) return fail(ACL_ERROR_INVALID_PARAM, "standin: count is NULL");
    *count = (uint32_t)standin_rt_device_count();
    return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
    standin_record("aclrtSetDevice deviceId=%d", deviceId);
    if (deviceId < 0 || deviceId >= standin_rt_device_count())
        return fail(ACL_ERROR_RT_INVALID_DEVICEID, "standin: device %d does not exist", deviceId);
    return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
    standin_record("aclrtResetDevice deviceId=%d", deviceId);
    return ACL_SUCCESS;
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    standin_record("aclrtMalloc devPtr=%p size=%zu policy=%d", (void *)devPtr, size, (int)policy);
    if (devPtr == NULL) return fail(ACL_ERROR_INVALID_PARAM, "standin: devPtr is NULL");
    *devPtr = (void *)(0x5eed00000000ULL + size);
    return ACL_SUCCESS;
}

aclError aclrtFree(void *devPtr) {
    standin_record("aclrtFree devPtr=%p", devPtr);
    return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    standin_record("aclrtMemcpy dst=%p destMax=%zu src=%p count=%zu kind=%d", dst, destMax, src, count, (int)kind);
    return ACL_SUCCESS;
}

static int streams;

aclError aclrtCreateStream(aclrtStream *stream) {
    standin_record("aclrtCreateStream stream=%p", (void *)stream);
    *stream = (aclrtStream)(0x57ae0000UL + (unsigned long)__atomic_add_fetch(&streams, 1, __ATOMIC_SEQ_CST));
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    standin_record("aclrtDestroyStream stream=%p", stream);
    return ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
    standin_record("aclrtLaunchCallback fn=%p userData=%p blockType=%d stream=%p", (void *)fn, userData,
                   (int)blockType, stream);
    if (fn == NULL) return fail(ACL_ERROR_INVALID_PARAM, "standin: fn is NULL");
    fn(userData);
    return ACL_SUCCESS;
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args) {
    standin_record("aclrtLaunchHostFunc stream=%p fn=%p args=%p", stream, (void *)fn, args);
    if (fn == NULL) return fail(ACL_ERROR_INVALID_PARAM, "standin: fn is NULL");
    fn(args);
    return ACL_SUCCESS;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
    standin_record("aclrtSubscribeReport threadId=%llu stream=%p", (unsigned long long)threadId, stream);
    return ACL_SUCCESS;
}

aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream) {
    standin_record("aclrtMemManagedPrefetchAsync ptr=%p size=%zu type=%d id=%d flags=%u stream=%p", ptr, size,
                   (int)location.type, location.id, flags, stream);
    return ACL_SUCCESS;
}

aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
                                            aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args) {
    standin_record("aclrtLaunchSIMTKernelWithArgsArray func=%p grid=%u,%u,%u block=%u,%u,%u dynUbufSize=%zu "
                   "stream=%p cfg=%p args=%p",
                   func, gridDim.x, gridDim.y, gridDim.z, blockDim.x, blockDim.y, blockDim.z, dynUbufSize, stream,
                   (void *)cfg, (void *)args);
    return ACL_SUCCESS;
}

aclFloat16 aclFloatToFloat16(float value) {
    standin_record("aclFloatToFloat16 value=%a", (double)value);
    return 0x3c00;
}

float aclFloat16ToFloat(aclFloat16 value) {
    standin_record("aclFloat16ToFloat value=%u", (unsigned)value);
    return (float)value / 4.0f;
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value) {
    standin_record("aclrtGetDeviceInfo deviceId=%u attr=%d value=%p", deviceId, (int)attr, (void *)value);
    *value = -0x123456789LL;
    return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    standin_record("aclrtMemcpyAsync dst=%p destMax=%zu src=%p count=%zu kind=%d stream=%p", dst, destMax, src, count,
                   (int)kind, stream);
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    standin_record("aclrtSynchronizeStream stream=%p", stream);
    return ACL_SUCCESS;
}

void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    standin_record("aclAppLog logLevel=%d func=%s file=%s line=%u fmt=%s msg=%s", (int)logLevel, func, file, line, fmt,
                   msg);
}
