/* snapshot_runtime: the runtime's rtSnapShot* calls act on the calling
 * process and share the ACL calls' state and callbacks (docs/groups.md):
 * a lock taken with rtSnapShotProcessLock is seen by
 * aclrtSnapShotProcessLock, a callback registered through the runtime runs
 * at an ACL-driven stage.
 *
 * link: -lruntime -lascendcl
 * needs: emulator
 * env: NPUEMU_DEVICES=1
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "runtime/rt.h"

#define CHECK_RT(call, code) CHECK_EQ((int)(call), (int)(code))

static int locks;

static uint32_t on_lock(int32_t dev, void *args)
{
    (void)dev;
    (void)args;
    locks++;
    return 0;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    CHECK_RT(rtSnapShotCallbackRegister(RT_SNAPSHOT_LOCK_PRE, on_lock, NULL), ACL_RT_SUCCESS);
    CHECK_RT(rtSnapShotCallbackRegister(RT_SNAPSHOT_LOCK_PRE, on_lock, NULL), ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED);

    CHECK_RT(rtSnapShotProcessRestore(), ACL_ERROR_SNAPSHOT_RESTORE_FAILED); /* not locked */
    CHECK_RT(rtSnapShotProcessLock(), ACL_RT_SUCCESS);
    CHECK_EQ(locks, 1);
    CHECK_ERR(aclrtSnapShotProcessLock(getpid(), NULL), ACL_ERROR_SNAPSHOT_LOCK_FAILED);
    CHECK_RT(rtSnapShotProcessBackup(), ACL_RT_SUCCESS);
    CHECK_RT(rtSnapShotProcessRestore(), ACL_RT_SUCCESS);
    CHECK_OK(aclrtSnapShotProcessUnlock(getpid(), NULL));
    CHECK_RT(rtSnapShotProcessUnlock(), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED);

    CHECK_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, on_lock));
    CHECK_RT(rtSnapShotCallbackUnregister(RT_SNAPSHOT_LOCK_PRE, on_lock), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    CHECK_OK(aclFinalize());
    return 0;
}
