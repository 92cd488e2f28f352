/* ascendc_cube_hostlibs: the small host libraries the Ascend C samples link.
 * register: a tiling data class defined with BEGIN_TILING_DATA_DEF
 * serialises exactly as the C struct with the same members in the same
 * order (scalars of every size, arrays, a nested TCubeTiling), copies keep
 * their fields, REGISTER_TILING_DATA_CLASS makes it by operator type.
 * ascendalog: records at or above ASCEND_GLOBAL_LOG_LEVEL reach the plog
 * file under ASCEND_PROCESS_LOG_PATH, lower ones do not; a failing Matmul
 * tiling logs its reason there. platform: named SoCs answer the catalogue.
 * (The log text and the catalogue are npuemu's, hence emulator only.)
 *
 * needs: emulator
 * link: -lascendcl -ltiling_api -lregister -lplatform -lascendalog
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "check.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

extern "C" {
int CheckLogLevel(int moduleId, int logLevel);
void DlogRecord(int moduleId, int level, const char *fmt, ...);
int dlog_setlevel(int moduleId, int level, int enableEvent);
void DlogFlush(void);
}

namespace optiling {
BEGIN_TILING_DATA_DEF(CaseTiling)
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint16_t, tileNum);
TILING_DATA_FIELD_DEF(uint64_t, bytes);
TILING_DATA_FIELD_DEF_ARR(int16_t, 3, shape);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CaseOp, CaseTiling)
} // namespace optiling

/* The kernel's view of CaseTiling. */
struct CaseTilingC {
    uint8_t flag;
    uint32_t totalLength;
    uint16_t tileNum;
    uint64_t bytes;
    int16_t shape[3];
    TCubeTiling cube;
    float scale;
};

static std::string slurp(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

int main(void) {
    /* register */
    optiling::CaseTiling t;
    t.set_flag(7);
    t.set_totalLength(123456);
    t.set_tileNum(8);
    t.set_bytes(0x1122334455667788ull);
    int16_t shape[3] = {-1, 2, 300};
    t.set_shape(shape);
    t.cube.set_baseM(128);
    t.cube.set_usedCoreNum(20);
    t.set_scale(0.5f);
    CHECK_EQ(t.GetDataSize(), sizeof(CaseTilingC));
    CaseTilingC want;
    memset(&want, 0, sizeof want);
    want.flag = 7;
    want.totalLength = 123456;
    want.tileNum = 8;
    want.bytes = 0x1122334455667788ull;
    memcpy(want.shape, shape, sizeof shape);
    want.cube.baseM = 128;
    want.cube.usedCoreNum = 20;
    want.scale = 0.5f;
    unsigned char got[sizeof(CaseTilingC)];
    memset(got, 0xee, sizeof got);
    t.SaveToBuffer(got, sizeof got);
    CaseTilingC back;
    memcpy(&back, got, sizeof back);
    CHECK_EQ(back.flag, 7);
    CHECK_EQ(back.totalLength, 123456);
    CHECK_EQ(back.tileNum, 8);
    CHECK(back.bytes == want.bytes);
    CHECK(memcmp(back.shape, shape, sizeof shape) == 0);
    CHECK(memcmp(&back.cube, &want.cube, sizeof want.cube) == 0);
    CHECK(back.scale == 0.5f);
    /* a buffer that is too small is left alone */
    unsigned char small[8];
    memset(small, 0xee, sizeof small);
    t.SaveToBuffer(small, sizeof small);
    CHECK_EQ(small[0], 0xee);
    /* a copy keeps its own fields */
    optiling::CaseTiling u = t;
    u.set_totalLength(1);
    CHECK_EQ(t.get_totalLength(), 123456);
    CHECK_EQ(u.get_totalLength(), 1);
    CHECK_EQ(u.cube.get_baseM(), 128);
    CHECK_EQ(u.GetFieldInfo().size(), 7);
    CHECK(strcmp(u.GetTilingClassName(), "CaseTiling") == 0);
    auto made = optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("CaseOp");
    CHECK(made != nullptr);
    CHECK_EQ(made->GetDataSize(), sizeof(CaseTilingC));
    CHECK(optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("NoSuchOp") == nullptr);

    /* ascendalog */
    char dir[] = "/tmp/npuemu-dlog-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    setenv("ASCEND_PROCESS_LOG_PATH", dir, 1);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
    unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    CHECK_EQ(CheckLogLevel(57, 3), 1);
    CHECK_EQ(CheckLogLevel(57, 1), 0);
    DlogRecord(57, 1, "an info record %d", 1);
    DlogRecord(57, 3, "an error record %d", 2);
    matmul_tiling::MatmulApiTiling bad(*platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1"));
    ::TCubeTiling ct;
    CHECK_EQ(bad.GetTiling(ct), -1); /* no types set */
    DlogFlush();
    std::string log = slurp(std::string(dir) + "/plog/plog-" + std::to_string(getpid()) + ".log");
    CHECK(log.find("an error record 2") != std::string::npos);
    CHECK(log.find("an info record") == std::string::npos);
    CHECK(log.find("SetAType") != std::string::npos);
    CHECK_EQ(dlog_setlevel(57, 0, 0), 0);
    CHECK_EQ(CheckLogLevel(57, 0), 1);
    CHECK_EQ(dlog_setlevel(57, 9, 0), -1);
    std::string rm = std::string("rm -rf '") + dir + "'";
    CHECK(system(rm.c_str()) == 0);

    /* platform: named SoCs */
    auto *b1 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
    CHECK_EQ(b1->GetCoreNumAic(), 24);
    CHECK_EQ(b1->GetCoreNumAiv(), 48);
    CHECK_EQ(b1->CalcTschBlockDim(48, 24, 48), 24);
    auto *p3 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P3");
    CHECK(p3->GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P);
    CHECK_EQ(p3->GetCoreNum(), 8);
    uint64_t l0c = 0, bt = 1;
    p3->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
    p3->GetCoreMemSize(platform_ascendc::CoreMemType::BT, bt);
    CHECK_EQ(l0c, 262144);
    CHECK_EQ(bt, 0);
    CHECK(platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1") == b1); /* one object per SoC */
    printf("ok\n");
    return 0;
}
