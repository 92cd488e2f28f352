/* event_pool_310p: the event-id pool of an Atlas inference (310P) device holds
 * 1023 events; events that need no hardware id do not count. */
/* needs: emulator */
/* env: NPUEMU_SOC=Ascend310P3 NPUEMU_DEVICES=1 */
#include "rt_util.h"

#define LIMIT 1023

static aclrtEvent evs[LIMIT];

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    /* doc: semantics.md §5 — 1023 events per 310P device. */
    uint32_t avail = 0;
    CHECK_OK(aclrtGetEventAvailNum(&avail));
    CHECK_EQ(avail, LIMIT);

    /* doc: semantics.md §5 — Ex events are not limited by hardware ids. */
    aclrtEvent ex = NULL;
    CHECK_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    CHECK_OK(aclrtGetEventAvailNum(&avail));
    CHECK_EQ(avail, LIMIT);

    /* doc: semantics.md §5 — SYNC events consume hardware ids; the pool
     * runs dry with ACL_ERROR_RT_NO_EVENT_RESOURCE (acl-error-map.tsv). */
    for (int i = 0; i < LIMIT; i++) CHECK_OK(aclrtCreateEventWithFlag(&evs[i], ACL_EVENT_SYNC));
    CHECK_OK(aclrtGetEventAvailNum(&avail));
    CHECK_EQ(avail, 0);
    aclrtEvent extra = NULL;
    CHECK_ERR(aclrtCreateEventWithFlag(&extra, ACL_EVENT_SYNC), ACL_ERROR_RT_NO_EVENT_RESOURCE);

    /* Destroying one frees one id. */
    CHECK_OK(aclrtDestroyEvent(evs[0]));
    CHECK_OK(aclrtGetEventAvailNum(&avail));
    CHECK_EQ(avail, 1);
    CHECK_OK(aclrtCreateEventWithFlag(&evs[0], ACL_EVENT_SYNC));

    for (int i = 0; i < LIMIT; i++) CHECK_OK(aclrtDestroyEvent(evs[i]));
    CHECK_OK(aclrtDestroyEvent(ex));
    CHECK_OK(aclrtGetEventAvailNum(&avail));
    CHECK_EQ(avail, LIMIT);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
