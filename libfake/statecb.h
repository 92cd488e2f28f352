/* statecb.h: trampolines to the application's stream and device state
 * callbacks (internal to libfake). */
#ifndef NPUEMU_LIBFAKE_STATECB_H
#define NPUEMU_LIBFAKE_STATECB_H

#include <stdint.h>

void npu_call_streamstate(uintptr_t cb, uintptr_t stream, int32_t state, uintptr_t args);
void npu_call_devicestate(uintptr_t cb, int32_t dev, int32_t state, uintptr_t args);

#endif
