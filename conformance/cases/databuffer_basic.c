/* databuffer_basic: aclCreateDataBuffer and friends — a host-side {address,
 * size} descriptor that neither checks nor owns the memory it names. */
#include "rt_util.h"

int main(void)
{
    /* No aclInit needed: data buffers are plain host objects. */
    char host[64];
    aclDataBuffer *b = aclCreateDataBuffer(host, sizeof host);
    CHECK(b != NULL);
    CHECK(aclGetDataBufferAddr(b) == (void *)host);
    CHECK_EQ(aclGetDataBufferSizeV2(b), sizeof host);
    CHECK_EQ(aclGetDataBufferSize(b), sizeof host);

    /* An empty tensor: NULL data, size 0. */
    aclDataBuffer *e = aclCreateDataBuffer(NULL, 0);
    CHECK(e != NULL);
    CHECK(e != b);
    CHECK(aclGetDataBufferAddr(e) == NULL);
    CHECK_EQ(aclGetDataBufferSizeV2(e), 0);

    /* Update repoints the descriptor. */
    CHECK_OK(aclUpdateDataBuffer(e, host + 8, 16));
    CHECK(aclGetDataBufferAddr(e) == (void *)(host + 8));
    CHECK_EQ(aclGetDataBufferSizeV2(e), 16);

    /* Device memory works the same way once a device is set. */
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    void *dev = NULL;
    CHECK_OK(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    aclDataBuffer *d = aclCreateDataBuffer(dev, 1 << 20);
    CHECK(d != NULL);
    CHECK(aclGetDataBufferAddr(d) == dev);
    CHECK_EQ(aclGetDataBufferSizeV2(d), 1 << 20);
    CHECK_OK(aclDestroyDataBuffer(d));
    CHECK_OK(aclrtFree(dev)); /* destroying the descriptor did not free it */
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());

    /* NULL: the getters return NULL / 0, the others a parameter error. */
    rt_drain_errors();
    CHECK(aclGetDataBufferAddr(NULL) == NULL);
    CHECK_EQ(aclGetDataBufferSizeV2(NULL), 0);
    CHECK_EQ(aclGetDataBufferSize(NULL), 0);
    CHECK_ERR(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclUpdateDataBuffer(NULL, host, 1), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclDestroyDataBuffer(b));
    CHECK_OK(aclDestroyDataBuffer(e));
    return 0;
}
