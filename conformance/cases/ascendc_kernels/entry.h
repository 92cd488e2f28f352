// npuemu-cxx17
/* entry.h: what the Ascend C compiler driver appends to a kernel source,
 * written by hand for the conformance kernels (the driver is tested apart):
 * one npuemu kernel entry per kernel that runs it through
 * npuemu::asc::run_block with its parameters read by npuemu::asc::arg. */
#ifndef ASCENDC_CASES_ENTRY_H
#define ASCENDC_CASES_ENTRY_H

#include "kernel_operator.h"

#define ASC_ARG(T, off) npuemu::asc::arg<T>(ctx, off)
/* ASC_ENTRY(name, kind, call): the entry npuemu_entry_<name>. */
#define ASC_ENTRY(NAME, KIND, CALL)                                            \
    static void npuemu_entry_##NAME(const npuemu_kernel_ctx *ctx) {            \
        npuemu::asc::run_block(ctx, #NAME, KIND, [&] { CALL; });             \
    }
#define ASC_ROW(NAME, KIND) {#NAME, npuemu_entry_##NAME, KIND, 0, 0, 0, 0, 0, 0, nullptr, 0}
#define ASC_ROW_COOP(NAME, KIND) {#NAME, npuemu_entry_##NAME, KIND, 0, 0, 0, 0, 0, 0, nullptr, NPUEMU_KERNEL_COOPERATIVE}

#endif
