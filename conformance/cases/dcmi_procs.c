/* dcmi_procs: DCMI answers match the node while processes allocate and
 * die (issue #12 point 6; dcmi-api.md §6.14, §6.16, §6.29, §6.31): a child
 * that holds device memory is listed by dcmi_get_device_resource_info with
 * its host pid and bytes, counts in the HBM used, blocks a reset and a vNPU
 * split of its chip; after kill -9 it is gone at once and its memory no
 * longer counts. Then vNPUs are created, queried and destroyed on a free chip.
 *
 * The parent links only libdcmi.so (the plain-C reader); the child is this
 * program re-executed with the runtime preloaded, a fresh process.
 *
 * needs: emulator
 * link: -ldcmi
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "dcmi_interface_api.h"

#define CARD 1
#define HOLD (256ull << 20)

static unsigned long long used_mb(int card) {
    struct dcmi_hbm_info h;
    CHECK_EQ(dcmi_get_device_hbm_info(card, 0, &h), DCMI_OK);
    return h.memory_usage;
}

/* listed returns the bytes DCMI reports for pid on card, or -1. */
static long long listed(int card, int pid) {
    struct dcmi_proc_mem_info procs[32];
    int n = -1;
    CHECK_EQ(dcmi_get_device_resource_info(card, 0, procs, &n), DCMI_OK);
    CHECK(n >= 0 && n <= 32);
    for (int i = 0; i < n; i++)
        if (procs[i].proc_id == pid) return (long long)procs[i].proc_mem_usage;
    return -1;
}

static pid_t child_pid;

/* kill_child: a failed check must not leave the child holding the
 * runner's pipes. */
static void kill_child(void) {
    if (child_pid > 0) kill(child_pid, SIGKILL);
}

static void child(int ready_fd, int hold_fd) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    void *acl = dlopen("libascendcl.so", RTLD_NOW | RTLD_GLOBAL); /* the preloaded one */
    if (acl == NULL) {
        fprintf(stderr, "child: %s\n", dlerror());
        _exit(2);
    }
    aclError (*init)(const char *) = (aclError(*)(const char *))dlsym(acl, "aclInit");
    aclError (*set)(int32_t) = (aclError(*)(int32_t))dlsym(acl, "aclrtSetDevice");
    aclError (*alloc)(void **, size_t, aclrtMemMallocPolicy) =
        (aclError(*)(void **, size_t, aclrtMemMallocPolicy))dlsym(acl, "aclrtMalloc");
    aclError (*info)(aclrtMemAttr, size_t *, size_t *) =
        (aclError(*)(aclrtMemAttr, size_t *, size_t *))dlsym(acl, "aclrtGetMemInfo");
    const char *(*errmsg)(void) = (const char *(*)(void))dlsym(acl, "aclGetRecentErrMsg");
    void *p = NULL;
    size_t free_b = 0, total_b = 0;
    if (init(NULL) != ACL_SUCCESS || set(CARD) != ACL_SUCCESS || alloc(&p, HOLD, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        info(ACL_HBM_MEM, &free_b, &total_b) != ACL_SUCCESS) {
        fprintf(stderr, "child: %s\n", errmsg());
        _exit(2);
    }
    unsigned long long msg[2] = {free_b, total_b};
    if (write(ready_fd, msg, sizeof msg) != sizeof msg) _exit(3);
    char c;
    for (;;) (void)!read(hold_fd, &c, 1); /* held until killed */
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "child") == 0) child(atoi(argv[2]), atoi(argv[3]));
    char node[64], cmd[640];
    snprintf(node, sizeof node, "/tmp/npuemu-dcmi-procs-%d", (int)getpid());
    setenv("NPUEMU_NODE", node, 1);
    unsetenv("NPUEMU_DEVICES"); /* the default node: 8 x Ascend910B3 */
    unsetenv("NPUEMU_SOC");
    unsetenv("NPUEMU_CONFIG");
    CHECK_EQ(dcmi_init(), DCMI_OK);
    unsigned long long idle = used_mb(CARD);

    int ready[2], hold[2];
    CHECK(pipe(ready) == 0 && pipe(hold) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(ready[0]);
        close(hold[1]);
        char a[16], b[16];
        snprintf(a, sizeof a, "%d", ready[1]);
        snprintf(b, sizeof b, "%d", hold[0]);
        setenv("LD_PRELOAD", "libascendcl.so", 1);
        execl("/proc/self/exe", argv[0], "child", a, b, (char *)NULL);
        _exit(4);
    }
    child_pid = pid;
    atexit(kill_child);
    close(ready[1]);
    close(hold[0]);
    unsigned long long msg[2];
    if (read(ready[0], msg, sizeof msg) != sizeof msg) {
        int st = 0;
        waitpid(pid, &st, 0);
        FAIL("child did not allocate (exit status %d)", WEXITSTATUS(st));
    }

    /* while the child holds memory */
    long long bytes = listed(CARD, pid);
    CHECK(bytes >= (long long)HOLD);
    unsigned long long busy = used_mb(CARD);
    CHECK(busy >= idle + (HOLD >> 20));
    /* DCMI's used + the runtime's free = the nominal size (MB rounding) */
    struct dcmi_hbm_info h;
    CHECK_EQ(dcmi_get_device_hbm_info(CARD, 0, &h), DCMI_OK);
    long long diff = (long long)(h.memory_size - h.memory_usage) - (long long)(msg[0] >> 20);
    if (diff < -1 || diff > 1)
        FAIL("DCMI free %llu MB, aclrtGetMemInfo free %llu MB", h.memory_size - h.memory_usage, msg[0] >> 20);
    CHECK_EQ(listed(CARD + 1, pid), -1); /* nothing on the chip it did not use */
    CHECK_EQ(dcmi_set_device_reset(CARD, 0, INBAND_CHANNEL), DCMI_ERR_CODE_RESOURCE_OCCUPIED);
    struct dcmi_create_vdev_res_stru req;
    struct dcmi_create_vdev_out out;
    memset(&req, 0, sizeof req);
    req.vdev_id = req.vfg_id = 0xFFFFFFFFu;
    snprintf(req.template_name, sizeof req.template_name, "vir10_3c_32g");
    CHECK_EQ(dcmi_create_vdevice(CARD, 0, &req, &out), DCMI_ERR_CODE_RESOURCE_OCCUPIED);

    /* npu-smi shows the same process (emu/bin next to emu/lib) */
    const char *ld = getenv("LD_LIBRARY_PATH");
    if (ld != NULL) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s", ld);
        dir[strcspn(dir, ":")] = '\0';
        snprintf(cmd, sizeof cmd, "%s/../bin/npu-smi info", dir);
        FILE *f = popen(cmd, "r");
        CHECK(f != NULL);
        char line[256], want[32];
        int found = 0;
        snprintf(want, sizeof want, "| %d", (int)pid);
        while (fgets(line, sizeof line, f) != NULL)
            if (strncmp(line, "| 1       0", 11) == 0 && strstr(line + 28, want) == line + 28) found = 1;
        CHECK(pclose(f) == 0);
        CHECK(found);
    }

    /* kill -9: gone at once, without anyone reclaiming */
    CHECK(kill(pid, SIGKILL) == 0);
    CHECK(waitpid(pid, NULL, 0) == pid);
    child_pid = 0;
    CHECK_EQ(listed(CARD, pid), -1);
    CHECK_EQ(used_mb(CARD), idle);
    CHECK_EQ(dcmi_set_device_reset(CARD, 0, INBAND_CHANNEL), DCMI_OK);

    /* vNPUs on a free chip: ids 100 + 16*phy + k, listed, queried, destroyed */
    const int vc = 2;
    CHECK_EQ(dcmi_create_vdevice(vc, 0, &req, &out), DCMI_OK);
    CHECK_EQ(out.vdev_id, 100 + 16 * vc);
    unsigned int first = out.vdev_id;
    CHECK_EQ(dcmi_create_vdevice(vc, 0, &req, &out), DCMI_OK);
    CHECK_EQ(out.vdev_id, first + 1);
    CHECK_EQ(dcmi_create_vdevice(vc, 0, &req, &out), DCMI_ERR_CODE_RESOURCE_OCCUPIED); /* 20 cores are split */
    struct dcmi_soc_total_resource tot;
    unsigned int size = sizeof tot;
    CHECK_EQ(dcmi_get_device_info(vc, 0, DCMI_MAIN_CMD_VDEV_MNG, DCMI_VMNG_SUB_CMD_GET_TOTAL_RESOURCE, &tot, &size), DCMI_OK);
    CHECK_EQ(tot.vdev_num, 2);
    CHECK(tot.vdev_id[0] + tot.vdev_id[1] == 2 * first + 1);
    CHECK(tot.computing.aic == 20.0f);
    struct dcmi_soc_free_resource fr;
    size = sizeof fr;
    CHECK_EQ(dcmi_get_device_info(vc, 0, DCMI_MAIN_CMD_VDEV_MNG, DCMI_VMNG_SUB_CMD_GET_FREE_RESOURCE, &fr, &size), DCMI_OK);
    CHECK(fr.computing.aic == 0.0f);
    struct dcmi_vdev_query_stru q;
    memset(&q, 0, sizeof q);
    q.vdev_id = first;
    size = sizeof q;
    CHECK_EQ(dcmi_get_device_info(vc, 0, DCMI_MAIN_CMD_VDEV_MNG, DCMI_VMNG_SUB_CMD_GET_VDEV_RESOURCE, &q, &size), DCMI_OK);
    CHECK(strcmp(q.query_info.name, "vir10_3c_32g") == 0);
    CHECK(q.query_info.computing.aic == 10.0f);
    CHECK_EQ(q.query_info.computing.memory_size, 30720);
    CHECK_EQ(dcmi_set_destroy_vdevice(vc, 0, first), DCMI_OK);
    CHECK_EQ(dcmi_set_destroy_vdevice(vc, 0, first), DCMI_ERR_CODE_INVALID_PARAMETER);
    CHECK_EQ(dcmi_set_destroy_vdevice(vc, 0, first + 1), DCMI_OK);
    size = sizeof tot;
    CHECK_EQ(dcmi_get_device_info(vc, 0, DCMI_MAIN_CMD_VDEV_MNG, DCMI_VMNG_SUB_CMD_GET_TOTAL_RESOURCE, &tot, &size), DCMI_OK);
    CHECK_EQ(tot.vdev_num, 0);

    snprintf(cmd, sizeof cmd, "rm -rf %s", node);
    CHECK(system(cmd) == 0);
    printf("dcmi_procs: ok (child %d held %lld bytes)\n", (int)pid, bytes);
    return 0;
}
