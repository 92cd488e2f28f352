/* dcmi_vnpu_limits: a device split into vNPUs from the documented A2 templates
 * (vir10_3c_32g, vir05_1c_16g on an Ascend910B3); a process bound to a
 * vNPU sees its share in every query and is limited to it; a process of
 * the whole device sees the rest used (issue #12 point 4, docs/node.md
 * "vNPUs").
 *
 * needs: emulator
 * env: NPUEMU_SOC=Ascend910B3 NPUEMU_VNPUS=0:vir10_3c_32g,0:vir05_1c_16g
 */
#include "node_proc.h"

static void bound(void) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    int64_t v = 0;
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    CHECK_EQ(v, 10);
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &v));
    CHECK_EQ(v, 3);
    size_t freeb = 0, total = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    CHECK_EQ(total, 30720ull * MiB); /* the template's carved memory */
    CHECK_EQ(freeb, total);
    void *p = NULL, *q = NULL;
    CHECK_ERR(aclrtMalloc(&p, 31 * GiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK_OK(aclrtMalloc(&p, 20 * GiB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERR(aclrtMalloc(&q, 20 * GiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    CHECK(total - freeb >= 20 * GiB && total - freeb < 21 * GiB);
    send_line(4, "holding");
    char line[64];
    recv_line(3, line, sizeof line);
    CHECK_OK(aclrtFree(p));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
}

int main(int argc, char **argv) {
    if (argc > 1) {
        bound();
        return 0;
    }
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    int64_t v = 0;
    CHECK_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    CHECK_EQ(v, 20); /* the whole device */

    /* The first vNPU of physical device 0 has vdev id 100 + 16*0 + 0. */
    CHECK_EQ(setenv("NPUEMU_VNPU", "100", 1), 0);
    struct child c = spawn_child("bound");
    unsetenv("NPUEMU_VNPU");
    char line[64];
    recv_line(c.from, line, sizeof line);
    size_t freeb = 0, total = 0;
    CHECK_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
    CHECK(total - freeb >= 20 * GiB); /* the vNPU's memory is the device's */
    send_line(c.to, "done");
    CHECK_EQ(wait_child(c), 0);

    /* A vNPU that does not exist is refused with a message. */
    CHECK_EQ(setenv("NPUEMU_VNPU", "115", 1), 0);
    struct child bad = spawn_child("bound");
    CHECK(wait_child(bad) != 0);
    unsetenv("NPUEMU_VNPU");
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}
