/* notify_ipc: exporting and importing a notify key within one process. */
#include <unistd.h>

#include "rt_util.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtNotify n = NULL;
    CHECK_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));

    /* doc: semantics.md §6 / §21.14 — key buffers hold at least 65 bytes. */
    char key[65];
    CHECK_ERR(aclrtNotifyGetExportKey(n, key, 64, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtNotifyGetExportKey(n, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT));
    CHECK(strlen(key) > 0 && strlen(key) < sizeof key);

    /* doc: semantics.md §6 — the pid whitelist is enforced by default. */
    aclrtNotify imp = NULL;
    CHECK_FAILS(aclrtNotifyImportByKey(&imp, key, ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT));
    int32_t pid = (int32_t)getpid();
    CHECK_OK(aclrtNotifySetImportPid(n, &pid, 1));
    CHECK_OK(aclrtNotifyImportByKey(&imp, key, ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT));

    /* The imported handle records the exporter's notify. */
    CHECK_OK(aclrtWaitAndResetNotify(n, s, 0));
    CHECK_OK(aclrtRecordNotify(imp, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));

    /* DISABLE_PID_VALIDATION drops the whitelist. */
    aclrtNotify open = NULL, imp2 = NULL;
    CHECK_OK(aclrtCreateNotify(&open, ACL_NOTIFY_DEFAULT));
    CHECK_OK(aclrtNotifyGetExportKey(open, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    CHECK_OK(aclrtNotifyImportByKey(&imp2, key, ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS));

    CHECK_OK(aclrtDestroyNotify(imp2));
    CHECK_OK(aclrtDestroyNotify(open));
    CHECK_OK(aclrtDestroyNotify(imp));
    CHECK_OK(aclrtDestroyNotify(n));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
