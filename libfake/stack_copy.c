/* stack_copy.c: the trampolines of the driver's synchronous copy family
 * (stack.h): rtMemcpy's halSdmaCopy, halMemcpy and drvMemcpy, rtMemset's
 * drvMemsetD8 and rtMemcpy2d's halMemcpy2D, called when another library
 * interposed the symbol (libfake/stack_copy.go wires them). */
#include "stack.h"

int32_t npu_x_halSdmaCopy(uintptr_t dst, size_t dst_size, uintptr_t src, size_t len) {
    return ((__typeof__(&halSdmaCopy))npu_cross[NPU_X_halSdmaCopy])((DVdeviceptr)dst, dst_size, (DVdeviceptr)src, len);
}

int32_t npu_x_halMemcpy(uintptr_t dst, size_t dst_size, uintptr_t src, size_t count, uint32_t dir, uint32_t devid) {
    struct memcpy_info info = {.dir = (drvMemcpyKind_t)dir, .devid = devid};
    return ((__typeof__(&halMemcpy))npu_cross[NPU_X_halMemcpy])((void *)dst, dst_size, (void *)src, count, &info);
}

int32_t npu_x_drvMemcpy(uintptr_t dst, size_t dest_max, uintptr_t src, size_t byte_count) {
    return ((__typeof__(&drvMemcpy))npu_cross[NPU_X_drvMemcpy])((DVdeviceptr)dst, dest_max, (DVdeviceptr)src, byte_count);
}

int32_t npu_x_drvMemsetD8(uintptr_t dst, size_t dest_max, uint8_t value, size_t num) {
    return ((__typeof__(&drvMemsetD8))npu_cross[NPU_X_drvMemsetD8])((DVdeviceptr)dst, dest_max, (UINT8)value, num);
}

int32_t npu_x_halMemcpy2D(void *p_copy) {
    return ((__typeof__(&halMemcpy2D))npu_cross[NPU_X_halMemcpy2D])((struct MEMCPY2D *)p_copy);
}
