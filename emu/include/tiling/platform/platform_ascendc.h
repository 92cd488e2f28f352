// npuemu-cxx17: this header is C++ only (C++11 or later; see docs/ascendc-cube.md).
/* tiling/platform/platform_ascendc.h: the host-side platform API of Ascend C
 * (PlatformAscendC, PlatformAscendCManager) on npuemu. C++ only.
 *
 * The values are those of the emulated SoC: the SoC named by the caller
 * (PlatformAscendCManager::GetInstance("Ascend910B1")) when it is in the
 * catalogue, otherwise the node's SoC as the runtime reads it (NPUEMU_SOC,
 * else the "soc" key of the NPUEMU_CONFIG file, else Ascend910B3). The
 * catalogue is emu/soc.go's; the local memory sizes are semantics.md §20.
 * Implemented in libplatform.so (ascendc/hostlib/platform);
 * docs/ascendc-cube.md describes it.
 */
#ifndef NPUEMU_TILING_PLATFORM_PLATFORM_ASCENDC_H
#define NPUEMU_TILING_PLATFORM_PLATFORM_ASCENDC_H

#include <cstdint>
#include <string>

namespace fe {
class PlatFormInfos; /* the GE platform object; npuemu has none (see the constructor below) */
}

namespace platform_ascendc {

/* GetCoreMemSize's memory kinds (documented values). */
enum class CoreMemType {
    L0_A = 0,
    L0_B = 1,
    L0_C = 2,
    L1 = 3,
    L2 = 4,
    UB = 5,
    HBM = 6,
    FB = 7,
    BT = 8,
    RESERVED
};

/* GetSocVersion's answer: the SoC's short name as a family. */
enum class SocVersion {
    ASCEND910 = 0,   /* Ascend910A/B (first generation) */
    ASCEND910B,      /* Atlas A2: Ascend910B1..B4 */
    ASCEND910_93,    /* Atlas A3: Ascend910_93xx */
    ASCEND950,       /* Ascend950 */
    ASCEND310P,      /* Ascend310P1..P7 */
    ASCEND310B,      /* Ascend310B1..B4 */
    RESERVED_VERSION = 99999
};

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() {}
    /* GE hands tiling functions an fe::PlatFormInfos; npuemu has no graph
     * engine, so this reads the node's SoC like GetInstance() does. */
    explicit PlatformAscendC(fe::PlatFormInfos *platformInfo);
    /* npuemu: the platform of the named SoC (nullptr or unknown: the node's). */
    explicit PlatformAscendC(const char *socVersion);

    uint32_t GetCoreNum() const;       /* vector cores on A2/A3 (separated architecture), AI cores elsewhere */
    uint32_t GetCoreNumAic() const;    /* cube cores (AI cores on coupled SoCs) */
    uint32_t GetCoreNumAiv() const;    /* vector cores (AI cores on coupled SoCs) */
    uint32_t GetCoreNumVector() const; /* separate Vector Cores of a coupled SoC (310P); 0 elsewhere */
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
    void GetCoreMemSize(const CoreMemType &memType, uint64_t &size) const;
    void GetCoreMemBw(const CoreMemType &memType, uint64_t &bwSize) const;
    SocVersion GetSocVersion() const;
    uint32_t GetLibApiWorkSpaceSize() const;
    uint32_t GetResGroupBarrierWorkSpaceSize() const;
    uint32_t GetResCubeGroupWorkSpaceSize() const;
    uint64_t ReserveLocalMemory(uint64_t size) const; /* npuemu: nothing to reserve; returns size */

    /* npuemu extensions (not in CANN): the SoC's catalogue name and NPU arch. */
    const char *GetSocName() const;
    uint32_t GetNpuArch() const;

private:
    int soc_; /* index into the library's catalogue */
};

class PlatformAscendCManager {
public:
    /* The platform of the node's SoC; never nullptr. */
    static PlatformAscendC *GetInstance();
    /* The platform of the named SoC ("Ascend910B1"), or of the node's SoC
     * when the name is not in the catalogue; never nullptr. */
    static PlatformAscendC *GetInstance(const char *customSocVersion);

private:
    PlatformAscendCManager() = delete;
};

} // namespace platform_ascendc

#endif /* NPUEMU_TILING_PLATFORM_PLATFORM_ASCENDC_H */
