/* vmm_share: sharing memory (semantics.md §11 "Physical sharing", §13,
 * §21.14), exercised inside one process, which plays the importer too:
 * shareable handles of physical allocations (one export per allocation,
 * the pid whitelist, an imported handle maps the same memory) and IPC keys
 * of plain device memory (65-byte keys, page-aligned start, the whitelist
 * or DISABLE_PID_VALIDATION, the import aliases the export, importers
 * close before the exporter).
 *
 * needs: emulator
 */
#include "rt_util.h"

#define MIB (1024ull * 1024ull)

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    int32_t self = 0;
    CHECK_OK(aclrtDeviceGetBareTgid(&self));

    /* Shareable handles. */
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof prop);
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    const size_t size = 2 * MIB;
    aclrtDrvMemHandle h = NULL, imp = NULL;
    CHECK_OK(aclrtMallocPhysical(&h, size, &prop, 0));
    uint64_t sh = 0, sh2 = 0;
    CHECK_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &sh));
    CHECK_FAILS(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &sh2)); /* one per allocation */
    CHECK_ERR(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 7, &sh2), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtMemImportFromShareableHandle(sh, 0, &imp)); /* not whitelisted */
    CHECK_ERR(aclrtMemSetPidToShareableHandle(sh, NULL, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_OK(aclrtMemSetPidToShareableHandle(sh, &self, 1));
    CHECK_ERR(aclrtMemImportFromShareableHandle(sh, 99, &imp), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_OK(aclrtMemImportFromShareableHandle(sh, 0, &imp));
    CHECK(imp != NULL);

    void *va = NULL, *vb = NULL;
    CHECK_OK(aclrtReserveMemAddress(&va, size, 0, NULL, 0));
    CHECK_OK(aclrtReserveMemAddress(&vb, size, 0, NULL, 0));
    CHECK_OK(aclrtMapMem(va, size, 0, h, 0));
    CHECK_OK(aclrtMapMem(vb, size, 0, imp, 0));
    unsigned char buf[4096], out[4096];
    rt_fill(buf, sizeof buf, 3);
    CHECK_OK(aclrtMemcpy(va, size, buf, sizeof buf, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(out, sizeof out, vb, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(buf, out, sizeof buf) == 0);
    CHECK_OK(aclrtUnmapMem(vb));
    CHECK_OK(aclrtUnmapMem(va));
    CHECK_OK(aclrtFreePhysical(imp));
    CHECK_OK(aclrtFreePhysical(h));
    CHECK_FAILS(aclrtMemImportFromShareableHandle(sh, 0, &imp)); /* its allocation is gone */
    CHECK_OK(aclrtReleaseMemAddress(va));
    CHECK_OK(aclrtReleaseMemAddress(vb));

    /* V2, DEFAULT share type, without pid validation. */
    CHECK_OK(aclrtMallocPhysical(&h, size, &prop, 0));
    CHECK_OK(aclrtMemExportToShareableHandleV2(h, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &sh));
    CHECK_FAILS(aclrtMemSetPidToShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &self, 1)); /* no whitelist */
    CHECK_OK(aclrtMemImportFromShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &imp));
    CHECK_OK(aclrtFreePhysical(imp));
    CHECK_OK(aclrtFreePhysical(h));

    /* IPC keys of plain device memory. */
    void *dev = NULL;
    const size_t n = 64 * 1024;
    CHECK_OK(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_NORMAL_ONLY));
    rt_fill(buf, sizeof buf, 9);
    CHECK_OK(aclrtMemcpy(dev, n, buf, sizeof buf, ACL_MEMCPY_HOST_TO_DEVICE));
    char key[65], small[16];
    CHECK_ERR(aclrtIpcMemGetExportKey(dev, n, small, sizeof small, 0), ACL_ERROR_INVALID_PARAM); /* not 65 bytes */
    CHECK_ERR(aclrtIpcMemGetExportKey(NULL, n, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_FAILS(aclrtIpcMemGetExportKey((char *)dev + 64, 4096, key, sizeof key, 0)); /* not page aligned */
    memset(key, 'x', sizeof key);
    CHECK_OK(aclrtIpcMemGetExportKey(dev, n, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
    CHECK(memchr(key, 0, sizeof key) != NULL && key[0] != 0);

    void *imported = NULL;
    CHECK_FAILS(aclrtIpcMemImportByKey(&imported, key, 0)); /* not whitelisted */
    CHECK_OK(aclrtIpcMemSetImportPid(key, &self, 1));
    CHECK_OK(aclrtIpcMemImportByKey(&imported, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT));
    CHECK(imported != NULL && imported != dev);
    /* The import is device memory aliasing the export: data written
     * through one is read through the other. */
    CHECK_OK(aclrtMemcpy(out, sizeof out, imported, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(buf, out, sizeof buf) == 0);
    rt_fill(buf, sizeof buf, 11);
    CHECK_OK(aclrtMemcpy(imported, n, buf, sizeof buf, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_OK(aclrtMemcpy(out, sizeof out, dev, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(memcmp(buf, out, sizeof buf) == 0);

    /* Importers close first, the exporter last. */
    CHECK_OK(aclrtIpcMemClose(key)); /* the import */
    CHECK_OK(aclrtIpcMemClose(key)); /* the export */
    CHECK_FAILS(aclrtIpcMemClose(key));
    CHECK_FAILS(aclrtIpcMemImportByKey(&imported, key, 0));

    /* DISABLE_PID_VALIDATION: no whitelist needed, and none accepted. */
    CHECK_OK(aclrtIpcMemGetExportKey(dev, n, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    CHECK_FAILS(aclrtIpcMemSetImportPid(key, &self, 1));
    CHECK_OK(aclrtIpcMemImportByKey(&imported, key, 0));
    CHECK_OK(aclrtIpcMemClose(key));
    CHECK_OK(aclrtIpcMemClose(key));

    CHECK_OK(aclrtFree(dev));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
