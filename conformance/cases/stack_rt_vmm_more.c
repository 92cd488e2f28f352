/* stack_rt_vmm_more: the runtime's handle sharing and link calls, called
 * directly on an Atlas A3: rtsMemExportToShareableHandle,
 * rtMemExportToShareableHandleV2, rtMemSetPidToShareableHandle[V2],
 * rtMemImportFromShareableHandle[V2] (the import maps the exporter's
 * bytes), rtMemGetAllocationPropertiesFromHandle, rtMemMapSelectedLink (a
 * second view of mapped memory), rtIpcSetMemoryAttr; the refusals of
 * rtMemMapSetLink and of inter-server IPC; and the ACL_ERROR_RT_* codes
 * for bad input.
 *
 * link: -lruntime -lascendcl
 * needs: emulator
 * env: NPUEMU_SOC=Ascend910_9362
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "check.h"
#include "runtime/rt.h"
#include "rt_check.h"

#define MiB (1024u * 1024u)

static rtDrvMemHandle physical(void) {
    rtDrvMemProp_t prop;
    memset(&prop, 0, sizeof prop);
    prop.side = 1;     /* MEM_DEV_SIDE */
    prop.devid = 0;
    prop.pg_type = 1;  /* MEM_HUGE_PAGE_TYPE */
    prop.mem_type = 0; /* MEM_HBM_TYPE */
    rtDrvMemHandle h = NULL;
    CHECK_RT(rtMallocPhysical(&h, 2 * MiB, &prop, 0), ACL_RT_SUCCESS);
    return h;
}

static void *mapped(rtDrvMemHandle h) {
    void *va = NULL;
    CHECK_RT(rtReserveMemAddress(&va, 2 * MiB, 0, NULL, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtMapMem(va, 2 * MiB, 0, h, 0), ACL_RT_SUCCESS);
    return va;
}

int main(void) {
    CHECK_RT(rtSetDevice(0), ACL_RT_SUCCESS);
    unsigned char in[256], out[256];
    for (int i = 0; i < 256; i++) in[i] = (unsigned char)(i * 7 + 3);

    /* Properties read back as the driver's. */
    rtDrvMemHandle h = physical();
    rtDrvMemProp_t p;
    memset(&p, 0xFF, sizeof p);
    CHECK_RT(rtMemGetAllocationPropertiesFromHandle(h, &p), ACL_RT_SUCCESS);
    CHECK_EQ(p.side, 1);
    CHECK_EQ(p.devid, 0);
    CHECK_EQ(p.pg_type, 1);
    CHECK_EQ(p.mem_type, 0);
    CHECK_RT(rtMemGetAllocationPropertiesFromHandle(h, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemGetAllocationPropertiesFromHandle(NULL, &p), ACL_ERROR_RT_PARAM_INVALID);

    void *va = mapped(h);
    CHECK_RT(rtMemcpy(va, 2 * MiB, in, sizeof in, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);

    /* rtsMemExportToShareableHandle, the whitelist, the import. */
    uint64_t share = 0;
    CHECK_RT(rtsMemExportToShareableHandle(h, RT_MEM_HANDLE_TYPE_POSIX, 0, &share), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMemExportToShareableHandle(h, RT_MEM_HANDLE_TYPE_NONE, 5, &share), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMemExportToShareableHandle(h, RT_MEM_HANDLE_TYPE_NONE, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtsMemExportToShareableHandle(h, RT_MEM_HANDLE_TYPE_NONE, 0, &share), ACL_RT_SUCCESS);
    CHECK(share != 0);
    CHECK(rtsMemExportToShareableHandle(h, RT_MEM_HANDLE_TYPE_NONE, 0, &share) != ACL_RT_SUCCESS); /* once */
    int pids[1] = {(int)getpid()};
    CHECK_RT(rtMemSetPidToShareableHandle(share, pids, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemSetPidToShareableHandle(share, NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemSetPidToShareableHandle(share, pids, 1), ACL_RT_SUCCESS);
    rtDrvMemHandle imp = NULL;
    CHECK_RT(rtMemImportFromShareableHandle(share, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemImportFromShareableHandle(share, -1, &imp), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtMemImportFromShareableHandle(share, 0, &imp), ACL_RT_SUCCESS);
    CHECK(imp != NULL);
    void *vi = mapped(imp);
    memset(out, 0, sizeof out);
    CHECK_RT(rtMemcpy(out, sizeof out, vi, sizeof out, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(in, out, sizeof in) == 0); /* the exporter's bytes */
    CHECK_RT(rtMemGetAllocationPropertiesFromHandle(imp, &p), ACL_RT_SUCCESS);
    CHECK_EQ(p.pg_type, 1);
    CHECK_RT(rtUnmapMem(vi), ACL_RT_SUCCESS);
    CHECK_RT(rtReleaseMemAddress(vi), ACL_RT_SUCCESS);
    CHECK_RT(rtFreePhysical(imp), ACL_RT_SUCCESS);

    /* The V2 calls: a DEFAULT handle passed by address; FABRIC crosses
     * servers, which npuemu does not model. */
    rtDrvMemHandle h2 = physical();
    uint64_t share2 = 0;
    CHECK_RT(rtMemExportToShareableHandleV2(h2, RT_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &share2), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtMemExportToShareableHandleV2(h2, (rtMemSharedHandleType)7, 0, &share2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemExportToShareableHandleV2(h2, RT_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemExportToShareableHandleV2(h2, RT_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &share2), ACL_RT_SUCCESS);
    CHECK(share2 != 0 && share2 != share);
    CHECK_RT(rtMemSetPidToShareableHandleV2(&share2, RT_MEM_SHARE_HANDLE_TYPE_DEFAULT, pids, 1), ACL_RT_SUCCESS);
    CHECK_RT(rtMemSetPidToShareableHandleV2(NULL, RT_MEM_SHARE_HANDLE_TYPE_DEFAULT, pids, 1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemSetPidToShareableHandleV2(&share2, RT_MEM_SHARE_HANDLE_TYPE_FABRIC, pids, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    rtDrvMemHandle imp2 = NULL;
    CHECK_RT(rtMemImportFromShareableHandleV2(NULL, RT_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, 0, &imp2), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemImportFromShareableHandleV2(&share2, RT_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, -1, &imp2), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RT(rtMemImportFromShareableHandleV2(&share2, RT_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, 0, &imp2), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RT(rtMemImportFromShareableHandleV2(&share2, RT_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, 0, &imp2), ACL_RT_SUCCESS);
    CHECK(imp2 != NULL);
    CHECK_RT(rtFreePhysical(imp2), ACL_RT_SUCCESS);
    CHECK_RT(rtFreePhysical(h2), ACL_RT_SUCCESS);

    /* rtMemMapSelectedLink: a second view of va's memory over HCCS. */
    void *vl = NULL;
    CHECK_RT(rtReserveMemAddress(&vl, 2 * MiB, 0, NULL, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemMapSelectedLink(vl, 2 * MiB, va, 5), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemMapSelectedLink(NULL, 2 * MiB, va, RT_MEM_LINK_IDX_1), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtMemMapSelectedLink(vl, 2 * MiB, in, RT_MEM_LINK_IDX_1), ACL_ERROR_RT_PARAM_INVALID); /* not mapped memory */
    CHECK_RT(rtMemMapSelectedLink(vl, 2 * MiB, va, RT_MEM_LINK_IDX_1), ACL_RT_SUCCESS);
    memset(out, 0, sizeof out);
    CHECK_RT(rtMemcpy(out, sizeof out, vl, sizeof out, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(in, out, sizeof in) == 0);
    CHECK_RT(rtMemcpy((char *)vl + 512, 16, in, 16, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(out, 16, (char *)va + 512, 16, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(in, out, 16) == 0); /* one memory, two views */
    CHECK(rtMemMapSelectedLink(vl, 2 * MiB, va, RT_MEM_LINK_IDX_0) != ACL_RT_SUCCESS); /* already mapped */
    CHECK_RT(rtUnmapMem(vl), ACL_RT_SUCCESS);
    CHECK_RT(rtReleaseMemAddress(vl), ACL_RT_SUCCESS);

    /* Several mappings under virPtrSrc: each is mapped at the same offset;
     * a source with a hole maps nothing. */
    void *src4 = NULL, *dst4 = NULL;
    CHECK_RT(rtReserveMemAddress(&src4, 4 * MiB, 0, NULL, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtReserveMemAddress(&dst4, 4 * MiB, 0, NULL, 0), ACL_RT_SUCCESS);
    rtDrvMemHandle ha = physical(), hb = physical();
    CHECK_RT(rtMapMem(src4, 2 * MiB, 0, ha, 0), ACL_RT_SUCCESS);
    CHECK(rtMemMapSelectedLink(dst4, 4 * MiB, src4, RT_MEM_LINK_IDX_0) != ACL_RT_SUCCESS); /* second half unmapped */
    CHECK(rtUnmapMem(dst4) != ACL_RT_SUCCESS);                                             /* the first half was undone */
    CHECK_RT(rtMapMem((char *)src4 + 2 * MiB, 2 * MiB, 0, hb, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(src4, 16, in, 16, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy((char *)src4 + 2 * MiB, 16, in + 16, 16, RT_MEMCPY_HOST_TO_DEVICE), ACL_RT_SUCCESS);
    CHECK_RT(rtMemMapSelectedLink(dst4, 4 * MiB, src4, RT_MEM_LINK_IDX_0), ACL_RT_SUCCESS);
    CHECK_RT(rtMemcpy(out, 16, dst4, 16, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(out, in, 16) == 0);
    CHECK_RT(rtMemcpy(out, 16, (char *)dst4 + 2 * MiB, 16, RT_MEMCPY_DEVICE_TO_HOST), ACL_RT_SUCCESS);
    CHECK(memcmp(out, in + 16, 16) == 0);
    CHECK_RT(rtUnmapMem(dst4), ACL_RT_SUCCESS);
    CHECK_RT(rtUnmapMem((char *)dst4 + 2 * MiB), ACL_RT_SUCCESS); /* one unmap per mapping */
    CHECK_RT(rtUnmapMem(src4), ACL_RT_SUCCESS);
    CHECK_RT(rtUnmapMem((char *)src4 + 2 * MiB), ACL_RT_SUCCESS);
    CHECK_RT(rtReleaseMemAddress(dst4), ACL_RT_SUCCESS);
    CHECK_RT(rtReleaseMemAddress(src4), ACL_RT_SUCCESS);
    CHECK_RT(rtFreePhysical(ha), ACL_RT_SUCCESS);
    CHECK_RT(rtFreePhysical(hb), ACL_RT_SUCCESS);

    /* rtMemMapSetLink is documented by no one: refused. */
    CHECK_RT(rtMemMapSetLink(h, RT_MEM_ACCESS_LINK_HCCS), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);

    CHECK_RT(rtUnmapMem(va), ACL_RT_SUCCESS);
    CHECK_RT(rtReleaseMemAddress(va), ACL_RT_SUCCESS);
    CHECK_RT(rtFreePhysical(h), ACL_RT_SUCCESS);

    /* rtIpcSetMemoryAttr: the access link of exported IPC memory. */
    void *d = NULL;
    CHECK_RT(rtMalloc(&d, 2 * MiB, RT_MEMORY_DEFAULT, 0), ACL_RT_SUCCESS);
    char key[65];
    CHECK_RT(rtsIpcMemGetExportKey(d, 2 * MiB, key, sizeof key, 0), ACL_RT_SUCCESS);
    CHECK_RT(rtIpcSetMemoryAttr(key, 0, RT_MEM_ACCESS_LINK_HCCS), ACL_RT_SUCCESS);
    CHECK_RT(rtIpcSetMemoryAttr(key, 0, 9), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtIpcSetMemoryAttr(key, 3, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_RT(rtIpcSetMemoryAttr(NULL, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(rtIpcSetMemoryAttr("no-such-key", 0, 0) != ACL_RT_SUCCESS);

    /* Inter-server IPC: an A3 feature, but npuemu has one server. */
    int32_t spids[1] = {(int32_t)getpid()};
    rtServerPid sp = {1, spids, 1};
    CHECK_RT(rtIpcMemImportPidInterServer(key, &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    sp.pid = NULL;
    CHECK_RT(rtIpcMemImportPidInterServer(key, &sp, 1), ACL_ERROR_RT_PARAM_INVALID);

    CHECK_RT(rtsIpcMemClose(key), ACL_RT_SUCCESS);
    CHECK_RT(rtFree(d), ACL_RT_SUCCESS);
    CHECK_RT(rtDeviceReset(0), ACL_RT_SUCCESS);
    return 0;
}
