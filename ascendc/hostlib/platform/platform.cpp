// libplatform: PlatformAscendC and PlatformAscendCManager
// (tiling/platform/platform_ascendc.h) over npuemu's SoC catalogue.
//
// The catalogue rows repeat emu/soc.go (core counts) and semantics.md §20
// (local memory sizes); the BIAS table (BT) and Fixpipe buffer (FB) sizes
// are the A2 family's documented 1 KiB / 7 KiB, used for the other
// separated-architecture families too (npuemu's choice), and 0 where the
// SoC has none (coupled 310P/A1). GetCoreMemBw answers npuemu's model
// bandwidths in bytes per cycle (documented in docs/ascendc-cube.md).
#include "tiling/platform/platform_ascendc.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

namespace platform_ascendc {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;

struct Family {
    SocVersion version;
    uint32_t npuArch;
    bool separated;  // cube and vector cores apart (AIC/AIV)
    uint64_t ub, l1, l0a, l0b, l0c, bt, fb;
    uint32_t libApiWorkspace;
};

const Family kA2 = {SocVersion::ASCEND910B, 2201, true, 196608, 524288, 65536, 65536, 131072, 1 * kKiB, 7 * kKiB, 16 * kMiB};
const Family kA3 = {SocVersion::ASCEND910_93, 2201, true, 196608, 524288, 65536, 65536, 131072, 1 * kKiB, 7 * kKiB, 16 * kMiB};
const Family k950 = {SocVersion::ASCEND950, 3510, true, 253952, 524288, 65536, 65536, 262144, 1 * kKiB, 7 * kKiB, 16 * kMiB};
const Family k310P = {SocVersion::ASCEND310P, 2002, false, 262144, 1048576, 65536, 65536, 262144, 0, 0, 2 * kMiB};
const Family k310B = {SocVersion::ASCEND310B, 3002, false, 253952, 1048576, 65536, 65536, 131072, 1 * kKiB, 7 * kKiB, 2 * kMiB};
const Family kA1 = {SocVersion::ASCEND910, 1001, false, 262144, 1048576, 65536, 65536, 262144, 0, 0, 2 * kMiB};

struct Soc {
    const char *name;
    const Family *family;
    uint32_t aiCores, cube, vector;
    uint64_t hbm, l2;
};

// emu/soc.go's parts, in its order.
const Soc kSocs[] = {
    {"Ascend910B1", &kA2, 24, 24, 48, 64 * kGiB, 192 * kMiB},
    {"Ascend910B2", &kA2, 24, 24, 48, 64 * kGiB, 192 * kMiB},
    {"Ascend910B2C", &kA2, 24, 24, 48, 64 * kGiB, 192 * kMiB},
    {"Ascend910B3", &kA2, 20, 20, 40, 64 * kGiB, 192 * kMiB},
    {"Ascend910B4", &kA2, 20, 20, 40, 32 * kGiB, 96 * kMiB},
    {"Ascend910B4-1", &kA2, 20, 20, 40, 32 * kGiB, 168 * kMiB},
    {"Ascend910_9362", &kA3, 20, 20, 40, 64 * kGiB, 168 * kMiB},
    {"Ascend910_9363", &kA3, 20, 20, 40, 32 * kGiB, 168 * kMiB},
    {"Ascend910_9372", &kA3, 20, 20, 40, 64 * kGiB, 192 * kMiB},
    {"Ascend910_9381", &kA3, 24, 24, 48, 64 * kGiB, 192 * kMiB},
    {"Ascend910_9382", &kA3, 24, 24, 48, 64 * kGiB, 192 * kMiB},
    {"Ascend910_9391", &kA3, 24, 24, 48, 64 * kGiB, 192 * kMiB},
    {"Ascend910_9392", &kA3, 24, 24, 48, 64 * kGiB, 192 * kMiB},
    {"Ascend310P1", &k310P, 10, 10, 8, 24000000000ull, 16 * kMiB},
    {"Ascend310P3", &k310P, 8, 8, 7, 24000000000ull, 16 * kMiB},
    {"Ascend310P5", &k310P, 8, 8, 7, 24000000000ull, 16 * kMiB},
    {"Ascend310P7", &k310P, 8, 8, 7, 24000000000ull, 16 * kMiB},
    {"Ascend310B1", &k310B, 1, 1, 1, 32 * kGiB, 4 * kMiB},
    {"Ascend310B2", &k310B, 1, 1, 1, 8 * kGiB, 4 * kMiB},
    {"Ascend310B3", &k310B, 1, 1, 1, 8 * kGiB, 4 * kMiB},
    {"Ascend310B4", &k310B, 1, 1, 1, 8 * kGiB, 4 * kMiB},
    {"Ascend910A", &kA1, 32, 32, 0, 32 * kGiB, 32 * kMiB},
    {"Ascend910ProA", &kA1, 32, 32, 0, 32 * kGiB, 32 * kMiB},
    {"Ascend910PremiumA", &kA1, 32, 32, 0, 32 * kGiB, 32 * kMiB},
    {"Ascend910B", &kA1, 30, 30, 0, 32 * kGiB, 32 * kMiB},
    {"Ascend910ProB", &kA1, 30, 30, 0, 32 * kGiB, 32 * kMiB},
    {"Ascend950DT_9591", &k950, 36, 36, 72, 144 * kGiB, 128 * kMiB},
    {"Ascend950PR_9599", &k950, 36, 36, 72, 128 * kGiB, 128 * kMiB},
};
constexpr int kNumSocs = sizeof(kSocs) / sizeof(kSocs[0]);
constexpr const char *kDefaultSoc = "Ascend910B3";  // emu.DefaultSoC

int lookup(const char *name) {
    if (name == nullptr) {
        return -1;
    }
    for (int i = 0; i < kNumSocs; i++) {
        if (strcmp(kSocs[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

// configSoc reads the "soc" key of the NPUEMU_CONFIG JSON file (a plain
// scan for "soc" : "<name>", enough for the file's flat object).
std::string configSoc() {
    const char *path = getenv("NPUEMU_CONFIG");
    if (path == nullptr || *path == '\0') {
        return "";
    }
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    size_t k = s.find("\"soc\"");
    if (k == std::string::npos) {
        return "";
    }
    size_t colon = s.find(':', k + 5);
    size_t q1 = colon == std::string::npos ? colon : s.find('"', colon + 1);
    size_t q2 = q1 == std::string::npos ? q1 : s.find('"', q1 + 1);
    if (q2 == std::string::npos) {
        return "";
    }
    return s.substr(q1 + 1, q2 - q1 - 1);
}

// nodeSoc is the runtime's choice: NPUEMU_SOC, the config file, the default.
int nodeSoc() {
    int i = lookup(getenv("NPUEMU_SOC"));
    if (i < 0) {
        i = lookup(configSoc().c_str());
    }
    if (i < 0) {
        i = lookup(kDefaultSoc);
    }
    return i;
}

int resolve(const char *socVersion) {
    int i = lookup(socVersion);
    return i >= 0 ? i : nodeSoc();
}

}  // namespace

PlatformAscendC::PlatformAscendC(fe::PlatFormInfos *platformInfo) : soc_(nodeSoc()) { (void)platformInfo; }

PlatformAscendC::PlatformAscendC(const char *socVersion) : soc_(resolve(socVersion)) {}

uint32_t PlatformAscendC::GetCoreNum() const {
    const Soc &s = kSocs[soc_];
    return s.family->separated ? s.vector : s.aiCores;
}

uint32_t PlatformAscendC::GetCoreNumAic() const {
    const Soc &s = kSocs[soc_];
    return s.family->separated ? s.cube : s.aiCores;
}

uint32_t PlatformAscendC::GetCoreNumAiv() const {
    const Soc &s = kSocs[soc_];
    return s.family->separated ? s.vector : s.aiCores;
}

uint32_t PlatformAscendC::GetCoreNumVector() const {
    const Soc &s = kSocs[soc_];
    return s.family->separated ? 0 : s.vector;
}

// CalcTschBlockDim: on a separated SoC a MIX launch's block is one AIC plus
// aiv/aic AIVs, so sliceNum vector slices need ceil(sliceNum / ratio)
// blocks; a kernel that uses only one kind needs sliceNum blocks.
uint32_t PlatformAscendC::CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    const Soc &s = kSocs[soc_];
    if (!s.family->separated || aicCoreNum == 0 || aivCoreNum == 0) {
        return sliceNum;
    }
    uint32_t ratio = aivCoreNum / aicCoreNum;
    if (ratio <= 1) {
        return sliceNum;
    }
    return (sliceNum + ratio - 1) / ratio;
}

void PlatformAscendC::GetCoreMemSize(const CoreMemType &memType, uint64_t &size) const {
    const Soc &s = kSocs[soc_];
    const Family &f = *s.family;
    switch (memType) {
    case CoreMemType::L0_A: size = f.l0a; break;
    case CoreMemType::L0_B: size = f.l0b; break;
    case CoreMemType::L0_C: size = f.l0c; break;
    case CoreMemType::L1: size = f.l1; break;
    case CoreMemType::L2: size = s.l2; break;
    case CoreMemType::UB: size = f.ub; break;
    case CoreMemType::HBM: size = s.hbm; break;
    case CoreMemType::FB: size = f.fb; break;
    case CoreMemType::BT: size = f.bt; break;
    default: size = 0; break;
    }
}

// GetCoreMemBw: npuemu's model bandwidths, bytes per cycle of one core.
void PlatformAscendC::GetCoreMemBw(const CoreMemType &memType, uint64_t &bwSize) const {
    switch (memType) {
    case CoreMemType::L2: bwSize = 110; break;
    case CoreMemType::HBM: bwSize = 32; break;
    default: bwSize = 0; break;
    }
}

SocVersion PlatformAscendC::GetSocVersion() const { return kSocs[soc_].family->version; }

uint32_t PlatformAscendC::GetLibApiWorkSpaceSize() const { return kSocs[soc_].family->libApiWorkspace; }

uint32_t PlatformAscendC::GetResGroupBarrierWorkSpaceSize() const {
    return kSocs[soc_].family->separated ? 1 * kMiB : 0;
}

uint32_t PlatformAscendC::GetResCubeGroupWorkSpaceSize() const {
    return kSocs[soc_].family->separated ? 1 * kMiB : 0;
}

uint64_t PlatformAscendC::ReserveLocalMemory(uint64_t size) const { return size; }

const char *PlatformAscendC::GetSocName() const { return kSocs[soc_].name; }

uint32_t PlatformAscendC::GetNpuArch() const { return kSocs[soc_].family->npuArch; }

PlatformAscendC *PlatformAscendCManager::GetInstance() { return GetInstance(nullptr); }

// GetInstance keeps one object per SoC for the life of the process, as the
// vendor's singleton does.
PlatformAscendC *PlatformAscendCManager::GetInstance(const char *customSocVersion) {
    static std::mutex mu;
    static PlatformAscendC *objs[kNumSocs] = {};
    int i = resolve(customSocVersion);
    std::lock_guard<std::mutex> lk(mu);
    if (objs[i] == nullptr) {
        objs[i] = new PlatformAscendC(kSocs[i].name);
    }
    return objs[i];
}

}  // namespace platform_ascendc
