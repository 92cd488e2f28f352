/* vmm_hal: virtual memory management and sharing through the driver HAL
 * (hal-api.md §3.4): halMemAddressReserve / halMemCreate / halMemMap, the
 * granularity, access flags (owner READWRITE, unset locations read
 * MEM_ACCESS_TYPE_MAX, a changed location DRV_ERROR_BUSY), retained
 * handles, properties, address ranges of mapped VAs, shareable handles with
 * the whitelist, and shared memory by name (names of at most 64
 * characters in a buffer of more than 64 bytes, opened addresses alias
 * the export). The importer is this same process. ACL calls accept HAL
 * memory where the runtime would (copies, address ranges), and
 * aclrtFreeHost refuses HAL pinned memory.
 *
 * link: -lascendcl -lascend_hal
 * needs: emulator
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "driver/ascend_hal.h"

#define CHECK_DRV(call, code)                                            \
    do {                                                                 \
        drvError_t check_d_ = (call);                                    \
        if (check_d_ != (code))                                          \
            FAIL("%s: got %d, want %s (%d)", #call, (int)check_d_, #code, (int)(code)); \
    } while (0)

#define MIB (1024ull * 1024ull)

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    struct drv_mem_prop prop;
    memset(&prop, 0, sizeof prop);
    prop.side = MEM_DEV_SIDE;
    prop.devid = 0;
    prop.pg_type = MEM_HUGE_PAGE_TYPE;
    prop.mem_type = MEM_HBM_TYPE;
    size_t g = 0;
    CHECK_DRV(halMemGetAllocationGranularity(&prop, MEM_ALLOC_GRANULARITY_RECOMMENDED, &g), DRV_ERROR_NONE);
    CHECK_EQ(g, 2 * MIB);
    CHECK_DRV(halMemGetAllocationGranularity(&prop, MEM_ALLOC_GRANULARITY_INVALID, &g), DRV_ERROR_INVALID_VALUE);

    drv_mem_handle_t *h = NULL, *r = NULL;
    CHECK_DRV(halMemCreate(&h, 3 * MIB, &prop, 0), DRV_ERROR_INVALID_VALUE); /* not a 2 MiB multiple */
    CHECK_DRV(halMemCreate(&h, 2 * MIB, &prop, 0), DRV_ERROR_NONE);
    void *va = NULL, *vb = NULL;
    CHECK_DRV(halMemAddressReserve(&va, 4 * MIB, 0, NULL, 0), DRV_ERROR_NONE);
    CHECK_DRV(halMemAddressReserve(&vb, 2 * MIB, 0, NULL, 0), DRV_ERROR_NONE);
    CHECK_DRV(halMemMap(va, 2 * MIB, 0, h, 0), DRV_ERROR_NONE);
    CHECK_DRV(halMemMap(va, 2 * MIB, 0, h, 0), DRV_ERROR_INVALID_VALUE); /* mapped already */
    CHECK_DRV(halMemMap(vb, 2 * MIB, 0, h, 0), DRV_ERROR_NONE);

    /* Host code of an emulated program may touch mapped device memory:
     * both addresses show the same bytes. */
    memset(va, 0x3c, 4096);
    CHECK_EQ(((unsigned char *)vb)[4095], 0x3c);

    DVdeviceptr base = 0;
    size_t size = 0;
    CHECK_DRV(halMemGetAddressRange((DVdeviceptr)(uintptr_t)vb + 10, &base, &size), DRV_ERROR_NONE);
    CHECK_EQ(base, (uintptr_t)vb);
    CHECK_EQ(size, 2 * MIB);
    CHECK_DRV(halMemGetAddressRange((DVdeviceptr)(uintptr_t)va + 2 * MIB, &base, &size), DRV_ERROR_INVALID_VALUE); /* unmapped */

    struct drv_mem_location loc = {.id = 0, .side = MEM_DEV_SIDE};
    uint64_t flags = 0;
    CHECK_DRV(halMemGetAccess(va, &loc, &flags), DRV_ERROR_NONE);
    CHECK_EQ(flags, MEM_ACCESS_TYPE_READWRITE);
    loc.side = MEM_HOST_SIDE;
    CHECK_DRV(halMemGetAccess(va, &loc, &flags), DRV_ERROR_NONE);
    CHECK_EQ(flags, MEM_ACCESS_TYPE_MAX);
    struct drv_mem_access_desc d;
    memset(&d, 0, sizeof d);
    d.type = MEM_ACCESS_TYPE_READ;
    d.location.side = MEM_HOST_SIDE;
    CHECK_DRV(halMemSetAccess(va, 2 * MIB, &d, 1), DRV_ERROR_NONE);
    CHECK_DRV(halMemGetAccess(va, &loc, &flags), DRV_ERROR_NONE);
    CHECK_EQ(flags, MEM_ACCESS_TYPE_READ);
    d.type = MEM_ACCESS_TYPE_READWRITE;
    CHECK_DRV(halMemSetAccess(va, 2 * MIB, &d, 1), DRV_ERROR_BUSY);

    CHECK_DRV(halMemRetainAllocationHandle(&r, (char *)vb + 100), DRV_ERROR_NONE);
    CHECK(r == h);
    CHECK_DRV(halMemRelease(r), DRV_ERROR_NONE);
    struct drv_mem_prop back;
    CHECK_DRV(halMemGetAllocationPropertiesFromHandle(&back, h), DRV_ERROR_NONE);
    CHECK_EQ(back.side, MEM_DEV_SIDE);
    CHECK_EQ(back.pg_type, MEM_HUGE_PAGE_TYPE);

    /* Shareable handle, whitelist, import, map: the same memory. */
    uint64_t sh = 0;
    drv_mem_handle_t *imp = NULL;
    CHECK_DRV(halMemExportToShareableHandle(h, MEM_HANDLE_TYPE_NONE, 0, &sh), DRV_ERROR_NONE);
    CHECK_DRV(halMemImportFromShareableHandle(sh, 0, &imp), DRV_ERROR_OPER_NOT_PERMITTED);
    int self = (int)getpid();
    CHECK_DRV(halMemSetPidToShareableHandle(sh, &self, 1), DRV_ERROR_NONE);
    CHECK_DRV(halMemImportFromShareableHandle(sh, 0, &imp), DRV_ERROR_NONE);
    void *vc = NULL;
    CHECK_DRV(halMemAddressReserve(&vc, 2 * MIB, 0, NULL, 0), DRV_ERROR_NONE);
    CHECK_DRV(halMemMap(vc, 2 * MIB, 0, imp, 0), DRV_ERROR_NONE);
    CHECK_EQ(((unsigned char *)vc)[17], 0x3c);
    CHECK_DRV(halMemUnmap(vc), DRV_ERROR_NONE);
    CHECK_DRV(halMemRelease(imp), DRV_ERROR_NONE);
    CHECK_DRV(halMemAddressFree(vc), DRV_ERROR_NONE);

    CHECK_DRV(halMemAddressFree(va), DRV_ERROR_INVALID_VALUE); /* still mapped */
    CHECK_DRV(halMemUnmap(va), DRV_ERROR_NONE);
    CHECK_DRV(halMemUnmap(va), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(halMemUnmap(vb), DRV_ERROR_NONE);
    CHECK_DRV(halMemRelease(h), DRV_ERROR_NONE);
    CHECK_DRV(halMemRelease(h), DRV_ERROR_INVALID_HANDLE);
    CHECK_DRV(halMemAddressFree(va), DRV_ERROR_NONE);
    CHECK_DRV(halMemAddressFree(vb), DRV_ERROR_NONE);

    /* Shared memory by name over halMemAlloc device memory. */
    void *dev = NULL;
    CHECK_DRV(halMemAlloc(&dev, 8192, MEM_DEV), DRV_ERROR_NONE);
    memset(dev, 0x5e, 8192);
    char name[65], shortname[64];
    CHECK_DRV(halShmemCreateHandle((DVdeviceptr)(uintptr_t)dev, 8192, shortname, sizeof shortname), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(halShmemCreateHandle((DVdeviceptr)(uintptr_t)dev + 4096, 4096, name, sizeof name), DRV_ERROR_INVALID_VALUE); /* not the start */
    CHECK_DRV(halShmemCreateHandle((DVdeviceptr)(uintptr_t)dev, 8192, name, sizeof name), DRV_ERROR_NONE);
    CHECK(strlen(name) > 0 && strlen(name) < 65);
    DVdeviceptr opened = 0;
    CHECK_DRV(halShmemOpenHandle(name, &opened), DRV_ERROR_OPER_NOT_PERMITTED);
    CHECK_DRV(halShmemSetAttribute(name, SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER, SHMEM_NO_WLIST_ENABLE), DRV_ERROR_NONE);
    uint64_t attr = 0;
    CHECK_DRV(halShmemGetAttribute(name, SHMEM_ATTR_TYPE_NO_WLIST_IN_SERVER, &attr), DRV_ERROR_NONE);
    CHECK_EQ(attr, SHMEM_NO_WLIST_ENABLE);
    CHECK_DRV(halShmemSetPidHandle(name, &self, 1), DRV_ERROR_INVALID_VALUE); /* whitelist disabled */
    CHECK_DRV(halShmemOpenHandleByDevId(0, name, &opened), DRV_ERROR_NONE);
    unsigned char *o = (unsigned char *)(uintptr_t)opened;
    CHECK(o != dev);
    CHECK_EQ(o[8191], 0x5e);
    o[0] = 1;
    CHECK_EQ(((unsigned char *)dev)[0], 1);
    CHECK_DRV(halShmemCloseHandle(opened), DRV_ERROR_NONE);
    CHECK_DRV(halShmemCloseHandle(opened), DRV_ERROR_INVALID_VALUE);
    CHECK_DRV(halShmemDestroyHandle(name), DRV_ERROR_NONE);
    CHECK_DRV(halShmemDestroyHandle(name), DRV_ERROR_INVALID_VALUE);

    /* HAL device memory is device memory to ACL too: aclrtMemcpy and
     * aclrtMemGetAddressRange accept it; aclrtFreeHost refuses pinned
     * memory that aclrtMallocHost did not allocate. */
    unsigned char in[4096], out[4096];
    memset(in, 0x71, sizeof in);
    CHECK_OK(aclrtMemcpy(dev, 8192, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(out, sizeof out, dev, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(in, out, sizeof in) == 0);
    void *rb = NULL;
    size_t rs = 0;
    CHECK_OK(aclrtMemGetAddressRange((char *)dev + 5000, &rb, &rs));
    CHECK(rb == dev);
    CHECK_EQ(rs, 8192);
    CHECK_DRV(halMemFree(dev), DRV_ERROR_NONE);
    void *hp = NULL;
    CHECK_DRV(halMemAlloc(&hp, 4096, MEM_HOST), DRV_ERROR_NONE);
    CHECK_ERR(aclrtFreeHost(hp), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_DRV(halMemFree(hp), DRV_ERROR_NONE);

    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
