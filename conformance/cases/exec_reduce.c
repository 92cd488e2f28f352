/* exec_reduce: aclrtReduceAsync computes dst = dst OP src element-wise
 * for every documented kind on the Atlas A2 data types, checked against a
 * CPU reference; argument checks. Values are small multiples of 1/4, so
 * every sum is exact in fp16 and bf16 and the reference is exact too. */
#include "rt_util.h"

#define N 96 /* elements */

static uint16_t f2h(float f) /* exact for the normal values used here */
{
    uint32_t b;
    memcpy(&b, &f, 4);
    uint32_t sign = (b >> 16) & 0x8000u, exp = (b >> 23) & 0xFF, frac = b & 0x7FFFFF;
    if (exp == 0) return (uint16_t)sign;
    return (uint16_t)(sign | ((exp - 112) << 10) | (frac >> 13));
}

static uint16_t f2bf(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return (uint16_t)(b >> 16);
}

static float sample(int i, int salt) { return (float)((i * 7 + salt * 13) % 37 - 18) / 4.0f; }

static float op(int kind, float a, float b)
{
    switch (kind) {
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM: return a + b;
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX: return a > b ? a : b;
    default: return a < b ? a : b;
    }
}

/* put writes v as element i of type dt at p; integers take v*4. */
static void put(void *p, aclDataType dt, int i, float v)
{
    switch (dt) {
    case ACL_INT8: ((int8_t *)p)[i] = (int8_t)(v * 4); break;
    case ACL_INT16: ((int16_t *)p)[i] = (int16_t)(v * 4); break;
    case ACL_INT32: ((int32_t *)p)[i] = (int32_t)(v * 4); break;
    case ACL_FLOAT16: ((uint16_t *)p)[i] = f2h(v); break;
    case ACL_BF16: ((uint16_t *)p)[i] = f2bf(v); break;
    default: ((float *)p)[i] = v; break;
    }
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    void *dst = NULL, *src = NULL;
    CHECK_OK(aclrtMalloc(&dst, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMalloc(&src, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));

    const aclDataType types[] = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_FLOAT16, ACL_FLOAT, ACL_BF16};
    const int kinds[] = {ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN};
    unsigned char a[N * 4], b[N * 4], want[N * 4], got[N * 4];
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        size_t sz = aclDataTypeSize(types[t]);
        size_t bytes = N * sz;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            for (int i = 0; i < N; i++) {
                put(a, types[t], i, sample(i, 1));
                put(b, types[t], i, sample(i, 2));
                put(want, types[t], i, op(kinds[k], sample(i, 1), sample(i, 2)));
            }
            CHECK_OK(aclrtMemcpy(dst, bytes, a, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
            CHECK_OK(aclrtMemcpy(src, bytes, b, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
            CHECK_OK(aclrtReduceAsync(dst, src, bytes, (aclrtReduceKind)kinds[k], types[t], s, NULL));
            CHECK_OK(aclrtSynchronizeStream(s));
            CHECK_OK(aclrtMemcpy(got, bytes, dst, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
            if (memcmp(got, want, bytes) != 0) FAIL("dtype %d kind %d differs from the CPU reference", types[t], kinds[k]);
            /* src is read, not written. */
            CHECK_OK(aclrtMemcpy(got, bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
            CHECK_EQ(memcmp(got, b, bytes), 0);
        }
    }

    /* Argument checks: NULL operands, unknown kind, reserve not NULL. */
    CHECK_FAILS(aclrtReduceAsync(NULL, src, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL));
    CHECK_FAILS(aclrtReduceAsync(dst, NULL, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL));
    CHECK_FAILS(aclrtReduceAsync(dst, src, 16, (aclrtReduceKind)9, ACL_FLOAT, s, NULL));
    CHECK_FAILS(aclrtReduceAsync(dst, src, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, dst));

    CHECK_OK(aclrtFree(dst));
    CHECK_OK(aclrtFree(src));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
