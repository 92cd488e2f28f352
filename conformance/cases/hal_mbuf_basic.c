/* hal_mbuf_basic: the driver's shared buffers as a HAL program calls them
 * (halMbuf*, prototypes from public call sites: cmd/specgen/hal_public.go):
 * a data area of the size asked for that the host writes, a data length
 * within it, a private area, CopyRef sharing the data area, chains that
 * count and index their members, and drvError_t codes for bad input. The
 * ACL shared-buffer calls and the runtime's rtMbuf* work on the same
 * objects (an aclrtMbuf is the driver's Mbuf *).
 *
 * link: -lruntime -lascendcl -lascend_hal
 * needs: emulator
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "driver/ascend_hal.h"
#include "runtime/rt.h"

#define DRV_OK(call) CHECK_EQ((int)(call), (int)DRV_ERROR_NONE)
#define DRV_ERR(call, code) CHECK_EQ((int)(call), (int)(code))

int main(void)
{
    Mbuf *a = NULL;
    DRV_OK(halMbufAlloc(1000, &a));
    CHECK(a != NULL);
    void *data = NULL;
    uint64_t size = 0, len = 0;
    DRV_OK(halMbufGetBuffAddr(a, &data));
    DRV_OK(halMbufGetBuffSize(a, &size));
    CHECK(data != NULL);
    CHECK_EQ(size, 1000);
    memset(data, 0x5a, 1000);
    DRV_OK(halMbufGetDataLen(a, &len));
    CHECK_EQ(len, 1000); /* npuemu: a new mbuf's data length is its whole area */
    DRV_OK(halMbufSetDataLen(a, 10));
    DRV_OK(halMbufGetDataLen(a, &len));
    CHECK_EQ(len, 10);
    DRV_ERR(halMbufSetDataLen(a, 1001), DRV_ERROR_INVALID_VALUE);

    void *priv = NULL;
    unsigned int privSize = 0;
    DRV_OK(halMbufGetPrivInfo(a, &priv, &privSize));
    CHECK(priv != NULL);
    CHECK_EQ(privSize, 96);
    for (unsigned i = 0; i < privSize; i++) CHECK_EQ(((uint8_t *)priv)[i], 0);
    memcpy(priv, "head", 5);

    /* A second head over the same data area. */
    Mbuf *b = NULL;
    DRV_OK(halMbufCopyRef(a, &b));
    CHECK(b != NULL && b != a);
    void *bdata = NULL, *bpriv = NULL;
    DRV_OK(halMbufGetBuffAddr(b, &bdata));
    CHECK(bdata == data);
    DRV_OK(halMbufGetDataLen(b, &len));
    CHECK_EQ(len, 10);
    DRV_OK(halMbufGetPrivInfo(b, &bpriv, &privSize));
    CHECK(bpriv != priv);
    CHECK(memcmp(bpriv, "head", 5) == 0);
    DRV_OK(halMbufFree(a));
    DRV_ERR(halMbufGetDataLen(a, &len), DRV_ERROR_INVALID_VALUE); /* freed */
    DRV_ERR(halMbufFree(a), DRV_ERROR_INVALID_VALUE);
    CHECK_EQ(((uint8_t *)bdata)[999], 0x5a); /* lives with its last head */

    /* The same object through ACL and the runtime. */
    CHECK_OK(aclInit(NULL));
    size_t asize = 0;
    void *adata = NULL;
    CHECK_OK(aclrtGetBufData((aclrtMbuf)b, &adata, &asize));
    CHECK(adata == bdata);
    CHECK_EQ(asize, 1000);
    uint8_t user[4];
    CHECK_OK(aclrtGetBufUserData((aclrtMbuf)b, user, 4, 0));
    CHECK(memcmp(user, "head", 4) == 0);
    uint64_t rlen = 0;
    CHECK_EQ((int)rtMbufGetDataLen((rtMbufPtr_t)b, &rlen), ACL_RT_SUCCESS);
    CHECK_EQ(rlen, 10);

    /* Chains. */
    Mbuf *m1 = NULL, *m2 = NULL, *got = NULL;
    DRV_OK(halMbufAlloc(64, &m1));
    DRV_OK(halMbufAlloc(64, &m2));
    unsigned int num = 0;
    DRV_OK(halMbufChainGetMbufNum(b, &num));
    CHECK_EQ(num, 1);
    DRV_OK(halMbufChainAppend(b, m1));
    DRV_OK(halMbufChainAppend(b, m2));
    DRV_OK(halMbufChainGetMbufNum(b, &num));
    CHECK_EQ(num, 3);
    DRV_OK(halMbufChainGetMbuf(b, 0, &got));
    CHECK(got == b);
    DRV_OK(halMbufChainGetMbuf(b, 2, &got));
    CHECK(got == m2);
    DRV_ERR(halMbufChainGetMbuf(b, 3, &got), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMbufChainAppend(b, m1), DRV_ERROR_INVALID_VALUE); /* already in it */
    DRV_ERR(halMbufChainAppend(b, b), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMbufFree(m1), DRV_ERROR_INVALID_VALUE); /* a member alone */
    uint32_t anum = 0;
    CHECK_OK(aclrtGetBufChainNum((aclrtMbuf)b, &anum));
    CHECK_EQ(anum, 3);
    DRV_OK(halMbufFree(b)); /* the whole chain */
    DRV_ERR(halMbufFree(m2), DRV_ERROR_INVALID_VALUE);

    /* Bad input. */
    Mbuf *z = NULL;
    DRV_ERR(halMbufAlloc(0, &z), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMbufAlloc(8, NULL), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMbufFree(NULL), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMbufFree((Mbuf *)(uintptr_t)0x1234), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMbufGetBuffAddr(NULL, &data), DRV_ERROR_INVALID_VALUE);
    DRV_ERR(halMbufGetPrivInfo(z, NULL, &privSize), DRV_ERROR_INVALID_VALUE);
    CHECK_OK(aclFinalize());
    return 0;
}
