/* mbuf_runtime: the runtime's rtMbuf* calls work on the same objects as
 * the ACL shared-buffer API (rt-types.md: aclrtMbuf == rtMbufPtr_t), and
 * rtMbufGetPrivInfo hands out the user-data area aclrtSetBufUserData
 * writes. The group calls of the runtime answer as the ACL ones (310P).
 *
 * link: -lruntime -lascendcl
 * needs: emulator
 * env: NPUEMU_SOC=Ascend310P3 NPUEMU_DEVICES=1
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "runtime/rt.h"

#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);

    rtMbufPtr_t m = NULL;
    CHECK_RT(rtMbufAlloc(&m, 256), ACL_RT_SUCCESS);
    void *addr = NULL, *data = NULL;
    size_t size = 0;
    uint64_t total = 0, len = 0;
    CHECK_RT(rtMbufGetBuffAddr(m, &addr), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetBufData(m, &data, &size));
    CHECK(addr == data);
    CHECK_RT(rtMbufGetBuffSize(m, &total), ACL_RT_SUCCESS);
    CHECK_EQ(total, 256);
    CHECK_RT(rtMbufSetDataLen(m, 17), ACL_RT_SUCCESS);
    CHECK_OK(aclrtGetBufDataLen(m, &size));
    CHECK_EQ(size, 17);
    CHECK_RT(rtMbufGetDataLen(m, &len), ACL_RT_SUCCESS);
    CHECK_EQ(len, 17);
    CHECK_RT(rtMbufSetDataLen(m, 257), ACL_ERROR_RT_PARAM_INVALID);

    const char msg[] = "user data";
    CHECK_OK(aclrtSetBufUserData(m, msg, sizeof msg, 4));
    void *priv = NULL;
    uint64_t privSize = 0;
    CHECK_RT(rtMbufGetPrivInfo(m, &priv, &privSize), ACL_RT_SUCCESS);
    CHECK_EQ(privSize, 96);
    CHECK(memcmp((char *)priv + 4, msg, sizeof msg) == 0);

    rtMbufPtr_t c = NULL, got = NULL;
    CHECK_RT(rtMbufCopyBufRef(m, &c), ACL_RT_SUCCESS);
    CHECK_RT(rtMbufChainAppend(m, c), ACL_RT_SUCCESS);
    uint32_t num = 0;
    CHECK_RT(rtMbufChainGetMbufNum(m, &num), ACL_RT_SUCCESS);
    CHECK_EQ(num, 2);
    CHECK_RT(rtMbufChainGetMbuf(m, 1, &got), ACL_RT_SUCCESS);
    CHECK(got == c);
    CHECK_RT(rtMbufFree(m), ACL_RT_SUCCESS);
    CHECK_RT(rtMbufFree(c), ACL_ERROR_RT_PARAM_INVALID); /* freed with its chain */

    /* Groups through the runtime. */
    uint32_t cnt = 0;
    CHECK_RT(rtGetGroupCount(&cnt), ACL_RT_SUCCESS);
    CHECK_EQ(cnt, 1);
    rtGroupInfo_t info[2];
    memset(info, 0xff, sizeof info);
    CHECK_RT(rtGetGroupInfo(-1, info, 2), ACL_RT_SUCCESS);
    CHECK_EQ(info[0].groupId, 0);
    int64_t aicore = 0;
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &aicore));
    CHECK_EQ(info[0].aicoreNum, (uint32_t)aicore);
    CHECK_EQ(info[0].activeStreamNum, 32);
    CHECK_RT(rtGetGroupInfo(3, info, 1), ACL_ERROR_RT_GROUP_NOT_CREATE);
    CHECK_RT(rtSetGroup(0), ACL_RT_SUCCESS);
    CHECK_RT(rtSetGroup(1), ACL_ERROR_RT_GROUP_NOT_CREATE);

    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    CHECK_OK(aclFinalize());
    return 0;
}
