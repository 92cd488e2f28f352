/* stack_rt_vmm: the runtime's virtual memory calls, called directly:
 * rtReserveMemAddress, rtMallocPhysical, rtMapMem, rtMemMapNoAccess,
 * rtMemSetAccess, rtMemGetAccess, rtMemGetAllocationGranularity,
 * rtMemRetainAllocationHandle, rtMemGetAddressRange, rtUnmapMem,
 * rtReleaseMemAddress: two mappings of one handle alias, and the
 * ACL_ERROR_RT_* codes for bad input.
 *
 * link: -lruntime -lascendcl
 * needs: emulator
 * env: NPUEMU_SOC=Ascend910B3
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

#define MiB (1024u * 1024u)

int main(void) {
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);

    rtDrvMemProp_t prop;
    memset(&prop, 0, sizeof prop);
    prop.side = 1;     /* MEM_DEV_SIDE */
    prop.devid = 0;
    prop.module_id = 33;
    prop.pg_type = 1;  /* MEM_HUGE_PAGE_TYPE */
    prop.mem_type = 0; /* MEM_HBM_TYPE */

    /* Granularity: 2 MiB for huge pages, 1 GiB for giant ones. */
    size_t g = 0;
    CHECK_RT(rtMemGetAllocationGranularity(&prop, RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_RT_SUCCESS);
    CHECK(g == 2 * MiB);
    prop.pg_type = 2; /* MEM_GIANT_PAGE_TYPE */
    CHECK_RT(rtMemGetAllocationGranularity(&prop, RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g), ACL_RT_SUCCESS);
    CHECK(g == 1024 * MiB);
    prop.pg_type = 1;
    CHECK_RT(rtMemGetAllocationGranularity(&prop, RT_MEM_ALLOC_GRANULARITY_INVALID, &g), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemGetAllocationGranularity(NULL, RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemGetAllocationGranularity(&prop, RT_MEM_ALLOC_GRANULARITY_MINIMUM, NULL), ACL_ERROR_RT_PARAM_INVALID);

    /* Two reservations, one physical allocation mapped into both. */
    void *va = NULL, *vb = NULL;
    CHECK_RT(rtReserveMemAddress(NULL, 2 * MiB, 0, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtReserveMemAddress(&va, 0, 0, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtReserveMemAddress(&va, 2 * MiB, 0, NULL, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtReserveMemAddress(&vb, 2 * MiB, 0, NULL, 0), ACL_RT_SUCCESS);
    CHECK(va != NULL && vb != NULL && va != vb);

    rtDrvMemHandle h = NULL;
    CHECK_RT(rtMallocPhysical(&h, 2 * MiB, &prop, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtMapMem(va, 2 * MiB, 0, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMapMem(NULL, 2 * MiB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMapMem(va, 2 * MiB, 0, h, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMapMem(va, 2 * MiB, 0, h, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemMapNoAccess(vb, 2 * MiB, 0, h, 0), ACL_RT_SUCCESS);

    /* Access: the no-access mapping has none until it is set. */
    rtMemLocation loc = {0, RT_MEMORY_LOC_DEVICE};
    uint64_t flags = 0;
    CHECK_RT(rtMemGetAccess(vb, &loc, &flags), ACL_RT_SUCCESS);
    CHECK(flags != RT_MEM_ACCESS_FLAGS_READWRITE);
    rtMemAccessDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.flags = RT_MEM_ACCESS_FLAGS_READ;
    desc.location = loc;
    CHECK_RT(rtMemSetAccess(vb, 2 * MiB, &desc, 1), ACL_ERROR_RT_PARAM_INVALID);
    desc.flags = RT_MEM_ACCESS_FLAGS_READWRITE;
    desc.location.type = RT_MEMORY_LOC_MANAGED;
    CHECK_RT(rtMemSetAccess(vb, 2 * MiB, &desc, 1), ACL_ERROR_RT_PARAM_INVALID);
    desc.location = loc;
    CHECK_RT(rtMemSetAccess(vb, 2 * MiB, NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemSetAccess(vb, 2 * MiB, &desc, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemSetAccess(vb, 2 * MiB, &desc, 1), ACL_RT_SUCCESS);
    CHECK_RT(rtMemSetAccess(va, 2 * MiB, &desc, 1), ACL_RT_SUCCESS);
    CHECK_RT(rtMemGetAccess(vb, &loc, &flags), ACL_RT_SUCCESS);
    CHECK(flags == RT_MEM_ACCESS_FLAGS_READWRITE);
    CHECK_RT(rtMemGetAccess(vb, &loc, NULL), ACL_ERROR_RT_PARAM_INVALID);
    rtMemLocation bad = {0, RT_MEMORY_LOC_MAX};
    CHECK_RT(rtMemGetAccess(vb, &bad, &flags), ACL_ERROR_RT_PARAM_INVALID);

    /* The mappings alias: written through one, read through the other. */
    unsigned char in[256], out[256];
    for (int i = 0; i < 256; i++) in[i] = (unsigned char)(i * 13 + 5);
    memset(out, 0, sizeof out);
    CHECK_RT(rtMemcpy((char *)va + 4096, sizeof in, in, sizeof in, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(out, sizeof out, (char *)vb + 4096, sizeof out, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(in, out, sizeof in) == 0);

    /* The address range of a pointer inside a mapping. */
    void *base = NULL;
    size_t size = 0;
    CHECK_RT(rtMemGetAddressRange((char *)va + 100, &base, &size), ACL_RT_SUCCESS);
    CHECK(base == va && size == 2 * MiB);
    CHECK_RT(rtMemGetAddressRange((char *)vb + 100, NULL, &size), ACL_RT_SUCCESS);
    CHECK(size == 2 * MiB);
    CHECK_RT(rtMemGetAddressRange(NULL, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemGetAddressRange(in, &base, &size), ACL_ERROR_RT_PARAM_INVALID);

    /* Retain: the same handle, with its own reference. */
    rtDrvMemHandle r = NULL;
    CHECK_RT(rtMemRetainAllocationHandle(va, &r), ACL_RT_SUCCESS);
    CHECK(r == h);
    CHECK_RT(rtMemRetainAllocationHandle(va, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtFreePhysical(r), ACL_RT_SUCCESS);

    /* Release needs every mapping gone first. */
    CHECK(rtReleaseMemAddress(va) != ACL_RT_SUCCESS);
    CHECK_RT(rtUnmapMem(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtUnmapMem(va), ACL_RT_SUCCESS);
    CHECK(rtUnmapMem(va) != ACL_RT_SUCCESS);
    CHECK_RT(rtUnmapMem(vb), ACL_RT_SUCCESS);
    CHECK_RT(rtFreePhysical(h), ACL_RT_SUCCESS);
    CHECK_RT(rtReleaseMemAddress(NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtReleaseMemAddress(va), ACL_RT_SUCCESS);
    CHECK_RT(rtReleaseMemAddress(vb), ACL_RT_SUCCESS);

    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
