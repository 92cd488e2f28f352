/* misc_basic: aclrtGetVersion, aclrtGetRunMode, aclrtGetSocName,
 * aclDataTypeSize and the float16 conversions, including the documented
 * non-IEEE treatment of exponent 31 and the saturating narrowing. */
#include "rt_util.h"

#include <math.h>

/* The case exercises deprecated entry points on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static uint16_t h(float f) { return (uint16_t)aclFloatToFloat16(f); }
static float f(uint16_t v) { return aclFloat16ToFloat((aclFloat16)v); }

int main(void)
{
    CHECK_OK(aclInit(NULL));

    /* doc: semantics.md §1 — aclrtGetVersion reports 1.17.0, the header's
     * ACL_MAJOR/MINOR/PATCH_VERSION. */
    int32_t major = -1, minor = -1, patch = -1;
    CHECK_OK(aclrtGetVersion(&major, &minor, &patch));
    CHECK_EQ(major, 1);
    CHECK_EQ(minor, 17);
    CHECK_EQ(patch, 0);
    CHECK_EQ(major, ACL_MAJOR_VERSION);
    CHECK_EQ(minor, ACL_MINOR_VERSION);
    CHECK_EQ(patch, ACL_PATCH_VERSION);

    /* doc: semantics.md §1 — NULL arguments → parameter error;
     * §0 — NULL required pointers are ACL_ERROR_INVALID_PARAM. */
    CHECK_ERR(aclrtGetVersion(NULL, &minor, &patch), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetVersion(&major, NULL, &patch), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtGetVersion(&major, &minor, NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §1 — aclrtGetRunMode returns ACL_HOST. */
    aclrtRunMode mode = ACL_DEVICE;
    CHECK_OK(aclrtGetRunMode(&mode));
    CHECK_EQ(mode, ACL_HOST);
    CHECK_EQ(ACL_HOST, 1);
    /* doc: semantics.md §0 — NULL output pointer. */
    CHECK_ERR(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §2 — aclrtGetSocName returns a runtime-owned name
     * starting with "Ascend" (the SoC_version column of §20). */
    CHECK_OK(aclrtSetDevice(0));
    const char *soc = aclrtGetSocName();
    CHECK(soc != NULL);
    CHECK(strncmp(soc, "Ascend", 6) == 0);
    CHECK_OK(aclrtResetDevice(0));

    /* doc: semantics.md §19 — aclDataTypeSize returns the element size in
     * bytes (acl-constants.tsv for the enum values). Sub-byte and
     * variable-size types (INT4, UINT1, FLOAT6/4, STRING, UNDEFINED) have no
     * documented size and are not checked. */
    CHECK_EQ(aclDataTypeSize(ACL_FLOAT), 4);
    CHECK_EQ(aclDataTypeSize(ACL_FLOAT16), 2);
    CHECK_EQ(aclDataTypeSize(ACL_BF16), 2);
    CHECK_EQ(aclDataTypeSize(ACL_DOUBLE), 8);
    CHECK_EQ(aclDataTypeSize(ACL_INT8), 1);
    CHECK_EQ(aclDataTypeSize(ACL_UINT8), 1);
    CHECK_EQ(aclDataTypeSize(ACL_INT16), 2);
    CHECK_EQ(aclDataTypeSize(ACL_UINT16), 2);
    CHECK_EQ(aclDataTypeSize(ACL_INT32), 4);
    CHECK_EQ(aclDataTypeSize(ACL_UINT32), 4);
    CHECK_EQ(aclDataTypeSize(ACL_INT64), 8);
    CHECK_EQ(aclDataTypeSize(ACL_UINT64), 8);
    CHECK_EQ(aclDataTypeSize(ACL_BOOL), 1);
    CHECK_EQ(aclDataTypeSize(ACL_COMPLEX32), 4);
    CHECK_EQ(aclDataTypeSize(ACL_COMPLEX64), 8);
    CHECK_EQ(aclDataTypeSize(ACL_COMPLEX128), 16);
    CHECK_EQ(aclDataTypeSize(ACL_HIFLOAT8), 1);
    CHECK_EQ(aclDataTypeSize(ACL_FLOAT8_E5M2), 1);
    CHECK_EQ(aclDataTypeSize(ACL_FLOAT8_E4M3FN), 1);
    CHECK_EQ(aclDataTypeSize(ACL_FLOAT8_E8M0), 1);

    /* Exactly representable values convert both ways (IEEE binary16). */
    CHECK_EQ(h(0.0f), 0x0000);
    CHECK_EQ(h(1.0f), 0x3C00);
    CHECK_EQ(h(-2.0f), 0xC000);
    CHECK_EQ(h(0.5f), 0x3800);
    CHECK_EQ(h(65504.0f), 0x7BFF);
    CHECK_EQ(h(-65504.0f), 0xFBFF);
    CHECK(f(0x3C00) == 1.0f);
    CHECK(f(0xC000) == -2.0f);
    CHECK(f(0x3800) == 0.5f);
    CHECK(f(0x7BFF) == 65504.0f);
    CHECK(f(0x0000) == 0.0f);

    /* doc: semantics.md §19 — exponent 31 is read as a normal exponent:
     * +Inf 0x7C00 → 65536.0, 0xFC00 → −65536.0, NaN 0x7E00 → 98304.0. */
    CHECK(f(0x7C00) == 65536.0f);
    CHECK(f(0xFC00) == -65536.0f);
    CHECK(f(0x7E00) == 98304.0f);

    /* doc: semantics.md §19 — aclFloatToFloat16 saturates: NaN and +Inf →
     * 0x7BFF, −Inf → 0xFBFF. */
    CHECK_EQ(h(INFINITY), 0x7BFF);
    CHECK_EQ(h(-INFINITY), 0xFBFF);
    CHECK_EQ(h(NAN), 0x7BFF);
    /* "saturates" also covers finite values beyond the half range. */
    CHECK_EQ(h(1.0e6f), 0x7BFF);
    CHECK_EQ(h(-1.0e6f), 0xFBFF);

    CHECK_OK(aclFinalize());
    return 0;
}
