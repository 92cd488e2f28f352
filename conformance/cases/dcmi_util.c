/* dcmi_util: utilization comes from the node's busy counters (node.md:
 * busy_ns per engine in core-nanoseconds on the device clock clock_ns):
 * DCMI reports busy time over elapsed device time between two queries, per
 * engine, and the clock, temperature and power follow the AI Core load
 * (dcmi-api.md §6.13, §6.17, §6.18; docs/dcmi.md).
 *
 * needs: emulator
 * link: -ldcmi
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "dcmi_interface_api.h"
#include "npuemu/node_format.h"

#define CHIP 2
#define SEC 1000000000ull

static unsigned int util(int type) {
    unsigned int u = 999;
    CHECK_EQ(dcmi_get_device_utilization_rate(CHIP, 0, type, &u), DCMI_OK);
    return u;
}

/* advance moves the chip's device clock by dt and each engine's busy time
 * by pct percent of its units. */
static void advance(struct npuemu_node_device *d, uint64_t dt, unsigned aic, unsigned vec, unsigned cpu) {
    atomic_fetch_add((_Atomic uint64_t *)&d->busy_ns[NPUEMU_NODE_ENGINE_AICORE], dt * d->aicore_count * aic / 100);
    atomic_fetch_add((_Atomic uint64_t *)&d->busy_ns[NPUEMU_NODE_ENGINE_VECTOR], dt * d->vector_count * vec / 100);
    atomic_fetch_add((_Atomic uint64_t *)&d->busy_ns[NPUEMU_NODE_ENGINE_AICPU], dt * d->aicpu_count * cpu / 100);
    atomic_fetch_add((_Atomic uint64_t *)&d->clock_ns, dt);
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "attach") == 0) { /* NPUEMU_NODE from the parent */
        aclError (*init)(const char *) = (aclError(*)(const char *))dlsym(RTLD_DEFAULT, "aclInit");
        aclError (*set)(int32_t) = (aclError(*)(int32_t))dlsym(RTLD_DEFAULT, "aclrtSetDevice");
        aclError (*alloc)(void **, size_t, aclrtMemMallocPolicy) =
            (aclError(*)(void **, size_t, aclrtMemMallocPolicy))dlsym(RTLD_DEFAULT, "aclrtMalloc");
        void *p;
        return init != NULL && set != NULL && alloc != NULL && init(NULL) == ACL_SUCCESS && set(0) == ACL_SUCCESS &&
                       alloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS
                   ? 0
                   : 1;
    }
    char node[64];
    snprintf(node, sizeof node, "/tmp/npuemu-dcmi-util-%d", (int)getpid());
    setenv("NPUEMU_NODE", node, 1);
    unsetenv("NPUEMU_DEVICES"); /* the default node: 8 x Ascend910B3 */
    unsetenv("NPUEMU_SOC");
    unsetenv("NPUEMU_CONFIG");
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        setenv("LD_PRELOAD", "libascendcl.so", 1);
        execl("/proc/self/exe", argv[0], "attach", (char *)NULL);
        _exit(4);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK_EQ(dcmi_init(), DCMI_OK);

    char path[128];
    snprintf(path, sizeof path, "%s/node", node);
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    struct stat sb;
    CHECK(fstat(fd, &sb) == 0);
    unsigned char *b = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    CHECK(b != MAP_FAILED);
    struct npuemu_node_header *h = (void *)b;
    struct npuemu_node_device *d = (struct npuemu_node_device *)(b + h->devices_off) + CHIP;

    /* idle: 0 %, idle clock, idle temperature and power */
    CHECK_EQ(util(DCMI_UTILIZATION_RATE_AICORE), 0);
    unsigned int f = 0;
    int t_idle = 0, p_idle = 0, t = 0, p = 0;
    CHECK_EQ(dcmi_get_device_frequency(CHIP, 0, DCMI_FREQ_AICORE_CURRENT_, &f), DCMI_OK);
    CHECK_EQ(f, 800);
    CHECK_EQ(dcmi_get_device_temperature(CHIP, 0, &t_idle), DCMI_OK);
    CHECK_EQ(dcmi_get_device_power_info(CHIP, 0, &p_idle), DCMI_OK);

    /* Each query below follows a step of the device clock, so it reads the
     * window that step closed, whatever the host's timing. */
    advance(d, SEC, 50, 20, 10);
    struct dcmi_multi_utilization_info mu;
    CHECK_EQ(dcmi_get_device_multi_utilization_rate(CHIP, 0, &mu), DCMI_OK);
    CHECK_EQ(mu.aicore_util, 50);
    CHECK_EQ(mu.aiv_util, 20);
    CHECK_EQ(mu.npu_util, 50);
    advance(d, SEC, 0, 0, 10);
    CHECK_EQ(util(DCMI_UTILIZATION_RATE_AICPU), 10);
    advance(d, 2 * SEC, 25, 0, 0);
    CHECK_EQ(util(DCMI_UTILIZATION_RATE_AICORE), 25);
    advance(d, SEC, 100, 100, 100);
    CHECK_EQ(util(DCMI_UTILIZATION_RATE_VECTORCORE), 100);
    advance(d, SEC, 80, 0, 0);
    CHECK_EQ(dcmi_get_device_frequency(CHIP, 0, DCMI_FREQ_AICORE_CURRENT_, &f), DCMI_OK);
    CHECK_EQ(f, 1800);
    advance(d, SEC, 80, 0, 0);
    CHECK_EQ(dcmi_get_device_temperature(CHIP, 0, &t), DCMI_OK);
    CHECK(t > t_idle);
    advance(d, SEC, 80, 0, 0);
    CHECK_EQ(dcmi_get_device_power_info(CHIP, 0, &p), DCMI_OK);
    CHECK(p > p_idle);
    /* the other chips stayed idle */
    unsigned int other = 99;
    CHECK_EQ(dcmi_get_device_utilization_rate(CHIP + 1, 0, DCMI_UTILIZATION_RATE_AICORE, &other), DCMI_OK);
    CHECK_EQ(other, 0);

    munmap(b, (size_t)sb.st_size);
    close(fd);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", node);
    CHECK(system(cmd) == 0);
    printf("dcmi_util: ok\n");
    return 0;
}
