/* mbuf_basic: shared buffers (20_shared_buffer_management; reserved by the
 * vendor, implemented by npuemu as docs/groups.md records): an mbuf's data
 * area is host-writable memory of the size asked for, data length and the
 * 96-byte user-data area read back what was set, aclrtCopyBufRef shares
 * the data area, chains count and index their members, and bad input gets
 * ACL_ERROR_INVALID_PARAM.
 *
 * needs: emulator
 */
#include <stdint.h>
#include <string.h>

#include "check.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    aclrtMbuf a = NULL;
    CHECK_OK(aclrtAllocBuf(&a, 1000));
    CHECK(a != NULL);
    void *data = NULL;
    size_t size = 0, len = 0;
    CHECK_OK(aclrtGetBufData(a, &data, &size));
    CHECK(data != NULL);
    CHECK_EQ(size, 1000);
    memset(data, 0x5a, size);
    CHECK_OK(aclrtGetBufDataLen(a, &len));
    CHECK_EQ(len, 1000);
    CHECK_OK(aclrtSetBufDataLen(a, 10));
    CHECK_OK(aclrtGetBufDataLen(a, &len));
    CHECK_EQ(len, 10);
    CHECK_ERR(aclrtSetBufDataLen(a, 1001), ACL_ERROR_INVALID_PARAM);

    /* The data area reaches a device and back. */
    void *dev = NULL;
    CHECK_OK(aclrtMalloc(&dev, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(dev, 1000, data, 1000, ACL_MEMCPY_HOST_TO_DEVICE));
    memset(data, 0, 1000);
    CHECK_OK(aclrtMemcpy(data, 1000, dev, 1000, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_EQ(((uint8_t *)data)[999], 0x5a);
    CHECK_OK(aclrtFree(dev));

    /* User data: 96 bytes, zero at first. */
    uint8_t user[96], back[96];
    CHECK_OK(aclrtGetBufUserData(a, back, 96, 0));
    for (int i = 0; i < 96; i++)
        CHECK_EQ(back[i], 0);
    for (int i = 0; i < 96; i++)
        user[i] = (uint8_t)(i + 1);
    CHECK_OK(aclrtSetBufUserData(a, user, 16, 80));
    CHECK_OK(aclrtGetBufUserData(a, back, 8, 84));
    CHECK(memcmp(back, user + 4, 8) == 0);
    CHECK_ERR(aclrtSetBufUserData(a, user, 17, 80), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetBufUserData(a, back, 0, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetBufUserData(a, NULL, 4, 0), ACL_ERROR_INVALID_PARAM);

    /* A second head over the same data. */
    aclrtMbuf b = NULL;
    CHECK_OK(aclrtCopyBufRef(a, &b));
    CHECK(b != NULL && b != a);
    void *bdata = NULL;
    size_t bsize = 0;
    CHECK_OK(aclrtGetBufData(b, &bdata, &bsize));
    CHECK(bdata == data);
    CHECK_EQ(bsize, 1000);
    CHECK_OK(aclrtGetBufDataLen(b, &len));
    CHECK_EQ(len, 10);
    CHECK_OK(aclrtGetBufUserData(b, back, 8, 84));
    CHECK(memcmp(back, user + 4, 8) == 0);
    CHECK_OK(aclrtFreeBuf(a));
    CHECK_ERR(aclrtGetBufDataLen(a, &len), ACL_ERROR_INVALID_PARAM); /* freed */
    ((uint8_t *)bdata)[0] = 7; /* still b's */
    CHECK_OK(aclrtFreeBuf(b));

    /* Chains. */
    aclrtMbuf h = NULL, m1 = NULL, m2 = NULL, got = NULL;
    CHECK_OK(aclrtAllocBuf(&h, 64));
    CHECK_OK(aclrtAllocBuf(&m1, 64));
    CHECK_OK(aclrtAllocBuf(&m2, 64));
    uint32_t num = 0;
    CHECK_OK(aclrtGetBufChainNum(h, &num));
    CHECK_EQ(num, 1);
    CHECK_OK(aclrtAppendBufChain(h, m1));
    CHECK_OK(aclrtAppendBufChain(h, m2));
    CHECK_OK(aclrtGetBufChainNum(h, &num));
    CHECK_EQ(num, 3);
    CHECK_OK(aclrtGetBufFromChain(h, 0, &got));
    CHECK(got == h);
    CHECK_OK(aclrtGetBufFromChain(h, 2, &got));
    CHECK(got == m2);
    CHECK_ERR(aclrtGetBufFromChain(h, 3, &got), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtAppendBufChain(h, m1), ACL_ERROR_INVALID_PARAM); /* already in it */
    CHECK_ERR(aclrtAppendBufChain(h, h), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtFreeBuf(m1), ACL_ERROR_INVALID_PARAM); /* a member */
    CHECK_OK(aclrtFreeBuf(h));                            /* the whole chain */
    CHECK_ERR(aclrtGetBufChainNum(h, &num), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtFreeBuf(m2), ACL_ERROR_INVALID_PARAM);

    /* Bad input. */
    CHECK_ERR(aclrtAllocBuf(NULL, 8), ACL_ERROR_INVALID_PARAM);
    aclrtMbuf z = NULL;
    CHECK_ERR(aclrtAllocBuf(&z, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtFreeBuf(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetBufData(NULL, &data, &size), ACL_ERROR_INVALID_PARAM);

    /* An mbuf still allocated at aclFinalize goes with the runtime. */
    aclrtMbuf keep = NULL;
    CHECK_OK(aclrtAllocBuf(&keep, 32));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    CHECK_OK(aclInit(NULL));
    CHECK_ERR(aclrtGetBufUserData(keep, back, 4, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtFreeBuf(keep), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclFinalize());
    return 0;
}
