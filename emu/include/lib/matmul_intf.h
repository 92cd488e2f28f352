// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* lib/matmul_intf.h: the Matmul high-level API of Ascend C, as kernels
 * include it ("lib/matmul_intf.h" after "kernel_operator.h"). npuemu's
 * implementation is ascendc/matmul.h (docs/ascendc-cube.md). */
#ifndef NPUEMU_LIB_MATMUL_INTF_H
#define NPUEMU_LIB_MATMUL_INTF_H

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "ascendc/matmul.h"

#endif
