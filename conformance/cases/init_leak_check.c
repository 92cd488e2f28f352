/* init_leak_check: with NPUEMU_LEAK_CHECK=1, aclFinalize lists on stderr the
 * objects the application left alive, notifies, labels and VMM memory
 * included. */
/* needs: emulator */
/* env: NPUEMU_SOC=Ascend950PR_9599 NPUEMU_DEVICES=1 NPUEMU_LEAK_CHECK=1 */
#include "rt_util.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtNotify nt = NULL;
    CHECK_OK(aclrtCreateNotify(&nt, ACL_NOTIFY_DEFAULT));
    aclrtCntNotify cn = NULL;
    CHECK_OK(aclrtCntNotifyCreate(&cn, 0));
    aclrtLabel label = NULL;
    CHECK_OK(aclrtCreateLabel(&label));
    aclrtLabelList list = NULL;
    CHECK_OK(aclrtCreateLabelList(&label, 1, &list));
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof prop);
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    aclrtDrvMemHandle h = NULL;
    CHECK_OK(aclrtMallocPhysical(&h, 2u << 20, &prop, 0));
    void *va = NULL;
    CHECK_OK(aclrtReserveMemAddress(&va, 2u << 20, 0, NULL, 0));
    /* Released objects are not reported. */
    aclrtNotify gone = NULL;
    CHECK_OK(aclrtCreateNotify(&gone, ACL_NOTIFY_DEFAULT));
    CHECK_OK(aclrtDestroyNotify(gone));

    /* Capture stderr around aclFinalize. */
    char path[32];
    rt_write_temp(path, "");
    fflush(stderr);
    int saved = dup(2);
    CHECK(saved >= 0);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    CHECK(dup2(fileno(f), 2) == 2);
    aclError e = aclFinalize();
    fflush(stderr);
    CHECK(dup2(saved, 2) == 2);
    close(saved);
    fclose(f);
    CHECK_EQ(e, ACL_SUCCESS);

    static char out[8192];
    f = fopen(path, "r");
    CHECK(f != NULL);
    size_t len = fread(out, 1, sizeof out - 1, f);
    out[len] = '\0';
    fclose(f);
    unlink(path);
    const char *want[] = {"still alive", "device 0 device", "primary context", "default stream",
                          "device 0 notify", "device 0 cnt notify", "device 0 label ",
                          "device 0 label list", "device 0 physical memory",
                          "process address reservation"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (strstr(out, want[i]) == NULL) FAIL("leak report lacks %s:\n%s", want[i], out);
    }
    /* One line per object: device, context, stream, notify, cnt notify,
     * label, label list, physical handle, reservation. */
    int lines = 0;
    for (const char *q = out; (q = strstr(q, "\n  ")) != NULL; q++) lines++;
    CHECK_EQ(lines, 9);
    return 0;
}
