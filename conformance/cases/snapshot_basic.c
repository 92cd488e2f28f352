/* snapshot_basic: process snapshots (21_snapshot_management; 950/A3/A2):
 * lock, back up, change device memory, restore, unlock — the memory reads
 * what it held at the backup; the stage callbacks run per opened device in
 * order, a failing one stops the call; order errors get the
 * ACL_ERROR_SNAPSHOT_* codes (docs/groups.md).
 *
 * needs: emulator
 * env: NPUEMU_DEVICES=1
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define N 4096

static int calls[6];
static int fail_backup;

static uint32_t stage_cb(int32_t dev, void *args)
{
    int stage = (int)(intptr_t)args;
    if (dev != 0)
        return 99;
    calls[stage]++;
    if (stage == ACL_RT_SNAPSHOT_BACKUP_PRE && fail_backup)
        return 1;
    return 0;
}

int main(void)
{
    int pid = getpid();
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    for (int s = ACL_RT_SNAPSHOT_LOCK_PRE; s <= ACL_RT_SNAPSHOT_UNLOCK_POST; s++)
        CHECK_OK(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)s, stage_cb, (void *)(intptr_t)s));
    CHECK_ERR(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, stage_cb, NULL), ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED);
    CHECK_ERR(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)6, stage_cb, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, NULL, NULL), ACL_ERROR_INVALID_PARAM);

    static uint8_t a[N], b[N], out[N];
    memset(a, 0xa1, N);
    memset(b, 0xb2, N);
    void *dev = NULL;
    CHECK_OK(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMemcpy(dev, N, a, N, ACL_MEMCPY_HOST_TO_DEVICE));

    aclrtSnapShotBackupArgs bargs;
    aclrtSnapShotRestoreArgs rargs;
    memset(&bargs, 0, sizeof bargs);
    memset(&rargs, 0, sizeof rargs);

    /* Order errors. */
    CHECK_ERR(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED);
    CHECK_ERR(aclrtSnapShotProcessBackup(pid, &bargs), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
    CHECK_ERR(aclrtSnapShotProcessRestore(pid, &rargs), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
    CHECK_ERR(aclrtSnapShotProcessLock(pid + 100000, NULL), ACL_ERROR_INVALID_PARAM);

    CHECK_OK(aclrtSnapShotProcessLock(pid, NULL));
    CHECK_EQ(calls[ACL_RT_SNAPSHOT_LOCK_PRE], 1);
    CHECK_ERR(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_SNAPSHOT_LOCK_FAILED);
    CHECK_ERR(aclrtSnapShotProcessRestore(pid, &rargs), ACL_ERROR_SNAPSHOT_RESTORE_FAILED); /* no backup yet */
    CHECK_ERR(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_INVALID_PARAM);

    /* A failing callback stops the backup. */
    fail_backup = 1;
    CHECK_ERR(aclrtSnapShotProcessBackup(pid, &bargs), ACL_ERROR_SNAPSHOT_CALLBACK_FAILED);
    CHECK_EQ(calls[ACL_RT_SNAPSHOT_BACKUP_POST], 0);
    fail_backup = 0;
    CHECK_OK(aclrtSnapShotProcessBackup(pid, &bargs));
    CHECK_EQ(calls[ACL_RT_SNAPSHOT_BACKUP_POST], 1);
    CHECK_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    CHECK_EQ(calls[ACL_RT_SNAPSHOT_UNLOCK_POST], 1);

    /* The memory changes; a restore brings the backup back. */
    CHECK_OK(aclrtMemcpy(dev, N, b, N, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtSnapShotProcessLock(pid, NULL));
    CHECK_OK(aclrtSnapShotProcessRestore(pid, &rargs));
    CHECK_EQ(calls[ACL_RT_SNAPSHOT_RESTORE_PRE], 1);
    CHECK_EQ(calls[ACL_RT_SNAPSHOT_RESTORE_POST], 1);
    CHECK_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    CHECK_OK(aclrtMemcpy(out, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(out, a, N) == 0);

    /* Unregistered callbacks are not called any more. */
    CHECK_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, stage_cb));
    CHECK_ERR(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, stage_cb), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtSnapShotProcessLock(pid, NULL));
    CHECK_EQ(calls[ACL_RT_SNAPSHOT_LOCK_PRE], 2);
    CHECK_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    for (int s = ACL_RT_SNAPSHOT_BACKUP_PRE; s <= ACL_RT_SNAPSHOT_UNLOCK_POST; s++)
        CHECK_OK(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)s, stage_cb));

    CHECK_OK(aclrtFree(dev));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
