/* overflow_status: the documented overflow-detection flow. Set the saturation
 * mode, switch detection on for a stream, run work, fetch the status into
 * device memory asynchronously, copy it back (0 = no overflow), reset it.
 * Plain copies cannot overflow, so the status must read 0. */
#include "rt_util.h"

#include <string.h>

#define STATUS_BYTES 64
#define BYTES 4096

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
    CHECK_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    CHECK_OK(aclrtGetDeviceSatMode(&mode));
    CHECK_EQ(mode, ACL_RT_OVERFLOW_MODE_SATURATION);

    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    uint32_t flag = 7;
    CHECK_OK(aclrtGetStreamOverflowSwitch(s, &flag));
    CHECK_EQ(flag, 0); /* off by default */
    CHECK_OK(aclrtSetStreamOverflowSwitch(s, 1));
    CHECK_OK(aclrtGetStreamOverflowSwitch(s, &flag));
    CHECK_EQ(flag, 1);
    /* The switch and the FLOAT_OVERFLOW_CHECK attribute are one setting. */
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof v);
    CHECK_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    CHECK_EQ(v.overflowSwitch, 1);
    CHECK_FAILS(aclrtGetStreamOverflowSwitch(s, NULL));

    /* Some work on the stream. */
    void *dev = NULL, *host = NULL;
    CHECK_OK(aclrtMalloc(&dev, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&host, BYTES));
    memset(host, 0x5a, BYTES);
    CHECK_OK(aclrtMemcpyAsync(dev, BYTES, host, BYTES, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtMemcpyAsync(host, BYTES, dev, BYTES, ACL_MEMCPY_DEVICE_TO_HOST, s));

    /* The per-context flag address is stable. */
    void *flagAddr = NULL, *again = NULL;
    CHECK_OK(aclrtCtxGetFloatOverflowAddr(&flagAddr));
    CHECK(flagAddr != NULL);
    CHECK_OK(aclrtCtxGetFloatOverflowAddr(&again));
    CHECK(again == flagAddr);
    CHECK_FAILS(aclrtCtxGetFloatOverflowAddr(NULL));

    /* Fetch the status into device memory prefilled with garbage. */
    void *status = NULL;
    CHECK_OK(aclrtMalloc(&status, STATUS_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemset(status, STATUS_BYTES, 0xff, STATUS_BYTES));
    CHECK_OK(aclrtGetOverflowStatus(status, STATUS_BYTES, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    uint64_t word[STATUS_BYTES / 8];
    memset(word, 0xee, sizeof word);
    CHECK_OK(aclrtMemcpy(word, sizeof word, status, STATUS_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(word[0], 0);
    CHECK_EQ(((unsigned char *)host)[BYTES - 1], 0x5a);

    CHECK_OK(aclrtResetOverflowStatus(s));
    CHECK_OK(aclrtMemset(status, STATUS_BYTES, 0xff, STATUS_BYTES));
    CHECK_OK(aclrtGetOverflowStatus(status, STATUS_BYTES, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK_OK(aclrtMemcpy(word, sizeof word, status, STATUS_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(word[0], 0);
    CHECK_FAILS(aclrtGetOverflowStatus(NULL, STATUS_BYTES, s));

    /* The default stream works too. */
    CHECK_OK(aclrtSetStreamOverflowSwitch(NULL, 1));
    CHECK_OK(aclrtResetOverflowStatus(NULL));
    CHECK_OK(aclrtSynchronizeStream(NULL));

    CHECK_OK(aclrtFree(status));
    CHECK_OK(aclrtFree(dev));
    CHECK_OK(aclrtFreeHost(host));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
