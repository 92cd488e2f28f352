/* vmm_basic: virtual memory management (semantics.md §11): granularity,
 * reserve → physical allocation → map → use → unmap → free → release, two
 * mappings of one allocation alias, capacity accounting, access flags,
 * retained handles, properties, address ranges, and the errors of bad
 * input: sizes that are not granularity multiples, mapping over a mapping,
 * releasing a range still mapped, unmapping what is not mapped, a wrong
 * device, stale handles.
 *
 * env: NPUEMU_DEVICES=2
 * needs: devices=2
 */
#include "rt_util.h"

#define MIB (1024ull * 1024ull)

static aclrtPhysicalMemProp dev_prop(uint32_t dev, aclrtMemAttr attr)
{
    aclrtPhysicalMemProp p;
    memset(&p, 0, sizeof p);
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.memAttr = attr;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = dev;
    return p;
}

int main(void)
{
    CHECK_OK(aclInit(NULL));
    rt_need_devices(2);
    CHECK_OK(aclrtSetDevice(0));

    /* Granularity: 2 MiB for device memory, the host page for host normal
     * pages with MINIMUM. */
    aclrtPhysicalMemProp prop = dev_prop(0, ACL_HBM_MEM_HUGE);
    size_t g = 0;
    CHECK_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    CHECK_EQ(g, 2 * MIB);
    CHECK_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g));
    CHECK_EQ(g, 2 * MIB);
    aclrtPhysicalMemProp hprop = prop;
    hprop.memAttr = ACL_DDR_MEM_NORMAL;
    hprop.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    hprop.location.id = 0;
    CHECK_OK(aclrtMemGetAllocationGranularity(&hprop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
    CHECK_EQ(g, sysconf(_SC_PAGESIZE));
    CHECK_ERR(aclrtMemGetAllocationGranularity(NULL, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, NULL), ACL_ERROR_INVALID_PARAM);

    size_t free0 = 0, total = 0, free1 = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));

    /* A physical allocation is charged to its device at once. */
    const size_t size = 4 * MIB;
    aclrtDrvMemHandle h = NULL;
    CHECK_OK(aclrtMallocPhysical(&h, size, &prop, 0));
    CHECK(h != NULL);
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    CHECK_EQ(free0 - free1, size);

    aclrtPhysicalMemProp back;
    memset(&back, 0xff, sizeof back);
    CHECK_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &back));
    CHECK_EQ(back.memAttr, ACL_HBM_MEM_HUGE);
    CHECK_EQ(back.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    CHECK_EQ(back.location.id, 0);

    /* Reserve two ranges and map the allocation into both. */
    void *va = NULL, *vb = NULL;
    CHECK_OK(aclrtReserveMemAddress(&va, 2 * size, 0, NULL, 0));
    CHECK_OK(aclrtReserveMemAddress(&vb, size, 0, NULL, 0));
    CHECK(va != NULL && vb != NULL && va != vb);
    CHECK_EQ((uintptr_t)va % (2 * MIB), 0);
    char *a = (char *)va + size; /* the second half of the first range */
    CHECK_OK(aclrtMapMem(a, size, 0, h, 0));
    CHECK_OK(aclrtMapMem(vb, size, 0, h, 0));

    /* Device memory for copies; the mappings alias. */
    unsigned char *src = malloc(size), *dst = malloc(size);
    CHECK(src != NULL && dst != NULL);
    rt_fill(src, size, 7);
    CHECK_OK(aclrtMemcpy(a, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE));
    memset(dst, 0, size);
    CHECK_OK(aclrtMemcpy(dst, size, vb, size, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(src, dst, size) == 0);
    CHECK_ERR(aclrtMemcpy(dst, size, (char *)vb + MIB, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID); /* past the mapping */

    /* Address range of a mapped VA: the mapping. */
    void *base = NULL;
    size_t rsize = 0;
    CHECK_OK(aclrtMemGetAddressRange(a + 12345, &base, &rsize));
    CHECK(base == a);
    CHECK_EQ(rsize, size);

    /* Access: the owner device has READWRITE; a location never set reads
     * the driver's "unset" value. */
    aclrtMemLocation loc = {.id = 0, .type = ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t flags = 0;
    CHECK_OK(aclrtMemGetAccess(a, &loc, &flags));
    CHECK_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    aclrtMemAccessDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = 1;
    CHECK_OK(aclrtMemSetAccess(a, size, &desc, 1));
    loc.id = 1;
    CHECK_OK(aclrtMemGetAccess(a, &loc, &flags));
    CHECK_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ; /* only READWRITE is accepted */
    CHECK_ERR(aclrtMemSetAccess(a, size, &desc, 1), ACL_ERROR_INVALID_PARAM);
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    CHECK_FAILS(aclrtMemSetAccess(a, size / 2, &desc, 1)); /* not the whole mapping */
    desc.location.id = 99;
    CHECK_ERR(aclrtMemSetAccess(a, size, &desc, 1), ACL_ERROR_RT_INVALID_DEVICEID);

    /* Retain: the same allocation, one more reference. */
    aclrtDrvMemHandle r = NULL;
    CHECK_OK(aclrtMemRetainAllocationHandle(a + 100, &r));
    CHECK(r == h);
    CHECK_OK(aclrtFreePhysical(r));
    CHECK_FAILS(aclrtMemRetainAllocationHandle(va, &r)); /* reserved, not mapped */

    /* Bad input. */
    aclrtDrvMemHandle bad = NULL;
    CHECK_ERR(aclrtMallocPhysical(&bad, 3 * MIB, &prop, 0), ACL_ERROR_RT_PARAM_INVALID);   /* not a granularity multiple */
    CHECK_ERR(aclrtMallocPhysical(&bad, 0, &prop, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMallocPhysical(NULL, size, &prop, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtMallocPhysical(&bad, size, NULL, 0), ACL_ERROR_INVALID_PARAM);
    aclrtPhysicalMemProp wrong = dev_prop(99, ACL_HBM_MEM_HUGE);
    CHECK_ERR(aclrtMallocPhysical(&bad, size, &wrong, 0), ACL_ERROR_RT_INVALID_DEVICEID); /* wrong device */
    size_t huge = (total / (2 * MIB) + 1) * 2 * MIB;
    CHECK_ERR(aclrtMallocPhysical(&bad, huge, &prop, 0), ACL_ERROR_RT_MEMORY_ALLOCATION); /* beyond capacity */
    CHECK_ERR(aclrtMapMem(a, size, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);               /* mapped already */
    CHECK_ERR(aclrtMapMem((char *)va + 2 * MIB, size, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* overlaps */
    CHECK_ERR(aclrtMapMem(va, 2 * MIB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);           /* not the allocation's size */
    CHECK_ERR(aclrtMapMem(NULL, size, 0, h, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtReleaseMemAddress(vb), ACL_ERROR_RT_PARAM_INVALID);                   /* still mapped */
    CHECK_ERR(aclrtUnmapMem(va), ACL_ERROR_RT_PARAM_INVALID);                            /* not mapped */
    CHECK_ERR(aclrtUnmapMem(NULL), ACL_ERROR_INVALID_PARAM);

    /* One reservation holds memory of one device. */
    aclrtPhysicalMemProp p1 = dev_prop(1, ACL_HBM_MEM_HUGE);
    aclrtDrvMemHandle h1 = NULL;
    CHECK_OK(aclrtMallocPhysical(&h1, size, &p1, 0));
    CHECK_ERR(aclrtMapMem(va, size, 0, h1, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_OK(aclrtFreePhysical(h1));
    CHECK_ERR(aclrtFreePhysical(h1), ACL_ERROR_RT_INVALID_HANDLE); /* stale handle */

    /* Map without access, then grant it. */
    void *vc = NULL;
    CHECK_OK(aclrtReserveMemAddress(&vc, size, 0, NULL, 0));
    CHECK_OK(aclrtMemMapNoAccess(vc, size, 0, h, 0));
    loc.id = 0;
    CHECK_OK(aclrtMemGetAccess(vc, &loc, &flags));
    CHECK(flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    desc.location.id = 0;
    CHECK_OK(aclrtMemSetAccess(vc, size, &desc, 1));
    CHECK_OK(aclrtMemGetAccess(vc, &loc, &flags));
    CHECK_EQ(flags, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    memset(dst, 0, size);
    CHECK_OK(aclrtMemcpy(dst, size, vc, size, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(src, dst, size) == 0);
    CHECK_OK(aclrtUnmapMem(vc));
    CHECK_OK(aclrtReleaseMemAddress(vc));

    /* Freeing the handle while mapped defers the release to the last unmap. */
    CHECK_OK(aclrtFreePhysical(h));
    memset(dst, 0, size);
    CHECK_OK(aclrtMemcpy(dst, size, a, size, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(src, dst, size) == 0);
    CHECK_OK(aclrtUnmapMem(a));
    CHECK_ERR(aclrtUnmapMem(a), ACL_ERROR_RT_PARAM_INVALID); /* unmapped already */
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    CHECK_EQ(free0 - free1, size); /* vb still maps it */
    CHECK_OK(aclrtUnmapMem(vb));
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    CHECK_EQ(free1, free0);
    CHECK_FAILS(aclrtMemGetAddressRange(vb, &base, &rsize)); /* reserved but unmapped */

    CHECK_OK(aclrtReleaseMemAddress(va));
    CHECK_OK(aclrtReleaseMemAddress(vb));
    CHECK_ERR(aclrtReleaseMemAddress(vb), ACL_ERROR_RT_PARAM_INVALID); /* released already */
    CHECK_ERR(aclrtReleaseMemAddress(NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_ERR(aclrtReserveMemAddress(&va, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);

    free(src);
    free(dst);
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
