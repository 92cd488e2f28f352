/* init_leak_pool_ri: with NPUEMU_LEAK_CHECK=1, aclFinalize also lists the
 * memory pools and pool blocks, imported shareable handles and model run
 * instances the application left alive — instances included, although
 * aclFinalize destroys them before the report is made. */
/* needs: emulator */
/* env: NPUEMU_SOC=Ascend910B3 NPUEMU_DEVICES=1 NPUEMU_LEAK_CHECK=1 */
#include "rt_util.h"

#include <stdio.h>
#include <string.h>

#include "acl/acl_rt_memory_soma.h"

int main(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));

    /* A pool with one block still allocated, and one with none. */
    aclrtMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    props.maxSize = 16u << 20;
    aclrtMemPool pool = NULL, gone = NULL;
    CHECK_OK(aclrtMemPoolCreate(&pool, &props));
    CHECK_OK(aclrtMemPoolCreate(&gone, &props));
    CHECK_OK(aclrtMemPoolDestroy(gone));
    void *blk = NULL;
    CHECK_OK(aclrtMemPoolMallocAsync(&blk, 4096, pool, NULL));

    /* An allocation shared with and imported by this process. */
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof prop);
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    aclrtDrvMemHandle h = NULL, imp = NULL;
    CHECK_OK(aclrtMallocPhysical(&h, 2u << 20, &prop, 0));
    uint64_t sh = 0;
    CHECK_OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &sh));
    CHECK_OK(aclrtMemImportFromShareableHandle(sh, 0, &imp));
    CHECK_OK(aclrtFreePhysical(h)); /* the original is released, the import is not */

    /* A model run instance left alive. */
    aclmdlRI ri = NULL;
    CHECK_OK(aclmdlRIBuildBegin(&ri, 0));

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
    char want[4][96];
    snprintf(want[0], sizeof want[0], "device 0 memory pool %p", (void *)pool);
    snprintf(want[1], sizeof want[1], "device 0 pool block %p: 4096 bytes", blk);
    snprintf(want[2], sizeof want[2], "device 0 physical memory handle %p: imported", (void *)imp);
    snprintf(want[3], sizeof want[3], "device 0 model run instance %p", (void *)ri);
    for (int i = 0; i < 4; i++) {
        if (strstr(out, want[i]) == NULL) FAIL("leak report lacks \"%s\":\n%s", want[i], out);
    }
    char no[96];
    snprintf(no, sizeof no, "%p", (void *)gone);
    if (strstr(out, no) != NULL) FAIL("leak report lists the destroyed pool %s:\n%s", no, out);
    /* device, context, default stream, pool, block, imported handle, RI. */
    int lines = 0;
    for (const char *q = out; (q = strstr(q, "\n  ")) != NULL; q++) lines++;
    CHECK_EQ(lines, 7);
    return 0;
}
