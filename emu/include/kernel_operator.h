// npuemu-cxx17: this header is C++17 only (see docs/ascendc.md).
/* kernel_operator.h: the Ascend C kernel programming interface on npuemu
 * (Atlas A2, dav-2201), for kernels compiled with the host C++17 compiler.
 * docs/ascendc.md lists what is implemented and the rules enforced. */
#ifndef NPUEMU_KERNEL_OPERATOR_H
#define NPUEMU_KERNEL_OPERATOR_H

#if __cplusplus < 201703L
#error "kernel_operator.h needs C++17 (-std=c++17)"
#endif

#include "ascendc/types.h"
#include "npuemu/ascendc_rt.h"
#include "ascendc/tensor.h"
#include "ascendc/pipe.h"
#include "ascendc/datacopy.h"
#include "ascendc/vec_impl.h"
#include "ascendc/vector.h"
#include "ascendc/reduce.h"
#include "ascendc/sync.h"
#include "ascendc/debug.h"
#include "ascendc/list_tensor.h"

/* The cube path (LoadData, Mmad, Fixpipe, ...) and its helpers. */
#define NPUEMU_ASC_HAVE_CUBE_HOOKS 1
#if __has_include("ascendc/cube.h")
#include "ascendc/cube.h"
#endif

#endif
