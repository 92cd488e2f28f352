/* vmm_share_xproc: VMM shareable handles across processes (semantics.md
 * §11 "Physical sharing"): A exports a physical allocation, whitelists B's
 * bare tgid; C, not whitelisted, is refused; B imports the handle, maps it
 * and writes; A reads B's bytes through its own mapping; a handle exported
 * with pid validation disabled is imported by anyone. (issue #12 point 2)
 *
 * needs: emulator
 */
#include "node_proc.h"

#define SZ (2 * MiB)

static aclrtPhysicalMemProp prop(void) {
    aclrtPhysicalMemProp p;
    memset(&p, 0, sizeof p);
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.memAttr = ACL_HBM_MEM_HUGE;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    return p;
}

static unsigned char buf[SZ], out[SZ];

static void importer(int allowed) {
    char line[128];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    int32_t me = 0;
    CHECK_OK(aclrtDeviceGetBareTgid(&me));
    send_line(4, "%d", (int)me);
    recv_line(3, line, sizeof line);
    uint64_t sh = strtoull(line, NULL, 16);
    recv_line(3, line, sizeof line);
    uint64_t open_sh = strtoull(line, NULL, 16);
    aclrtDrvMemHandle h = NULL;
    if (!allowed) {
        CHECK_FAILS(aclrtMemImportFromShareableHandle(sh, 0, &h));
        CHECK_OK(aclrtMemImportFromShareableHandle(open_sh, 0, &h)); /* no pid validation */
        CHECK_OK(aclrtFreePhysical(h));
        send_line(4, "refused");
    } else {
        CHECK_OK(aclrtMemImportFromShareableHandle(sh, 0, &h));
        void *va = NULL;
        CHECK_OK(aclrtReserveMemAddress(&va, SZ, 0, NULL, 0));
        CHECK_OK(aclrtMapMem(va, SZ, 0, h, 0));
        for (size_t i = 0; i < SZ; i++) buf[i] = (unsigned char)(i * 7 + 3);
        CHECK_OK(aclrtMemcpy(va, SZ, buf, SZ, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_OK(aclrtUnmapMem(va));
        CHECK_OK(aclrtReleaseMemAddress(va));
        CHECK_OK(aclrtFreePhysical(h));
        send_line(4, "written");
    }
    recv_line(3, line, sizeof line); /* "bye" */
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
}

int main(int argc, char **argv) {
    if (argc > 1) {
        importer(strcmp(argv[1], "allowed") == 0);
        return 0;
    }
    char line[128];
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtPhysicalMemProp p = prop();
    aclrtDrvMemHandle h = NULL, h2 = NULL;
    CHECK_OK(aclrtMallocPhysical(&h, SZ, &p, 0));
    CHECK_OK(aclrtMallocPhysical(&h2, SZ, &p, 0));
    uint64_t sh = 0, open_sh = 0;
    CHECK_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &sh));
    CHECK_OK(aclrtMemExportToShareableHandle(h2, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &open_sh));

    struct child a = spawn_child("allowed"), c = spawn_child("stranger");
    recv_line(a.from, line, sizeof line);
    int32_t apid = atoi(line);
    recv_line(c.from, line, sizeof line);
    CHECK_OK(aclrtMemSetPidToShareableHandle(sh, &apid, 1));
    send_line(a.to, "%llx", (unsigned long long)sh);
    send_line(a.to, "%llx", (unsigned long long)open_sh);
    send_line(c.to, "%llx", (unsigned long long)sh);
    send_line(c.to, "%llx", (unsigned long long)open_sh);
    recv_line(c.from, line, sizeof line);
    CHECK(strcmp(line, "refused") == 0);
    recv_line(a.from, line, sizeof line);
    CHECK(strcmp(line, "written") == 0);

    void *va = NULL;
    CHECK_OK(aclrtReserveMemAddress(&va, SZ, 0, NULL, 0));
    CHECK_OK(aclrtMapMem(va, SZ, 0, h, 0));
    CHECK_OK(aclrtMemcpy(out, SZ, va, SZ, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < SZ; i++) buf[i] = (unsigned char)(i * 7 + 3);
    CHECK(memcmp(buf, out, SZ) == 0); /* the importer's bytes */
    send_line(a.to, "bye");
    send_line(c.to, "bye");
    CHECK_EQ(wait_child(a), 0);
    CHECK_EQ(wait_child(c), 0);
    CHECK_OK(aclrtUnmapMem(va));
    CHECK_OK(aclrtReleaseMemAddress(va));
    CHECK_OK(aclrtFreePhysical(h));
    CHECK_OK(aclrtFreePhysical(h2));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
