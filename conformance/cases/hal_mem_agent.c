/* hal_mem_agent: halMemAgentOpen / halMemAgentClose (hal-api.md §3.4):
 * the memory manager's device-side (SVM_AGENT_DEVICE) and host-side
 * (SVM_AGENT_HOST) agents of a device open and close in pairs, the two
 * sides are distinct agents, memory works with the agent open and after
 * it is closed, and bad device ids and flags get drvError_t codes.
 *
 * link: -lascendcl -lascend_hal
 * env: NPUEMU_DEVICES=2
 * needs: devices=2
 */
#include <stdint.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define CHECK_DRV(call, code)                                            \
    do {                                                                 \
        drvError_t check_d_ = (call);                                    \
        if (check_d_ != (code))                                          \
            FAIL("%s: got %d, want %s (%d)", #call, (int)check_d_, #code, (int)(code)); \
    } while (0)

int main(void)
{
    CHECK_EQ(SVM_AGENT_DEVICE, 0);
    CHECK_EQ(SVM_AGENT_HOST, 1);

    CHECK_DRV(halMemAgentClose(1, SVM_AGENT_DEVICE), DRV_ERROR_INVALID_VALUE); /* never opened */
    CHECK_DRV(halMemAgentOpen(1, SVM_AGENT_DEVICE), DRV_ERROR_NONE);
    CHECK_DRV(halMemAgentOpen(1, SVM_AGENT_DEVICE), DRV_ERROR_NONE); /* again: already open */
    CHECK_DRV(halMemAgentClose(1, SVM_AGENT_HOST), DRV_ERROR_INVALID_VALUE); /* the other side */
    CHECK_DRV(halMemAgentOpen(1, SVM_AGENT_HOST), DRV_ERROR_NONE);
    CHECK_DRV(halMemAgentClose(0, SVM_AGENT_DEVICE), DRV_ERROR_INVALID_VALUE); /* another device */

    void *p = NULL;
    CHECK_DRV(halMemAlloc(&p, 4096, MEM_DEV | 1), DRV_ERROR_NONE);
    CHECK(p != NULL);
    CHECK_DRV(drvMemsetD8((DVdeviceptr)(uintptr_t)p, 4096, 1, 4096), DRV_ERROR_NONE);

    CHECK_DRV(halMemAgentClose(1, SVM_AGENT_DEVICE), DRV_ERROR_NONE);
    CHECK_DRV(halMemAgentClose(1, SVM_AGENT_DEVICE), DRV_ERROR_INVALID_VALUE); /* closed once */
    CHECK_DRV(halMemAgentClose(1, SVM_AGENT_HOST), DRV_ERROR_NONE);
    /* Memory allocated while the agent was open stays usable. */
    CHECK_DRV(drvMemsetD8((DVdeviceptr)(uintptr_t)p, 4096, 2, 4096), DRV_ERROR_NONE);
    CHECK_DRV(halMemFree(p), DRV_ERROR_NONE);

    CHECK_DRV(halMemAgentOpen(7, SVM_AGENT_DEVICE), DRV_ERROR_INVALID_DEVICE);
    CHECK_DRV(halMemAgentClose(7, SVM_AGENT_HOST), DRV_ERROR_INVALID_DEVICE);
    CHECK_DRV(halMemAgentOpen(0, 2), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(halMemAgentClose(0, 0xFFFFFFFFu), DRV_ERROR_INVALID_VALUE);
    return 0;
}
