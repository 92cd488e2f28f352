/* prof_control: the aclprof* collection control as documented
 * (prof-api.md §4, §6): argument checks of aclprofInit, aclprofSetConfig
 * and aclprofCreateConfig, the process-wide mode (init twice, subscription
 * while initialised), Start/Stop around work, repeated Finalize, stamps
 * outside a collection and the aclprofStr2Id test vectors.
 *
 * link: -lmsprofiler
 */
#include "rt_util.h"

#include <stdint.h>

#include "acl/acl_prof.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    char dir[] = "/tmp/npuemu-prof-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);

    /* doc §4.2: aclprofInit checks its path. */
    CHECK_ERR(aclprofInit(NULL, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclprofInit(dir, strlen(dir) + 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclprofInit(dir, 0), ACL_ERROR_INVALID_PARAM);

    /* doc §4.2: aclprofCreateConfig returns NULL on bad arguments. */
    uint32_t dev0[] = {0}, twice[] = {0, 0}, beyond[] = {rt_device_count()};
    uint64_t types = ACL_PROF_TASK_TIME | ACL_PROF_ACL_API;
    CHECK(aclprofCreateConfig(NULL, 1, ACL_AICORE_NONE, NULL, types) == NULL);
    CHECK(aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, (const aclprofAicoreEvents *)dev0, types) == NULL);
    CHECK(aclprofCreateConfig(twice, 2, ACL_AICORE_NONE, NULL, types) == NULL);
    CHECK(aclprofCreateConfig(beyond, 1, ACL_AICORE_NONE, NULL, types) == NULL);
    CHECK(aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, types) == NULL);
    aclprofConfig *txOnly = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
    CHECK(txOnly != NULL);
    CHECK_OK(aclprofDestroyConfig(txOnly));
    CHECK_ERR(aclprofDestroyConfig(NULL), ACL_ERROR_INVALID_PARAM);

    /* doc §4.2: aclprofSetConfig checks type, length and value. */
    CHECK_ERR(aclprofSetConfig(ACL_PROF_ARGS_MAX, "read", 4), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclprofSetConfig(ACL_PROF_LLC_MODE, "read", 3), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclprofSetConfig(ACL_PROF_LLC_MODE, "bogus", 5), ACL_ERROR_INVALID_PROFILING_CONFIG);
    CHECK_ERR(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "100MB", 5), ACL_ERROR_INVALID_PROFILING_CONFIG);
    CHECK_OK(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "500MB", 5));
    CHECK_OK(aclprofSetConfig(ACL_PROF_LLC_MODE, "read", 4));

    /* doc §4.1: one process-wide mode; a second Init is refused. */
    CHECK_OK(aclprofInit(dir, strlen(dir)));
    CHECK_ERR(aclprofInit(dir, strlen(dir)), ACL_ERROR_REPEAT_INITIALIZE);

    /* doc §4.1: subscription is not allowed between Init and Finalize. */
    int fds[2];
    CHECK(pipe(fds) == 0);
    aclprofSubscribeConfig *sub = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    CHECK(sub != NULL);
    CHECK_ERR(aclprofModelSubscribe(1, sub), ACL_ERROR_PROF_API_CONFLICT);
    CHECK_OK(aclprofDestroySubscribeConfig(sub));
    close(fds[0]);
    close(fds[1]);

    /* doc §4.2: Start, work, Stop with the same configuration; a second
     * Start with the same configuration is accepted. */
    aclprofConfig *cfg = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL, types);
    CHECK(cfg != NULL);
    CHECK_OK(aclprofStart(cfg));
    CHECK_OK(aclprofStart(cfg));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    void *d = NULL, *h = NULL;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, 4096));
    CHECK_OK(aclrtMemsetAsync(d, 4096, 7, 4096, s));
    CHECK_OK(aclrtMemcpyAsync(h, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_OK(aclrtSynchronizeStream(s));
    CHECK(((unsigned char *)h)[4095] == 7);
    CHECK_OK(aclprofStop(cfg));
    CHECK_OK(aclprofDestroyConfig(cfg));

    /* doc §6: stamps exist only while msproftx collection runs. */
    CHECK(aclprofCreateStamp() == NULL);

    /* doc §4.2: Finalize ends API mode; Init works again afterwards. */
    CHECK_OK(aclprofFinalize());
    CHECK_OK(aclprofInit(dir, strlen(dir)));
    CHECK_OK(aclprofFinalize());

    /* doc §6: aclprofStr2Id test vectors. */
    CHECK(aclprofStr2Id("abc") == 0x00014A26001998F2ULL);
    CHECK(aclprofStr2Id("MatMul") == 0x626628205D1C5684ULL);
    CHECK(aclprofStr2Id("default") == 0x5959527DDC8B8BF9ULL);
    CHECK(aclprofStr2Id("") == UINT64_MAX);

    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("aclprof collection control checked\n");
    return 0;
}
