/* kernel_tiling/kernel_tiling.h: the tiling structures that the host fills
 * and a kernel reads, usable from host C++ and from Ascend C kernels.
 *
 * TCubeTiling holds the Matmul tiling (the TCubeTiling structure of the
 * Ascend C documentation). Every field is a 32-bit int, laid out in the
 * order below with no padding, so that a kernel may copy it word by word
 * from GM (as the vendor samples do) and so that the host-side
 * optiling::TCubeTiling (tiling/tiling_api.h) serialises to exactly these
 * bytes. The field list is NPUEMU_TCUBE_TILING_FIELDS, shared by both.
 *
 * npuemu's own header, written from the public documentation
 * (docs/ascendc-cube.md).
 */
#ifndef NPUEMU_KERNEL_TILING_KERNEL_TILING_H
#define NPUEMU_KERNEL_TILING_KERNEL_TILING_H

#include <stdint.h>

/* X(name) for every field of TCubeTiling, in layout order. */
#define NPUEMU_TCUBE_TILING_FIELDS(X)                                              \
    X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) \
    X(baseM) X(baseN) X(baseK) X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias)  \
    X(transLength) X(iterateOrder) X(shareMode) X(shareL1Size) X(shareL0CSize)     \
    X(shareUbSize) X(batchM) X(batchN) X(singleBatchM) X(singleBatchN) X(stepKa)    \
    X(stepKb) X(depthAL1CacheUB) X(depthBL1CacheUB) X(dbL0A) X(dbL0B) X(dbL0C)     \
    X(ALayoutInfoB) X(ALayoutInfoS) X(ALayoutInfoN) X(ALayoutInfoG) X(ALayoutInfoD) \
    X(BLayoutInfoB) X(BLayoutInfoS) X(BLayoutInfoN) X(BLayoutInfoG) X(BLayoutInfoD) \
    X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN) X(CLayoutInfoG)               \
    X(CLayoutInfoS2) X(BatchNum) X(mxTypePara) X(reserved)

#define NPUEMU_TCUBE_FIELD_DECL_(name) int32_t name;

/* The Matmul tiling as the kernel sees it. iterateOrder: 0 = the C tiles
 * advance along M first, 1 = along N first. isBias: 0/1. */
struct TCubeTiling {
    NPUEMU_TCUBE_TILING_FIELDS(NPUEMU_TCUBE_FIELD_DECL_)
};

#undef NPUEMU_TCUBE_FIELD_DECL_

#ifdef __cplusplus
static_assert(sizeof(TCubeTiling) == 51 * sizeof(int32_t), "TCubeTiling is 51 packed int32 fields");
#endif

#endif /* NPUEMU_KERNEL_TILING_KERNEL_TILING_H */
