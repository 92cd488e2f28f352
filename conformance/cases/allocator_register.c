/* allocator_register: external allocator descriptions registered per
 * stream (acl_rt_allocator.h). */
/* env: NPUEMU_SOC=Ascend910B3 */
#include "rt_util.h"

#include <string.h>

static int obj_a, obj_b;
static void *alloc_a(aclrtAllocator a, size_t n) { (void)a; (void)n; return NULL; }
static void *alloc_b(aclrtAllocator a, size_t n) { (void)a; (void)n; return NULL; }
static void free_a(aclrtAllocator a, aclrtAllocatorBlock b) { (void)a; (void)b; }
static void *advise_a(aclrtAllocator a, size_t n, aclrtAllocatorAddr p) { (void)a; (void)n; return p; }
static void *addr_a(aclrtAllocatorBlock b) { return b; }

static void fill(aclrtAllocatorDesc d, void *obj, aclrtAllocatorAllocFunc al)
{
    CHECK_OK(aclrtAllocatorSetObjToDesc(d, obj));
    CHECK_OK(aclrtAllocatorSetAllocFuncToDesc(d, al));
    CHECK_OK(aclrtAllocatorSetFreeFuncToDesc(d, free_a));
    CHECK_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, advise_a));
    CHECK_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, addr_a));
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    char soc[64];
    snprintf(soc, sizeof soc, "%s", aclrtGetSocName());
    if (strncmp(soc, "Ascend310B", 10) == 0)
        SKIP("aclrtAllocatorRegister is not available on %s", soc);
    aclrtStream s = NULL, s2 = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    CHECK_OK(aclrtCreateStream(&s2));

    aclrtAllocatorDesc a = aclrtAllocatorCreateDesc();
    aclrtAllocatorDesc b = aclrtAllocatorCreateDesc();
    CHECK(a != NULL && b != NULL && a != b);
    /* Setters refuse NULL; registering needs a stream and a description. */
    CHECK_ERR(aclrtAllocatorSetAllocFuncToDesc(a, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtAllocatorSetObjToDesc(NULL, &obj_a), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtAllocatorRegister(s, a)); /* nothing set yet */
    fill(a, &obj_a, alloc_a);
    fill(b, &obj_b, alloc_b);
    CHECK_ERR(aclrtAllocatorRegister(NULL, a), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtAllocatorRegister(s, NULL), ACL_ERROR_INVALID_PARAM);

    /* doc: semantics.md §14 — the last registration per stream wins and
     * GetByStream returns every registered part. */
    CHECK_OK(aclrtAllocatorRegister(s, a));
    CHECK_OK(aclrtAllocatorRegister(s, b));
    aclrtAllocatorDesc gd = NULL;
    aclrtAllocator go = NULL;
    aclrtAllocatorAllocFunc gal = NULL;
    aclrtAllocatorFreeFunc gfr = NULL;
    aclrtAllocatorAllocAdviseFunc gad = NULL;
    aclrtAllocatorGetAddrFromBlockFunc gga = NULL;
    CHECK_OK(aclrtAllocatorGetByStream(s, &gd, &go, &gal, &gfr, &gad, &gga));
    CHECK(gd == b);
    CHECK(go == (void *)&obj_b);
    CHECK(gal == alloc_b);
    CHECK(gfr == free_a);
    CHECK(gad == advise_a);
    CHECK(gga == addr_a);

    /* doc: semantics.md §14 — unregistering an unknown stream or twice is a
     * success. */
    CHECK_OK(aclrtAllocatorUnregister(s2));
    CHECK_OK(aclrtAllocatorUnregister(s));
    CHECK_OK(aclrtAllocatorUnregister(s));

    CHECK_OK(aclrtAllocatorRegister(s2, a));
    CHECK_OK(aclrtDestroyStream(s2));
    CHECK_OK(aclrtAllocatorDestroyDesc(a));
    CHECK_OK(aclrtAllocatorDestroyDesc(b));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
